// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;
import org.srv6int.app.api.model.VnfReplicaId;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Algorithm 4 of the paper plus scale-in with hysteresis and draining, a cool-down and a bounded
 * decision history. Plain Java: feed it one {@link VnfObservation} per vNF per telemetry window
 * through {@link #tick(List)}; it acts through the two ports. Thread-safe (one lock); port
 * completions may arrive on any thread, or synchronously (simulated time).
 *
 * <p>Interpretation of the paper (docs/global-loop.md): R* and L* are the largest per-replica
 * rate and the longest tail latency seen in windows that met the bound (maxima over violating
 * windows would make C* &ge; C_i and n always 1); C* = R*·L*, C_i = R_i·L_i, and
 * n = ⌈C_i / C*⌉ is the vNF's total replica count, at least one more than now and at most
 * {@link LoopParams#maxReplicas()}.
 *
 * <p>With a {@link LoopStateStore} (ONOS cluster) the loop's state lives in the store: it is
 * read once when the loop starts (a new leader resumes R*, L*, timers and the action in flight)
 * and written whenever it changes; an action is written before it starts (write-ahead), so a
 * leader that fails midway leaves a record the next one finishes, with the same decision id and
 * the same idempotent replica requests. A write that fails is retried at once and then at every
 * tick; an action whose record could not be written is not started. Timers are kept in wall
 * clock milliseconds in the store (the monotonic clock is per process).
 */
public final class GlobalLoop {
    /** Decision input: R*, largest per-replica rate within the bound, packets/s. */
    public static final String IN_R_STAR = "R*_i";
    /** Decision input: L*, longest tail latency within the bound, ns. */
    public static final String IN_L_STAR = "L*_i";
    /** Decision input: n = ⌈C_i / C*_i⌉. */
    public static final String IN_N = "n";

    private static final long NONE = VnfState.NONE;
    private static final int WRITE_ATTEMPTS = 3;

    // What the loop's parts share (their code runs under this object's lock).
    final LoopParams params;
    final LoopClock clock;
    final ReplicaPlatform platform;
    final ChainRouting routing;
    final Map<VnfKey, VnfState> states = new HashMap<>();
    final LoopStateStore store;
    final ScalingRule scaling;
    final DecisionLog log;
    final ReplicaActions actions = new ReplicaActions(this);
    final FailureReactions reactions = new FailureReactions(this);
    final NodePicker picker = new NodePicker(this);
    final PushAsideStep pushAside = new PushAsideStep(this);
    final Reservations reservations = new Reservations(this);
    private final Set<VnfKey> unsaved = new LinkedHashSet<>();
    private long nextId = 1;
    volatile Predicate<String> nodeUsable = n -> true;
    volatile Colocation colocation;
    volatile NodePoolService pools;
    volatile SwitchSteering steering;
    // This round's observations: push-aside reads the neighbours' slack from them.
    final Map<VnfKey, VnfObservation> seen = new HashMap<>();
    boolean restored;
    // What the last pickNodes said about the pools, for its decision's detail.
    String pickNote = "";
    // Set without the loop's lock: a leader that lost the majority stops at once, even while a round
    // blocked on the store holds the lock (seen 6.6 s), and writes nothing more.
    volatile boolean closed;
    long storeFailures;

    /**
     * Creates the loop.
     *
     * @param params   parameters
     * @param clock    time source
     * @param platform replica platform (Kubernetes bridge)
     * @param routing  chain routing (multipath group)
     */
    public GlobalLoop(LoopParams params, LoopClock clock, ReplicaPlatform platform, ChainRouting routing) {
        this(params, clock, platform, routing, null);
    }

    /**
     * Creates the loop over the cluster's store of loop state.
     *
     * @param params   parameters
     * @param clock    time source
     * @param platform replica platform (Kubernetes bridge)
     * @param routing  chain routing (multipath group)
     * @param store    loop state store, null to keep the state in this object only
     */
    public GlobalLoop(LoopParams params, LoopClock clock, ReplicaPlatform platform, ChainRouting routing,
                      LoopStateStore store) {
        this.params = params;
        this.clock = clock;
        this.platform = platform;
        this.routing = routing;
        this.store = store;
        this.scaling = new ScalingRule(params);
        this.log = new DecisionLog(params, clock);
    }

    /**
     * Runs one round of the loop over the vNFs' latest windows. vNFs absent from the list keep
     * their state; call {@link #forget(VnfKey)} when a chain is removed.
     *
     * @param observations one per in-service vNF
     */
    synchronized void tick(List<VnfObservation> observations) {
        if (closed) {
            return;
        }
        long now = clock.nanoTime();
        long nowMillis = clock.currentTimeMillis();
        if (store != null) {
            // Nothing is decided on state that could not be read.
            if (!restored && !restore(now, nowMillis)) {
                return;
            }
            for (VnfKey k : new ArrayList<>(unsaved)) {
                VnfState s = states.get(k);
                if (s != null) {
                    save(k, s, now, nowMillis);
                }
            }
            reservations.releaseOrphanSids();
        }
        reservations.reclaim(now);
        seen.clear();
        for (VnfObservation o : observations) {
            seen.put(o.vnf(), o);
        }
        // What a round changed is written at its end, all at once (an action writes ahead itself, in step).
        Set<VnfKey> changed = new LinkedHashSet<>();
        for (VnfObservation o : observations) {
            VnfState s = states.computeIfAbsent(o.vnf(), k -> new VnfState());
            VnfLoopRecord before = store == null ? null : toRecord(s, now, nowMillis);
            step(o, s, now);
            if (store != null && !toRecord(s, now, nowMillis).equals(before)) {
                changed.add(o.vnf());
            }
        }
        saveAll(changed, now, nowMillis);
    }

    /** Writes the vNFs' current states at once (a later step may have changed one: push-aside). */
    private void saveAll(Set<VnfKey> vnfs, long now, long nowMillis) {
        Map<VnfKey, VnfLoopRecord> records = new LinkedHashMap<>();
        vnfs.stream().filter(states::containsKey).forEach(k -> records.put(k, toRecord(states.get(k), now, nowMillis)));
        Set<VnfKey> failed = records.keySet();
        try {
            failed = records.isEmpty() || closed ? Set.of() : store.putAll(records);
        } catch (RuntimeException e) {
            // none known written: each retried below
        }
        List<VnfKey> retry = new ArrayList<>(failed);
        unsaved.removeAll(records.keySet());
        storeFailures += retry.size();
        retry.forEach(k -> save(k, states.get(k), now, nowMillis));  // as save retries (unsaved if it fails)
    }

    /**
     * Records a node agent's escalation for a vNF (its local loop is exhausted) as a hint:
     * while it is fresh (within t-hat), a violation of that vNF that has outlasted the window it
     * started in scales out without waiting for the rest of t-hat. Repeated escalations of a vNF
     * while it is escalated (the last one within t-hat, no action since) are counted on one
     * history record, and escalation records are bounded apart from the loop's decisions: agents
     * escalating every second never push a scale-out out of the history.
     *
     * @param vnf            the vNF
     * @param replicas       its active replicas now
     * @param node           the reporting node
     * @param l95Nanos       the agent's L95, ns
     * @param lmaxNanos      the agent's bound, ns
     * @param triedResources resource types the agent tried
     * @return the recorded decision (the episode's record, counting this escalation)
     * @throws IllegalStateException if the loop is closed or no decision id could be had
     */
    public synchronized LoopDecision escalated(VnfKey vnf, int replicas, String node, long l95Nanos,
                                               long lmaxNanos, List<String> triedResources) {
        if (closed) {
            throw new IllegalStateException("the global loop stopped on this instance (leadership moved)");
        }
        long now = clock.nanoTime();
        long nowMillis = clock.currentTimeMillis();
        VnfState s = states.computeIfAbsent(vnf, k -> new VnfState());
        DecisionLog.Entry open = s.escalatedAt != NONE && now - s.escalatedAt <= params.tHatNanos()
                ? log.entry(s.escalationRecord) : null;
        if (open == null) {
            long id = newDecisionId();
            if (id < 0) {
                throw new IllegalStateException("loop state store unavailable; escalation not recorded");
            }
            s.escalations = 0;
            s.escalationRecord = id;
            // Not an action: no finish time, so lastActionNanos() keeps timing the actions.
            open = new DecisionLog.Entry(id, now, null);
            log.add(open, true);
        }
        s.escalatedAt = now;
        s.escalations++;
        Map<String, Double> in = new LinkedHashMap<>();
        in.put(LoopDecision.IN_LATENCY, (double) l95Nanos);
        in.put(LoopDecision.IN_LMAX, (double) lmaxNanos);
        in.put(LoopDecision.IN_ESCALATIONS, (double) s.escalations);
        in.put(LoopDecision.IN_LAST_ESCALATION_MS, (double) nowMillis);
        String detail = "local loop exhausted on " + node + " (tried " + triedResources + ")"
                + (s.escalations > 1 ? "; " + s.escalations + " escalations, the last at "
                        + Instant.ofEpochMilli(nowMillis) : "");
        LoopDecision d = new LoopDecision(open.decision == null ? nowMillis : open.decision.timeMillis(), vnf, in,
                                          LoopDecision.Action.ESCALATION, replicas, replicas,
                                          LoopDecision.Outcome.SUCCEEDED, detail);
        open.decision = d;
        log.madeAndEnded(d);
        return d;
    }

    /**
     * Sets which nodes may take a new replica (the failure detection leaves out nodes whose
     * switch port is down: a replica there would be dead on arrival).
     *
     * @param usable node name to whether it may take a replica
     */
    public void setNodeFilter(Predicate<String> usable) {
        nodeUsable = Objects.requireNonNull(usable);
    }

    /**
     * Gives the loop the view of co-located replicas that push-aside needs
     * ({@link LoopParams#pushAside()}); without it push-aside never applies.
     *
     * @param c co-location view, null for none
     */
    public void setColocation(Colocation c) {
        colocation = c;
    }

    /**
     * Gives the loop the node agents' pool reports: a replica then goes where a fresh report's
     * pools hold its vNF type's need ({@link Colocation#need}); a node without a fresh report is
     * placed by its free CPU alone, and when no node's pools hold the need the replica is placed
     * by free CPU; each said in the decision (docs/global-loop.md, "Pools").
     *
     * @param p pool reports, null for none (CPU only)
     */
    public void setPools(NodePoolService p) {
        pools = p;
    }

    /**
     * Stops the loop (this instance is no longer the leader): no more actions, writes or
     * completions; the next leader resumes what was in flight from the store.
     */
    public void close() {
        closed = true;
    }

    /**
     * Makes a drained replica's pod wait for the switches: it is deleted only once {@code s}
     * says no switch steers to the replica any more, and the scale-in is given up (pod kept,
     * replica back in the group) if that takes longer than {@link LoopParams#releaseTimeoutNanos()}.
     * Without it (null, the default) the pod goes after the Port_Counter quiet time as before.
     *
     * @param s the switches' view, null for none
     */
    public void setSteering(SwitchSteering s) {
        steering = s;
    }

    /**
     * Returns how many drained replicas' pod deletions were held back because a switch still
     * steered to them (each drain counted once).
     *
     * @return held deletions since start
     */
    public synchronized long deletesHeld() {
        return actions.deletesHeld;
    }

    /**
     * Returns how many scale-ins (and push-aside moves) were given up because the switches did not
     * confirm within the release timeout that they stopped steering to the drained replica.
     *
     * @return given-up drains since start
     */
    public synchronized long releasesGivenUp() {
        return actions.releasesGivenUp;
    }

    /**
     * Returns how often the store could not be read or written (each retried).
     *
     * @return failures since start
     */
    public synchronized long storeFailures() {
        return storeFailures;
    }

    private static long toNanos(long tMillis, long now, long nowMillis) {
        return tMillis == 0 ? NONE : now - (nowMillis - tMillis) * 1_000_000;
    }

    private VnfLoopRecord toRecord(VnfState s, long now, long nowMillis) {
        return s.record(s.phase == VnfLoopRecord.Phase.IDLE ? null : log.decision(s.pendingDecision), now, nowMillis);
    }

    /** Writes a vNF's state, retrying at once; on failure it is retried at every tick. */
    boolean save(VnfKey vnf, VnfState s, long now, long nowMillis) {
        VnfLoopRecord r = toRecord(s, now, nowMillis);
        for (int attempt = 1; attempt <= WRITE_ATTEMPTS && !closed; attempt++) {
            try {
                store.put(vnf, r);
                unsaved.remove(vnf);
                return true;
            } catch (RuntimeException e) {
                storeFailures++;
            }
        }
        unsaved.add(vnf);
        return false;
    }

    boolean save(VnfKey vnf, VnfState s) {
        return store == null || save(vnf, s, clock.nanoTime(), clock.currentTimeMillis());
    }

    /** Reads the state a previous leader left and resumes its actions in flight. */
    boolean restore(long now, long nowMillis) {
        Map<VnfKey, VnfLoopRecord> records;
        try {
            records = store.records();
        } catch (RuntimeException e) {
            storeFailures++;
            return false;
        }
        restored = true;
        reservations.checkOrphansFromNowOn();
        DecisionLog.readBack(records);
        for (Map.Entry<VnfKey, VnfLoopRecord> e : records.entrySet()) {
            VnfLoopRecord r = e.getValue();
            VnfState s = new VnfState();
            s.rStar = r.rStar();
            s.lStar = r.lStarNanos();
            s.violationSince = toNanos(r.violationSinceMillis(), now, nowMillis);
            s.lowSince = toNanos(r.lowSinceMillis(), now, nowMillis);
            s.cooldownUntil = toNanos(r.cooldownUntilMillis(), now, nowMillis);
            s.phase = r.phase();
            s.pendingDecision = r.decisionId();
            s.plan = r.plan();
            s.drainingReplica = r.drainingReplica();
            s.drainStart = r.drainStartMillis() == 0 ? now : toNanos(r.drainStartMillis(), now, nowMillis);
            s.quietSince = toNanos(r.quietSinceMillis(), now, nowMillis);
            // plus what this leader owes already (deaths it saw before it could read the store)
            VnfState mine = states.get(e.getKey());
            s.replaceOwed = r.replaceOwed() + (mine == null ? 0 : mine.replaceOwed);
            s.movingOut = r.movingOut();
            s.movedFor = r.movedFor();
            s.pushAsideAt = toNanos(r.pushAsideAtMillis(), now, nowMillis);
            states.put(e.getKey(), s);
            if (s.phase != VnfLoopRecord.Phase.IDLE && r.decision() != null) {
                log.restored(new DecisionLog.Entry(r.decisionId(), now, r.decision()));
            }
            actions.resume(e.getKey(), s, r);
        }
        return true;
    }

    /** A new decision id: from the store (unique in the cluster) or local; -1: no id, no action. */
    long newDecisionId() {
        if (store == null) {
            return nextId++;
        }
        try {
            return store.nextDecisionId();
        } catch (RuntimeException e) {
            // Retried next tick: the timers that led here keep running.
            storeFailures++;
            return -1;
        }
    }

    /**
     * Drops the state of a vNF (its chain was removed).
     *
     * @param vnf vNF
     */
    public synchronized void forget(VnfKey vnf) {
        states.remove(vnf);
        unsaved.remove(vnf);
        if (store != null) {
            try {
                store.remove(vnf);
            } catch (RuntimeException e) {
                storeFailures++;
            }
        }
    }

    /**
     * Returns how many decisions of an action this loop made since it was created.
     *
     * @param action action
     * @return decisions
     */
    public synchronized long decisionsMade(LoopDecision.Action action) {
        return log.decisionsMade(action);
    }

    /**
     * Returns how many decisions of an action ended with an outcome since this loop was created
     * (an end is counted while its decision is still in the history).
     *
     * @param action  action
     * @param outcome SUCCEEDED or FAILED
     * @return decisions
     */
    public synchronized long decisionsEnded(LoopDecision.Action action, LoopDecision.Outcome outcome) {
        return log.decisionsEnded(action, outcome);
    }

    /**
     * Returns the decision history, oldest first.
     *
     * @return decisions
     */
    public synchronized List<LoopDecision> history() {
        return log.history();
    }

    /**
     * Returns, for the most recent finished action, the loop-clock time from its decision to its
     * end (for a scale-out: from "violation persisted t̂" to "multipath group updated").
     *
     * @return ns, or -1 if no action finished yet
     */
    public synchronized long lastActionNanos() {
        return log.lastActionNanos();
    }

    /**
     * Returns the vNFs the loop has state for and their violation start, for status displays.
     *
     * @param vnf vNF
     * @return loop-clock ns when L_i first exceeded Lmax_i in the current run, or
     *         {@link Long#MIN_VALUE} if it does not
     */
    public synchronized long violatingSinceNanos(VnfKey vnf) {
        VnfState s = states.get(vnf);
        return s == null ? NONE : s.violationSince;
    }

    /**
     * Returns R* of a vNF (largest per-replica rate within the bound), 0 if unknown.
     *
     * @param vnf vNF
     * @return packets/s
     */
    public synchronized double rStar(VnfKey vnf) {
        VnfState s = states.get(vnf);
        return s == null ? 0 : s.rStar;
    }

    /**
     * Returns L* of a vNF (longest tail latency within the bound), 0 if unknown.
     *
     * @param vnf vNF
     * @return ns
     */
    public synchronized long lStarNanos(VnfKey vnf) {
        VnfState s = states.get(vnf);
        return s == null ? 0 : s.lStar;
    }

    /**
     * Returns whether an action on the vNF is in progress.
     *
     * @param vnf vNF
     * @return true while scaling or draining
     */
    public synchronized boolean busy(VnfKey vnf) {
        VnfState s = states.get(vnf);
        return s != null && s.phase != VnfLoopRecord.Phase.IDLE;
    }

    /**
     * Returns the vNFs with a create in flight (scaling out, replacing, moving a replica): their
     * PENDING replicas of weight 0 may be the ones the platform reserved for it. Before this
     * leader has read the store, the store's records say; if it cannot be read, null (unknown).
     *
     * @return vNFs with a create in flight, or null if unknown
     */
    public synchronized Set<VnfKey> creating() {
        Set<VnfKey> out = new HashSet<>();
        if (store != null && !restored) {
            try {
                store.records().forEach((k, r) -> {
                    if (r.phase() == VnfLoopRecord.Phase.SCALING) {
                        out.add(k);
                    }
                });
            } catch (RuntimeException e) {
                storeFailures++;
                return null;
            }
        }
        states.forEach((k, s) -> {
            if (s.phase == VnfLoopRecord.Phase.SCALING) {
                out.add(k);
            }
        });
        return out;
    }

    /**
     * Returns the replicas whose workload this loop is deleting (phase REMOVING): their pods going
     * away is the loop's own doing, not a death (the failure detection leaves them alone).
     *
     * @return the replicas, or null if unknown (the loop state store unreadable before the first read)
     */
    public synchronized Set<VnfReplicaId> removing() {
        Set<VnfReplicaId> out = new HashSet<>();
        if (store != null && !restored) {
            try {
                store.records().forEach((k, r) -> addRemoving(out, k, r.phase(), r.drainingReplica()));
            } catch (RuntimeException e) {
                storeFailures++;
                return null;
            }
        }
        states.forEach((k, s) -> addRemoving(out, k, s.phase, s.drainingReplica));
        return out;
    }

    private static void addRemoving(Set<VnfReplicaId> out, VnfKey vnf, VnfLoopRecord.Phase phase,
                                    String replica) {
        if (phase == VnfLoopRecord.Phase.REMOVING && replica != null) {
            out.add(VnfReplicaId.of(vnf, replica));
        }
    }

    /** One vNF's round: the scaling rule's lines 5–7, then its drain, a replacement, a scale-out or a scale-in. */
    private void step(VnfObservation o, VnfState s, long now) {
        boolean within = scaling.observe(o, s, now);
        if (s.phase == VnfLoopRecord.Phase.DRAINING) {
            actions.progressDrain(o, s, now);
            return;
        }
        if (s.phase != VnfLoopRecord.Phase.IDLE) {
            return;
        }
        boolean cooled = scaling.cooled(s, now);
        // A death does not wait out the cool-down of the action before it.
        if (s.replaceOwed > 0 && (s.replaceRetryAt == NONE || now - s.replaceRetryAt >= 0)) {
            actions.startReplace(o.vnf(), s, now, o.activeReplicas().size());
            return;
        }
        if (scaling.persisted(s, now)) {
            if (cooled) {
                String notPushed = params.pushAside() ? pushAside.pushAside(o, s, now) : null;
                if (!params.pushAside() || notPushed != null) {
                    scaleOut(o, s, now, notPushed == null ? "" : "; push-aside not possible: " + notPushed);
                }
            }
            return;
        }
        if (scaling.low(o, s, within)) {
            if (s.lowSince == NONE) {
                s.lowSince = now;
            }
            if (scaling.lowHeld(s, now) && cooled) {
                actions.startDrain(o, s, now);
            }
        } else {
            s.lowSince = NONE;
        }
    }

    private void scaleOut(VnfObservation o, VnfState s, long now, String note) {
        int replicas = o.activeReplicas().size();
        int n = scaling.wanted(o, s);
        int target = scaling.target(o, n);
        long id = newDecisionId();
        if (id < 0) {
            return;
        }
        long violationSince = s.violationSince;
        // Recorded before the timer is reset, so the decision shows how long the violation lasted.
        DecisionLog.Entry d = record(id, o, s, now, n, target, LoopDecision.Action.SCALE_OUT);
        s.violationSince = NONE;
        s.escalatedAt = NONE;
        if (target <= replicas) {
            scaling.coolDown(s, now);
            log.finish(d.id, LoopDecision.Outcome.FAILED, now,
                       "already at max replicas " + params.maxReplicas() + note);
            return;
        }
        int add = target - replicas;
        List<String> where = picker.pickNodes(d, o.vnf(), s, now, add, note);
        if (where == null) {
            return;
        }
        s.phase = VnfLoopRecord.Phase.SCALING;
        s.pendingDecision = d.id;
        s.plan = List.copyOf(where);
        // Write-ahead: a leader that fails from here on leaves the plan to the next one.
        if (!save(o.vnf(), s)) {
            s.phase = VnfLoopRecord.Phase.IDLE;
            s.plan = List.of();
            s.violationSince = violationSince;
            log.finish(d.id, LoopDecision.Outcome.FAILED, now,
                       "loop state could not be stored: not started, retried next window");
            return;
        }
        List<CompletableFuture<ReplicaInfo>> futures = actions.createAll(o.vnf(), d.id, where);
        String plan = "target " + target + " replicas: +" + where.size() + " on " + String.join(",", where)
                + (where.size() < add ? " (" + (add - where.size()) + " more do not fit any node's free CPU)" : "")
                + routing.placementNote() + pickNote + note;
        CompletableFuture.allOf(futures.toArray(new CompletableFuture[0]))
                .whenComplete((v, err) -> actions.scaleOutDone(o.vnf(), d.id, futures, plan));
    }

    /** Records an action of the loop with its inputs (R_i, L_i, Lmax_i, C_i, C*, R*, L*, violation, n). */
    DecisionLog.Entry record(long id, VnfObservation o, VnfState s, long now, int n, int after,
                             LoopDecision.Action a) {
        Map<String, Double> in = new LinkedHashMap<>();
        in.put(LoopDecision.IN_THROUGHPUT, o.ratePps());
        in.put(LoopDecision.IN_LATENCY, (double) o.latencyNanos());
        in.put(LoopDecision.IN_LMAX, (double) o.lmaxNanos());
        in.put(LoopDecision.IN_DEMAND, scaling.demand(o, s));
        in.put(LoopDecision.IN_CAPACITY, scaling.capacity(s));
        in.put(IN_R_STAR, s.rStar);
        in.put(IN_L_STAR, (double) s.lStar);
        if (s.violationSince != NONE) {
            in.put(LoopDecision.IN_VIOLATION_MS, (now - s.violationSince) / 1e6);
        }
        if (a == LoopDecision.Action.SCALE_OUT) {
            in.put(IN_N, (double) n);
        }
        LoopDecision d = new LoopDecision(clock.currentTimeMillis(), o.vnf(), in, a, o.activeReplicas().size(),
                                          after, LoopDecision.Outcome.IN_PROGRESS, "");
        DecisionLog.Entry e = new DecisionLog.Entry(id, now, d);
        log.add(e, false);
        log.made(a);
        return e;
    }

    /**
     * Carries out what the failure detection found (docs/failures.md): a dead replica leaves the
     * multipath group at once and a replacement is requested (now if the vNF is idle, else when
     * its action in flight ends); a returning replica rejoins with weight 1; a chain going down or
     * coming back is recorded. Every finding is a decision in the history.
     *
     * @param findings what {@link ChainHealth#observe} found
     * @return the decisions recorded, in order
     */
    public synchronized List<LoopDecision> onFindings(List<ChainHealth.Finding> findings) {
        return reactions.onFindings(findings);
    }

    /**
     * Records that a chain's segment lists changed because a link or port went down or up.
     *
     * @param vnf    the chain's first vNF past the failure (the decision's key)
     * @param detail what changed
     * @return the decision
     */
    public synchronized LoopDecision rerouted(VnfKey vnf, String detail) {
        return reactions.rerouted(vnf, detail);
    }
}
