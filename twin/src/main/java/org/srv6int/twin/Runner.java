// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleConsumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.twin.control.AppControl;
import org.srv6int.twin.control.GlobalControl;
import org.srv6int.twin.control.NodeAgentOnWorker;
import org.srv6int.twin.control.NodePods;
import org.srv6int.twin.control.SimulatedPlatform;
import org.srv6int.twin.control.SimulatedTime;
import org.srv6int.twin.dataplane.Dataplane;
import org.srv6int.twin.control.Vpa;
import org.srv6int.twin.host.Workers;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;

/** Runs one experiment under one policy in simulated time, 1 ms ticks, single-threaded. */
public final class Runner {
    /** Tick. */
    public static final double DT_S = 0.001;
    /** Timeline bucket. */
    public static final double BUCKET_S = 0.1;
    private static final int TICKS_PER_BUCKET = (int) Math.round(BUCKET_S / DT_S);

    /** The default replica platform: a simulated Kubernetes (pods Ready after 3 s of simulated time). */
    public static final Function<AppControl, ReplicaPlatform> SIMULATED_K8S =
            c -> new SimulatedPlatform(c.events(), c.fabric().hosts(), c::need);

    private Runner() {
    }

    /**
     * Runs on the default parts: a simulated Kubernetes and emulated switches of the paper's
     * testbed.
     *
     * @param exp the experiment (fresh; it is consumed)
     * @param policy which controllers run
     * @param seed random seed (same seed, same result)
     * @param progress receives simulated seconds done, may be null
     * @return rows and summaries
     */
    public static RunResult run(Experiment exp, Policy policy, long seed, DoubleConsumer progress) {
        try (Dataplane switches = Dataplanes.create("emulated", exp.topology())) {
            return run(exp, policy, seed, SIMULATED_K8S, switches, progress);
        }
    }

    /**
     * Runs.
     *
     * @param exp the experiment (fresh; it is consumed)
     * @param policy which controllers run
     * @param seed random seed (same seed, same result)
     * @param platforms builds the global loop's replica platform for the run's app core (its
     *                  creator closes it: a real control plane outlives one run)
     * @param dataplane switches to program and trace (emulated or BMv2; the caller closes them)
     * @param progress receives simulated seconds done, may be null
     * @return rows and summaries
     */
    public static RunResult run(Experiment exp, Policy policy, long seed,
                                Function<AppControl, ReplicaPlatform> platforms, Dataplane dataplane,
                                DoubleConsumer progress) {
        return run(exp, policy, seed, platforms, dataplane, progress, 1);
    }

    /**
     * Runs with the app on a cluster of ONOS instances (docs/cluster.md, docs/twin.md).
     *
     * @param exp the experiment (fresh; it is consumed)
     * @param policy which controllers run
     * @param seed random seed (same seed, same result)
     * @param platforms builds the global loop's replica platform for the run's app core
     * @param dataplane switches to program and trace (the caller closes them)
     * @param progress receives simulated seconds done, may be null
     * @param onosInstances ONOS instances (1: a single instance)
     * @return rows and summaries
     */
    public static RunResult run(Experiment exp, Policy policy, long seed,
                                Function<AppControl, ReplicaPlatform> platforms, Dataplane dataplane,
                                DoubleConsumer progress, int onosInstances) {
        try (Workers workers = Workers.create(exp.fabric().hosts())) {
            return run(exp, policy, seed, workers, platforms, dataplane, progress, onosInstances);
        }
    }

