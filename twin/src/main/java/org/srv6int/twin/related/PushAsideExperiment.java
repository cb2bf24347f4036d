// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.related;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.loop.ChainRouting;
import org.srv6int.app.loop.Colocation;
import org.srv6int.app.loop.GlobalLoop;
import org.srv6int.app.loop.LoopCore;
import org.srv6int.app.loop.LoopClock;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.app.loop.VnfObservation;

/**
 * CoCo's push-aside experiment (coco.txt V-B, Fig. 4 and 6) with the app's global loop in the
 * loop: the chain classifier &rarr; stateful payload analyser (SPA) &rarr; logger, the SPA and the
 * logger sharing worker w2; traffic steps from 100 to 150 kpps at 10 s and overloads the SPA.
 * Policy {@code pushaside} runs {@link GlobalLoop} with {@link LoopParams#pushAside()} on (the
 * logger moves to w1 and w2's node agent gives its CPU to the SPA), {@code scaleout} with it
 * off (a second SPA replica where the most CPU is free, as Algorithm 4 line 10 places it).
 *
 * <p>Real: the global loop, the push-aside planner and their decisions. Modelled here: pods
 * (Ready 3 s after scheduling, gone 0.5 s after deletion, as the twin's simulated platform),
 * each replica as a fluid queue served at its CPU times its per-core rate, a node agent that
 * every 0.5 s shares its node's CPU by need (request first, the rest to the short ones, up to
 * each pod's limit) and escalates to the global loop when its node has nothing left, and 20 us
 * per inter-node transfer on the chain's path. Deterministic: no random input.
 */
public final class PushAsideExperiment {

    /** Simulated run length, s. */
    public static final double DURATION_S = 40;
    /** When the traffic steps up, s. */
    public static final double STEP_AT_S = 10;
    static final double DT = 0.01;
    static final double WINDOW_S = 0.5;
    static final double AGENT_PERIOD_S = 0.5;
    static final double POD_START_S = 3;
    static final double POD_STOP_S = 0.5;
    static final double HOP_US = 20;
    static final double RING = 4096;
    static final long LMAX_NS = 1_000_000;

    private static final SfcId SFC = SfcId.of(1);
    static final VnfKey CLS = VnfKey.of(SFC, 0);
    static final VnfKey SPA = VnfKey.of(SFC, 1);
    static final VnfKey LOG = VnfKey.of(SFC, 2);

    /** One vNF's model: per-core rate, pod request and limit. */
    private static final class Def {
        final String name;
        final double ppsPerCore;
        final long requestMillis;
        final long limitMillis;

        Def(String name, double ppsPerCore, long requestMillis, long limitMillis) {
            this.name = name;
            this.ppsPerCore = ppsPerCore;
            this.requestMillis = requestMillis;
            this.limitMillis = limitMillis;
        }
    }

    private static final Map<VnfKey, Def> DEFS = Map.of(
            CLS, new Def("classifier", 400_000, 900, 2000),
            SPA, new Def("payload-analyser", 120_000, 1000, 2000),
            LOG, new Def("logger", 400_000, 500, 1000));

    /** Allocatable CPU of every worker, millicores. */
    static final long NODE_MILLIS = 1500;
    static final List<String> NODES = List.of("w1", "w2", "w3");

    private static final class Pod {
        final VnfKey vnf;
        final String id;
        final String node;
        final Def def;
        double readyAt;
        double goneAt = Double.NaN;
        CompletableFuture<ReplicaInfo> ready;
        CompletableFuture<Void> gone;
        boolean inGroup;
        double cores;
        double queue;
        double lambda;
        double p95s;
        double served;

        Pod(VnfKey vnf, String id, String node, double readyAt) {
            this.vnf = vnf;
            this.id = id;
            this.node = node;
            this.def = DEFS.get(vnf);
            this.readyAt = readyAt;
            this.cores = def.requestMillis / 1000.0;
        }
    }

    /** The outcome of one policy. */
    public static final class Result {
        /** Policy key. */
        public final String policy;
        /** Rows of the timeline, every 100 ms. */
        public final List<double[]> rows = new ArrayList<>();
        /** Seconds after the step with the SPA's p95 over its bound. */
        public double violationS;
        /** When the SPA was last over its bound, s (NaN if never). */
        public double recoveredAtS = Double.NaN;
        /** CPU requested by the chain's pods at the end, millicores. */
        public long cpuReservedMillis;
        /** Workers running a pod of the chain at the end. */
        public int nodesUsed;
        /** CPU requested over the time after the step, core-seconds. */
        public double reservedCoreSeconds;
        /** Mean end-to-end p95 over the last 10 s, us. */
        public double convergedE2eUs;
        /** SPA replicas at the end. */
        public int spaReplicas;
        /** The loop's decisions. */
        public final List<String> decisions = new ArrayList<>();

