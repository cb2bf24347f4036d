package org.srv6int.app.loop;

import org.srv6int.app.api.ReplicaPlatform;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.NodeId;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.LoopDecision;
import org.srv6int.app.api.LoopStateStore;
import org.srv6int.app.api.PlacementService;
import org.srv6int.app.api.LoopStatus;
import org.srv6int.app.api.Sfc;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.SfcId;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.VnfKey;
import org.srv6int.app.api.VnfLoopState;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.telemetry.TelemetrySnapshot;
import org.srv6int.app.telemetry.TelemetryWindows;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs {@link GlobalLoop} in ONOS: only on the cluster leader of {@link #TOPIC}, one tick per
 * closed telemetry window, observations from the collector's windows, the chains' Lmax and the
 * replica inventory; scale-out and scale-in through the {@link ReplicaPlatform} (the Kubernetes
 * bridge's adapter, an optional service) and the app's {@link VnfInventoryService}.
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

    private final LeadershipEventListener leadershipListener = this::leadershipChanged;
    private final Consumer<TelemetrySnapshot> windowConsumer = this::onWindow;
    private InventoryRouting routing;
    private LoopClock clock = LoopClock.SYSTEM;
    private volatile GlobalLoop loop;
    private volatile long loopTHatMillis;
    private volatile LoopParams.DemandLatency loopDemand;
    private volatile boolean leader;
    private volatile long lastEvaluationMillis;
    private volatile TelemetrySnapshot lastWindow;

    @Activate
    protected void activate() {
        routing = new InventoryRouting(inventory, placement);
        leadershipService.addListener(leadershipListener);
        leadershipService.runForLeadership(TOPIC);
        updateLeader();
        telemetry.addWindowConsumer(windowConsumer);
        log.info("Started (leader: {})", leader);
    }

    @Deactivate
    protected void deactivate() {
        telemetry.removeWindowConsumer(windowConsumer);
        leadershipService.removeListener(leadershipListener);
        leadershipService.withdraw(TOPIC);
        log.info("Stopped");
    }

    void setClock(LoopClock c) {
        clock = c;
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

    private GlobalLoop loop() {
        long tHat = tHatMillis();
        LoopParams.DemandLatency demand = demandLatency();
        GlobalLoop l = loop;
        // a netcfg change of t-hat or of the demand reading starts a new loop (it resumes the store's state)
        if (l == null || loopTHatMillis != tHat || loopDemand != demand) {
            LoopParams p = LoopParams.builder().tHatNanos(TimeUnit.MILLISECONDS.toNanos(tHat))
                    .demandLatency(demand).build();
            if (l != null && loopState != null) {
                l.close();
            }
            l = new GlobalLoop(p, clock, platform, routing, loopState);
            loop = l;
            loopTHatMillis = tHat;
            loopDemand = demand;
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
        List<VnfObservation> obs = new ArrayList<>(observations(s));
        if (!paused.isEmpty()) {
            obs.removeIf(o -> paused.contains(o.vnf().sfcId()));
        }
        loop().tick(obs);
        lastEvaluationMillis = clock.currentTimeMillis();
    }

    private List<VnfObservation> observations(TelemetrySnapshot s) {
        return InventoryRouting.observations(s, sfcService, inventory);
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
        Sfc sfc = sfcService.getSfc(vnf.sfcId())
                .orElseThrow(() -> new SfcException(SfcException.Reason.NOT_FOUND, "no chain " + vnf.sfcId()));
        if (vnf.index() < 0 || vnf.index() >= sfc.vnfs().size()) {
            throw new SfcException(SfcException.Reason.NOT_FOUND, "chain " + vnf.sfcId() + " has no vNF "
                    + vnf.index() + " (it has " + sfc.vnfs().size() + ")");
        }
        if (!leader) {
            NodeId l = leadershipService.getLeader(TOPIC);
            throw new IllegalStateException("this instance does not run the global loop; the leader is "
                    + (l == null ? "none" : l));
        }
        if (!enabled()) {
            throw new IllegalStateException("the global loop is disabled in netcfg (loop.enabled)");
        }
        int replicas = inventory.getReplicas(vnf).size();
        LoopDecision d = loop().escalated(vnf, replicas, node, l95Nanos, lmaxNanos, triedResources);
        log.info("Escalation from {} for {}: {}", node, vnf, d.detail());
        return d;
    }
}
