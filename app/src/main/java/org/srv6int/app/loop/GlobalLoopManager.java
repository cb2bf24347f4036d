// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.onlab.metrics.MetricsService;
import org.onlab.util.Tools;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.link.LinkListener;
import org.onosproject.net.link.LinkService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.PlacementService;
import org.srv6int.app.api.ReadinessListener;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.TelemetryWindows;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.store.EscalationStore;
import org.srv6int.app.store.LoopStateStore;

import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The ONOS wiring of the loop's {@link LoopCore} ({@link OnosLoopPorts}): it leads on the leader of {@link #TOPIC},
 * one {@link LoopCore#period} per window; link, port and readiness events run its failure detection at once;
 * netcfg gives its settings; its counters are metrics. Wired by OSGi or the public constructor, then activated.
 */
@Component(immediate = true, service = GlobalLoopService.class)
public class GlobalLoopManager extends ForwardingLoopService {
    /** Leadership topic: the node leading it runs the loop. */
    public static final String TOPIC = "org.srv6int.app.global-loop";
    /** ONOS metrics feature of the failure counters (component "srv6int"). */
    public static final String METRICS_FEATURE = "failures";

    private final Logger log = LoggerFactory.getLogger(getClass());
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected LeadershipService leadershipService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected ClusterService clusterService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected TelemetryWindows telemetry;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected SfcService sfcService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected VnfInventoryService inventory;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected Srv6IntConfigService configService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected ReplicaPlatform platform;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected LoopStateStore loopState;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected PlacementService placement;
    // The node agents' pool reports (docs/global-loop.md, "Pools"); null: placement by CPU only.
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected NodePoolService nodePools;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected FlowRuleService flowRuleService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected DeviceService deviceService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected LinkService linkService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected SfcPathService pathsService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected MetricsService metrics;
    // Escalations any instance took for the leader (docs/cluster.md); null: a follower refuses them.
    @Reference(cardinality = ReferenceCardinality.MANDATORY) protected EscalationStore escalationStore;

    private final DeviceListener deviceListener = e -> onTopologyEvent(TopologyChanges.of(e));
    private final LinkListener linkListener = e -> onTopologyEvent(TopologyChanges.of(e));
    private final ReadinessListener readinessListener = (vnf, replica, ready) -> onReadiness();
    private final LeadershipEventListener leadershipListener = this::leadershipChanged;
    private final Consumer<TelemetrySnapshot> windowConsumer = this::onWindow;
    private final AtomicBoolean readinessCheckQueued = new AtomicBoolean();
    private LoopClock clock = LoopClock.SYSTEM;
    private FailureMetrics failureMetrics;
    private ExecutorService pool;
    private Executor events;
    private LoopCore core;

    /** For OSGi: the references are set on the fields, then {@link #activate()}. */
    public GlobalLoopManager() {
    }

    /**
     * Wires the component without OSGi (the fields' services in their order; pools, flows, devices, links,
     * paths and metrics may be null: docs/global-loop.md); {@link #activate()} starts it.
     */
    public GlobalLoopManager(LeadershipService leadership, ClusterService cluster, TelemetryWindows telemetry,
                             SfcService sfcs, VnfInventoryService inventory, Srv6IntConfigService config,
                             ReplicaPlatform platform, LoopStateStore loopState, PlacementService placement,
                             NodePoolService pools, FlowRuleService flows, DeviceService devices, LinkService links,
                             SfcPathService paths, MetricsService metrics) {
        this.leadershipService = leadership;
        this.clusterService = cluster;
        this.telemetry = telemetry;
        this.sfcService = sfcs;
        this.inventory = inventory;
        this.configService = config;
        this.platform = platform;
        this.loopState = loopState;
        this.placement = placement;
        this.nodePools = pools;
        this.flowRuleService = flows;
        this.deviceService = devices;
        this.linkService = links;
        this.pathsService = paths;
        this.metrics = metrics;
    }

    /**
     * Sets the loop's clock, before {@link #activate()} (default the system's).
     *
     * @param c clock
     */
    public void setClock(LoopClock c) {
        clock = c;
    }

    /**
     * Sets the cluster's escalation store, before {@link #activate()}, for a host without OSGi
     * (default none: an instance that does not lead refuses escalations with 503).
     *
     * @param s store
     */
    public void setEscalationStore(EscalationStore s) {
        escalationStore = s;
    }

    @Activate
    public void activate() {
        core = OnosLoopPorts.core(this, clock, this::leaderName);
        pool = Executors.newSingleThreadExecutor(Tools.groupedThreads("srv6int", "loop-events", log));
        events = pool;
        if (platform != null) {
            platform.addReadinessListener(readinessListener);
        }
        if (deviceService != null) {
            deviceService.addListener(deviceListener);
        }
        if (linkService != null) {
            linkService.addListener(linkListener);
        }
        failureMetrics = FailureMetrics.register(metrics, this::failureCounters);
        leadershipService.addListener(leadershipListener);
        leadershipService.runForLeadership(TOPIC);
        updateLeader();
        telemetry.addWindowConsumer(windowConsumer);
        log.info("Started (leader: {})", core.leading());
    }

    @Deactivate
    public void deactivate() {
        telemetry.removeWindowConsumer(windowConsumer);
        if (deviceService != null) {
            deviceService.removeListener(deviceListener);
        }
        if (failureMetrics != null) {
            failureMetrics.remove();
        }
        if (linkService != null) {
            linkService.removeListener(linkListener);
        }
        if (platform != null) {
            platform.removeReadinessListener(readinessListener);
        }
        pool.shutdownNow();
        leadershipService.removeListener(leadershipListener);
        leadershipService.withdraw(TOPIC);
        log.info("Stopped");
    }

    /** Tests: runs event handling on the caller's thread. */
    void runEventsInline() {
        events = Runnable::run;
    }

    private void leadershipChanged(LeadershipEvent e) {
        if (TOPIC.equals(e.subject().topic())) {
            updateLeader();
        }
    }

    private void updateLeader() {
        boolean now = clusterService.getLocalNode().id().equals(leadershipService.getLeader(TOPIC));
        if (core.setLeader(now)) {
            log.info("Global loop {} on this node", now ? "runs" : "stops");
        }
    }

    private String leaderName() {
        return Optional.ofNullable(leadershipService.getLeader(TOPIC)).map(Object::toString).orElse("none");
    }

    /** One loop period per closed window (the core acts on the leader only). */
    void onWindow(TelemetrySnapshot s) {
        core.period(s);
    }

    private void onTopologyEvent(String what) {
        if (what != null) {
            events.execute(() -> topologyChanged(what));
        }
    }

    /** A link or port changed (see {@link LoopCore#topologyChanged}). */
    void topologyChanged(String what) {
        core.topologyChanged(what);
    }

    // The platform's thread: queued once for however many changes arrive before it runs.
    private void onReadiness() {
        if (readinessCheckQueued.compareAndSet(false, true)) {
            events.execute(this::readinessChanged);
        }
    }

    /** A replica's readiness changed (see {@link LoopCore#readinessChanged}). */
    void readinessChanged() {
        readinessCheckQueued.set(false);
        core.readinessChanged();
    }

    @Override
    protected GlobalLoopService delegate() {
        return core;
    }
}
