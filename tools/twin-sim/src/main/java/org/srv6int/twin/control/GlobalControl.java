package org.srv6int.twin.control;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleSupplier;
import org.srv6int.app.api.LoopDecision;
import org.srv6int.app.loop.GlobalLoop;
import org.srv6int.app.loop.InventoryRouting;
import org.srv6int.app.loop.LoopClock;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.app.loop.ReplicaPlatform;
import org.srv6int.app.telemetry.CollectorCounters;
import org.srv6int.app.telemetry.TelemetrySnapshot;
import org.srv6int.twin.model.Fabric;

/**
 * The global closed loop of the {@code ours} policy, all of it the app's code: INT reports over
 * UDP into the app's collector ({@link TwinCollector}), a telemetry window every
 * {@code evaluationPeriodMs} of the app's netcfg (simulated time), the app's
 * {@link GlobalLoop} on the window's observations with the simulated clock, replicas through
 * the given {@link ReplicaPlatform} and routing through the app's inventory, placement and
 * flow programming ({@link AppControl#routing()}).
 */
public final class GlobalControl implements SimulatedTime, AutoCloseable {
    private final AppControl control;
    private final TwinCollector collector;
    private final GlobalLoop loop;
    private final double periodS;
    private double nextWindowS;

    /**
     * Starts the collector and the loop.
     *
     * @param control  the app core hosting the chains
     * @param platform where new replicas come from
     * @param params   the loop's parameters
     * @param nowS     simulated time, s
     */
    public GlobalControl(AppControl control, ReplicaPlatform platform, LoopParams params, DoubleSupplier nowS) {
        this.control = control;
        this.collector = new TwinCollector(control, () -> Math.round(nowS.getAsDouble() * 1e9));
        LoopClock clock = new LoopClock() {
            @Override
            public long nanoTime() {
                return Math.round(nowS.getAsDouble() * 1e9);
            }

            @Override
            public long currentTimeMillis() {
                return Math.round(nowS.getAsDouble() * 1e3);
            }
        };
        this.loop = new GlobalLoop(params, clock, platform, control.routing());
        this.periodS = control.app().config.app.evaluationPeriodMillis() / 1000.0;
        this.nextWindowS = periodS;
    }

    /** Where the model's INT samples go. */
    public Fabric.IntSink ints() {
        return collector;
    }

    /** Closes a telemetry window and runs one loop round when a window period has passed. */
    @Override
    public void advanceTo(double nowS) {
        if (nowS + 1e-9 < nextWindowS) {
            return;
        }
        nextWindowS += periodS;
        TelemetrySnapshot w = collector.window();
        loop.tick(InventoryRouting.observations(w, control.app().sfcs, control.app().inventory));
    }

    /** The loop's decisions, oldest first. */
    public List<LoopDecision> decisions() {
        return loop.history();
    }

    /** First scale-out decision per model chain id, s. */
    public Map<String, Double> triggers() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (LoopDecision d : loop.history()) {
            if (d.action() == LoopDecision.Action.SCALE_OUT) {
                out.putIfAbsent(control.chain(d.vnf()).id(), d.timeMillis() / 1000.0);
            }
        }
        return out;
    }

    /** The loop's decisions as event lines: time, action, vNF, inputs, outcome and detail. */
    public List<String> decisionEvents() {
        List<String> out = new ArrayList<>();
        for (LoopDecision d : loop.history()) {
            StringBuilder in = new StringBuilder();
            d.inputs().forEach((k, v) -> in.append(in.length() == 0 ? "" : ", ").append(k).append('=')
                    .append(String.format(Locale.ROOT, "%.4g", v)));
            out.add(String.format(Locale.ROOT, "%.1f s: loop %s %s (%s chain %s) replicas %d -> %d [%s] %s: %s",
                    d.timeMillis() / 1000.0, d.action(), d.vnf(), control.vnfName(d.vnf()),
                    control.chain(d.vnf()).id(), d.replicasBefore(), d.replicasAfter(), in, d.outcome(),
                    d.detail()));
        }
        return out;
    }

    /** Collector figures for summary.json: datagrams sent, lost on the socket, engine counters. */
    public Map<String, Object> summary() {
        collector.drain();
        CollectorCounters c = collector.counters();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reports_sent", collector.sent());
        m.put("reports_received", c.datagrams());
        m.put("reports_lost_on_socket", collector.lostOnSocket());
        m.put("reports_accepted", c.accepted());
        m.put("reports_lost_by_sequence", c.lost());
        m.put("int_entries_unmapped", c.unmappedEntries());
        m.put("reports_unknown_chain", c.unknownChain());
        m.put("bindings_refused", c.bindingsRefused());
        m.put("deterministic", collector.lostOnSocket() == 0);
        return m;
    }

    @Override
    public void close() {
        collector.close();
    }
}
