// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.failover;

import org.srv6int.app.switchstate.FlowEntries;
import java.util.TreeMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import org.onlab.packet.Ip6Address;
import org.onosproject.net.flow.FlowEntry;
import java.util.Optional;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.loop.ChainHealth;
import org.srv6int.app.loop.DetectionInputs;
import org.srv6int.app.loop.LoopClock;
import org.srv6int.app.loop.LoopCore;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.app.loop.LoopSettings;
import org.srv6int.pipeconf.Srv6IntPipelineConstants;
import org.srv6int.twin.Policy;
import org.srv6int.twin.control.AppControl;
import org.srv6int.twin.control.SimulatedPlatform;
import org.srv6int.twin.dataplane.Dataplane;
import org.srv6int.twin.dataplane.EmulatedDataplane;
import org.srv6int.twin.control.TestbedNetcfg;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.VnfType;

/**
 * Issue 18's twin scenarios on the paper's testbed: one chain through Snort (per-flow state),
 * its flows sent packet by packet through the emulated switches ({@link FlowTraffic}), the app's
 * core ({@link AppControl}: inventory, placement, bucket tables, drain by flows on the bucket
 * counters read by a flow-statistics poll) and, under {@code ours}, the app's loop core
 * ({@link LoopCore}: each window its failure detection ({@link ChainHealth}) and Algorithm 4,
 * a readiness push its detection at once; a dead replica out of the buckets, a replacement
 * requested from the simulated Kubernetes).
 *
 * <ul>
 *   <li>{@code kill-replica}: two Snort replicas under load; at {@link #KILL_AT_S} the one on
 *       worker2 dies: {@code crash} (its pod is reported not Ready) or {@code hang} (pod Ready,
 *       it drops everything: only INT silence shows it).</li>
 *   <li>{@code rescale}: Snort goes 1 &rarr; 2 &rarr; 3 &rarr; 2 replicas (an operator's or
 *       autoscaler's schedule) under many flows; the scale-in comes as the arrival rate falls.</li>
 * </ul>
 *
 * <p>Policies: {@code ours} runs the failure detection and drains by flows (the draining replica
 * is deleted once no bucket points to it); {@code none} has no failure detection and deletes a
 * scaled-in replica at once (its buckets move with their flows); {@code vpa} is {@code none}
 * here, as Kubernetes VPA only sizes CPU requests: it neither detects a dead replica in the data
 * path nor drains one. The bucket table itself (fewest moves) is the app's in all three.
 */
public final class FailoverExperiment {
    /** Experiment names. */
    public static final List<String> NAMES = List.of("kill-replica", "rescale");
    /** Simulated step, s. */
    static final double DT_S = 0.1;
    /** ONOS's flow-statistics poll (the P4Runtime driver reads direct counters with the entries), s. */
    static final double FLOW_STATS_POLL_S = 5;
    /** The flow programming looks again this often while buckets wait to drain, s. */
    static final double RECHECK_S = 1;
    /**
     * The kubelet's generic PLEG relists containers this often (Kubernetes' default, 1 s): a
     * crashed container is seen at the next relist, on a grid from t = 0 (the kill at a whole
     * second is the worst case, a full period), and the pod's Ready condition turns false then.
     */
    static final double PLEG_RELIST_S = 1;
    /**
     * From the pod's status update to the app's readiness listener through the bridge's watch
     * (docs/kubernetes.md, ReplicaWatch: median 24-30 ms measured against kube-apiserver).
     */
    static final double WATCH_DELIVERY_S = 0.03;
    /** When the replica dies in kill-replica, s. */
    public static final double KILL_AT_S = 20;
    /** Scale schedule of rescale: (time s, replicas). */
    static final double[][] RESCALE = {{20, 2}, {40, 3}, {60, 2}};
    /** New flows per second in rescale until the load falls (5 s before the scale-in), then 4/s. */
    static final double RESCALE_ARRIVALS_PER_S = 150;
    private static final Allocation SNORT = new Allocation(2.5, 3, 25, 1900);

    private FailoverExperiment() {
    }

