// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.onlab.util.Tools;
import org.onosproject.cfg.ComponentConfigService;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleEvent;
import org.onosproject.net.flow.FlowRuleListener;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.GroupEvent;
import org.onosproject.net.group.GroupListener;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.topology.PathService;
import org.onosproject.net.topology.TopologyEvent;
import org.onosproject.net.topology.TopologyListener;
import org.onosproject.net.topology.TopologyService;
import org.osgi.service.component.ComponentContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.SfcEvent;
import org.srv6int.app.api.SfcListener;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.VnfReplicaEvent;
import org.srv6int.app.api.VnfReplicaListener;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.placement.SidRouting;
import org.srv6int.pipeconf.Srv6IntPipelineConstants;

import java.util.Collection;
import java.util.Dictionary;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.stream.StreamSupport;

import static org.onlab.util.Tools.groupedThreads;
import static org.srv6int.app.program.OsgiPropertyConstants.RECONCILE_PERIOD;
import static org.srv6int.app.program.OsgiPropertyConstants.RECONCILE_PERIOD_DEFAULT;

/**
 * Keeps every SRv6 switch this instance masters programmed: on any change of
 * chains, replicas, netcfg, topology, mastership or of its own flow rules and
 * groups it translates the whole intent and runs {@link Srv6IntReconciler}
 * steps on one thread; a periodic pass catches anything missed. Switches
 * mastered elsewhere are left to their master.
 */
@Component(immediate = true, service = Srv6IntProgrammingManager.class,
        property = {RECONCILE_PERIOD + ":Integer=" + RECONCILE_PERIOD_DEFAULT})
public class Srv6IntProgrammingManager {

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GroupService groupService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected TopologyService topologyService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PathService pathService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService networkConfigService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ComponentConfigService componentConfigService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcService sfcService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfInventoryService inventoryService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcPathService pathsService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;

    private ApplicationId appId;
    private Srv6IntReconciler reconciler;
    private ScheduledExecutorService executor;
    private ScheduledFuture<?> periodic;
    /** Seconds between safety reconcile passes. */
    private int reconcilePeriodSeconds = RECONCILE_PERIOD_DEFAULT;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    // switches that may still hold entries or groups of ours
    private final Set<DeviceId> touched = new HashSet<>();

    private final SfcListener sfcListener = (SfcEvent e) -> schedule();
    private final VnfReplicaListener replicaListener = (VnfReplicaEvent e) -> schedule();
    private final NetworkConfigListener configListener = (NetworkConfigEvent e) -> schedule();
    private final TopologyListener topologyListener = (TopologyEvent e) -> schedule();
    private final MastershipListener mastershipListener = (MastershipEvent e) -> schedule();
    private final FlowRuleListener flowRuleListener = this::onFlowRuleEvent;
    private final GroupListener groupListener = this::onGroupEvent;

    /** Creates the component for OSGi, which sets its references. */
    public Srv6IntProgrammingManager() {
    }

    /**
     * Creates the component with the references its reconcile passes read, for a host without
     * OSGi that drives {@link #reconcile()} itself: call {@link #bindApplication(ApplicationId, LongSupplier)},
     * not {@link #activate}, which also needs CoreService and ComponentConfigService.
     *
     * @param flowRuleService      flow rules
     * @param groupService         groups
     * @param mastershipService    mastership
     * @param topologyService      topology
     * @param pathService          paths
     * @param networkConfigService ONOS netcfg
     * @param sfcService           chains
     * @param inventoryService     replicas
     * @param pathsService         the chains' paths
     * @param configService        the app's netcfg
     */
    public Srv6IntProgrammingManager(FlowRuleService flowRuleService, GroupService groupService,
                                     MastershipService mastershipService, TopologyService topologyService,
                                     PathService pathService, NetworkConfigService networkConfigService,
                                     SfcService sfcService, VnfInventoryService inventoryService,
                                     SfcPathService pathsService, Srv6IntConfigService configService) {
        this.flowRuleService = flowRuleService;
        this.groupService = groupService;
        this.mastershipService = mastershipService;
        this.topologyService = topologyService;
        this.pathService = pathService;
        this.networkConfigService = networkConfigService;
        this.sfcService = sfcService;
        this.inventoryService = inventoryService;
        this.pathsService = pathsService;
        this.configService = configService;
    }

    /**
     * Starts listening and programs what is missing.
     *
     * @param context component context
     */
    @Activate
    public void activate(ComponentContext context) {
        bindApplication(coreService.registerApplication(Srv6IntConfigService.APP_NAME));
        componentConfigService.registerProperties(getClass());
        executor = Executors.newSingleThreadScheduledExecutor(groupedThreads("srv6int", "program", log));
        modified(context);
        sfcService.addListener(sfcListener);
        inventoryService.addListener(replicaListener);
        networkConfigService.addListener(configListener);
        topologyService.addListener(topologyListener);
        mastershipService.addListener(mastershipListener);
        flowRuleService.addListener(flowRuleListener);
        groupService.addListener(groupListener);
        schedule();
        log.info("Started");
    }

    /**
     * Takes the application id the entries are installed under. {@link #activate} does it with
     * the id CoreService registers; a host that drives {@link #reconcile()} itself, without this
     * component's thread and listeners (the testbed twin, in simulated time), calls it instead.
     *
     * @param id application id
     */
    protected void bindApplication(ApplicationId id) {
        appId = id;
        reconciler = new Srv6IntReconciler(flowRuleService, groupService, id);
    }