        Result(String policy) {
            this.policy = policy;
        }
    }

    /** The simulated world of one run: platform, routing and co-location view over the same pods. */
    private static final class World implements ReplicaPlatform, ChainRouting, Colocation, LoopClock {
        final Map<String, Pod> pods = new LinkedHashMap<>();
        final Map<String, Pod> byRequest = new HashMap<>();
        double now;
        int created;

        @Override
        public long nanoTime() {
            return Math.round(now * 1e9);
        }

        @Override
        public long currentTimeMillis() {
            return 1_700_000_000_000L + Math.round(now * 1e3);
        }

        long freeMillis(String node) {
            long used = 0;
            for (Pod p : pods.values()) {
                if (p.node.equals(node)) {
                    used += p.def.requestMillis;
                }
            }
            return NODE_MILLIS - used;
        }

        @Override
        public List<NodeResources> nodeFreeResources() {
            List<NodeResources> out = new ArrayList<>();
            for (String n : NODES) {
                out.add(new NodeResources(n, freeMillis(n), 1L << 32));
            }
            return out;
        }

        @Override
        public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
            Pod known = byRequest.get(vnf + "/" + requestId);
            if (known != null) {
                return known.ready;
            }
            if (freeMillis(node) < DEFS.get(vnf).requestMillis) {
                // What the scheduler says of a pinned pod that does not fit.
                return CompletableFuture.failedFuture(new IllegalStateException(
                        "0/1 nodes are available: Insufficient cpu on " + node));
            }
            Pod p = new Pod(vnf, DEFS.get(vnf).name + "-" + (++created), node, now + POD_START_S);
            p.ready = new CompletableFuture<>();
            pods.put(p.id, p);
            byRequest.put(vnf + "/" + requestId, p);
            return p.ready;
        }