    /** The outcome of one run. */
    public static final class Result {
        /** Experiment ({@code kill-replica/crash}, {@code rescale}). */
        public final String name;
        /** Policy. */
        public final Policy policy;
        /** Timeline rows: t, active flows, flows moved so far, live replicas, packets lost, packets sent, buckets. */
        public final List<Object[]> rows = new ArrayList<>();
        /** Summary figures (summary.json). */
        public final Map<String, Object> summary = new LinkedHashMap<>();
        /** Events and decisions. */
        public final List<String> events = new ArrayList<>();

        Result(String name, Policy policy) {
            this.name = name;
            this.policy = policy;
        }
    }

    /**
     * Runs one experiment under one policy.
     *
     * @param name   {@code kill-replica/crash}, {@code kill-replica/hang} or {@code rescale}
     * @param policy policy
     * @param seed   random seed
     * @return result
     */
    public static Result run(String name, Policy policy, long seed) {
        boolean rescale = name.equals("rescale");
        boolean hang = name.equals("kill-replica/hang");
        if (!rescale && !hang && !name.equals("kill-replica/crash")) {
            throw new IllegalArgumentException("unknown experiment " + name);
        }
        Fabric fabric = new Fabric();
        Host w1 = fabric.addHost(new Host("worker1", "sw2"));
        Host w2 = fabric.addHost(new Host("worker2", "sw3"));
        w1.addInstance("snort", VnfType.SNORT, SNORT, 0);
        if (!rescale) {
            w2.addInstance("snort", VnfType.SNORT, SNORT, 0);
        }
        fabric.addChain(new Chain("sfc1", List.of("snort"), t -> 1.0, 1024, 1000));
        double[] clock = {0};
        Result res = new Result(name, policy);
        try (Dataplane dp = new EmulatedDataplane(TestbedNetcfg.links())) {
            AppControl control = new AppControl(fabric, Map.of(), dp, () -> clock[0]);
            Run r = new Run(res, control, dp, clock, seed, rescale, hang, policy == Policy.OURS);
            r.go();
        }
        return res;
    }

    /** One run's state. */
    private static final class Run {
        final Result res;
        final AppControl control;
        final double[] clock;
        final boolean rescale;
        final boolean hang;
        final boolean ours;
        final Sfc sfc;
        final VnfKey vnf;
        final FlowTraffic traffic;
        final SimulatedPlatform platform;
        final LoopCore core;
        // decisions of the core already in the events
        int decisionsSeen;
        final double windowS;
        // the flow programming's drain deadline (netcfg loop.drainDeadlineMs)
        final double drainDeadlineS;
        final Set<String> dead = new HashSet<>();
        final Map<String, Long> passedInWindow = new LinkedHashMap<>();
        long reportsInWindow;
        String draining;
        double drainStartS = Double.NaN;
        int created;
        // kill-replica figures
        String victim;
        double detectedS = Double.NaN;
        double movedS = Double.NaN;
        long lostAfterKill;
        long lostBeforeMoved;
        // rescale figures
        final List<Map<String, Object>> changes = new ArrayList<>();
        long movedByDrainBeforeDeadline;
        long movedByDrainAtDeadline;
        long movedAtScaleIn;

