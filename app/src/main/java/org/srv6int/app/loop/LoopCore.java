// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.EscalationReceipt;
import org.srv6int.app.api.model.InterferenceView;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.QueuedEscalation;
import org.srv6int.app.api.model.ReplicaHealthRecord;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopState;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.store.LoopStateStore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The global loop's core, plain Java: what ONOS ({@link GlobalLoopManager}), the testbed twin and
 * the benchmarks all run. One entry per evaluation period, {@link #period}, runs in order the
 * failure detection ({@link ChainHealth} on {@link DetectionInputs}), the observations of the
 * window, interference learning ({@link ClusterInterference}), the paused-chain filter and
 * Algorithm 4's step ({@link GlobalLoop}); between windows {@link #topologyChanged} and
 * {@link #readinessChanged} run the failure detection on event facts, and {@link #escalate} takes a
 * node agent's escalation. Built by {@link #builder()} from its ports; sources not given are
 * left out of the round (no detection inputs: no failure detection; no residents: no learning).
 *
 * <p>Leadership: only a leading core acts ({@link #setLeader}); a core that stops leading closes
 * its loop, and one that starts resumes from the loop state store at its next entry. A change of
 * the loop's settings starts a new loop the same way.
 */
public final class LoopCore implements GlobalLoopService {

    /** Names of the failure counters, as in {@link #failureCounters()}. */
    public static final List<String> FAILURE_COUNTERS = List.of("chainDowns", "chainsDownNow", "replicaDeaths",
                                                                "replicaReturns", "replicaFlaps", "reroutes",
                                                                "drainDeletesHeld", "drainsGivenUp",
                                                                "reservationsJoined", "reservationsGivenBack",
                                                                "reservationStepsFailed");

    private final Logger log = LoggerFactory.getLogger(getClass());

    private final LoopClock clock;
    private final ReplicaPlatform platform;
    private final ChainRouting routing;
    private final LoopStateStore store;
    private final Colocation colocation;
    private final NodeResidents residents;
    private final SwitchSteering steering;
    private final NodePoolService pools;
    private final Predicate<String> nodeUsable;
    private final SfcService sfcs;
    private final VnfInventoryService inventory;
    private final SfcPathService segmentLists;
    private final DetectionInputs detection;
    private final Function<TelemetrySnapshot, List<VnfObservation>> observations;
    private final Function<TelemetrySnapshot, DetectionInputs.WindowCounts> counts;
    private final Supplier<LoopSettings> settings;
    private final Supplier<String> leaderName;
    private final ClusterInterference interference;
    private final ChainHealth health;
    private final EscalationQueue queued;

    private final Map<SfcId, List<SegmentList>> lastLists = new HashMap<>();
    private final Set<String> pendingEvents = new LinkedHashSet<>();
    private long reroutes;
    private volatile GlobalLoop loop;
    private volatile LoopSettings loopSettings;
    private volatile boolean leading;
    // serialises leadership changes (this core's own lock may be held by a round for seconds)
    private final Object leaderChange = new Object();
    private volatile long lastEvaluationMillis;
    private volatile TelemetrySnapshot lastWindow;

    LoopCore(LoopCoreBuilder b) {
        this.clock = b.clock;
        this.platform = b.platform;
        this.routing = b.routing;
        this.store = b.store;
        this.colocation = b.colocation;
        this.residents = b.residents;
        this.steering = b.steering;
        this.pools = b.pools;
        this.nodeUsable = b.nodeUsable;
        this.sfcs = b.sfcs;
        this.inventory = b.inventory;
        this.segmentLists = b.segmentLists;
        this.detection = b.detection;
        this.settings = b.settings;
        this.leaderName = b.leaderName;
        this.leading = b.leading;
        this.counts = b.counts;
        Function<TelemetrySnapshot, List<VnfObservation>> obs = b.observations;
        if (obs == null) {
            obs = s -> s == null ? List.of() : InventoryRouting.observations(s, sfcs, inventory);
        }
        this.observations = obs;
        this.interference = new ClusterInterference(store);
        this.queued = b.escalations == null ? null : new EscalationQueue(b.escalations, b.self);
        if (detection != null) {
            LoopSettings now = settings.get();
            health = new ChainHealth(clock, now.silenceNanos(), now.replicaSilenceNanos(), now.returnHoldNanos());
            if (store != null) {
                // Dead replicas, their holds and flaps outlive a leader change (docs/failures.md).
                health.remember(store);
            }
        } else {
            health = null;
        }
    }

    /**
     * Starts a builder.
     *
     * @return builder
     */
    public static LoopCoreBuilder builder() {
        return new LoopCoreBuilder();
    }

    /**
     * One evaluation period: failure detection on the closed window, the window's observations,
     * interference learning, the paused chains left out, then Algorithm 4's step. Nothing happens
     * unless this core leads and the loop is enabled; if the store cannot say which chains are
     * paused the round is skipped.
     *
     * @param window the closed telemetry window (null: no telemetry, nothing counted)
     */
    public void period(TelemetrySnapshot window) {
        lastWindow = window;
        LoopSettings set = settings.get();
        if (!leading || !set.enabled()) {
            return;
        }
        Set<SfcId> paused = Set.of();
        if (store != null) {
            try {
                paused = store.pausedChains();
            } catch (RuntimeException e) {
                // Not knowing which chains are paused, the loop does not act this window.
                log.warn("Loop state store unreadable, no loop round: {}", e.toString()); // a Timeout has no message
                return;
            }
        }
        GlobalLoop l = leadingLoop(set);
        if (l == null) {
            return;
        }
        consumeQueued(set);
        checkHealth(l, window, false, set);
        List<VnfObservation> obs = new ArrayList<>(observations.apply(window));
        if (residents != null && colocation != null) {
            try {
                interference.observe(obs, colocation, residents);
            } catch (RuntimeException e) {
                // Learning is advisory: the loop's round goes on without it.
                log.debug("Interference learning skipped a window: {}", e.getMessage());
            }
        }
        if (!paused.isEmpty()) {
            Set<SfcId> p = paused;
            obs.removeIf(o -> p.contains(o.vnf().sfcId()));
        }
        l.tick(obs);
        lastEvaluationMillis = clock.currentTimeMillis();
    }

    /**
     * A link or port changed: the failure detection runs at once on the last window (replicas
     * behind a port that went down die, chains without a segment list go down) and the chains
     * whose segment lists changed are recorded as re-routed.
     *
     * @param what the event, for the decision's detail
     */
    public void topologyChanged(String what) {
        LoopSettings set = settings.get();
        if (!leading || !set.enabled()) {
            return;
        }
        synchronized (this) {
            pendingEvents.add(what);
        }
        try {
            GlobalLoop l = leadingLoop(set);
            if (l != null) {
                checkHealth(l, lastWindow, true, set);
            }
        } catch (RuntimeException ex) {
            log.warn("Failure detection after {} failed: {}", what, ex.getMessage());
        }
    }

    /**
     * A replica's pod turned Ready or not Ready, or its workload appeared or went: the failure
     * detection runs at once on port, platform and segment-list facts.
     */
    public void readinessChanged() {
        LoopSettings set = settings.get();
        if (!leading || !set.enabled()) {
            return;
        }
        try {
            GlobalLoop l = leadingLoop(set);
            if (l != null) {
                checkHealth(l, lastWindow, true, set);
            }
        } catch (RuntimeException ex) {
            log.warn("Failure detection after a readiness change failed: {}", ex.getMessage());
        }
    }

    /**
     * Takes a node agent's escalation ({@link Escalations#take}: chain and vNF checked, replicas
     * counted) on this core's loop.
     *
     * @param e the escalation
     * @return the recorded decision
     * @throws SfcException          if the chain or vNF does not exist
     * @throws IllegalStateException if this core does not lead, the loop is disabled or its store
     *                               is unavailable
     */
    public LoopDecision escalate(Escalation e) {
        LoopDecision d = Escalations.take(e, sfcs, inventory, () -> {
            if (!leading) {
                throw new IllegalStateException("this instance does not run the global loop; the leader is "
                        + leaderName.get());
            }
            LoopSettings set = settings.get();
            if (!set.enabled()) {
                throw new IllegalStateException("the global loop is disabled in netcfg (loop.enabled)");
            }
            GlobalLoop l = leadingLoop(set);
            if (l == null) {
                throw new IllegalStateException("this instance no longer runs the global loop; the leader is "
                        + leaderName.get());
            }
            return l;
        });
        log.info("Escalation from {} for {}: {}", e.node(), e.vnf(), d.detail());
        return d;
    }

    /**
     * Takes a node agent's escalation on any instance: the leader records it ({@link #escalate});
     * another instance, given the cluster's escalation store, checks its chain and vNF and queues
     * it for the leader's next round.
     *
     * @param e the escalation
     * @return the decision, or what was queued
     * @throws SfcException          if the chain or vNF does not exist
     * @throws IllegalStateException if the loop is disabled, or this core neither leads nor has a
     *                               store to queue in, or the store is unavailable
     */
    @Override
    public EscalationReceipt submitEscalation(Escalation e) {
        if (queued == null || leading) {
            try {
                return EscalationReceipt.decided(escalate(e));
            } catch (IllegalStateException ex) {
                // Leadership moved while it was taken: queue it for the next leader.
                if (queued == null || leading) {
                    throw ex;
                }
            }
        }
        Escalations.check(e, sfcs);
        if (!settings.get().enabled()) {
            throw new IllegalStateException("the global loop is disabled in netcfg (loop.enabled)");
        }
        QueuedEscalation q = queued.queue(e, clock.currentTimeMillis());
        log.info("Escalation from {} for {} queued for the leader {} ({} post(s))", e.node(), e.vnf(),
                 leaderName.get(), q.posts());
        return EscalationReceipt.queued(q, leaderName.get());
    }

    /**
     * The leader takes the escalations other instances queued into its loop, once each (docs/cluster.md).
     * A store it cannot read leaves them for the next round.
     */
    private void consumeQueued(LoopSettings set) {
        if (queued == null) {
            return;
        }
        try {
            long maxAgeMillis = set.params().tHatNanos() / 1_000_000;
            queued.consume(clock.currentTimeMillis(), maxAgeMillis, this::escalate);
        } catch (RuntimeException ex) {
            log.warn("Queued escalations not taken this round: {}", ex.getMessage());
        }
    }

    /**
     * Counters of the escalations queued for a leader: queued by this instance, and consumed,
     * expired (older than t-hat) and dropped (chain or vNF gone) by its loop while it led.
     *
     * @return counter name to value, empty without an escalation store
     */
    @Override
    public Map<String, Long> escalationCounters() {
        return queued == null ? Map.of() : queued.counters();
    }

    @Override
    public LoopDecision escalate(VnfKey vnf, String node, long l95Nanos, long lmaxNanos,
                                 List<String> triedResources) {
        return escalate(new Escalation(vnf, node, l95Nanos, lmaxNanos, triedResources));
    }

    @Override
    public LoopStatus status() {
        LoopSettings set = settings.get();
        return new LoopStatus(set.enabled(), leading, leaderName.get(),
                              set.params().tHatNanos() / 1_000_000, lastEvaluationMillis, vnfStates());
    }

    @Override
    public List<LoopDecision> decisions(int limit) {
        List<LoopDecision> h = limit <= 0 ? List.of() : history();
        return new ArrayList<>(h.subList(Math.max(0, h.size() - limit), h.size()));
    }

    /**
     * This instance starts or stops leading. A core that stops closes its loop (its actions in
     * flight are the next leader's, resumed from the store); one that starts reloads what the
     * store holds of replica health and interference and builds its loop at its next entry.
     *
     * @param now whether this instance leads
     * @return whether that changed anything
     */
    public boolean setLeader(boolean now) {
        // Not behind this core's lock: a round's failure detection blocked on the store holds it
        // for seconds, and a leader cut off from the majority must stop at once (seen: a cut-off
        // leader kept its loop 8 s after its view went leaderless, ended a scale-out meanwhile,
        // and that write landed after the heal, before the new leader could read the store)
        synchronized (leaderChange) {
            if (now == leading) {
                return false;
            }
            if (!now) {
                // first: a round that builds its loop meanwhile checks it again (leadingLoop)
                leading = false;
                if (health != null) {
                    health.stopWriting();
                }
            }
            GlobalLoop old = loop;
            if (old != null && store != null) {
                // without a store its actions in flight finish where they started
                old.close();
            }
            loop = null;
            if (queued != null) {
                queued.forget();
            }
            if (now) {
                // Another leader may have written since this instance last led.
                if (health != null) {
                    health.reload();
                }
                interference.lead();
                leading = true;
            }
            return true;
        }
    }

    /** @return whether this core leads */
    public boolean leading() {
        return leading;
    }

    /**
     * The loop to act with, or null once this core no longer leads: checked again once built, so
     * that a round begun as leader acts with no loop the step-down missed (seen: a loop built and
     * restored from the store 70 ms after "Global loop stops").
     */
    private synchronized GlobalLoop leadingLoop(LoopSettings set) {
        if (!leading) {
            return null;
        }
        GlobalLoop l = loop(set);
        if (!leading) {
            // stepped down while it was built (setLeader does not take this lock)
            if (store != null) {
                l.close();
            }
            return null;
        }
        return l;
    }

    /**
     * The loop of the current settings: a change of them starts a new loop (it resumes the store's state).
     */
    private synchronized GlobalLoop loop(LoopSettings set) {
        GlobalLoop l = loop;
        if (l == null || !set.sameLoop(loopSettings)) {
            if (l != null && store != null) {
                l.close();
            }
            ChainRouting r = set.interferenceAware() && residents != null
                    ? new InterferenceAwareRouting(routing, interference.matrix(), residents) : routing;
            l = new GlobalLoop(set.params(), clock, platform, r, store);
            l.setNodeFilter(nodeUsable);
            l.setColocation(colocation);
            l.setPools(pools);
            l.setSteering(steering);
            loop = l;
            loopSettings = set;
        }
        return l;
    }

    /**
     * One round of failure detection: what the window, the switches' counters, the platform and the
     * ports show; the loop carries out what is found. With {@code eventOnly} (an event between
     * windows) only port, platform and segment-list facts are judged.
     */
    private synchronized void checkHealth(GlobalLoop l, TelemetrySnapshot s, boolean eventOnly, LoopSettings set) {
        if (health == null) {
            return;
        }
        health.setParams(set.silenceNanos(), set.replicaSilenceNanos(), set.returnHoldNanos());
        List<ChainHealth.Finding> found = health.observe(seen(l, s), eventOnly);
        // A death may leave a chain without a segment list: judged at once, not a window later.
        for (int round = 0; round < 2 && !found.isEmpty(); round++) {
            boolean died = false;
            for (ChainHealth.Finding f : found) {
                died |= f.kind() == ChainHealth.Finding.Kind.REPLICA_DEAD;
            }
            for (LoopDecision d : l.onFindings(found)) {
                log.warn("Failure detection: {} {}: {}", d.action(), d.vnf(), d.detail());
            }
            found = died ? health.observe(seen(l, s), true) : List.of();
        }
        noteReroutes(l);
    }

    private List<ChainHealth.ChainSeen> seen(GlobalLoop l, TelemetrySnapshot s) {
        return detection.seen(sfcs.getSfcs(), counts.apply(s), l);
    }

    /** Records a REROUTE decision for every chain whose segment lists changed after a link or port event. */
    private void noteReroutes(GlobalLoop l) {
        if (segmentLists == null) {
            return;
        }
        Map<SfcId, SfcPaths> now = segmentLists.getAllPaths();
        String why = pendingEvents.isEmpty() ? null : String.join(", ", pendingEvents);
        for (Sfc sfc : sfcs.getSfcs()) {
            List<SegmentList> after = Optional.ofNullable(now.get(sfc.id())).map(SfcPaths::segmentLists)
                    .orElse(List.of());
            List<SegmentList> before = lastLists.put(sfc.id(), after);
            if (why != null && before != null && !before.equals(after) && !sfc.vnfs().isEmpty()) {
                reroutes++;
                LoopDecision d = l.rerouted(VnfKey.of(sfc.id(), 0), why + ": " + before.size() + " -> "
                        + after.size() + " segment list(s) " + describe(after));
                log.warn("Re-route of chain {}: {}", sfc.id(), d.detail());
            }
        }
        lastLists.keySet().retainAll(now.keySet());
        pendingEvents.clear();
    }

    private static String describe(List<SegmentList> lists) {
        List<String> out = new ArrayList<>();
        for (SegmentList sl : lists) {
            out.add(sl.switchPath() + " via " + sl.replicas() + " w" + sl.weight());
        }
        return out.toString();
    }

    /**
     * The chains' liveness: on the leader the failure detection's; elsewhere what the store holds
     * (the chains the leader recorded DOWN and the replicas it counts dead; every other chain is
     * UNKNOWN here).
     *
     * @return one state per chain
     */
    @Override
    public List<ChainState> chainStates() {
        if (leading && health != null) {
            return health.states(clock.currentTimeMillis());
        }
        if (store == null || sfcs == null) {
            return List.of();
        }
        Map<SfcId, ChainState> down;
        Map<VnfReplicaId, ReplicaHealthRecord> replicas;
        try {
            down = store.downChains();
            replicas = store.replicaHealth();
        } catch (RuntimeException e) {
            log.debug("Loop state store unreadable, no chain states: {}", e.toString());
            return List.of();
        }
        List<Sfc> chains = new ArrayList<>(sfcs.getSfcs());
        chains.sort(Comparator.comparingInt(c -> c.id().tag()));
        List<ChainState> out = new ArrayList<>();
        for (Sfc sfc : chains) {
            List<String> dead = new ArrayList<>();
            replicas.forEach((id, r) -> {
                if (r.dead() && id.vnf().sfcId().equals(sfc.id())) {
                    dead.add(id.toString());
                }
            });
            dead.sort(null);
            ChainState d = down.get(sfc.id());
            out.add(d == null ? new ChainState(sfc.id(), ChainState.Liveness.UNKNOWN, 0, "", "", -1, 0, dead)
                    : new ChainState(sfc.id(), ChainState.Liveness.DOWN, d.sinceMillis(), d.lastHopSeen(), d.reason(),
                                     d.classifiedPackets(), d.lastReportMillis(), dead));
        }
        return out;
    }

    /**
     * The failure counters: the detection's, re-routes, the scale-in's waits for the switches and
     * the reservations no create owned, joined or given back, and their steps that failed (retried)
     * (these restart from 0 with the loop, as its decisions do).
     *
     * @return counter name to value
     */
    @Override
    public Map<String, Long> failureCounters() {
        Map<String, Long> c = new TreeMap<>(health == null ? Map.of() : health.counters());
        synchronized (this) {
            c.put("reroutes", reroutes);
        }
        GlobalLoop g = loop;
        c.put("drainDeletesHeld", g == null ? 0 : g.deletesHeld());
        c.put("drainsGivenUp", g == null ? 0 : g.releasesGivenUp());
        if (g != null) {
            // reservations no create owned: joined once Ready, or given back (docs/cluster.md, issue 33)
            synchronized (g) {
                c.put("reservationsJoined", g.reservations.joined);
                c.put("reservationsGivenBack", g.reservations.givenBack);
                c.put("reservationStepsFailed", g.reservations.failures);
            }
        }
        return c;
    }

    /**
     * Each vNF of the last window as the loop sees it: bound, latency, rate, violation start
     * (wall clock ms, 0 if none) and replicas.
     *
     * @return states, empty before the first window
     */
    public List<VnfLoopState> vnfStates() {
        TelemetrySnapshot s = lastWindow;
        List<VnfLoopState> states = new ArrayList<>();
        if (s == null) {
            return states;
        }
        GlobalLoop g = loop;
        long nowNanos = clock.nanoTime();
        long nowMillis = clock.currentTimeMillis();
        for (VnfObservation o : observations.apply(s)) {
            long since = g == null ? Long.MIN_VALUE : g.violatingSinceNanos(o.vnf());
            long sinceMillis = since == Long.MIN_VALUE ? 0 : nowMillis - (nowNanos - since) / 1_000_000;
            states.add(new VnfLoopState(o.vnf(), o.lmaxNanos(), o.latencyNanos(), o.ratePps(), sinceMillis,
                                        o.activeReplicas().size()));
        }
        return states;
    }

    /** @return the loop clock's wall time of the last period the loop ran, 0 if none */
    public long lastEvaluationMillis() {
        return lastEvaluationMillis;
    }

    /**
     * The current loop's decisions, oldest first (empty before this core first led).
     *
     * @return decisions
     */
    public List<LoopDecision> history() {
        GlobalLoop g = loop;
        return g == null ? List.of() : g.history();
    }

    /**
     * Decisions of an action the current loop made.
     *
     * @param action action
     * @return decisions, 0 without a loop
     */
    @Override
    public long decisionsMade(LoopDecision.Action action) {
        GlobalLoop g = loop;
        return g == null ? 0 : g.decisionsMade(action);
    }

    /**
     * Decisions of an action the current loop ended with an outcome.
     *
     * @param action  action
     * @param outcome outcome
     * @return decisions, 0 without a loop
     */
    @Override
    public long decisionsEnded(LoopDecision.Action action, LoopDecision.Outcome outcome) {
        GlobalLoop g = loop;
        return g == null ? 0 : g.decisionsEnded(action, outcome);
    }

    /**
     * The loop of this core now (null before it first led, or after it stopped): its state for
     * figures and tests.
     *
     * @return the loop, or null
     */
    public GlobalLoop currentLoop() {
        return loop;
    }

    /**
     * The loop this core acts with, built now if it has none yet (as its next entry would).
     *
     * @return the loop
     */
    public GlobalLoop loop() {
        return loop(settings.get());
    }

    /**
     * The failure detection's counters (empty without detection inputs).
     *
     * @return counters
     */
    public Map<String, Long> detectionCounters() {
        return health == null ? Map.of() : health.counters();
    }

    /**
     * The learned interference: the leader's own, elsewhere the store's.
     *
     * @return the matrix's view
     */
    @Override
    public InterferenceView interference() {
        return interference.view(leading);
    }

    /**
     * Pauses or resumes the loop of one chain (kept in the store: a new leader honours it).
     *
     * @param sfc    chain
     * @param paused true to pause
     * @throws SfcException if the chain does not exist
     */
    @Override
    public void setPaused(SfcId sfc, boolean paused) {
        if (sfcs.getSfc(sfc).isEmpty()) {
            throw new SfcException(SfcException.Reason.NOT_FOUND, "chain " + sfc + " not found");
        }
        store.setPaused(sfc, paused);
        log.info("Global loop {} for chain {}", paused ? "paused" : "resumed", sfc);
    }

    /**
     * The paused chains.
     *
     * @return chains, empty without a store
     */
    @Override
    public Set<SfcId> pausedChains() {
        return store == null ? Set.of() : store.pausedChains();
    }
}
