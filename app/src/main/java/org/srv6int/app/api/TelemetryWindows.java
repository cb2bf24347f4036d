// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.TelemetrySnapshot;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The collector's closed windows in full (per-replica packet counts included), for the global
 * loop. The narrower {@link org.srv6int.app.api.TelemetryService} serves REST and CLI.
 */
public interface TelemetryWindows {

    /**
     * Returns the last closed window.
     *
     * @return snapshot, empty before the first window closes
     */
    Optional<TelemetrySnapshot> latest();

    /**
     * Registers a consumer called (on the collector's window thread) after each window closes.
     *
     * @param consumer consumer
     */
    void addWindowConsumer(Consumer<TelemetrySnapshot> consumer);

    /**
     * Removes a consumer.
     *
     * @param consumer consumer
     */
    void removeWindowConsumer(Consumer<TelemetrySnapshot> consumer);

    /**
     * Returns each receive thread's counters since start (a racy but monotonic read that takes no
     * lock of the receive path).
     *
     * @return counters by receive thread
     */
    List<CollectorCounters> threadCounters();

    /**
     * Starts or stops handing sampled decoded reports to a tap (the per-report export); the
     * receive threads sample on their own and never wait for it.
     *
     * @param tap where sampled reports go, null to stop
     */
    void setReportTap(ReportTap tap);
}