        Run(Result res, AppControl control, Dataplane dp, double[] clock, long seed, boolean rescale, boolean hang,
            boolean ours) {
            this.res = res;
            this.control = control;
            this.clock = clock;
            this.rescale = rescale;
            this.hang = hang;
            this.ours = ours;
            this.sfc = control.app().sfcs.getSfcs().iterator().next();
            this.vnf = VnfKey.of(sfc.id(), 0);
            // rescale: many flows while the replicas grow, fewer as it scales in (why it scales in)
            DoubleUnaryOperator rate = rescale ? t -> t < 55 ? RESCALE_ARRIVALS_PER_S : 4 : t -> 30;
            this.traffic = new FlowTraffic(dp, sfc, control.app().inventory, seed, rate, 3, 30, 0.2);
            Srv6IntAppConfig cfg = control.app().config.appConfig().orElseThrow();
            this.windowS = cfg.evaluationPeriodMillis() / 1000.0;
            this.drainDeadlineS = cfg.drainDeadlineMillis() / 1000.0;
            LoopClock lc = new LoopClock() {
                @Override
                public long nanoTime() {
                    return Math.round(clock[0] * 1e9);
                }

                @Override
                public long currentTimeMillis() {
                    return Math.round(clock[0] * 1e3);
                }
            };
            this.platform = new SimulatedPlatform(control.fabric().hosts(), control::requestMillis, control.events());
            // as the loop manager builds it: the app's services, the switches' flow entries, the
            // platform's readiness (here Kubernetes' view as the watch has it), netcfg's silences
            DetectionInputs inputs = new DetectionInputs(control.app().inventory)
                    .flowEntries(control.app().flows::getFlowEntries)
                    .segmentLists(control.app().pathManager)
                    .readiness((k, replica) -> kubernetesReady(replica));
            LoopSettings settings = LoopSettings.of(LoopParams.builder().build()).detection(Optional.of(cfg));
            this.core = ours ? LoopCore.builder().clock(lc).platform(platform).routing(control.routing())
                    .steering(control.app().steering()).services(control.app().sfcs, control.app().inventory)
                    .segmentLists(control.app().pathManager).detection(inputs).settings(() -> settings).build()
                    : null;
        }

        double durationS() {
            return rescale ? 140 : 45;
        }

        void go() {
            long steps = Math.round(durationS() / DT_S);
            int nextChange = 0;
            long totalMoves = 0;
            for (long k = 0; k < steps; k++) {
                double t = k * DT_S;
                clock[0] = t;
                if (!rescale && victim == null && t + 1e-9 >= KILL_AT_S) {
                    kill();
                }
                if (rescale && nextChange < RESCALE.length && t + 1e-9 >= RESCALE[nextChange][0]) {
                    scaleTo((int) RESCALE[nextChange][1], t);
                    nextChange++;
                }
                FlowTraffic.Step s = traffic.step(t, DT_S, dead);
                account(s, t);
                totalMoves += s.moves.size();
                double next = (k + 1) * DT_S;
                clock[0] = next;
                platform.advanceTo(next);
                // ONOS's flow-stats poll, then the programming's look while buckets wait (same instant)
                if (onPeriod(next, FLOW_STATS_POLL_S)) {
                    control.pollFlowStatistics();
                }
                if (onPeriod(next, RECHECK_S)) {
                    control.recheck();
                    removeDrainedReplica(next);
                }
                if (ours && onPeriod(next, windowS)) {
                    checkHealth(next, false);
                }
                // the bridge's watch pushes the pod's Ready=false; the loop manager checks at once
                if (ours && !readinessPushed && !hang && victim != null && next + 1e-9 >= notReadySeenS()) {
                    readinessPushed = true;
                    checkHealth(next, true);
                }
                if (victim != null && Double.isNaN(movedS) && bucketsOf(victim) == 0) {
                    movedS = next;
                }
                if (onPeriod(next, 0.5)) {
                    row(next, s, totalMoves);
                }
            }
            summarize();
        }

        private static boolean onPeriod(double t, double period) {
            double n = t / period;
            return Math.abs(n - Math.rint(n)) < 1e-6;
        }

        private void kill() {
            victim = replicaOn("worker2");
            dead.add(victim);
            res.events.add(String.format(Locale.ROOT, "%.1f s: %s %s (worker2)", clock[0],
                    hang ? "hang (pod stays Ready, drops everything)" : "crash (pod not Ready)", victim));
        }

        private String replicaOn(String node) {
            for (VnfReplica r : control.app().inventory.getReplicas(sfc.id())) {
                if (r.node().equals(node) && r.carriesTraffic()) {
                    return r.id().name();
                }
            }
            throw new IllegalStateException("no replica on " + node);
        }

        private List<VnfReplica> live() {
            List<VnfReplica> out = new ArrayList<>();
            for (VnfReplica r : control.app().inventory.getReplicas(sfc.id())) {
                if (r.carriesTraffic()) {
                    out.add(r);
                }
            }
            return out;
        }