    private static RunResult run(Experiment exp, Policy policy, long seed, Workers workers,
                                 Function<AppControl, ReplicaPlatform> platforms, Dataplane dataplane,
                                 DoubleConsumer progress, int onosInstances) {
        Fabric fabric = exp.fabric();
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + exp.label().hashCode());
        Map<String, Double> vnfBound = new LinkedHashMap<>();
        for (Chain c : fabric.chains()) {
            for (String v : c.vnfs()) {
                vnfBound.put(v, c.vnfBoundUs());
            }
        }
        Map<String, Fabric.DetectionSink> detections = new LinkedHashMap<>();
        double[] clock = {0};
        List<String> agentEvents = new ArrayList<>();
        // Global part (app core, collector, loop, platform); the local loops are the detection sinks.
        AppControl control = new AppControl(fabric, exp.topology(), exp.replicaTemplates(), dataplane,
                () -> clock[0]);
        List<SimulatedTime> timed = new ArrayList<>();
        ReplicaPlatform platform = null;
        GlobalControl global = null;
        Vpa vpa = null;
        if (policy == Policy.OURS) {
            platform = platforms.apply(control);
            if (platform instanceof SimulatedTime) {
                timed.add((SimulatedTime) platform);
            }
            // The app's defaults (demand from the healthy tail, docs/global-loop.md; its history of 256
            // decisions, escalations bounded apart so they never push a scale-out out); t-hat per scenario.
            global = new GlobalControl(control, platform, LoopParams.builder()
                    .tHatNanos(Math.round(exp.tHatS() * TimeUnit.SECONDS.toNanos(1))).build(), () -> clock[0],
                    onosInstances);
            for (Host h : fabric.hosts()) {
                ToDoubleFunction<String> bound = id -> vnfBound.get(h.instance(id).vnf());
                // local loop: the node agent with its actuators on the worker's kernel files; its
                // escalations go to the app's loop as its POST to loop/escalations would
                NodeAgentOnWorker agent = new NodeAgentOnWorker(workers.get(h.name()), bound, control::key,
                        global::escalate, () -> Math.round(clock[0] * 1e9), () -> clock[0], agentEvents);
                if (platform instanceof NodePods) { // what the agent's informer would list
                    agent.follow((NodePods) platform);
                }
                agent.reportPoolsTo(control::acceptPoolReport);
                detections.put(h.name(), agent);
            }
            timed.add(global);
        } else if (policy == Policy.VPA) {
            vpa = new Vpa(workers.all());
        }
        RunResult out = new RunResult(exp.label());
        long ticks = Math.round(exp.durationS() / DT_S);
        for (long k = 0; k < ticks; k++) {
            double now = k * DT_S;
            clock[0] = now;
            workers.apply(); // the model takes every allocation from the workers' files
            fabric.tick(now, DT_S, rnd, detections, global == null ? null : global.ints());
            double next = (k + 1) * DT_S;
            clock[0] = next;
            for (SimulatedTime t : timed) {
                t.advanceTo(next);
            }
            if (vpa != null) {
                vpa.tick(next, DT_S);
            }
            if ((k + 1) % TICKS_PER_BUCKET == 0) {
                record(out, exp, next);
                if (progress != null) {
                    progress.accept(next);
                }
            }
        }
        summarize(out, exp, global == null ? Map.of() : global.triggers());
        out.events.addAll(control.events());
        out.events.addAll(agentEvents);
        if (global != null) {
            out.events.addAll(global.decisionEvents());
            out.collector.putAll(global.summary());
            // An exception above leaves the collector's daemon thread and sockets to the JVM's exit.
            global.close();
        }
        return out;
    }

    private static int readyReplicas(Fabric fabric, String vnf, double t) {
        int n = 0;
        for (VnfInstance i : fabric.instances()) {
            if (i.vnf().equals(vnf) && i.ready(t)) {
                n++;
            }
        }
        return n;
    }

    private static void record(RunResult out, Experiment exp, double t) {
        Fabric fabric = exp.fabric();
        for (Chain c : fabric.chains()) {
            double p95 = Percentile.of(fabric.drainE2e(c.id()), 0.95);
            double g = fabric.drainThroughputGbps(c.id());
            int replicas = 0;
            for (String v : c.vnfs()) {
                replicas = Math.max(replicas, readyReplicas(fabric, v, t));
            }
            out.rows.add(new RunResult.Row(t, out.chainKey(c.id()), p95, g, c.gbps(t - BUCKET_S / 2), replicas));
        }
        for (VnfInstance i : fabric.instances()) {
            double[] v = new double[Resource.values().length];
            for (Resource r : Resource.values()) {
                v[r.ordinal()] = i.allocation().get(r);
            }
            out.resources.add(new RunResult.ResourceRow(t, i.id(), v));
        }
    }

    private static void summarize(RunResult out, Experiment exp, Map<String, Double> triggers) {
        for (Chain c : exp.fabric().chains()) {
            RunResult.ChainSummary s = new RunResult.ChainSummary();
            s.sfc = out.chainKey(c.id());
            s.boundUs = c.boundUs();
            s.globalTriggerS = triggers.getOrDefault(c.id(), Double.NaN);
            double start = Double.NaN;
            RunResult.Row last = null;
            for (RunResult.Row r : out.rows) {
                if (!r.sfc.equals(s.sfc)) {
                    continue;
                }
                last = r;
                boolean bad = Double.isNaN(r.p95Us) || r.p95Us > c.boundUs();
                if (!Double.isNaN(r.p95Us)) {
                    s.maxP95Us = Math.max(s.maxP95Us, r.p95Us);
                }
                if (bad && Double.isNaN(start)) {
                    start = r.t - BUCKET_S;
                    if (Double.isNaN(s.firstViolationS)) {
                        s.firstViolationS = start;
                    }
                } else if (!bad && !Double.isNaN(start)) {
                    s.violations.add(new double[] {start, r.t - BUCKET_S});
                    start = Double.NaN;
                }
            }
            if (!Double.isNaN(start) && last != null) {
                s.violations.add(new double[] {start, last.t});
            } else if (!s.violations.isEmpty()) {
                s.recoveryS = s.violations.get(s.violations.size() - 1)[1];
            }
            s.finalReplicas = last == null ? 0 : last.replicas;
            Double step = exp.ramps().get(c.id());
            if (step != null) {
                s.maxThroughputGbps = rampMax(out.rows, s.sfc, c.boundUs(), step);
            }
            out.chains.put(s.sfc, s);
        }
    }

    /** Fig. 11: the largest step whose last second stayed within bound with under 1 % loss. */
    private static double rampMax(List<RunResult.Row> rows, String key, double boundUs, double stepS) {
        double best = 0;
        Map<Long, boolean[]> ok = new LinkedHashMap<>();
        Map<Long, double[]> rate = new LinkedHashMap<>();
        for (RunResult.Row r : rows) {
            if (!r.sfc.equals(key)) {
                continue;
            }
            double mid = r.t - BUCKET_S / 2;
            long step = (long) Math.floor(mid / stepS);
            if (mid - step * stepS < stepS - 1.0) {
                continue;
            }
            boolean good = !Double.isNaN(r.p95Us) && r.p95Us <= boundUs && r.gbps >= 0.99 * r.offeredGbps;
            ok.computeIfAbsent(step, x -> new boolean[] {true})[0] &= good;
            rate.put(step, new double[] {r.offeredGbps});
        }
        for (Map.Entry<Long, boolean[]> e : ok.entrySet()) {
            if (e.getValue()[0]) {
                best = Math.max(best, rate.get(e.getKey())[0]);
            }
        }
        return best;
    }
}
