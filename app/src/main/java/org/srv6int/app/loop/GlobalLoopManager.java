package org.srv6int.app.loop;

import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.ReadinessListener;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.ReplicaPlatform;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import com.codahale.metrics.Gauge;
import org.onlab.metrics.MetricsComponent;
import org.onlab.metrics.MetricsFeature;
import org.onlab.metrics.MetricsService;
import org.onosproject.cluster.NodeId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.Port;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.link.LinkEvent;
import org.onosproject.net.link.LinkListener;
import org.onosproject.net.link.LinkService;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.api.PlacementService;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopState;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.TelemetryWindows;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs {@link GlobalLoop} in ONOS: only on the cluster leader of {@link #TOPIC}, one tick per
 * closed telemetry window, observations from the collector's windows, the chains' Lmax and the
 * replica inventory; scale-out and scale-in through the {@link ReplicaPlatform} (the Kubernetes
 * bridge's adapter, an optional service) and the app's {@link VnfInventoryService}. Before each
 * tick the {@link ChainHealth} failure detection looks at the window, the switches' counters, the
 * platform's replica readiness and port states; link and port events re-run it at once
 * (docs/failures.md).
 */
@Component(immediate = true, service = GlobalLoopService.class)
public class GlobalLoopManager implements GlobalLoopService {

    /** Leadership topic: the node leading it runs the loop. */
    public static final String TOPIC = "org.srv6int.app.global-loop";

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LeadershipService leadershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected TelemetryWindows telemetry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcService sfcService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfInventoryService inventory;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ReplicaPlatform platform;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LoopStateStore loopState;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PlacementService placement;

    // The node agents' pool reports (docs/global-loop.md, "Pools"); null: placement by CPU only.
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NodePoolService nodePools;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LinkService linkService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcPathService pathsService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MetricsService metrics;

    /** ONOS metrics feature of the failure counters (component "srv6int"). */
    public static final String METRICS_FEATURE = "failures";
    /** Names of the failure counters, as metrics and in {@link #failureCounters()}. */
    static final List<String> FAILURE_COUNTERS = List.of("chainDowns", "chainsDownNow", "replicaDeaths",
                                                         "replicaReturns", "replicaFlaps", "reroutes",
                                                         "drainDeletesHeld", "drainsGivenUp");

    private MetricsComponent metricsComponent;
    private MetricsFeature metricsFeature;

    private final DeviceListener deviceListener = this::onDeviceEvent;
    private final LinkListener linkListener = this::onLinkEvent;
    private ChainHealth health;
    private final ReadinessListener readinessListener = this::onReadiness;
    private final java.util.concurrent.atomic.AtomicBoolean readinessCheckQueued =
            new java.util.concurrent.atomic.AtomicBoolean();
    private final Map<org.srv6int.app.api.model.SfcId, List<SegmentList>> lastLists = new HashMap<>();
    private final Set<String> pendingEvents = new LinkedHashSet<>();
    private long reroutes;
    private ExecutorService events;

    private final LeadershipEventListener leadershipListener = this::leadershipChanged;
    private final Consumer<TelemetrySnapshot> windowConsumer = this::onWindow;
    private InventoryRouting routing;
    private LoopClock clock = LoopClock.SYSTEM;
    private volatile GlobalLoop loop;
    private volatile long loopTHatMillis;
    private volatile LoopParams.DemandLatency loopDemand;
    private volatile boolean loopPushAside;
    private volatile boolean loopInterference;
    private volatile long loopReleaseMillis;
    // Learned by the leader, kept in the loop state store: a new leader goes on from it.
    private ClusterInterference interference;
    private InventoryColocation colocation;
    private DetectionInputs detectionInputs;
    private volatile boolean leader;
    private volatile long lastEvaluationMillis;
    private volatile TelemetrySnapshot lastWindow;

    @Activate
    protected void activate() {
        routing = new InventoryRouting(inventory, placement);
        interference = new ClusterInterference(loopState);
        colocation = new InventoryColocation(inventory, sfcService, this::cpuRequestMillis, this::need);
        detectionInputs = new DetectionInputs(inventory)
                .flowEntries(flowRuleService == null ? null : flowRuleService::getFlowEntries)
                .segmentLists(pathsService)
                .readiness((vnf, replica) -> {
                    // read after the inventory: a replica in the group then was Ready when it joined
                    // (the platform's create waits on the same cache), so not Ready now is a change
                    Map<String, Boolean> ready = readiness(vnf);
                    return ready == null ? null : ready.get(replica);
                })
                .portUp(this::portUp);
        health = new ChainHealth(clock, TimeUnit.MILLISECONDS.toNanos(Srv6IntAppConfig.DEFAULT_SILENCE_MS),
                                 TimeUnit.MILLISECONDS.toNanos(Srv6IntAppConfig.DEFAULT_SILENCE_MS),
                                 TimeUnit.MILLISECONDS.toNanos(Srv6IntAppConfig.DEFAULT_RETURN_HOLD_MS));
        // Dead replicas, their holds and flaps outlive a leader change (docs/failures.md).
        health.remember(loopState);
        events = Executors.newSingleThreadExecutor(org.onlab.util.Tools.groupedThreads("srv6int", "loop-events", log));
        if (platform != null) {
            platform.addReadinessListener(readinessListener);
        }
        if (deviceService != null) {
            deviceService.addListener(deviceListener);
        }
        if (metrics != null) {
            metricsComponent = metrics.registerComponent(org.srv6int.app.telemetry.TelemetryManager.METRICS_COMPONENT);
            metricsFeature = metricsComponent.registerFeature(METRICS_FEATURE);
            for (String name : FAILURE_COUNTERS) {
                metrics.registerMetric(metricsComponent, metricsFeature, name,
                                       (Gauge<Long>) () -> failureCounters().getOrDefault(name, 0L));
            }
        }
        if (linkService != null) {
            linkService.addListener(linkListener);
        }
        leadershipService.addListener(leadershipListener);
        leadershipService.runForLeadership(TOPIC);
        updateLeader();
        telemetry.addWindowConsumer(windowConsumer);
        log.info("Started (leader: {})", leader);
    }

    @Deactivate
    protected void deactivate() {
        telemetry.removeWindowConsumer(windowConsumer);
        if (deviceService != null) {
            deviceService.removeListener(deviceListener);
        }
        if (metrics != null) {
            for (String name : FAILURE_COUNTERS) {
                metrics.removeMetric(metricsComponent, metricsFeature, name);
            }
        }
        if (linkService != null) {
            linkService.removeListener(linkListener);
        }
        if (platform != null) {
            platform.removeReadinessListener(readinessListener);
        }
        events.shutdownNow();
        leadershipService.removeListener(leadershipListener);
        leadershipService.withdraw(TOPIC);
        log.info("Stopped");
    }

    void setClock(LoopClock c) {
        clock = c;
    }

    /** Tests: runs event handling on the caller's thread. */
    void runEventsInline() {
        events.shutdownNow();
        events = new java.util.concurrent.AbstractExecutorService() {
            @Override
            public void execute(Runnable r) {
                r.run();
            }

            @Override
            public void shutdown() {
            }

            @Override
            public List<Runnable> shutdownNow() {
                return List.of();
            }

            @Override
            public boolean isShutdown() {
                return false;
            }

            @Override
            public boolean isTerminated() {
                return false;
            }

            @Override
            public boolean awaitTermination(long timeout, TimeUnit unit) {
                return true;
            }
        };
    }

    private void leadershipChanged(LeadershipEvent e) {
        if (TOPIC.equals(e.subject().topic())) {
            updateLeader();
        }
    }

    private void updateLeader() {
        NodeId me = clusterService.getLocalNode().id();
        boolean now = me.equals(leadershipService.getLeader(TOPIC));
        if (now != leader) {
            // A new leader resumes from the loop state store; the old one stops acting at once
            // (without a store its actions in flight finish where they started).
            GlobalLoop old = loop;
            if (old != null && loopState != null) {
                old.close();
            }
            loop = null;
            if (now) {
                // Another leader may have written since this instance last led.
                health.reload();
                interference.lead();
            }
            leader = now;
            log.info("Global loop {} on this node", now ? "runs" : "stops");
        }
    }

    private long tHatMillis() {
        return configService.appConfig().map(Srv6IntAppConfig::tHatMillis).orElse(Srv6IntAppConfig.DEFAULT_T_HAT_MS);
    }

    private boolean enabled() {
        return configService.appConfig().map(Srv6IntAppConfig::loopEnabled).orElse(true);
    }

    private LoopParams.DemandLatency demandLatency() {
        boolean tail = configService.appConfig().map(Srv6IntAppConfig::demandFromHealthyTail).orElse(true);
        return tail ? LoopParams.DemandLatency.HEALTHY_TAIL : LoopParams.DemandLatency.MEASURED;
    }

    private boolean pushAside() {
        return configService.appConfig().map(Srv6IntAppConfig::pushAside).orElse(false);
    }

    private long cpuRequestMillis(String vnfType) {
        return configService.appConfig().flatMap(Srv6IntAppConfig::kubernetes)
                .map(k -> k.cpuRequestMillis(vnfType)).orElse(0L);
    }

    private ResourceNeed need(String vnfType) {
        return configService.appConfig().flatMap(Srv6IntAppConfig::kubernetes)
                .map(k -> k.need(vnfType)).orElse(ResourceNeed.NONE);
    }

    /**
     * How long a drained replica's pod waits for the switches: the flow programming's drain deadline
     * (a bucket with flows moves at the latest then) plus {@link #RELEASE_GRACE_MS} to write and
     * confirm the moves.
     */
    private long releaseTimeoutMillis() {
        return configService.appConfig().map(Srv6IntAppConfig::drainDeadlineMillis)
                .orElse(Srv6IntAppConfig.DEFAULT_DRAIN_DEADLINE_MS) + RELEASE_GRACE_MS;
    }

    /** Time after the drain deadline for the moved buckets to be written and confirmed, ms. */
    static final long RELEASE_GRACE_MS = 30_000;

    /** Where the switches may still steer to a replica: its SID in a bucket table, from the flow store. */
    private boolean interferenceAware() {
        return configService.appConfig().map(Srv6IntAppConfig::interferenceAware).orElse(false);
    }

    @Override
    public org.srv6int.app.api.model.InterferenceView interference() {
        return interference.view(leader);
    }

    private GlobalLoop loop() {
        long tHat = tHatMillis();
        LoopParams.DemandLatency demand = demandLatency();
        boolean pushAside = pushAside();
        boolean aware = interferenceAware();
        long release = releaseTimeoutMillis();
        GlobalLoop l = loop;
        // a netcfg change of t-hat, the demand reading, push-aside, interference-awareness or the drain
        // deadline starts a new
        // loop (it resumes the store's state)
        if (l == null || loopTHatMillis != tHat || loopDemand != demand || loopPushAside != pushAside
                || loopInterference != aware || loopReleaseMillis != release) {
            LoopParams p = LoopParams.builder().tHatNanos(TimeUnit.MILLISECONDS.toNanos(tHat))
                    .demandLatency(demand).pushAside(pushAside)
                    .releaseTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(release)).build();
            if (l != null && loopState != null) {
                l.close();
            }
            ChainRouting r = aware ? new InterferenceAwareRouting(routing, interference.matrix(), colocation) : routing;
            l = new GlobalLoop(p, clock, platform, r, loopState);
            l.setNodeFilter(this::nodePortUp);
            l.setColocation(colocation);
            l.setPools(nodePools);
            if (flowRuleService != null) {
                // A drained replica's pod goes only once no switch steers to it (docs/global-loop.md).
                l.setSteering(SwitchSteering.ofFlowStore(flowRuleService, () -> configService.devices().all().keySet(),
                                                         inventory));
            }
            loop = l;
            loopTHatMillis = tHat;
            loopDemand = demand;
            loopPushAside = pushAside;
            loopInterference = aware;
            loopReleaseMillis = release;
        }
        return l;
    }

    /** One tick per closed window, leader only; paused chains' vNFs are left out. */
    void onWindow(TelemetrySnapshot s) {
        lastWindow = s;
        if (!leader || !enabled()) {
            return;
        }
        Set<SfcId> paused;
        try {
            paused = loopState.pausedChains();
        } catch (RuntimeException e) {
            // Not knowing which chains are paused, the loop does not act this window.
            log.warn("Loop state store unreadable, no loop round: {}", e.getMessage());
            return;
        }
        GlobalLoop l = loop();
        checkHealth(l, s, false);
        List<VnfObservation> obs = new ArrayList<>(observations(s));
        try {
            interference.observe(obs, colocation, colocation);
        } catch (RuntimeException e) {
            // Learning is advisory: the loop's round goes on without it.
            log.debug("Interference learning skipped a window: {}", e.getMessage());
        }
        if (!paused.isEmpty()) {
            obs.removeIf(o -> paused.contains(o.vnf().sfcId()));
        }
        l.tick(obs);
        lastEvaluationMillis = clock.currentTimeMillis();
    }

    private List<VnfObservation> observations(TelemetrySnapshot s) {
        return InventoryRouting.observations(s, sfcService, inventory);
    }

    private void applyHealthParams() {
        Optional<Srv6IntAppConfig> c = configService.appConfig();
        long silence = c.map(Srv6IntAppConfig::silenceMillis).orElse(Srv6IntAppConfig.DEFAULT_SILENCE_MS);
        long replica = c.map(Srv6IntAppConfig::replicaSilenceMillis).orElse(silence);
        long hold = c.map(Srv6IntAppConfig::returnHoldMillis).orElse(Srv6IntAppConfig.DEFAULT_RETURN_HOLD_MS);
        health.setParams(TimeUnit.MILLISECONDS.toNanos(silence), TimeUnit.MILLISECONDS.toNanos(replica),
                         TimeUnit.MILLISECONDS.toNanos(hold));
    }

    /**
     * One round of failure detection: what the window, the switches' counters, the platform and the
     * ports show; the loop carries out what is found. With {@code eventOnly} (a link or port event
     * between windows) only port, platform and segment-list facts are judged.
     */
    private synchronized void checkHealth(GlobalLoop l, TelemetrySnapshot s, boolean eventOnly) {
        applyHealthParams();
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

    /** Records a REROUTE decision for every chain whose segment lists changed after a link or port event. */
    private void noteReroutes(GlobalLoop l) {
        if (pathsService == null) {
            return;
        }
        Map<org.srv6int.app.api.model.SfcId, SfcPaths> now = pathsService.getAllPaths();
        String why = pendingEvents.isEmpty() ? null : String.join(", ", pendingEvents);
        for (Sfc sfc : sfcService.getSfcs()) {
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

    private List<ChainHealth.ChainSeen> seen(GlobalLoop l, TelemetrySnapshot s) {
        return detectionInputs.seen(sfcService.getSfcs(), DetectionInputs.WindowCounts.of(s), l);
    }

    /** Whether a node's switch attachment (netcfg) is on a port that is up; unattached nodes pass. */
    private boolean nodePortUp(String node) {
        return configService.devices().locate(node)
                .map(at -> portUp(new ConnectPoint(at.getKey(), at.getValue().port()))).orElse(true);
    }

    private boolean portUp(ConnectPoint cp) {
        if (deviceService == null) {
            return true;
        }
        Port p = deviceService.getPort(cp.deviceId(), cp.port());
        // A port ONOS does not know (device not connected yet) is not evidence of a failure.
        return p == null || p.isEnabled();
    }

    private void onDeviceEvent(DeviceEvent e) {
        if (e.type() == DeviceEvent.Type.PORT_UPDATED || e.type() == DeviceEvent.Type.PORT_REMOVED) {
            Port p = e.port();
            String what = "port " + e.subject().id() + "/" + p.number() + (p.isEnabled()
                    && e.type() == DeviceEvent.Type.PORT_UPDATED ? " up" : " down");
            events.execute(() -> topologyChanged(what));
        }
    }

    private void onLinkEvent(LinkEvent e) {
        if (e.type() == LinkEvent.Type.LINK_REMOVED || e.type() == LinkEvent.Type.LINK_UPDATED
                || e.type() == LinkEvent.Type.LINK_ADDED) {
            boolean up = e.type() != LinkEvent.Type.LINK_REMOVED
                    && e.subject().state() == org.onosproject.net.Link.State.ACTIVE;
            String what = "link " + e.subject().src() + "->" + e.subject().dst() + (up ? " up" : " down");
            events.execute(() -> topologyChanged(what));
        }
    }

    /**
     * A link or port changed: the failure detection runs at once on the last window (replicas
     * behind a port that went down die, chains without a segment list go down) and the chains
     * whose segment lists changed are recorded as re-routed. The re-route itself is the app's
     * placement and flow programming reacting to the topology and inventory (make-before-break).
     *
     * @param what the event, for the decision's detail
     */
    void topologyChanged(String what) {
        if (!leader || !enabled()) {
            return;
        }
        synchronized (this) {
            pendingEvents.add(what);
        }
        try {
            checkHealth(loop(), lastWindow, true);
        } catch (RuntimeException ex) {
            log.warn("Failure detection after {} failed: {}", what, ex.getMessage());
        }
    }

    // The platform's thread: queued once for however many changes arrive before it runs.
    private void onReadiness(VnfKey vnf, String replicaId, boolean ready) {
        if (readinessCheckQueued.compareAndSet(false, true)) {
            events.execute(this::readinessChanged);
        }
    }

    /**
     * A replica's pod turned Ready or not Ready, or its workload appeared or went (the platform's
     * push, docs/failures.md): the failure detection runs at once, on port, platform and
     * segment-list facts, as after a port event; it reads the readiness the platform now has.
     */
    void readinessChanged() {
        readinessCheckQueued.set(false);
        if (!leader || !enabled()) {
            return;
        }
        try {
            checkHealth(loop(), lastWindow, true);
        } catch (RuntimeException ex) {
            log.warn("Failure detection after a readiness change failed: {}", ex.getMessage());
        }
    }

    /** The platform's readiness of a vNF's replicas, from its cache; unknown if it cannot tell. */
    private Map<String, Boolean> readiness(VnfKey vnf) {
        ReplicaPlatform p = platform;
        try {
            return p == null ? null : p.replicaReadiness(vnf).orElse(null);
        } catch (RuntimeException e) {
            return null; // not knowing is not evidence of a death
        }
    }

    @Override
    public List<ChainState> chainStates() {
        if (!leader) {
            return storedStates();
        }
        return health.states(clock.currentTimeMillis());
    }

    /**
     * What an instance that does not run the loop knows from the store: the chains the leader
     * recorded DOWN and the replicas it counts dead; every other chain is UNKNOWN here.
     */
    private List<ChainState> storedStates() {
        Map<SfcId, ChainState> down;
        Map<org.srv6int.app.api.model.VnfReplicaId, org.srv6int.app.api.model.ReplicaHealthRecord> replicas;
        try {
            down = loopState.downChains();
            replicas = loopState.replicaHealth();
        } catch (RuntimeException e) {
            log.debug("Loop state store unreadable, no chain states: {}", e.getMessage());
            return List.of();
        }
        List<Sfc> chains = new ArrayList<>(sfcService.getSfcs());
        chains.sort(java.util.Comparator.comparingInt(c -> c.id().tag()));
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

    @Override
    public Map<String, Long> failureCounters() {
        Map<String, Long> c = new TreeMap<>(health.counters());
        synchronized (this) {
            c.put("reroutes", reroutes);
        }
        // the scale-in's wait for the switches (restart from 0 with the loop, as its decisions do)
        GlobalLoop g = loop;
        c.put("drainDeletesHeld", g == null ? 0 : g.deletesHeld());
        c.put("drainsGivenUp", g == null ? 0 : g.releasesGivenUp());
        return c;
    }

    @Override
    public LoopStatus status() {
        NodeId l = leadershipService.getLeader(TOPIC);
        GlobalLoop g = loop;
        List<VnfLoopState> states = new ArrayList<>();
        TelemetrySnapshot s = lastWindow;
        if (s != null) {
            long nowNanos = clock.nanoTime();
            long nowMillis = clock.currentTimeMillis();
            for (VnfObservation o : observations(s)) {
                long since = g == null ? Long.MIN_VALUE : g.violatingSinceNanos(o.vnf());
                long sinceMillis = since == Long.MIN_VALUE ? 0 : nowMillis - (nowNanos - since) / 1_000_000;
                states.add(new VnfLoopState(o.vnf(), o.lmaxNanos(), o.latencyNanos(), o.ratePps(), sinceMillis,
                                            o.activeReplicas().size()));
            }
        }
        return new LoopStatus(enabled(), leader, l == null ? "none" : l.toString(), tHatMillis(),
                              lastEvaluationMillis, states);
    }

    @Override
    public List<LoopDecision> decisions(int limit) {
        GlobalLoop g = loop;
        if (g == null || limit <= 0) {
            return List.of();
        }
        List<LoopDecision> h = g.history();
        return new ArrayList<>(h.subList(Math.max(0, h.size() - limit), h.size()));
    }

    @Override
    public long decisionsMade(LoopDecision.Action action) {
        GlobalLoop g = loop;
        return g == null ? 0 : g.decisionsMade(action);
    }

    @Override
    public long decisionsEnded(LoopDecision.Action action, LoopDecision.Outcome outcome) {
        GlobalLoop g = loop;
        return g == null ? 0 : g.decisionsEnded(action, outcome);
    }

    @Override
    public void setPaused(SfcId sfc, boolean paused) {
        if (sfcService.getSfc(sfc).isEmpty()) {
            throw new SfcException(SfcException.Reason.NOT_FOUND, "chain " + sfc + " not found");
        }
        loopState.setPaused(sfc, paused);
        log.info("Global loop {} for chain {}", paused ? "paused" : "resumed", sfc);
    }

    @Override
    public Set<SfcId> pausedChains() {
        return loopState.pausedChains();
    }

    @Override
    public LoopDecision escalate(VnfKey vnf, String node, long l95Nanos, long lmaxNanos,
                                 List<String> triedResources) {
        Escalation e = new Escalation(vnf, node, l95Nanos, lmaxNanos, triedResources);
        LoopDecision d = Escalations.take(e, sfcService, inventory, () -> {
            if (!leader) {
                NodeId l = leadershipService.getLeader(TOPIC);
                throw new IllegalStateException("this instance does not run the global loop; the leader is "
                        + (l == null ? "none" : l));
            }
            if (!enabled()) {
                throw new IllegalStateException("the global loop is disabled in netcfg (loop.enabled)");
            }
            return loop();
        });
        log.info("Escalation from {} for {}: {}", node, vnf, d.detail());
        return d;
    }
}