        /** The operator's (or an autoscaler's) replica count; the app decides which flows move. */
        private void scaleTo(int n, double t) {
            int before = live().size();
            closePeriod();
            List<FlowTraffic.Flow> activeNow = new ArrayList<>(traffic.active());
            periodFlows = activeNow;
            periodBuckets = assignment();
            periodReplica = new String[activeNow.size()];
            periodPackets = new int[activeNow.size()];
            for (int i = 0; i < activeNow.size(); i++) {
                periodReplica[i] = activeNow.get(i).replica;
                periodPackets[i] = activeNow.get(i).packets;
            }
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("t_s", t);
            c.put("from", before);
            c.put("to", n);
            c.put("active_flows", activeNow.size());
            c.put("goal_pct", round(100.0 / (Math.max(before, n)) + 2));
            changes.add(c);
            if (n > before) {
                String node = before % 2 == 1 ? "worker2" : "worker1";
                String id = "sfc-1-vnf0-s" + (++created);
                control.routing().addReplicas(vnf, List.of(new ReplicaInfo(id, node, "10.244.9." + created)));
                res.events.add(String.format(Locale.ROOT, "%.1f s: scale-out %d -> %d: %s on %s", t, before, n, id,
                        node));
            } else {
                List<VnfReplica> l = live();
                String victimId = l.get(l.size() - 1).id().name();
                scaledIn = victimId;
                if (ours) {
                    draining = victimId;
                    drainStartS = t;
                    control.routing().drainReplica(vnf, victimId);
                    res.events.add(String.format(Locale.ROOT, "%.1f s: scale-in %d -> %d: drain %s by flows", t,
                            before, n, victimId));
                } else {
                    control.routing().removeReplica(vnf, victimId);
                    res.events.add(String.format(Locale.ROOT, "%.1f s: scale-in %d -> %d: delete %s at once", t,
                            before, n, victimId));
                }
            }
        }

        /** Ours: the drained replica is deleted once no bucket points to it any more. */
        private void removeDrainedReplica(double t) {
            if (draining != null && bucketsOf(draining) == 0) {
                control.routing().removeReplica(vnf, draining);
                res.events.add(String.format(Locale.ROOT, "%.1f s: %s has no bucket left: deleted (drain took "
                        + "%.1f s)", t, draining, t - drainStartS));
                changes.get(changes.size() - 1).put("drain_s", round(t - drainStartS));
                draining = null;
            }
        }

        /** The chain's installed bucket table: bucket to the SIDs its entry sends to. */
        Map<Integer, List<Ip6Address>> assignment() {
            Map<Integer, List<Ip6Address>> out = new TreeMap<>();
            for (FlowEntry e : control.app().flows.getFlowEntries(sfc.ingress().deviceId())) {
                FlowEntries.chainAndBucket(e).filter(tb -> tb[0] == sfc.id().tag())
                        .ifPresent(tb -> out.put(tb[1], FlowEntries.travel(e)));
            }
            return out;
        }

        /** Buckets of the chain whose installed segment list sends to a replica's SID. */
        int bucketsOf(String replica) {
            Ip6Address sid = null;
            for (VnfReplica r : control.app().inventory.getReplicas(sfc.id())) {
                if (r.id().name().equals(replica)) {
                    sid = r.sid();
                }
            }
            if (sid == null) {
                return 0;
            }
            int n = 0;
            for (FlowEntry e : control.app().flows.getFlowEntries(sfc.ingress().deviceId())) {
                if (FlowEntries.chainAndBucket(e).filter(tb -> tb[0] == sfc.id().tag()).isPresent()
                        && FlowEntries.travel(e).contains(sid)) {
                    n++;
                }
            }
            return n;
        }

