// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.crd;

import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.ChainOwnershipService;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.SfcEvent;
import org.srv6int.app.api.SfcListener;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.TelemetryWindows;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.VnfReplicaEvent;
import org.srv6int.app.api.VnfReplicaListener;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.config.KubernetesSettings;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.k8s.bridge.crd.ChainController;

import java.io.File;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import static org.onlab.util.Tools.groupedThreads;

/**
 * Chains declared as ServiceFunctionChain objects (docs/crd.md): runs the bridge's
 * {@link ChainController} with this app's {@link ChainReconciler} on the instance that leads the
 * global loop (the loop's own topic, so the status is read where the loop runs), in the namespace of
 * the netcfg section {@code kubernetes}; it stops on losing leadership and starts afresh (a full
 * resync) on gaining it. The ownership (chain id → object) is a cluster-wide map, so every instance
 * answers REST/CLI with the same 409. Without the {@code kubernetes} section nothing runs and no
 * chain has an owner but those recorded before.
 */
@Component(immediate = true, service = ChainOwnershipService.class)
public class ChainCrdManager implements ChainOwnershipService {

    /** The cluster's ownership map: chain id → {@code namespace/name} of its object. */
    static final String OWNERS_MAP = "srv6int-chain-owners";
    /** How long a new leader waits for the informer's first listing. */
    static final Duration LIST_TIMEOUT = Duration.ofSeconds(30);

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LeadershipService leadershipService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService netcfgService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcService sfcService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GlobalLoopService loopService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfInventoryService inventory;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected TelemetryWindows windows;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    private Map<Integer, String> owners;
    private ChainReconciler reconciler;
    private ExecutorService executor;
    private final LeadershipEventListener leadershipListener = this::leadershipChanged;
    private final NetworkConfigListener netcfgListener = this::netcfgChanged;
    private final VnfReplicaListener replicaListener = this::replicaChanged;
    private final SfcListener sfcListener = this::sfcChanged;
    // The last closed telemetry window (p95 per vNF), as the loop saw it.
    private volatile TelemetrySnapshot lastWindow;
    private final Consumer<TelemetrySnapshot> windowConsumer = w -> lastWindow = w;
    // Guarded by this.
    private ChainController controller;
    private KubernetesSettings running;
    private volatile Settings settings = Settings.DEFAULT;

    /** Controller knobs; tests shorten the window. */
    static final class Settings {
        static final Settings DEFAULT = new Settings(ChainController.Settings.defaults());
        final ChainController.Settings controller;

        Settings(ChainController.Settings controller) {
            this.controller = controller;
        }
    }

    /** Creates the component for OSGi, which sets its references. */
    public ChainCrdManager() {
    }

    /**
     * Creates the component with its references, for a host without OSGi (tests); call
     * {@link #activate()}.
     *
     * @param leadership  leadership (the loop's topic)
     * @param cluster     cluster (the local node)
     * @param netcfg      ONOS netcfg (its events)
     * @param config      the app's netcfg
     * @param sfcs        chains
     * @param loop        the global loop (pause, decisions, liveness)
     * @param inventory   replicas
     * @param windows     telemetry windows (p95)
     * @param flows       flow rules (the finalizer waits for the chain's entries to go)
     * @param storage     storage (the ownership map)
     */
    public ChainCrdManager(LeadershipService leadership, ClusterService cluster, NetworkConfigService netcfg,
                           Srv6IntConfigService config, SfcService sfcs, GlobalLoopService loop,
                           VnfInventoryService inventory, TelemetryWindows windows, FlowRuleService flows,
                           StorageService storage) {
        this.leadershipService = leadership;
        this.clusterService = cluster;
        this.netcfgService = netcfg;
        this.configService = config;
        this.sfcService = sfcs;
        this.loopService = loop;
        this.inventory = inventory;
        this.windows = windows;
        this.flowRuleService = flows;
        this.storageService = storage;
    }

    /** Sets the controller's knobs (tests); applies from the next start. */
    void setControllerSettings(ChainController.Settings s) {
        settings = new Settings(s);
    }

