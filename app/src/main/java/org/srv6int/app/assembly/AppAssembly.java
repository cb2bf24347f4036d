// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.assembly;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.event.EventDeliveryService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.topology.PathService;
import org.onosproject.net.topology.TopologyService;
import org.onosproject.store.service.StorageService;
import org.srv6int.app.chain.SfcManager;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigManager;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.inventory.ReplicaLifecycle;
import org.srv6int.app.inventory.VnfInventoryManager;
import org.srv6int.app.placement.SfcPathManager;
import org.srv6int.app.pools.NodePoolManager;
import org.srv6int.app.program.Srv6IntProgrammingManager;
import org.srv6int.app.store.DistributedLoopStateStore;
import org.srv6int.app.store.DistributedSfcStore;
import org.srv6int.app.store.DistributedTelemetrySummaryStore;
import org.srv6int.app.store.DistributedVnfReplicaStore;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.store.SfcStore;
import org.srv6int.app.store.TelemetrySummaryStore;
import org.srv6int.app.store.VnfReplicaStore;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The app's real components wired over ONOS service interfaces without OSGi, the one way a host
 * outside Karaf builds the app: the app's tests (over srv6int-testkit's in-memory services), the
 * testbed twin, the cli's tests and the benchmarks. Each component gets its references through
 * its public constructor, as Declarative Services gives them through its {@code @Reference}
 * fields in Karaf, and is activated in dependency order; {@link #stop()} deactivates them in
 * reverse.
 *
 * <p>The flow programming runs without its own thread and listeners: the host calls
 * {@link #settle()} (or {@code programmer().reconcile()}) when it wants the switches programmed,
 * on the clock it gave the builder (the twin's simulated time, a test's hand-moved clock).
 *
 * <p>The closed loop (INT collector and telemetry, replica platform, global loop) is built over
 * an assembly by {@link LoopAssembly}. Not wired here yet: export, the REST/GUI and the agents'
 * authentication; hosts build what they need of those over these components.
 */
public final class AppAssembly {

    private final Srv6IntConfigService config;
    private final DistributedSfcStore sfcStore;
    private final DistributedVnfReplicaStore replicaStore;
    private final DistributedLoopStateStore loopState;
    private final DistributedTelemetrySummaryStore summaries;
    private final SfcManager sfcs;
    private final VnfInventoryManager inventory;
    private final SfcPathManager paths;
    private final Srv6IntProgrammingManager programmer;
    private final NodePoolManager pools;
    // the services under the app, for LoopAssembly
    private final StorageService storage;
    private final NetworkConfigService netcfg;
    private final FlowRuleService flowRules;
    private final MastershipService mastership;
    private final Deque<Runnable> stops = new ArrayDeque<>();

    private AppAssembly(Builder b) {
        if (b.config != null) {
            config = b.config;
        } else {
            Srv6IntConfigManager reader = new Srv6IntConfigManager(b.registry, b.core);
            reader.activate();
            stops.push(reader::deactivate);
            config = reader;
        }
        netcfg = b.networkConfig != null ? b.networkConfig : b.registry;
        storage = b.storage;
        flowRules = b.flowRules;
        mastership = b.mastership;
        ApplicationId appId = b.appId != null ? b.appId : b.core.registerApplication(Srv6IntConfigService.APP_NAME);

        sfcStore = new DistributedSfcStore(b.storage);
        sfcStore.activate();
        stops.push(sfcStore::deactivate);
        replicaStore = new DistributedVnfReplicaStore(b.storage);
        replicaStore.activate();
        stops.push(replicaStore::deactivate);
        loopState = new DistributedLoopStateStore(b.storage);
        loopState.activate();
        summaries = new DistributedTelemetrySummaryStore(b.storage);
        summaries.activate();

        // the one life cycle that writes replica records, for the chain service and the inventory alike
        ReplicaLifecycle lifecycle = new ReplicaLifecycle(replicaStore, b.clock);
        sfcs = new SfcManager(sfcStore, replicaStore, lifecycle, config, b.events);
        sfcs.activate();
        stops.push(sfcs::deactivate);
        inventory = new VnfInventoryManager(replicaStore, lifecycle, sfcs, config, b.events);
        inventory.activate();
        stops.push(inventory::deactivate);
        paths = new SfcPathManager(sfcs, inventory, config, netcfg, b.topology, b.paths);
        paths.activate();
        stops.push(paths::deactivate);
        programmer = new Srv6IntProgrammingManager(b.flowRules, b.groups, b.mastership, b.topology, b.paths, netcfg,
                                                   sfcs, inventory, paths, config);
        programmer.bindApplication(appId, b.clock);
        LongSupplier clock = b.clock;
        pools = new NodePoolManager(b.storage, node -> config.devices().locate(node).isPresent(), clock,
                                    b.poolMaxAgeMs);
    }

    /**
     * Starts a builder.
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The app's netcfg as it reads it.
     *
     * @return config service
     */
    public Srv6IntConfigService config() {
        return config;
    }

    /**
     * The chain store.
     *
     * @return store
     */
    public SfcStore sfcStore() {
        return sfcStore;
    }

    /**
     * The replica store.
     *
     * @return store
     */
    public VnfReplicaStore replicaStore() {
        return replicaStore;
    }

    /**
     * The global loop's state store (records, health, paused and down chains), on the storage.
     *
     * @return store
     */
    public LoopStateStore loopState() {
        return loopState;
    }

    /**
     * The instances' telemetry summaries, on the storage.
     *
     * @return store
     */
    public TelemetrySummaryStore summaries() {
        return summaries;
    }

    /**
     * The chain service.
     *
     * @return chain manager
     */
    public SfcManager sfcs() {
        return sfcs;
    }

    /**
     * The replica inventory.
     *
     * @return inventory manager
     */
    public VnfInventoryManager inventory() {
        return inventory;
    }

    /**
     * Paths and placement.
     *
     * @return path manager
     */
    public SfcPathManager paths() {
        return paths;
    }

    /**
     * The flow programming (driven: call {@link #settle()}).
     *
     * @return programming manager
     */
    public Srv6IntProgrammingManager programmer() {
        return programmer;
    }

    /**
     * The node agents' pool reports.
     *
     * @return pool manager
     */
    public NodePoolManager pools() {
        return pools;
    }

    StorageService storageService() {
        return storage;
    }

    NetworkConfigService networkConfigService() {
        return netcfg;
    }

    FlowRuleService flowRuleService() {
        return flowRules;
    }

    MastershipService mastershipService() {
        return mastership;
    }

    /**
     * Applies a netcfg document the way ONOS applies one: the app's config ({@code apps} /
     * {@value Srv6IntConfigService#APP_NAME} / {@code srv6int}) and each device's {@code srv6int}
     * section, to a netcfg service the app's config classes are registered with.
     *
     * @param core   core service (the app's id)
     * @param netcfg netcfg service
     * @param doc    the document: "apps" and "devices"
     * @throws org.onosproject.net.config.InvalidConfigException if a config is invalid
     */
    public static void applyNetcfg(CoreService core, NetworkConfigService netcfg, JsonNode doc) {
        ApplicationId appId = core.registerApplication(Srv6IntConfigService.APP_NAME);
        JsonNode app = doc.path("apps").path(Srv6IntConfigService.APP_NAME).path(Srv6IntAppConfig.KEY);
        if (!app.isMissingNode()) {
            netcfg.applyConfig(appId, Srv6IntAppConfig.class, app);
        }
        JsonNode devices = doc.path("devices");
        for (Iterator<String> it = devices.fieldNames(); it.hasNext();) {
            String d = it.next();
            JsonNode c = devices.get(d).path(Srv6IntAppConfig.KEY);
            if (!c.isMissingNode()) {
                netcfg.applyConfig(DeviceId.deviceId(d), Srv6DeviceConfig.class, c);
            }
        }
    }

    /**
     * Runs reconcile passes until one issues no operation.
     *
     * @return number of passes that issued operations
     * @throws IllegalStateException if programming does not converge in 20 passes
     */
    public int settle() {
        for (int pass = 0; pass < 20; pass++) {
            if (programmer.reconcile() == 0) {
                return pass;
            }
        }
        throw new IllegalStateException("programming did not converge in 20 passes");
    }

    /** Deactivates the components in reverse order of activation. */
    public void stop() {
        while (!stops.isEmpty()) {
            stops.pop().run();
        }
    }

    /**
     * The ONOS services the app runs on. Required: storage, events, flow rules, groups,
     * mastership, topology, paths, and either {@link #netcfg} (the app reads its config through
     * its own reader) or {@link #config} with {@link #networkConfig} and {@link #appId}.
     */
    public static final class Builder {
        private StorageService storage;
        private EventDeliveryService events;
        private FlowRuleService flowRules;
        private GroupService groups;
        private MastershipService mastership;
        private TopologyService topology;
        private PathService paths;
        private NetworkConfigRegistry registry;
        private CoreService core;
        private NetworkConfigService networkConfig;
        private Srv6IntConfigService config;
        private ApplicationId appId;
        private LongSupplier clock = System::currentTimeMillis;
        private long poolMaxAgeMs = NodePoolManager.DEFAULT_MAX_AGE_MS;

        private Builder() {
        }

        /**
         * The cluster's storage: the chain, replica, loop-state, summary and pool stores.
         *
         * @param storage storage service
         * @return this
         */
        public Builder storage(StorageService storage) {
            this.storage = storage;
            return this;
        }

        /**
         * Event delivery for the chain and inventory managers' listeners.
         *
         * @param events event delivery
         * @return this
         */
        public Builder events(EventDeliveryService events) {
            this.events = events;
            return this;
        }

        /**
         * The switches' flow rules.
         *
         * @param flowRules flow rule service
         * @return this
         */
        public Builder flowRules(FlowRuleService flowRules) {
            this.flowRules = flowRules;
            return this;
        }

        /**
         * The switches' groups.
         *
         * @param groups group service
         * @return this
         */
        public Builder groups(GroupService groups) {
            this.groups = groups;
            return this;
        }

        /**
         * This instance's view of mastership (it programs the switches it masters).
         *
         * @param mastership mastership service
         * @return this
         */
        public Builder mastership(MastershipService mastership) {
            this.mastership = mastership;
            return this;
        }

        /**
         * Topology (its events) and paths.
         *
         * @param topology topology service
         * @param paths    path service
         * @return this
         */
        public Builder topology(TopologyService topology, PathService paths) {
            this.topology = topology;
            this.paths = paths;
            return this;
        }

        /**
         * ONOS netcfg: the app registers its config classes and reads them back through its own
         * reader; its application id comes from the core service unless {@link #appId} names one.
         *
         * @param registry netcfg registry
         * @param core     core service
         * @return this
         */
        public Builder netcfg(NetworkConfigRegistry registry, CoreService core) {
            this.registry = registry;
            this.core = core;
            return this;
        }

        /**
         * The app's config as given (a snapshot a test holds) instead of read from netcfg.
         *
         * @param config        the app's config
         * @param networkConfig ONOS netcfg whose events the path and programming managers hear
         * @return this
         */
        public Builder config(Srv6IntConfigService config, NetworkConfigService networkConfig) {
            this.config = config;
            this.networkConfig = networkConfig;
            return this;
        }

        /**
         * The application id the flow rules and groups are installed under.
         *
         * @param appId application id
         * @return this
         */
        public Builder appId(ApplicationId appId) {
            this.appId = appId;
            return this;
        }

        /**
         * The app's clock: the drain by flows, the pool reports' age (default: the wall clock).
         *
         * @param millis milliseconds
         * @return this
         */
        public Builder clock(LongSupplier millis) {
            this.clock = millis;
            return this;
        }

        /**
         * Age beyond which a node agent's pool report is stale.
         *
         * @param millis milliseconds
         * @return this
         */
        public Builder poolMaxAge(long millis) {
            this.poolMaxAgeMs = millis;
            return this;
        }

        /**
         * Builds and activates the components.
         *
         * @return the assembly
         * @throws NullPointerException if a required service is missing
         */
        public AppAssembly build() {
            requireNonNull(storage, "storage");
            requireNonNull(events, "events");
            requireNonNull(flowRules, "flowRules");
            requireNonNull(groups, "groups");
            requireNonNull(mastership, "mastership");
            requireNonNull(topology, "topology");
            requireNonNull(paths, "paths");
            requireNonNull(clock, "clock");
            if (config == null) {
                requireNonNull(registry, "netcfg registry (or config)");
                requireNonNull(core, "core service (or config)");
            } else {
                requireNonNull(networkConfig, "networkConfig");
                if (core == null) {
                    requireNonNull(appId, "appId (or netcfg)");
                }
            }
            return new AppAssembly(this);
        }
    }
}