        private void account(FlowTraffic.Step s, double t) {
            sentTotal += s.sent;
            lostTotal += s.lostAtDeadReplica + s.lostInSwitches;
            reportsInWindow += s.delivered;
            s.passed.forEach((k, v) -> passedInWindow.merge(k, v, Long::sum));
            if (victim != null) {
                lostAfterKill += s.lostAtDeadReplica;
                if (Double.isNaN(movedS)) {
                    lostBeforeMoved += s.lostAtDeadReplica;
                }
            }
            if (scaledIn == null) {
                return;
            }
            for (String[] m : s.moves) {
                if (!m[0].equals(scaledIn)) {
                    continue;
                }
                if (!ours) {
                    movedAtScaleIn++;
                } else if (t - drainStartS < drainDeadlineS) {
                    movedByDrainBeforeDeadline++;
                } else {
                    movedByDrainAtDeadline++;
                }
            }
        }

        private String scaledIn;
        // the flows running at the last replica-set change, their replica and packets then
        private List<FlowTraffic.Flow> periodFlows;
        private String[] periodReplica;
        private int[] periodPackets;
        private Map<Integer, List<Ip6Address>> periodBuckets;

        /**
         * Ends the period of the last change: of its flows that sent a packet since (the ones
         * whose replica is known after it), those now on another replica moved because of it.
         */
        private void closePeriod() {
            if (periodFlows == null) {
                return;
            }
            long seen = 0;
            long moved = 0;
            long modMoved = 0;
            Map<String, Object> c = changes.get(changes.size() - 1);
            int from = (Integer) c.get("from");
            int to = (Integer) c.get("to");
            for (int i = 0; i < periodFlows.size(); i++) {
                FlowTraffic.Flow f = periodFlows.get(i);
                if (f.packets == periodPackets[i] || periodReplica[i] == null) {
                    continue;
                }
                seen++;
                if (!periodReplica[i].equals(f.replica)) {
                    moved++;
                }
                if (Integer.remainderUnsigned(f.hash, from) != Integer.remainderUnsigned(f.hash, to)) {
                    modMoved++;
                }
            }
            Map<Integer, List<Ip6Address>> now = assignment();
            long bucketsMoved = 0;
            for (Map.Entry<Integer, List<Ip6Address>> b : periodBuckets.entrySet()) {
                if (!b.getValue().equals(now.get(b.getKey()))) {
                    bucketsMoved++;
                }
            }
            c.put("buckets_moved", bucketsMoved);
            // the new (or leaving) replica's quota of buckets: floor or ceil of buckets / n
            c.put("buckets_moved_bound", (long) Math.ceil((double) Srv6IntPipelineConstants.ENCAP_BUCKETS
                    / Math.max(from, to)));
            c.put("flows_seen_after", seen);
            c.put("moved", moved);
            c.put("moved_pct", pct(moved, seen));
            c.put("hash_mod_n_would_move", modMoved);
            c.put("hash_mod_n_would_move_pct", pct(modMoved, seen));
            periodFlows = null;
        }

        /**
         * The loop core's round at a window's end (failure detection, then Algorithm 4 on the
         * window; this run counts the window's reports and packets itself), or, on the watch's
         * readiness push, its failure detection at once.
         */
        private void checkHealth(double t, boolean eventOnly) {
            if (eventOnly) {
                core.readinessChanged();
            } else {
                core.period(window());
            }
            // only the victim dies here: the first death the detection counts is its
            if (Double.isNaN(detectedS) && victim != null
                    && core.detectionCounters().getOrDefault("replicaDeaths", 0L) > 0) {
                detectedS = t;
            }
            List<LoopDecision> h = core.history();
            for (LoopDecision d : h.subList(Math.min(decisionsSeen, h.size()), h.size())) {
                res.events.add(String.format(Locale.ROOT, "%.1f s: loop %s %s: %s", t, d.action(), d.vnf(),
                        d.outcome() == LoopDecision.Outcome.IN_PROGRESS ? "requested" : d.detail()));
            }
            decisionsSeen = h.size();
            reportsInWindow = 0;
            passedInWindow.clear();
        }

        private boolean readinessPushed;

        /** When the app's watch sees the crashed pod not Ready: the kubelet's next relist, then the watch. */
        private double notReadySeenS() {
            return Math.ceil(KILL_AT_S / PLEG_RELIST_S + 1e-9) * PLEG_RELIST_S + WATCH_DELIVERY_S;
        }