    /**
     * Takes the application id and the clock the drain by flows runs on, for a host that drives
     * {@link #reconcile()} in its own time (the testbed twin's simulated seconds).
     *
     * @param id          application id
     * @param clockMillis milliseconds
     */
    public void bindApplication(ApplicationId id, LongSupplier clockMillis) {
        appId = id;
        reconciler = new Srv6IntReconciler(flowRuleService, groupService, id,
                new BucketTables(Srv6IntPipelineConstants.ENCAP_BUCKETS), clockMillis);
    }

    /**
     * Applies component properties.
     *
     * @param context component context
     */
    @Modified
    public void modified(ComponentContext context) {
        Dictionary<?, ?> props = context == null ? null : context.getProperties();
        Integer p = props == null ? null : Tools.getIntegerProperty(props, RECONCILE_PERIOD);
        int next = p == null || p < 1 ? RECONCILE_PERIOD_DEFAULT : p;
        if (periodic == null || next != reconcilePeriodSeconds) {
            reconcilePeriodSeconds = next;
            if (periodic != null) {
                periodic.cancel(false);
            }
            periodic = executor.scheduleWithFixedDelay(this::reconcileQuietly, reconcilePeriodSeconds,
                    reconcilePeriodSeconds,
                                                       TimeUnit.SECONDS);
        }
    }

    /** Stops listening; installed entries stay (they belong to the network until the app is removed). */
    @Deactivate
    public void deactivate() {
        sfcService.removeListener(sfcListener);
        inventoryService.removeListener(replicaListener);
        networkConfigService.removeListener(configListener);
        topologyService.removeListener(topologyListener);
        mastershipService.removeListener(mastershipListener);
        flowRuleService.removeListener(flowRuleListener);
        groupService.removeListener(groupListener);
        componentConfigService.unregisterProperties(getClass(), false);
        executor.shutdownNow();
        log.info("Stopped");
    }

    private void onFlowRuleEvent(FlowRuleEvent e) {
        if (e.subject().appId() == appId.id()) {
            schedule();
        }
    }

    private void onGroupEvent(GroupEvent e) {
        if (e.subject().appId() != null && e.subject().appId().equals(appId)) {
            schedule();
        }
    }

    private void schedule() {
        if (executor != null && scheduled.compareAndSet(false, true)) {
            executor.execute(() -> {
                scheduled.set(false);
                reconcileQuietly();
            });
        }
    }

    private void reconcileQuietly() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            log.warn("Reconcile pass failed, retried on the next event or in {} s", reconcilePeriodSeconds, e);
        }
    }

    /**
     * Runs one reconcile step on every switch this instance masters.
     *
     * @return operations issued
     */
    public int reconcile() {
        Srv6Devices devices = configService.devices();
        Optional<Srv6IntAppConfig> app = configService.appConfig();
        // netcfg's drain times (validated there: a refused config leaves the last good one in force)
        reconciler.bucketTables().setDrainTimes(
                app.map(Srv6IntAppConfig::drainIdleMillis).orElse(Srv6IntAppConfig.DEFAULT_DRAIN_IDLE_MS),
                app.map(Srv6IntAppConfig::drainDeadlineMillis).orElse(Srv6IntAppConfig.DEFAULT_DRAIN_DEADLINE_MS),
                app.map(Srv6IntAppConfig::bucketHoldMillis).orElse(Srv6IntAppConfig.DEFAULT_BUCKET_HOLD_MS));
        Collection<VnfReplica> replicas = inventoryService.getReplicas();
        Map<DeviceId, DeviceProgram> programs = Srv6IntTranslator.translate(
                sfcService.getSfcs(), pathsService.getAllPaths(), replicas, devices,
                app.orElse(null), this::masterOf, new SidRouting(pathService), appId);
        // switches that lost their config keep our entries and groups until we remove them
        Set<DeviceId> targets;
        synchronized (touched) {
            touched.addAll(programs.keySet());
            // A FlowRuleService with nothing stored may answer null (onos-api's adapter does).
            Iterable<FlowEntry> ours = flowRuleService.getFlowEntriesById(appId);
            if (ours != null) {
                StreamSupport.stream(ours.spliterator(), false).map(FlowEntry::deviceId).forEach(touched::add);
            }
            targets = new HashSet<>(touched);
        }
        int ops = 0;
        for (DeviceId d : targets) {
            if (mastershipService.isLocalMaster(d)) {
                int n = reconciler.step(d, programs.get(d), replicas, devices);
                ops += n;
                if (n == 0 && !programs.containsKey(d) && reconciler.isClean(d)) {
                    synchronized (touched) {
                        touched.remove(d);
                    }
                }
            }
        }
        // a drain by flows waits for counters: look again while buckets wait
        if (reconciler.bucketTables().waiting() > 0 && executor != null) {
            executor.schedule(this::schedule, DRAIN_RECHECK_MS, TimeUnit.MILLISECONDS);
        }
        return ops;
    }

    /** How often buckets waiting for their flows to end are looked at again. */
    private static final long DRAIN_RECHECK_MS = 1_000;

    private String masterOf(DeviceId d) {
        NodeId n = mastershipService.getMasterFor(d);
        return n == null ? null : n.toString();
    }

    /**
     * Returns the bucket tables' drain counters: buckets moved after their
     * flows ended, moved at the drain deadline, moved at once, held (hysteresis).
     *
     * @return four counters
     */
    public long[] bucketCounters() {
        return reconciler.bucketTables().counters();
    }

    /**
     * Returns the app id the entries are installed under.
     *
     * @return app id
     */
    public ApplicationId appId() {
        return appId;
    }
}