        @Override
        public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
            Pod p = pods.get(replicaId);
            if (p == null) {
                return CompletableFuture.completedFuture(null);
            }
            p.inGroup = false;
            p.goneAt = now + POD_STOP_S;
            p.gone = new CompletableFuture<>();
            return p.gone;
        }

        /** Algorithm 4, line 10 as written: the node with the most free CPU, for each replica. */
        @Override
        public List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count) {
            List<String> out = new ArrayList<>();
            Map<String, Long> free = new TreeMap<>();
            for (NodeResources n : candidates) {
                free.put(n.node(), n.freeCpuMillis());
            }
            for (int i = 0; i < count; i++) {
                String best = null;
                for (Map.Entry<String, Long> e : free.entrySet()) {
                    if (best == null || e.getValue() > free.get(best)) {
                        best = e.getKey();
                    }
                }
                out.add(best);
                free.merge(best, -DEFS.get(vnf).requestMillis, Long::sum);
            }
            return out;
        }

        @Override
        public void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas) {
            for (ReplicaInfo r : replicas) {
                Pod p = pods.get(r.id());
                if (p != null) {
                    p.inGroup = true;
                }
            }
        }

        @Override
        public void drainReplica(VnfKey vnf, String replicaId) {
            Pod p = pods.get(replicaId);
            if (p != null) {
                p.inGroup = false;
            }
        }

        @Override
        public void removeReplica(VnfKey vnf, String replicaId) {
            // The pod is gone already (deleteReplica); nothing is left in the group.
        }

        @Override
        public Map<String, String> replicaNodes(VnfKey vnf) {
            Map<String, String> out = new TreeMap<>();
            for (Pod p : active(vnf)) {
                out.put(p.id, p.node);
            }
            return out;
        }

        @Override
        public long cpuRequestMillis(VnfKey vnf) {
            Def d = DEFS.get(vnf);
            return d == null ? 0 : d.requestMillis;
        }

        List<Pod> active(VnfKey vnf) {
            List<Pod> out = new ArrayList<>();
            for (Pod p : pods.values()) {
                if (p.vnf.equals(vnf) && p.inGroup) {
                    out.add(p);
                }
            }
            return out;
        }
    }

    private PushAsideExperiment() {
    }

    /**
     * Runs one policy.
     *
     * @param pushAside true: push-aside before scale-out; false: immediate scale-out
     * @return the run's figures
     */
    public static Result run(boolean pushAside) {
        World w = new World();
        Result res = new Result(pushAside ? "pushaside" : "scaleout");
        for (Object[] init : new Object[][] {{CLS, "w1"}, {SPA, "w2"}, {LOG, "w2"}}) {
            VnfKey k = (VnfKey) init[0];
            Pod p = new Pod(k, DEFS.get(k).name + "-0", (String) init[1], 0);
            p.ready = CompletableFuture.completedFuture(new ReplicaInfo(p.id, p.node, "10.0.0.1"));
            p.inGroup = true;
            w.pods.put(p.id, p);
        }
        LoopParams params = LoopParams.builder().pushAside(pushAside).build();
        // the loop core as ONOS runs it, this world's observations each window (no chain services:
        // no failure detection, no interference learning)
        List<List<VnfObservation>> window = new ArrayList<>(List.of(List.of()));
        LoopCore core = LoopCore.builder().clock(w).platform(w).routing(w).colocation(w).params(params)
                .observations(s -> window.get(0)).build();
        GlobalLoop loop = core.loop();
        Map<VnfKey, double[]> win = new HashMap<>();
        Map<String, Long> served = new HashMap<>();
        boolean[] escalated = new boolean[1];
        int steps = (int) Math.round(DURATION_S / DT);
        int perWindow = (int) Math.round(WINDOW_S / DT);
        int perAgent = (int) Math.round(AGENT_PERIOD_S / DT);
        int perRow = (int) Math.round(0.1 / DT);
        double tail = 0;
        int tailN = 0;
        for (int i = 1; i <= steps; i++) {
            w.now = i * DT;
            double pps = w.now < STEP_AT_S ? 100_000 : 150_000;
            // Pods becoming Ready or gone complete the platform's futures (the loop reacts at once).
            for (Pod p : new ArrayList<>(w.pods.values())) {
                if (!p.ready.isDone() && w.now >= p.readyAt) {
                    p.ready.complete(new ReplicaInfo(p.id, p.node, "10.0.0." + w.created));
                }
                if (!Double.isNaN(p.goneAt) && w.now >= p.goneAt) {
                    w.pods.remove(p.id);
                    p.gone.complete(null);
                }
            }
            for (VnfKey k : DEFS.keySet()) {
                List<Pod> act = w.active(k);
                for (Pod p : w.pods.values()) {
                    if (p.vnf.equals(k)) {
                        p.lambda = act.contains(p) ? pps / act.size() : 0;
                    }
                }
            }
            if (i % perAgent == 0) {
                agents(w, loop, escalated);
            }
            for (Pod p : w.pods.values()) {
                double mu = Math.max(1, p.cores * p.def.ppsPerCore);
                double out = Math.min(p.queue / DT + p.lambda, mu);
                p.queue = Math.min(RING, Math.max(0, p.queue + (p.lambda - mu) * DT));
                p.served += out * DT;
                p.p95s = p.queue / mu + 3 / Math.max(mu - p.lambda, 0.05 * mu);
            }
            for (VnfKey k : DEFS.keySet()) {
                double worst = 0;
                for (Pod p : w.active(k)) {
                    worst = Math.max(worst, p.p95s);
                }
                double[] acc = win.computeIfAbsent(k, x -> new double[3]);
                acc[0] += worst;
                acc[1]++;
                acc[2] += pps;
            }
            if (i % perWindow == 0) {
                List<VnfObservation> obs = new ArrayList<>();
                for (VnfKey k : List.of(CLS, SPA, LOG)) {
                    double[] acc = win.get(k);
                    List<String> ids = new ArrayList<>();
                    for (Pod p : w.active(k)) {
                        ids.add(p.id);
                    }
                    Collections.sort(ids);
                    Map<String, Long> pk = new HashMap<>();
                    for (Pod p : w.pods.values()) {
                        if (p.vnf.equals(k)) {
                            long before = served.getOrDefault(p.id, 0L);
                            pk.put(p.id, Math.round(p.served) - before);
                            served.put(p.id, Math.round(p.served));
                        }
                    }
                    // R_i and L_i of the window: its mean rate and mean p95, as the collector's window gives them.
                    obs.add(new VnfObservation(k, LMAX_NS, acc[2] / acc[1], Math.round(acc[0] / acc[1] * 1e9), 100,
                                               ids, pk));
                    acc[0] = 0;
                    acc[1] = 0;
                    acc[2] = 0;
                }
                window.set(0, obs);
                core.period(null);
            }
            double spaP95 = 0;
            for (Pod p : w.active(SPA)) {
                spaP95 = Math.max(spaP95, p.p95s);
            }
            boolean violating = spaP95 * 1e9 > LMAX_NS;
            if (w.now > STEP_AT_S && violating) {
                res.violationS += DT;
                res.recoveredAtS = w.now;
            }
            if (w.now > STEP_AT_S) {
                res.reservedCoreSeconds += reservedMillis(w) / 1000.0 * DT;
            }
            if (i % perRow == 0) {
                double e2e = e2eUs(w);
                res.rows.add(new double[] {w.now, e2e, spaP95 * 1e6, w.active(SPA).size(), nodesUsed(w),
                                           reservedMillis(w)});
                if (w.now > DURATION_S - 10) {
                    tail += e2e;
                    tailN++;
                }
            }
        }
        res.convergedE2eUs = tail / tailN;
        res.cpuReservedMillis = reservedMillis(w);
        res.nodesUsed = nodesUsed(w);
        res.spaReplicas = w.active(SPA).size();
        for (LoopDecision d : loop.history()) {
            res.decisions.add(String.format(Locale.ROOT, "t=%.1fs %s %s %s: %s",
                    (d.timeMillis() - 1_700_000_000_000L) / 1e3, d.vnf(), d.action(), d.outcome(), d.detail()));
        }
        return res;
    }

    /**
     * Node agents: each shares its node's CPU by need (request first, the rest to the short ones,
     * up to each pod's limit) and escalates a vNF over its bound when nothing is left to give.
     */
    private static void agents(World w, GlobalLoop loop, boolean[] escalated) {
        for (String node : NODES) {
            List<Pod> here = new ArrayList<>();
            for (Pod p : w.pods.values()) {
                if (p.node.equals(node) && p.ready.isDone()) {
                    here.add(p);
                }
            }
            double left = NODE_MILLIS / 1000.0;
            Map<Pod, Double> need = new HashMap<>();
            for (Pod p : here) {
                // Enough cores to run at 80 % utilisation, within the pod's limit.
                double n = Math.min(p.def.limitMillis / 1000.0, p.lambda / (0.8 * p.def.ppsPerCore) + p.queue
                        / p.def.ppsPerCore / AGENT_PERIOD_S);
                need.put(p, n);
                p.cores = Math.min(n, p.def.requestMillis / 1000.0);
                left -= p.cores;
            }
            double tooSmall = 0;
            for (Pod p : here) {
                tooSmall += need.get(p) - p.cores;
            }
            if (tooSmall > 1e-9 && left > 0) {
                double f = Math.min(1, left / tooSmall);
                for (Pod p : here) {
                    p.cores += (need.get(p) - p.cores) * f;
                }
                left -= Math.min(left, tooSmall);
            }
            for (Pod p : here) {
                p.cores = Math.max(p.cores, 0.01);
                boolean over = p.inGroup && p.p95s * 1e9 > LMAX_NS;
                if (p.vnf.equals(SPA) && over && left < 1e-6 && need.get(p) > p.cores + 1e-6 && !escalated[0]) {
                    loop.escalated(p.vnf, w.active(SPA).size(), node, Math.round(p.p95s * 1e9), LMAX_NS,
                                   List.of("CPU"));
                    escalated[0] = true;
                } else if (p.vnf.equals(SPA) && !over) {
                    escalated[0] = false;
                }
            }
        }
    }

    private static long reservedMillis(World w) {
        long sum = 0;
        for (Pod p : w.pods.values()) {
            sum += p.def.requestMillis;
        }
        return sum;
    }

    private static int nodesUsed(World w) {
        Set<String> used = new TreeSet<>();
        for (Pod p : w.pods.values()) {
            used.add(p.node);
        }
        return used.size();
    }

    /** Chain p95 as the sum of each vNF's traffic-weighted p95 plus the expected inter-node transfers. */
    private static double e2eUs(World w) {
        double us = 0;
        List<List<Pod>> stages = new ArrayList<>();
        for (VnfKey k : List.of(CLS, SPA, LOG)) {
            List<Pod> act = w.active(k);
            stages.add(act);
            double s = 0;
            for (Pod p : act) {
                s += p.p95s * 1e6 / act.size();
            }
            us += s;
        }
        double hops = 0;
        for (int i = 0; i + 1 < stages.size(); i++) {
            for (Pod a : stages.get(i)) {
                for (Pod b : stages.get(i + 1)) {
                    if (!a.node.equals(b.node)) {
                        hops += 1.0 / stages.get(i).size() / stages.get(i + 1).size();
                    }
                }
            }
        }
        return us + hops * HOP_US;
    }
}