    /** Opens the ownership map and starts the controller if this instance leads. */
    @Activate
    public void activate() {
        owners = storageService.<Integer, String>consistentMapBuilder().withName(OWNERS_MAP)
                .withSerializer(Serializer.using(KryoNamespaces.BASIC)).build().asJavaMap();
        windows.addWindowConsumer(windowConsumer);
        reconciler = new ChainReconciler(sfcService, loopService, inventory, () -> Optional.ofNullable(lastWindow),
                                         flowRuleService,
                                         () -> configService.devices().all().keySet(), owners,
                                         System::currentTimeMillis);
        executor = Executors.newSingleThreadExecutor(groupedThreads("srv6int/crd", "%d", log));
        leadershipService.addListener(leadershipListener);
        netcfgService.addListener(netcfgListener);
        inventory.addListener(replicaListener);
        sfcService.addListener(sfcListener);
        executor.execute(this::update);
        log.info("Started");
    }

    /** Stops the controller. */
    @Deactivate
    public void deactivate() {
        leadershipService.removeListener(leadershipListener);
        netcfgService.removeListener(netcfgListener);
        inventory.removeListener(replicaListener);
        sfcService.removeListener(sfcListener);
        windows.removeWindowConsumer(windowConsumer);
        executor.shutdownNow();
        synchronized (this) {
            stop();
        }
        log.info("Stopped");
    }

    @Override
    public Optional<String> owner(SfcId id) {
        Map<Integer, String> o = owners;
        return o == null ? Optional.empty() : Optional.ofNullable(o.get(id.tag()));
    }

    private void leadershipChanged(LeadershipEvent e) {
        if (GlobalLoopManager.TOPIC.equals(e.subject().topic())) {
            executor.execute(this::update);
        }
    }

    private void netcfgChanged(NetworkConfigEvent e) {
        if (Srv6IntAppConfig.class.equals(e.configClass())) {
            executor.execute(this::update);
        }
    }

    // A replica of an owned chain came, changed or went: its object's status and events follow now.
    private void replicaChanged(VnfReplicaEvent e) {
        enqueue(e.subject().vnf().sfcId());
    }

    private void sfcChanged(SfcEvent e) {
        enqueue(e.subject().id());
    }

    private void enqueue(SfcId id) {
        ChainController c;
        synchronized (this) {
            c = controller;
        }
        String key = owners.get(id.tag());
        if (c != null && key != null) {
            c.enqueue(key);
        }
    }

    /** Starts, keeps or stops the controller as leadership and netcfg say (on the executor). */
    void update() {
        boolean leader = Objects.equals(clusterService.getLocalNode().id(),
                                        leadershipService.getLeader(GlobalLoopManager.TOPIC));
        Optional<KubernetesSettings> s = configService.appConfig().flatMap(Srv6IntAppConfig::kubernetes);
        synchronized (this) {
            if (leader && s.isPresent() && s.get().equals(running) && controller != null) {
                return;
            }
            stop();
            if (!leader || s.isEmpty()) {
                return;
            }
            try {
                KubernetesSettings k = s.get();
                // The bridge builds the client: fabric8 stays inside its bundle.
                controller = ChainController.withOwnClient(k.kubeconfig().map(File::new).orElse(null),
                                                           k.apiServer().orElse(null),
                                                           k.tokenFile().map(File::new).orElse(null),
                                                           k.caFile().map(File::new).orElse(null), k.namespace(),
                                                           reconciler, settings.controller,
                                                           clusterService.getLocalNode().id().toString());
                boolean listed = controller.start(LIST_TIMEOUT);
                running = k;
                log.info("ServiceFunctionChain controller leads in namespace {} ({})", k.namespace(),
                         listed ? "listed" : "first listing late; the informer keeps trying");
            } catch (RuntimeException e) {
                log.warn("ServiceFunctionChain controller not started: {}", e.toString());
                stop();
            }
        }
    }

    // Guarded by this.
    private void stop() {
        if (controller != null) {
            controller.close();
            controller = null;
            log.info("ServiceFunctionChain controller stopped");
        }
        running = null;
    }

    /**
     * Returns the running controller's counters (syncs, statusWrites, events...).
     *
     * @return counters; empty when it does not run here
     */
    public synchronized Map<String, Long> counters() {
        return controller == null ? Map.of() : controller.counters();
    }

    /** The running controller (tests). */
    synchronized ChainController controller() {
        return controller;
    }
}
