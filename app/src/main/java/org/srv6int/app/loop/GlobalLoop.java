package org.srv6int.app.loop;

import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.model.NodePools;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

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

    private static final long NONE = Long.MIN_VALUE;

    private static final int WRITE_ATTEMPTS = 3;

    /** A history record with the loop-clock times of its decision and its end. */
    private static final class Entry {
        final long id;
        final long decidedNanos;
        long finishedNanos;
        LoopDecision decision;

        Entry(long id, long decidedNanos, LoopDecision decision) {
            this.id = id;
            this.decidedNanos = decidedNanos;
            this.decision = decision;
        }
    }

    private static final class VnfState {
        double rStar;
        long lStar;
        long violationSince = NONE;
        long lowSince = NONE;
        long cooldownUntil = NONE;
        VnfLoopRecord.Phase phase = VnfLoopRecord.Phase.IDLE;
        String drainingReplica;
        long drainStart;
        long quietSince = NONE;
        long pendingDecision;
        List<String> plan = List.of();
        // Kept on this leader only: a lost hint costs at most the rest of t-hat, never a decision.
        long escalatedAt = NONE;
        // The history record repeated escalations of this episode are counted on, and how many.
        long escalationRecord;
        int escalations;
        // Replacements owed for dead replicas, in the store: a new leader requests them.
        int replaceOwed;
        // A replacement that found no node is retried after a cool-down, not every window.
        long replaceRetryAt = NONE;
        // Push-aside, in the store: a new leader finishes a move (its new replica joins, then the old
        // one drains) and keeps the time between scale-ups.
        long pushAsideAt = NONE;
        String movingOut;
        String movedFor;
        // This leader's memory: the drain's held delete is counted once.
        boolean deleteHeld;
    }

    private final LoopParams params;
    private final LoopClock clock;
    private final ReplicaPlatform platform;
    private final ChainRouting routing;
    private final Map<VnfKey, VnfState> states = new HashMap<>();
    private final ArrayDeque<Entry> history = new ArrayDeque<>();
    // ESCALATION records in the history: they are bounded apart from the loop's own decisions.
    private int escalationRecords;
    private final LoopStateStore store;
    private final Set<VnfKey> unsaved = new LinkedHashSet<>();
    private long nextId = 1;
    private volatile java.util.function.Predicate<String> nodeUsable = n -> true;
    private volatile Colocation colocation;
    private volatile NodePoolService pools;
    private volatile SwitchSteering steering;
    // Pod deletions held back while a switch still steered to the replica; scale-ins given up.
    private long deletesHeld;
    private long releasesGivenUp;
    // This round's observations: push-aside reads the neighbours' slack from them.
    private final Map<VnfKey, VnfObservation> seen = new HashMap<>();
    private boolean restored;
    // What the last pickNodes said about the pools, for its decision's detail.
    private String pickNote = "";
    // Replicas this loop added, until their node's next pool report shows them (leader's memory).
    private final List<Joined> joined = new ArrayList<>();

    /** A replica that joined its node at a time, with its vNF's need. */
    private static final class Joined {
        final String node;
        final ResourceNeed need;
        final long atMillis;

        Joined(String node, ResourceNeed need, long atMillis) {
            this.node = node;
            this.need = need;
            this.atMillis = atMillis;
        }
    }
    private boolean closed;
    private long storeFailures;
    // Decisions this loop made by action, and those that ended by action and outcome (metrics).
    private final long[] made = new long[LoopDecision.Action.values().length];
    private final long[] ended = new long[LoopDecision.Action.values().length * LoopDecision.Outcome.values().length];

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
        }
        seen.clear();
        for (VnfObservation o : observations) {
            seen.put(o.vnf(), o);
        }
        for (VnfObservation o : observations) {
            VnfState s = states.computeIfAbsent(o.vnf(), k -> new VnfState());
            VnfLoopRecord before = store == null ? null : toRecord(s, now, nowMillis);
            step(o, s, now);
            if (store != null && !toRecord(s, now, nowMillis).equals(before)) {
                save(o.vnf(), s, now, nowMillis);
            }
        }
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
        Entry open = s.escalatedAt != NONE && now - s.escalatedAt <= params.tHatNanos()
                ? entry(s.escalationRecord) : null;
        if (open == null) {
            long id = newDecisionId();
            if (id < 0) {
                throw new IllegalStateException("loop state store unavailable; escalation not recorded");
            }
            s.escalations = 0;
            s.escalationRecord = id;
            // Not an action: no finish time, so lastActionNanos() keeps timing the actions.
            open = new Entry(id, now, null);
            history.addLast(open);
            escalationRecords++;
            trim(true);
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
                        + java.time.Instant.ofEpochMilli(nowMillis) : "");
        LoopDecision d = new LoopDecision(open.decision == null ? nowMillis : open.decision.timeMillis(), vnf, in,
                                          LoopDecision.Action.ESCALATION, replicas, replicas,
                                          LoopDecision.Outcome.SUCCEEDED, detail);
        open.decision = d;
        made[d.action().ordinal()]++;
        ended[endedSlot(d.action(), d.outcome())]++;
        return d;
    }

    private Entry entry(long id) {
        for (java.util.Iterator<Entry> it = history.descendingIterator(); it.hasNext();) {
            Entry e = it.next();
            if (e.id == id) {
                return e;
            }
        }
        return null;
    }

    private static boolean isEscalation(Entry e) {
        return e.decision == null || e.decision.action() == LoopDecision.Action.ESCALATION;
    }

    /**
     * Bounds the history after a record was added: escalations and the loop's own decisions are
     * each kept to the history size, oldest out first, so neither pushes the other out.
     */
    private void trim(boolean escalation) {
        int kept = escalation ? escalationRecords : history.size() - escalationRecords;
        for (java.util.Iterator<Entry> it = history.iterator(); kept > params.historySize() && it.hasNext();) {
            if (isEscalation(it.next()) == escalation) {
                it.remove();
                kept--;
            }
        }
        if (escalation) {
            escalationRecords = kept;
        }
    }

    /**
     * Sets which nodes may take a new replica (the failure detection leaves out nodes whose
     * switch port is down: a replica there would be dead on arrival).
     *
     * @param usable node name to whether it may take a replica
     */
    public void setNodeFilter(java.util.function.Predicate<String> usable) {
        nodeUsable = java.util.Objects.requireNonNull(usable);
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
    public synchronized void close() {
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
        return deletesHeld;
    }

    /**
     * Returns how many scale-ins (and push-aside moves) were given up because the switches did not
     * confirm within the release timeout that they stopped steering to the drained replica.
     *
     * @return given-up drains since start
     */
    public synchronized long releasesGivenUp() {
        return releasesGivenUp;
    }

    /**
     * Returns how often the store could not be read or written (each retried).
     *
     * @return failures since start
     */
    public synchronized long storeFailures() {
        return storeFailures;
    }

    private static long toMillis(long tNanos, long now, long nowMillis) {
        return tNanos == NONE ? 0 : nowMillis - (now - tNanos) / 1_000_000;
    }

    private static long toNanos(long tMillis, long now, long nowMillis) {
        return tMillis == 0 ? NONE : now - (nowMillis - tMillis) * 1_000_000;
    }

    private VnfLoopRecord toRecord(VnfState s, long now, long nowMillis) {
        LoopDecision pending = null;
        if (s.phase != VnfLoopRecord.Phase.IDLE) {
            for (Entry e : history) {
                if (e.id == s.pendingDecision) {
                    pending = e.decision;
                }
            }
        }
        return new VnfLoopRecord(s.rStar, s.lStar, toMillis(s.violationSince, now, nowMillis),
                                 toMillis(s.lowSince, now, nowMillis), toMillis(s.cooldownUntil, now, nowMillis),
                                 s.phase, pending, s.phase == VnfLoopRecord.Phase.IDLE ? 0 : s.pendingDecision,
                                 s.plan, s.drainingReplica,
                                 s.phase == VnfLoopRecord.Phase.IDLE ? 0 : toMillis(s.drainStart, now, nowMillis),
                                 toMillis(s.quietSince, now, nowMillis), s.replaceOwed)
                .withPushAside(s.movingOut, s.movedFor, toMillis(s.pushAsideAt, now, nowMillis));
    }

    /** Writes a vNF's state, retrying at once; on failure it is retried at every tick. */
    private boolean save(VnfKey vnf, VnfState s, long now, long nowMillis) {
        VnfLoopRecord r = toRecord(s, now, nowMillis);
        for (int attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
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

    private boolean save(VnfKey vnf, VnfState s) {
        return store == null || save(vnf, s, clock.nanoTime(), clock.currentTimeMillis());
    }

    /** Reads the state a previous leader left and resumes its actions in flight. */
    private boolean restore(long now, long nowMillis) {
        Map<VnfKey, VnfLoopRecord> records;
        try {
            records = store.records();
        } catch (RuntimeException e) {
            storeFailures++;
            return false;
        }
        restored = true;
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
                history.addLast(new Entry(r.decisionId(), now, r.decision()));
            }
            resume(e.getKey(), s, r);
        }
        return true;
    }

    /** Finishes an action the previous leader started: the same requests, idempotent on the platform. */
    private void resume(VnfKey vnf, VnfState s, VnfLoopRecord r) {
        long id = r.decisionId();
        if (s.phase == VnfLoopRecord.Phase.SCALING) {
            List<CompletableFuture<ReplicaInfo>> futures = createAll(vnf, id, s.plan);
            String plan = (s.movingOut != null ? "pushed aside for " + s.movedFor + ": " : "")
                    + "resumed after a leader change: " + s.plan.size() + " replica(s) on " + String.join(",", s.plan);
            CompletableFuture.allOf(futures.toArray(new CompletableFuture[0]))
                    .whenComplete((v, err) -> scaleOutDone(vnf, id, futures, plan));
        } else if (s.phase == VnfLoopRecord.Phase.DRAINING) {
            try {
                routing.drainReplica(vnf, s.drainingReplica);
            } catch (RuntimeException e) {
                // Draining is idempotent and the replica is out of the group already unless the
                // old leader failed before; quiet detection goes on either way.
                s.quietSince = NONE;
            }
        } else if (s.phase == VnfLoopRecord.Phase.REMOVING) {
            String replica = s.drainingReplica;
            CompletionStage<Void> f;
            try {
                f = platform.deleteReplica(vnf, replica);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((v, err) -> removeDone(vnf, id, replica, "resumed after a leader change", err));
        }
    }

    /** Request id of the i-th replica of a decision: the same on every leader. */
    static String requestId(long decision, int i) {
        return "d" + decision + "-" + i;
    }

    private List<CompletableFuture<ReplicaInfo>> createAll(VnfKey vnf, long decision, List<String> nodes) {
        List<CompletableFuture<ReplicaInfo>> futures = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            CompletionStage<ReplicaInfo> f;
            try {
                f = platform.createReplica(vnf, nodes.get(i), requestId(decision, i));
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            futures.add(f.toCompletableFuture());
        }
        return futures;
    }

    /** A new decision id: from the store (unique in the cluster) or local; -1: no id, no action. */
    private long newDecisionId() {
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
        return made[action.ordinal()];
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
        return ended[endedSlot(action, outcome)];
    }

    private static int endedSlot(LoopDecision.Action action, LoopDecision.Outcome outcome) {
        return action.ordinal() * LoopDecision.Outcome.values().length + outcome.ordinal();
    }

    /**
     * Returns the decision history, oldest first.
     *
     * @return decisions
     */
    public synchronized List<LoopDecision> history() {
        List<LoopDecision> out = new ArrayList<>(history.size());
        for (Entry e : history) {
            out.add(e.decision);
        }
        return out;
    }

    /**
     * Returns, for the most recent finished action, the loop-clock time from its decision to its
     * end (for a scale-out: from "violation persisted t̂" to "multipath group updated").
     *
     * @return ns, or -1 if no action finished yet
     */
    public synchronized long lastActionNanos() {
        for (java.util.Iterator<Entry> it = history.descendingIterator(); it.hasNext();) {
            Entry e = it.next();
            if (e.finishedNanos != 0) {
                return e.finishedNanos - e.decidedNanos;
            }
        }
        return -1;
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
    public synchronized Set<org.srv6int.app.api.model.VnfReplicaId> removing() {
        Set<org.srv6int.app.api.model.VnfReplicaId> out = new HashSet<>();
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

    private static void addRemoving(Set<org.srv6int.app.api.model.VnfReplicaId> out, VnfKey vnf, VnfLoopRecord.Phase phase,
                                    String replica) {
        if (phase == VnfLoopRecord.Phase.REMOVING && replica != null) {
            out.add(org.srv6int.app.api.model.VnfReplicaId.of(vnf, replica));
        }
    }

    private void step(VnfObservation o, VnfState s, long now) {
        int replicas = o.activeReplicas().size();
        boolean data = o.samples() >= params.minSamples() && replicas > 0;
        boolean within = data && o.latencyNanos() <= o.lmaxNanos();
        if (within) {
            // Lines 5-6: capacity of one replica as seen while meeting the bound.
            s.rStar = Math.max(s.rStar, o.ratePps() / replicas);
            s.lStar = Math.max(s.lStar, o.latencyNanos());
        }
        if (data && !within) {
            if (s.violationSince == NONE) {
                s.violationSince = now;
            }
        } else {
            s.violationSince = NONE;
        }
        if (s.phase == VnfLoopRecord.Phase.DRAINING) {
            progressDrain(o, s, now);
            return;
        }
        if (s.phase != VnfLoopRecord.Phase.IDLE) {
            return;
        }
        boolean cooled = s.cooldownUntil == NONE || now - s.cooldownUntil >= 0;
        // A death does not wait out the cool-down of the action before it.
        if (s.replaceOwed > 0 && (s.replaceRetryAt == NONE || now - s.replaceRetryAt >= 0)) {
            startReplace(o.vnf(), s, now, o.activeReplicas().size());
            return;
        }
        // An agent's fresh escalation says its local loop is done: waiting out the rest of t-hat gains
        // nothing once the violation has outlasted the window it started in. A one-window violation
        // is a transient the local loop may still absorb (the twin's Fig. 8 first rise: escalated
        // 0.1 s into it, absorbed within 0.2 s); scaling on it adds a replica for nothing.
        boolean exhausted = s.escalatedAt != NONE && now - s.escalatedAt <= params.tHatNanos()
                && s.violationSince != NONE && now - s.violationSince > 0;
        if (s.violationSince != NONE && (now - s.violationSince > params.tHatNanos() || exhausted)) {
            if (cooled) {
                String notPushed = params.pushAside() ? pushAside(o, s, now) : null;
                if (!params.pushAside() || notPushed != null) {
                    scaleOut(o, s, now, notPushed == null ? "" : "; push-aside not possible: " + notPushed);
                }
            }
            return;
        }
        double cStar = s.rStar * s.lStar / 1e9;
        double ci = demand(o, s);
        if (within && replicas > 1 && cStar > 0
                && ci <= params.scaleInFraction() * (replicas - 1) * cStar) {
            if (s.lowSince == NONE) {
                s.lowSince = now;
            }
            if (now - s.lowSince >= params.scaleInHoldNanos() && cooled) {
                startDrain(o, s, now);
            }
        } else {
            s.lowSince = NONE;
        }
    }

    /** C_i of line 8, with the latency {@link LoopParams#demandLatency()} selects. */
    private double demand(VnfObservation o, VnfState s) {
        long l = o.latencyNanos();
        if (params.demandLatency() == LoopParams.DemandLatency.HEALTHY_TAIL && s.lStar > 0) {
            l = Math.min(l, s.lStar);
        }
        return o.ratePps() * l / 1e9;
    }

    /** Line 9: n = ceil(C_i / C*); without a healthy window C* is unknown and one more replica is the only guess. */
    private int wanted(VnfObservation o, VnfState s) {
        double cStar = s.rStar * s.lStar / 1e9;
        return cStar > 0 ? (int) Math.min(Integer.MAX_VALUE, Math.ceil(demand(o, s) / cStar))
                : o.activeReplicas().size() + 1;
    }

    /**
     * CoCo's push-aside scaling up (coco.txt III-A): instead of a new replica, neighbours with
     * slack on the hot vNF's node move to other nodes (each new replica joins before its old one
     * drains: make-before-break) and the node agent gives their CPU to the hot vNF.
     *
     * @return null if a push-aside started, else why not (the scale-out decision says it)
     */
    private String pushAside(VnfObservation o, VnfState s, long now) {
        Colocation c = colocation;
        if (c == null) {
            return "no co-location view";
        }
        if (s.pushAsideAt != NONE && now - s.pushAsideAt < params.pushAsideTimeoutNanos()) {
            return "pushed aside " + (now - s.pushAsideAt) / 1_000_000 + " ms ago and still violating";
        }
        int replicas = o.activeReplicas().size();
        double cStar = s.rStar * s.lStar / 1e9;
        if (cStar <= 0) {
            return "no window within the bound yet: what a replica's CPU carries is unknown";
        }
        // CoCo's needed resource: the replicas' worth of capacity missing, C_i / C* - replicas.
        double over = demand(o, s) / cStar - replicas;
        if (over <= 0) {
            return "demand within the replicas' capacity C*; the latency is not from load";
        }
        // Step 1: more than one replica's worth is past what scaling up on one node gives.
        if (over > 1) {
            return String.format(java.util.Locale.ROOT, "needs %.2f more replicas' capacity, push-aside gives at "
                    + "most one", over);
        }
        long cpu;
        Map<String, String> hotNodes;
        List<NodeResources> nodes;
        try {
            cpu = c.cpuRequestMillis(o.vnf());
            hotNodes = c.replicaNodes(o.vnf());
            nodes = new ArrayList<>(platform.nodeFreeResources());
        } catch (RuntimeException e) {
            return "co-location unknown: " + e.getMessage();
        }
        if (cpu <= 0) {
            return "CPU request of " + o.vnf() + " unknown";
        }
        long needed = (long) Math.ceil(over * cpu);
        nodes.removeIf(n -> !nodeUsable.test(n.node()));
        Map<String, Long> free = new HashMap<>();
        for (NodeResources n : nodes) {
            free.put(n.node(), n.freeCpuMillis());
        }
        PushAside.Result best = null;
        String bestNode = null;
        String why = "no active replica with a known node";
        for (String node : new java.util.TreeSet<>(hotNodes.values())) {
            PushAside.Result r = PushAside.plan(node, needed, free.getOrDefault(node, 0L), residents(c, o.vnf(), node),
                                                nodes, params.pushAsideMinSlack());
            if (!r.feasible()) {
                why = r.reason();
            } else if (best == null || r.moves().size() < best.moves().size()
                    || r.moves().size() == best.moves().size() && r.newHops() < best.newHops()) {
                best = r;
                bestNode = node;
            }
        }
        if (best == null) {
            return why;
        }
        long id = newDecisionId();
        if (id < 0) {
            return "no decision id";
        }
        Entry d = record(id, o, s, now, 0, replicas, LoopDecision.Action.PUSH_ASIDE);
        s.violationSince = NONE;
        s.escalatedAt = NONE;
        s.pushAsideAt = now;
        // Scale out only if the violation outlasts the moves, the agent's reaction and t-hat.
        s.cooldownUntil = now + params.cooldownNanos();
        List<String> started = new ArrayList<>();
        for (PushAside.Move m : best.moves()) {
            String err = move(m, o.vnf(), bestNode, now);
            started.add(m + (err == null ? "" : " FAILED: " + err));
        }
        finish(d.id, LoopDecision.Outcome.SUCCEEDED, now, "push-aside on " + bestNode + " for " + needed + "m (" + best.reason()
                + ", cost model: fewest moves, then no new hop): " + String.join("; ", started)
                + "; the node agent gives the freed CPU to " + o.vnf());
        return null;
    }

    /** Other vNFs' active replicas on a node, with their slack from this round and their chain neighbours' nodes. */
    private List<PushAside.Resident> residents(Colocation c, VnfKey hot, String node) {
        List<PushAside.Resident> out = new ArrayList<>();
        for (VnfObservation p : seen.values()) {
            VnfState ps = states.get(p.vnf());
            if (p.vnf().equals(hot) || ps != null && ps.phase != VnfLoopRecord.Phase.IDLE
                    || p.samples() < params.minSamples() || p.activeReplicas().isEmpty()) {
                continue;
            }
            Map<String, String> where = c.replicaNodes(p.vnf());
            for (String r : p.activeReplicas()) {
                if (!node.equals(where.get(r))) {
                    continue;
                }
                Set<String> adjacent = new java.util.HashSet<>();
                for (int d = -1; d <= 1; d += 2) {
                    int idx = p.vnf().index() + d;
                    if (idx >= 0) {
                        adjacent.addAll(c.replicaNodes(VnfKey.of(p.vnf().sfcId(), idx)).values());
                    }
                }
                adjacent.remove(node);
                double slack = 1 - (double) p.latencyNanos() / p.lmaxNanos();
                out.add(new PushAside.Resident(p.vnf(), r, c.cpuRequestMillis(p.vnf()), slack, adjacent));
            }
        }
        out.sort(java.util.Comparator.comparing((PushAside.Resident r) -> r.vnf().toString())
                         .thenComparing(PushAside.Resident::replica));
        return out;
    }

    /** Starts one move: a new replica of the neighbour on the target; its old one drains once the new one is in. */
    private String move(PushAside.Move m, VnfKey hot, String from, long now) {
        VnfKey nb = m.resident().vnf();
        VnfState ns = states.computeIfAbsent(nb, k -> new VnfState());
        long id = newDecisionId();
        if (id < 0) {
            return "no decision id";
        }
        VnfObservation p = seen.get(nb);
        Entry d = record(id, p, ns, now, 0, p.activeReplicas().size(), LoopDecision.Action.PUSH_ASIDE);
        ns.phase = VnfLoopRecord.Phase.SCALING;
        ns.pendingDecision = d.id;
        ns.plan = List.of(m.to());
        ns.movingOut = m.resident().replica();
        ns.movedFor = hot.toString();
        if (!save(nb, ns)) {
            ns.phase = VnfLoopRecord.Phase.IDLE;
            ns.plan = List.of();
            ns.movingOut = null;
            finish(d.id, LoopDecision.Outcome.FAILED, now, "loop state could not be stored: not started");
            return "loop state not stored";
        }
        List<CompletableFuture<ReplicaInfo>> futures = createAll(nb, d.id, List.of(m.to()));
        String plan = "pushed aside for " + hot + ": replica " + m.resident().replica() + " moves from " + from
                + " to " + m.to() + (m.newHop() ? " (new hop)" : " (no new hop)");
        CompletableFuture.allOf(futures.toArray(new CompletableFuture[0]))
                .whenComplete((v, err) -> scaleOutDone(nb, d.id, futures, plan));
        return null;
    }

    private void scaleOut(VnfObservation o, VnfState s, long now, String note) {
        int replicas = o.activeReplicas().size();
        int n = wanted(o, s);
        int target = Math.min(params.maxReplicas(), Math.max(n, replicas + 1));
        long id = newDecisionId();
        if (id < 0) {
            return;
        }
        long violationSince = s.violationSince;
        // Recorded before the timer is reset, so the decision shows how long the violation lasted.
        Entry d = record(id, o, s, now, n, target, LoopDecision.Action.SCALE_OUT);
        s.violationSince = NONE;
        s.escalatedAt = NONE;
        if (target <= replicas) {
            s.cooldownUntil = now + params.cooldownNanos();
            finish(d.id, LoopDecision.Outcome.FAILED, now,
                   "already at max replicas " + params.maxReplicas() + note);
            return;
        }
        int add = target - replicas;
        List<String> where = pickNodes(d, o.vnf(), s, now, add, note);
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
            finish(d.id, LoopDecision.Outcome.FAILED, now,
                   "loop state could not be stored: not started, retried next window");
            return;
        }
        List<CompletableFuture<ReplicaInfo>> futures = createAll(o.vnf(), d.id, where);
        String plan = "target " + target + " replicas: +" + where.size() + " on " + String.join(",", where)
                + (where.size() < add ? " (" + (add - where.size()) + " more do not fit any node's free CPU)" : "")
                + routing.placementNote() + pickNote + note;
        CompletableFuture.allOf(futures.toArray(new CompletableFuture[0]))
                .whenComplete((v, err) -> scaleOutDone(o.vnf(), d.id, futures, plan));
    }

    /** Line 10 through the app's placement; null (decision failed, cool-down, note appended) if no node. */
    private List<String> pickNodes(Entry d, VnfKey vnf, VnfState s, long now, int add, String note) {
        pickNote = "";
        List<NodeResources> nodes;
        try {
            nodes = new ArrayList<>(platform.nodeFreeResources());
        } catch (RuntimeException e) {
            s.cooldownUntil = now + params.cooldownNanos();
            finish(d.id, LoopDecision.Outcome.FAILED, now, "node resources unavailable: " + e.getMessage() + note);
            return null;
        }
        if (nodes.isEmpty()) {
            s.cooldownUntil = now + params.cooldownNanos();
            finish(d.id, LoopDecision.Outcome.FAILED, now, "no schedulable node" + note);
            return null;
        }
        List<String> unusable = new ArrayList<>();
        nodes.removeIf(n -> !nodeUsable.test(n.node()) && unusable.add(n.node()));
        if (nodes.isEmpty()) {
            s.cooldownUntil = now + params.cooldownNanos();
            finish(d.id, LoopDecision.Outcome.FAILED, now, "no eligible node: " + unusable
                    + " hang off a switch port that is down" + note);
            return null;
        }
        // A replica goes only where its CPU request fits, as the scheduler would bind it: on a
        // node with less free it stays Pending, or it is bound once the node agent there frees
        // its neighbours' quota and then starves them and itself (docs/placement.md).
        long request = cpuRequestMillis(vnf);
        List<String> tooFull = new ArrayList<>();
        if (request > 0) {
            nodes.removeIf(n -> n.freeCpuMillis() < request && tooFull.add(n.node() + "(" + n.freeCpuMillis() + "m)"));
            if (nodes.isEmpty()) {
                s.cooldownUntil = now + params.cooldownNanos();
                finish(d.id, LoopDecision.Outcome.FAILED, now, "no node has " + request + "m free for a replica: "
                        + String.join(", ", tooFull) + note);
                return null;
            }
        }
        String poolNote = "";
        ResourceNeed need = need(vnf);
        if (need.beyondCpu() && pools != null) {
            List<String> short_ = new ArrayList<>();
            List<String> cpuOnly = new ArrayList<>();
            List<NodeResources> roomy = byPools(nodes, need, short_, cpuOnly);
            if (roomy.isEmpty()) {
                // LLC ways and memory bandwidth are the agents' to share, not a request Kubernetes
                // guarantees: with no node's pools holding the need, a replica where the CPU fits
                // still takes load off the violating one (placement by free CPU, as without reports).
                poolNote = "; no node's pools hold a replica (" + need + "): " + String.join(", ", short_)
                        + "; placed by free CPU";
            } else {
                nodes = roomy;
                poolNote = (short_.isEmpty() ? "" : "; pools too small on " + String.join(", ", short_))
                        + (cpuOnly.isEmpty() ? "" : "; CPU only (no fresh pool report) on "
                        + String.join(", ", cpuOnly));
            }
        }
        List<String> where;
        try {
            // Placement keeps the chain in path order, then prefers the most free resources.
            where = List.copyOf(routing.placeReplicas(vnf, nodes, add));
        } catch (RuntimeException e) {
            s.cooldownUntil = now + params.cooldownNanos();
            finish(d.id, LoopDecision.Outcome.FAILED, now, "placement failed: " + e.getMessage() + note);
            return null;
        }
        if (where.size() != add) {
            s.cooldownUntil = now + params.cooldownNanos();
            finish(d.id, LoopDecision.Outcome.FAILED, now, "placement gave " + where.size() + " node(s) for "
                    + add + " replica(s)" + note);
            return null;
        }
        pickNote = poolNote;
        return request > 0 ? fitting(where, nodes, request) : where;
    }

    /**
     * The candidates whose fresh pool report holds one replica of {@code need}, each with its free
     * CPU cut to the need's CPU times the replicas its pools hold (so placement prefers the node
     * with the most room in its scarcest resource, and {@link #fitting} stops where the pools are
     * full); nodes without a fresh report keep their free CPU and are named in {@code cpuOnly}.
     */
    private List<NodeResources> byPools(List<NodeResources> nodes, ResourceNeed need, List<String> tooSmall,
                                        List<String> cpuOnly) {
        NodePoolService p = pools;
        long now = clock.currentTimeMillis();
        List<NodeResources> out = new ArrayList<>();
        for (NodeResources n : nodes) {
            Optional<NodePools> report;
            try {
                report = p.pools(n.node());
            } catch (RuntimeException e) {
                report = Optional.empty();
            }
            long age = report.map(r -> now - r.receivedAtMillis()).orElse(Long.MAX_VALUE);
            if (report.isEmpty() || age > p.maxAgeMillis()) {
                cpuOnly.add(n.node() + (report.isEmpty() ? " (no report)" : " (report " + age / 1000 + " s old)"));
                out.add(n);
                continue;
            }
            // What the report cannot show yet: this loop's creations in flight on the node and the
            // replicas that joined it after the report was sent.
            long receivedAt = report.get().receivedAtMillis();
            List<ResourceNeed> coming = new ArrayList<>();
            for (Map.Entry<VnfKey, VnfState> e : states.entrySet()) {
                VnfState st = e.getValue();
                if (st.phase == VnfLoopRecord.Phase.SCALING && st.plan != null) {
                    ResourceNeed n2 = need(e.getKey());
                    st.plan.stream().filter(n.node()::equals).forEach(x -> coming.add(n2));
                }
            }
            joined.removeIf(j -> now - j.atMillis > p.maxAgeMillis());
            joined.stream().filter(j -> j.node.equals(n.node()) && j.atMillis >= receivedAt)
                    .forEach(j -> coming.add(j.need));
            double holds = report.get().less(coming).holds(need);
            if (holds < 1) {
                tooSmall.add(n.node() + " (" + report.get().freeText()
                        + (coming.isEmpty() ? "" : ", less " + coming.size() + " replica(s) on their way") + ")");
                continue;
            }
            long free = need.cpuMillis() > 0 && !Double.isInfinite(holds)
                    ? Math.min(n.freeCpuMillis(), (long) Math.floor(holds * need.cpuMillis())) : n.freeCpuMillis();
            out.add(new NodeResources(n.node(), free, n.freeMemoryBytes()));
        }
        return out;
    }

    private ResourceNeed need(VnfKey vnf) {
        Colocation c = colocation;
        if (c == null) {
            return ResourceNeed.NONE;
        }
        try {
            return c.need(vnf);
        } catch (RuntimeException e) {
            return ResourceNeed.NONE;
        }
    }

    /** The picks in order while each node still has the request free after the picks before it. */
    private static List<String> fitting(List<String> where, List<NodeResources> nodes, long request) {
        Map<String, Long> left = new HashMap<>();
        for (NodeResources n : nodes) {
            left.put(n.node(), n.freeCpuMillis());
        }
        List<String> out = new ArrayList<>();
        for (String node : where) {
            long free = left.getOrDefault(node, 0L);
            if (free >= request) {
                left.put(node, free - request);
                out.add(node);
            }
        }
        return out;
    }

    /** CPU request of a new replica of the vNF from the co-location view, 0 if unknown. */
    private long cpuRequestMillis(VnfKey vnf) {
        Colocation c = colocation;
        if (c == null) {
            return 0;
        }
        try {
            return Math.max(0, c.cpuRequestMillis(vnf));
        } catch (RuntimeException e) {
            return 0;
        }
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
        List<LoopDecision> out = new ArrayList<>();
        if (closed) {
            return out;
        }
        // A new leader reads what the last one owed before it owes more. If it cannot, dead replicas
        // still leave their groups, but their replacements wait (in memory) for the read: writing
        // now would overwrite the last leader's record.
        boolean stateRead = store == null || restored || restore(clock.nanoTime(), clock.currentTimeMillis());
        for (ChainHealth.Finding f : findings) {
            long now = clock.nanoTime();
            long id = newDecisionId();
            if (id < 0) {
                // Without an id nothing is recorded; the routing change below still happens.
                id = 0;
            }
            LoopDecision.Outcome outcome = LoopDecision.Outcome.SUCCEEDED;
            String detail = f.detail();
            int before = 0;
            int after = 0;
            LoopDecision.Action action;
            switch (f.kind()) {
                case REPLICA_DEAD:
                    action = LoopDecision.Action.REPLICA_DEAD;
                    before = f.liveLeft() + 1;
                    after = f.liveLeft();
                    if (isDraining(f.vnf(), f.replica())) {
                        // Its buckets wait for their flows only while it lives: it leaves now.
                        before = f.liveLeft();
                        String failed = removeDeadDrain(f.vnf(), now, detail);
                        detail += "; it was draining for a scale-in: " + (failed == null
                                ? "out of the inventory at once, its workload deleted"
                                : "taking it out of the inventory failed (" + failed + "), still draining");
                        outcome = failed == null ? outcome : LoopDecision.Outcome.FAILED;
                        break;
                    }
                    try {
                        routing.failReplica(f.vnf(), f.replica());
                        detail += "; weight 0";
                    } catch (RuntimeException e) {
                        outcome = LoopDecision.Outcome.FAILED;
                        detail += "; taking it out of the group failed: " + e.getMessage();
                    }
                    break;
                case REPLICA_RETURNED:
                    action = LoopDecision.Action.REPLICA_RETURNED;
                    if (isDraining(f.vnf(), f.replica())) {
                        detail += "; not put back: it is being scaled in";
                        break;
                    }
                    try {
                        routing.restoreReplica(f.vnf(), f.replica());
                    } catch (RuntimeException e) {
                        outcome = LoopDecision.Outcome.FAILED;
                        detail += "; putting it back failed: " + e.getMessage();
                    }
                    break;
                case CHAIN_DOWN:
                    action = LoopDecision.Action.CHAIN_DOWN;
                    outcome = LoopDecision.Outcome.FAILED;
                    break;
                default:
                    action = LoopDecision.Action.CHAIN_UP;
                    break;
            }
            out.add(note(id, now, f.vnf(), action, before, after, outcome, detail, Map.of()).decision);
            if (f.kind() == ChainHealth.Finding.Kind.REPLICA_DEAD && f.replace()) {
                VnfState s = states.computeIfAbsent(f.vnf(), k -> new VnfState());
                s.replaceOwed++;
                if (!stateRead) {
                    continue;
                }
                // Write-ahead: the debt is in the store before anything is requested for it, so a
                // leader change between now and the request makes the next leader request it once.
                save(f.vnf(), s);
                if (s.phase == VnfLoopRecord.Phase.IDLE) {
                    startReplace(f.vnf(), s, now, f.liveLeft());
                }
            }
        }
        return out;
    }

    private boolean isDraining(VnfKey vnf, String replica) {
        VnfState s = states.get(vnf);
        return s != null && s.phase == VnfLoopRecord.Phase.DRAINING && replica.equals(s.drainingReplica);
    }

    /**
     * The replica this vNF drains died: its buckets, held for their flows while it lived, must move
     * now. It leaves the inventory at once (the flow programming then moves its buckets without
     * waiting) and its workload is deleted; the scale-in ends there.
     *
     * @return null if done, else why the inventory refused
     */
    private String removeDeadDrain(VnfKey vnf, long now, String cause) {
        VnfState s = states.get(vnf);
        String replica = s.drainingReplica;
        try {
            routing.removeReplica(vnf, replica);
        } catch (RuntimeException e) {
            return String.valueOf(e.getMessage());
        }
        long id = newDecisionId();
        Entry d = note(Math.max(id, 0), now, vnf, s.movingOut != null ? LoopDecision.Action.PUSH_ASIDE
                : LoopDecision.Action.SCALE_IN, 0, 0, LoopDecision.Outcome.IN_PROGRESS, "", Map.of());
        s.phase = VnfLoopRecord.Phase.REMOVING;
        s.pendingDecision = d.id;
        save(vnf, s);
        CompletionStage<Void> f;
        try {
            f = platform.deleteReplica(vnf, replica);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, err) -> removeDone(vnf, d.id, replica, "died while draining (" + cause + ")", err));
        return null;
    }

    /**
     * Records that a chain's segment lists changed because a link or port went down or up.
     *
     * @param vnf    the chain's first vNF past the failure (the decision's key)
     * @param detail what changed
     * @return the decision
     */
    public synchronized LoopDecision rerouted(VnfKey vnf, String detail) {
        long id = newDecisionId();
        return note(Math.max(id, 0), clock.nanoTime(), vnf, LoopDecision.Action.REROUTE, 0, 0,
                    LoopDecision.Outcome.SUCCEEDED, detail, Map.of()).decision;
    }

    /** Requests the replacements owed for a vNF's dead replicas: one decision, one create each. */
    private void startReplace(VnfKey vnf, VnfState s, long now, int live) {
        int add = Math.max(1, Math.min(s.replaceOwed, params.maxReplicas() - live));
        long id = newDecisionId();
        if (id < 0) {
            return;
        }
        Entry d = note(id, now, vnf, LoopDecision.Action.REPLACE, live, live + add,
                       LoopDecision.Outcome.IN_PROGRESS, "", Map.of());
        List<String> where = pickNodes(d, vnf, s, now, add, "");
        if (where == null) {
            // Owed still (the store has it): retried once the cool-down is over.
            s.replaceRetryAt = now + params.cooldownNanos();
            return;
        }
        s.replaceOwed = 0;
        s.replaceRetryAt = NONE;
        s.phase = VnfLoopRecord.Phase.SCALING;
        s.pendingDecision = d.id;
        s.plan = List.copyOf(where);
        if (!save(vnf, s)) {
            s.phase = VnfLoopRecord.Phase.IDLE;
            s.plan = List.of();
            s.replaceOwed = add;
            s.replaceRetryAt = now + params.cooldownNanos();
            finish(d.id, LoopDecision.Outcome.FAILED, now, "loop state could not be stored: not started");
            return;
        }
        List<CompletableFuture<ReplicaInfo>> futures = createAll(vnf, d.id, where);
        String plan = "replacing " + add + " dead replica(s): +" + add + " on " + String.join(",", where) + pickNote;
        CompletableFuture.allOf(futures.toArray(new CompletableFuture[0]))
                .whenComplete((v, err) -> scaleOutDone(vnf, d.id, futures, plan));
    }

    private Entry note(long id, long now, VnfKey vnf, LoopDecision.Action a, int before, int after,
                       LoopDecision.Outcome outcome, String detail, Map<String, Double> inputs) {
        LoopDecision d = new LoopDecision(clock.currentTimeMillis(), vnf, inputs, a, before, after, outcome, detail);
        // Not an action (no finish time) unless finish() ends it: lastActionNanos() times actions only.
        Entry e = new Entry(id, now, d);
        history.addLast(e);
        trim(false);
        return e;
    }

    private synchronized void scaleOutDone(VnfKey vnf, long decision, List<CompletableFuture<ReplicaInfo>> fs,
                                           String plan) {
        if (closed) {
            // No longer the leader: the next one finishes this decision from the store.
            return;
        }
        long now = clock.nanoTime();
        List<ReplicaInfo> ready = new ArrayList<>();
        String firstError = null;
        for (CompletableFuture<ReplicaInfo> f : fs) {
            try {
                ready.add(f.join());
            } catch (RuntimeException e) {
                if (firstError == null) {
                    Throwable c = e.getCause() != null ? e.getCause() : e;
                    firstError = c.getClass().getSimpleName() + ": " + c.getMessage();
                }
            }
        }
        String outcome;
        boolean ok = firstError == null;
        if (!ready.isEmpty()) {
            try {
                // Line 11: the group spreads traffic evenly over all ready replicas.
                routing.addReplicas(vnf, ready);
                outcome = plan + "; added " + ready;
                long at = clock.currentTimeMillis();
                for (ReplicaInfo r : ready) {
                    joined.add(new Joined(r.node(), need(vnf), at));
                }
            } catch (RuntimeException e) {
                ok = false;
                outcome = plan + "; group update failed: " + e.getMessage();
            }
        } else {
            outcome = plan + "; no replica became ready";
        }
        if (firstError != null) {
            outcome += "; " + firstError;
        }
        VnfState s = states.get(vnf);
        if (s != null && s.movingOut != null) {
            if (ok && !ready.isEmpty()) {
                // Make-before-break: the new replica carries traffic; the old one drains off the hot node.
                try {
                    routing.drainReplica(vnf, s.movingOut);
                    finish(decision, LoopDecision.Outcome.SUCCEEDED, now, outcome + "; draining " + s.movingOut);
                    s.phase = VnfLoopRecord.Phase.DRAINING;
                    s.drainingReplica = s.movingOut;
                    s.drainStart = now;
                    s.quietSince = NONE;
                    s.deleteHeld = false;
                    save(vnf, s);
                    return;
                } catch (RuntimeException e) {
                    ok = false;
                    outcome += "; draining " + s.movingOut + " failed: " + e.getMessage();
                }
            }
            s.movingOut = null;
            s.movedFor = null;
        }
        finish(decision, ok ? LoopDecision.Outcome.SUCCEEDED : LoopDecision.Outcome.FAILED, now, outcome);
        if (s != null) {
            s.phase = VnfLoopRecord.Phase.IDLE;
            s.plan = List.of();
            s.cooldownUntil = now + params.cooldownNanos();
            s.lowSince = NONE;
            save(vnf, s);
        }
    }

    private void startDrain(VnfObservation o, VnfState s, long now) {
        List<String> active = o.activeReplicas();
        String victim = active.get(active.size() - 1);
        long id = newDecisionId();
        if (id < 0) {
            return;
        }
        Entry d = record(id, o, s, now, 0, active.size() - 1, LoopDecision.Action.SCALE_IN);
        s.lowSince = NONE;
        s.phase = VnfLoopRecord.Phase.DRAINING;
        s.pendingDecision = d.id;
        s.drainingReplica = victim;
        s.drainStart = now;
        s.quietSince = NONE;
        s.deleteHeld = false;
        // Write-ahead: a replica taken out of the group is never forgotten by the next leader.
        if (!save(o.vnf(), s)) {
            s.phase = VnfLoopRecord.Phase.IDLE;
            s.drainingReplica = null;
            finish(d.id, LoopDecision.Outcome.FAILED, now, "loop state could not be stored: not started");
            return;
        }
        try {
            routing.drainReplica(o.vnf(), victim);
        } catch (RuntimeException e) {
            s.phase = VnfLoopRecord.Phase.IDLE;
            s.drainingReplica = null;
            s.cooldownUntil = now + params.cooldownNanos();
            finish(d.id, LoopDecision.Outcome.FAILED, now, "drain " + victim + " failed: " + e.getMessage());
            save(o.vnf(), s);
            return;
        }
        finish(d.id, LoopDecision.Outcome.SUCCEEDED, now, "took " + victim + " out of the multipath group");
    }

    private void progressDrain(VnfObservation o, VnfState s, long now) {
        long moved = o.replicaPackets().getOrDefault(s.drainingReplica, 0L);
        if (moved > 0) {
            s.quietSince = NONE;
        } else if (s.quietSince == NONE) {
            s.quietSince = now;
        }
        boolean quiet = s.quietSince != NONE && now - s.quietSince >= params.drainQuietNanos();
        boolean timedOut = now - s.drainStart >= params.drainTimeoutNanos();
        if (!quiet && !timedOut) {
            return;
        }
        // The pod goes only once no switch can steer a packet to it: the flow programming moves the
        // replica's buckets after the inventory change (and a bucket with flows waits for them).
        Optional<String> steered = stillSteering(o.vnf(), s.drainingReplica);
        if (steered.isPresent()) {
            if (now - s.drainStart >= params.releaseTimeoutNanos()) {
                keepReplica(o, s, now, steered.get());
            } else if (!s.deleteHeld) {
                s.deleteHeld = true;
                deletesHeld++;
            }
            return;
        }
        long id = newDecisionId();
        if (id < 0) {
            return;
        }
        String replica = s.drainingReplica;
        boolean pushed = s.movingOut != null;
        Entry d = record(id, o, s, now, 0, o.activeReplicas().size(),
                         pushed ? LoopDecision.Action.PUSH_ASIDE : LoopDecision.Action.SCALE_IN);
        String why = (pushed ? "pushed aside for " + s.movedFor + ": " : "")
                + (quiet ? "Port_Counter still for " + (now - s.quietSince) / 1_000_000 + " ms"
                : "forced after drain timeout, traffic still seen")
                + (steering == null ? "" : "; no switch steers to it (confirmed)");
        s.phase = VnfLoopRecord.Phase.REMOVING;
        s.pendingDecision = d.id;
        if (!save(o.vnf(), s)) {
            s.phase = VnfLoopRecord.Phase.DRAINING;
            finish(d.id, LoopDecision.Outcome.FAILED, now, "loop state could not be stored: not deleted yet");
            return;
        }
        CompletionStage<Void> f;
        try {
            f = platform.deleteReplica(o.vnf(), replica);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, err) -> removeDone(o.vnf(), d.id, replica, why, err));
    }

    /** Where the switches may still steer to a replica; unreadable switches confirm nothing. */
    private Optional<String> stillSteering(VnfKey vnf, String replica) {
        SwitchSteering st = steering;
        if (st == null) {
            return Optional.empty();
        }
        try {
            return st.stillSteering(vnf, replica);
        } catch (RuntimeException e) {
            return Optional.of("switches unreadable: " + e.getMessage());
        }
    }

    /**
     * The switches did not confirm within the release timeout that they stopped steering to the
     * drained replica: deleting its pod could drop packets, so the pod stays and the replica goes
     * back into the group (it serves what the switches still send it); a later scale-in may retry.
     */
    private void keepReplica(VnfObservation o, VnfState s, long now, String where) {
        long id = newDecisionId();
        if (id < 0) {
            return;
        }
        String replica = s.drainingReplica;
        boolean pushed = s.movingOut != null;
        Entry d = record(id, o, s, now, 0, o.activeReplicas().size() + 1,
                         pushed ? LoopDecision.Action.PUSH_ASIDE : LoopDecision.Action.SCALE_IN);
        String detail = (pushed ? "pushed aside for " + s.movedFor + ": " : "") + "pod of " + replica
                + " not deleted: the switches still steer to it " + (now - s.drainStart) / 1_000_000
                + " ms after its drain began (" + where + ")";
        releasesGivenUp++;
        try {
            routing.restoreReplica(o.vnf(), replica);
        } catch (RuntimeException e) {
            // Still out of the group: keep waiting, and give up again after another timeout.
            s.drainStart = now;
            s.quietSince = NONE;
            save(o.vnf(), s);
            finish(d.id, LoopDecision.Outcome.FAILED, now, detail + "; putting it back into the group failed ("
                    + e.getMessage() + "), still draining");
            return;
        }
        endDrain(o.vnf(), s, now);
        finish(d.id, LoopDecision.Outcome.FAILED, now, detail + "; pod kept, " + replica
                + " back in the multipath group");
    }

    private synchronized void removeDone(VnfKey vnf, long decision, String replica, String why, Throwable err) {
        if (closed) {
            // No longer the leader: the next one finishes this decision from the store.
            return;
        }
        long now = clock.nanoTime();
        VnfState s = states.get(vnf);
        if (err != null) {
            // Keep draining: the next quiet period retries the delete.
            if (s != null) {
                s.phase = VnfLoopRecord.Phase.DRAINING;
                s.quietSince = NONE;
                save(vnf, s);
            }
            finish(decision, LoopDecision.Outcome.FAILED, now, "delete " + replica + " failed: " + err);
            return;
        }
        String outcome = why + "; deleted " + replica;
        LoopDecision.Outcome o = LoopDecision.Outcome.SUCCEEDED;
        try {
            routing.removeReplica(vnf, replica);
        } catch (RuntimeException e) {
            o = LoopDecision.Outcome.FAILED;
            outcome += "; inventory update failed: " + e.getMessage();
        }
        finish(decision, o, now, outcome);
        if (s != null) {
            endDrain(vnf, s, now);
        }
    }

    /** The drain is over (its replica deleted, or back in the group): idle, cooling down. */
    private void endDrain(VnfKey vnf, VnfState s, long now) {
        s.phase = VnfLoopRecord.Phase.IDLE;
        s.drainingReplica = null;
        s.deleteHeld = false;
        s.movingOut = null;
        s.movedFor = null;
        s.cooldownUntil = now + params.cooldownNanos();
        save(vnf, s);
    }

    private Entry record(long id, VnfObservation o, VnfState s, long now, int n, int after,
                         LoopDecision.Action a) {
        Map<String, Double> in = new LinkedHashMap<>();
        in.put(LoopDecision.IN_THROUGHPUT, o.ratePps());
        in.put(LoopDecision.IN_LATENCY, (double) o.latencyNanos());
        in.put(LoopDecision.IN_LMAX, (double) o.lmaxNanos());
        in.put(LoopDecision.IN_DEMAND, demand(o, s));
        in.put(LoopDecision.IN_CAPACITY, s.rStar * s.lStar / 1e9);
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
        Entry e = new Entry(id, now, d);
        history.addLast(e);
        trim(false);
        made[a.ordinal()]++;
        return e;
    }

    private synchronized void finish(long id, LoopDecision.Outcome outcome, long now, String detail) {
        for (Entry e : history) {
            if (e.id == id) {
                LoopDecision d = e.decision;
                e.decision = new LoopDecision(d.timeMillis(), d.vnf(), d.inputs(), d.action(), d.replicasBefore(),
                                              d.replicasAfter(), outcome, detail);
                e.finishedNanos = now;
                ended[endedSlot(d.action(), outcome)]++;
                return;
            }
        }
    }
}