        /** Kubernetes' view as the app's watch has it: a crashed pod turns not Ready, a hung one stays Ready. */
        private boolean kubernetesReady(String replica) {
            return hang || !dead.contains(replica) || clock[0] + 1e-9 < notReadySeenS();
        }

        /** The window the collector would close: the chain's INT reports, each replica's packets, no latency samples.
         * */
        private TelemetrySnapshot window() {
            long end = Math.round(clock[0] * 1e9);
            VnfWindow w = new VnfWindow(vnf, 0, 0, 0, 0, 0, 0, new LinkedHashMap<>(passedInWindow));
            return new TelemetrySnapshot(end - Math.round(windowS * 1e9), end, List.of(w),
                    List.of(new ChainWindow(sfc.id().tag(), reportsInWindow, 0, 0, 0)), List.of(),
                    CollectorCounters.sum(List.of()), List.of());
        }

        private void row(double t, FlowTraffic.Step s, long totalMoves) {
            StringBuilder buckets = new StringBuilder();
            int liveN = 0;
            for (VnfReplica r : control.app().inventory.getReplicas(sfc.id())) {
                if (r.carriesTraffic() && !dead.contains(r.id().name())) {
                    liveN++;
                }
                buckets.append(buckets.length() == 0 ? "" : " ").append(r.id().name()).append('=')
                        .append(bucketsOf(r.id().name()));
            }
            res.rows.add(new Object[] {round(t), traffic.active().size(), totalMoves, liveN, lostTotal,
                                       sentTotal, buckets.toString()});
        }

        long sentTotal;
        long lostTotal;

        private void summarize() {
            Map<String, Object> m = res.summary;
            m.put("experiment", res.name);
            m.put("policy", res.policy.key());
            m.put("duration_s", durationS());
            m.put("flows_started", traffic.started());
            m.put("packets_sent", sentTotal);
            m.put("packets_lost", lostTotal);
            long[] bc = control.app().programmer.bucketCounters();
            Map<String, Object> drain = new LinkedHashMap<>();
            drain.put("drained", bc[0]);
            drain.put("forced", bc[1]);
            drain.put("moved_at_once", bc[2]);
            drain.put("held", bc[3]);
            m.put("bucket_counters", drain);
            if (!rescale) {
                m.put("killed", victim);
                m.put("killed_at_s", KILL_AT_S);
                m.put("detected_at_s", nanOrRound(detectedS));
                m.put("detection_s", nanOrRound(detectedS - KILL_AT_S));
                m.put("buckets_moved_at_s", nanOrRound(movedS));
                m.put("detection_to_buckets_moved_s", nanOrRound(movedS - detectedS));
                m.put("death_to_buckets_moved_s", nanOrRound(movedS - KILL_AT_S));
                m.put("packets_lost_until_buckets_moved", lostBeforeMoved);
                m.put("packets_lost_after_death", lostAfterKill);
                m.put("buckets_left_on_dead_replica", bucketsOf(victim));
                m.put("silence_ms", control.app().config.appConfig().orElseThrow().silenceMillis());
            } else {
                closePeriod();
                m.put("changes", changes);
                m.put("moved_by_drain_before_deadline", movedByDrainBeforeDeadline);
                m.put("moved_by_drain_at_deadline", movedByDrainAtDeadline);
                m.put("moved_at_scale_in", movedAtScaleIn);
                m.put("drain_deadline_s", drainDeadlineS);
                m.put("buckets", Srv6IntPipelineConstants.ENCAP_BUCKETS);
            }
            long moves = 0;
            for (Object[] r : res.rows) {
                moves = (Long) r[2];
            }
            m.put("flows_moved", moves);
            if (core != null) {
                m.put("decisions", core.history().size());
                m.put("failure_counters", core.detectionCounters());
            }
            res.events.addAll(control.events());
        }
    }

    static Object nanOrRound(double v) {
        return Double.isNaN(v) ? null : round(v);
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    static double pct(long n, long of) {
        return of == 0 ? 0 : round(100.0 * n / of);
    }

}
