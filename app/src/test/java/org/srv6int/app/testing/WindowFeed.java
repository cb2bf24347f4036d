package org.srv6int.app.testing;

import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.ReportTap;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.TelemetryWindows;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The collector's window port fed by a test: the components that register as window consumers
 * get each window the test pushes, in the order they registered.
 */
public final class WindowFeed implements TelemetryWindows {

    /** The registered consumers. */
    public final List<Consumer<TelemetrySnapshot>> consumers = new CopyOnWriteArrayList<>();

    /**
     * Hands a closed window to every consumer.
     *
     * @param window the window
     */
    public void push(TelemetrySnapshot window) {
        consumers.forEach(c -> c.accept(window));
    }

    @Override
    public Optional<TelemetrySnapshot> latest() {
        return Optional.empty();
    }

    @Override
    public void addWindowConsumer(Consumer<TelemetrySnapshot> consumer) {
        consumers.add(consumer);
    }

    @Override
    public void removeWindowConsumer(Consumer<TelemetrySnapshot> consumer) {
        consumers.remove(consumer);
    }

    @Override
    public List<CollectorCounters> threadCounters() {
        return List.of();
    }

    /** The tap the per-report export set, null if none. */
    public volatile ReportTap tap;

    @Override
    public void setReportTap(ReportTap t) {
        tap = t;
    }
}
