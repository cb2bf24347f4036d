package org.srv6int.twin.control;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigManager;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.placement.SfcPathManager;
import org.srv6int.app.program.Srv6IntProgrammingManager;
import org.srv6int.app.store.DistributedSfcStore;
import org.srv6int.app.store.DistributedVnfReplicaStore;
import org.srv6int.app.chain.SfcManager;
import org.srv6int.app.inventory.VnfInventoryManager;
import org.srv6int.testkit.InMemoryCluster;
import org.srv6int.testkit.InMemoryCoreService;
import org.srv6int.testkit.InMemoryEventDeliveryService;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.testkit.InMemoryLinkService;
import org.srv6int.testkit.InMemoryMastershipService;
import org.srv6int.testkit.InMemoryNetworkConfigRegistry;
import org.srv6int.app.pools.NodePoolManager;
import org.srv6int.testkit.InMemoryStorageService;
import org.srv6int.testkit.InMemoryTopologyService;

import java.util.Iterator;
import java.util.List;

/**
 * The app's core components in one JVM without OSGi: its netcfg reader, chain and replica
 * stores, chain and inventory managers, path and placement manager and flow programming, over
 * srv6int-testkit's in-memory ONOS services (netcfg registry, storage, event delivery, links and
 * paths, one-instance mastership, flow rules and groups that stand for the switches). Each
 * component gets its references as OSGi would give them: a small subclass sets its
 * {@code @Reference} fields (protected for Declarative Services) and activates it; no
 * reflection. The programming manager runs without its own thread and listeners: the twin
 * calls {@link #settle()} when it wants the switches programmed, in simulated time.
 */
public final class AppCore {

    /** The instance's node id; it masters every switch. */
    public static final NodeId NODE = NodeId.nodeId("onos-1");

    /** ONOS's application ids. */
    public final InMemoryCoreService core = new InMemoryCoreService();
    /** Netcfg, where the testbed's JSON is applied. */
    public final InMemoryNetworkConfigRegistry netcfg = new InMemoryNetworkConfigRegistry().withCoreService(core);
    /** The switches' flow tables. */
    public final InMemoryFlowRuleService flows = new InMemoryFlowRuleService();
    /** The switches' groups. */
    public final InMemoryGroupService groups = new InMemoryGroupService();
    /** The fabric's links. */
    public final InMemoryLinkService links = new InMemoryLinkService();
    /** Paths over the links. */
    public final InMemoryTopologyService paths = new InMemoryTopologyService().withLinkService(links);
    /** The app's netcfg reader. */
    public final Srv6IntConfigService config;
    /** Chain service. */
    public final SfcManager sfcs;
    /** Inventory. */
    public final VnfInventoryManager inventory;
    /** Paths and placement. */
    public final SfcPathManager pathManager;
    /** Flow programming. */
    public final Srv6IntProgrammingManager programmer;
    /** The node agents' pool reports, in the cluster's store; stamped with {@link #useClock}'s clock. */
    public final NodePoolManager pools;
    // the programming's clock (drain by flows); the wall clock until a host sets its own
    private volatile java.util.function.LongSupplier clockMillis = System::currentTimeMillis;

    /**
     * Wires the app's core over a fabric's links and netcfg.
     *
     * @param links  the fabric's directed links
     * @param netcfg a netcfg document: "apps" (the app's "srv6int" config) and "devices"
     * @throws org.onosproject.net.config.InvalidConfigException if a config is invalid
     */
    public AppCore(List<Link> links, JsonNode netcfg) {
        links.forEach(this.links::addLink);
        this.config = applyNetcfg(core, this.netcfg, netcfg);
        ApplicationId appId = core.registerApplication(Srv6IntConfigService.APP_NAME);
        InMemoryStorageService storage = new InMemoryStorageService();
        Stores stores = new Stores(storage);
        InMemoryEventDeliveryService events = new InMemoryEventDeliveryService();
        this.sfcs = new Chains(stores, config, events);
        this.inventory = new Inventory(stores, sfcs, config, events);
        this.pathManager = new Placement(sfcs, inventory, config, this.netcfg, paths);
        InMemoryCluster cluster = new InMemoryCluster();
        this.programmer = new Programming(this, new InMemoryMastershipService(cluster, NODE), appId);
        this.pools = new NodePoolManager(storage, node -> config.devices().locate(node).isPresent(),
                () -> clockMillis.getAsLong(), NodePoolManager.DEFAULT_MAX_AGE_MS);
    }

    /**
     * Reads a netcfg document the way the app does: its config classes registered with a netcfg
     * registry, the document applied, read back through the app's own reader.
     *
     * @param netcfg a netcfg document: "apps" (the app's "srv6int" config) and "devices"
     * @return the app's view of it
     * @throws org.onosproject.net.config.InvalidConfigException if a config is invalid
     */
    public static Srv6IntConfigService readNetcfg(JsonNode netcfg) {
        InMemoryCoreService core = new InMemoryCoreService();
        return applyNetcfg(core, new InMemoryNetworkConfigRegistry().withCoreService(core), netcfg);
    }

    private static Srv6IntConfigService applyNetcfg(InMemoryCoreService core, InMemoryNetworkConfigRegistry registry,
                                                    JsonNode netcfg) {
        Srv6IntConfigService reader = new ConfigReader(registry, core);
        ApplicationId appId = core.registerApplication(Srv6IntConfigService.APP_NAME);
        JsonNode app = netcfg.path("apps").path(Srv6IntConfigService.APP_NAME).path(Srv6IntAppConfig.KEY);
        if (!app.isMissingNode()) {
            registry.applyConfig(appId, Srv6IntAppConfig.class, app);
        }
        JsonNode devices = netcfg.path("devices");
        for (Iterator<String> it = devices.fieldNames(); it.hasNext();) {
            String d = it.next();
            JsonNode c = devices.get(d).path(Srv6IntAppConfig.KEY);
            if (!c.isMissingNode()) {
                registry.applyConfig(DeviceId.deviceId(d), Srv6DeviceConfig.class, c);
            }
        }
        return reader;
    }

    /**
     * Sets the clock the flow programming's drain by flows runs on (the twin's simulated time).
     *
     * @param millis milliseconds
     */
    public void useClock(java.util.function.LongSupplier millis) {
        clockMillis = java.util.Objects.requireNonNull(millis, "millis");
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

    /** Netcfg through the app's own reader. */
    private static final class ConfigReader extends Srv6IntConfigManager {
        ConfigReader(InMemoryNetworkConfigRegistry registry, InMemoryCoreService core) {
            this.registry = registry;
            this.coreService = core;
            activate();
        }
    }

    /** The chain and replica stores on one storage service. */
    private static final class Stores {
        final ChainStore sfcs;
        final ReplicaStore replicas;

        Stores(InMemoryStorageService storage) {
            sfcs = new ChainStore(storage);
            replicas = new ReplicaStore(storage);
        }
    }

    private static final class ChainStore extends DistributedSfcStore {
        ChainStore(InMemoryStorageService storage) {
            this.storageService = storage;
            activate();
        }
    }

    private static final class ReplicaStore extends DistributedVnfReplicaStore {
        ReplicaStore(InMemoryStorageService storage) {
            this.storageService = storage;
            activate();
        }
    }

    private static final class Chains extends SfcManager {
        Chains(Stores stores, Srv6IntConfigService config, InMemoryEventDeliveryService events) {
            this.store = stores.sfcs;
            this.replicaStore = stores.replicas;
            this.configService = config;
            this.eventDispatcher = events;
            activate();
        }
    }

    private static final class Inventory extends VnfInventoryManager {
        Inventory(Stores stores, SfcManager sfcs, Srv6IntConfigService config,
                  InMemoryEventDeliveryService events) {
            this.store = stores.replicas;
            this.sfcService = sfcs;
            this.configService = config;
            this.eventDispatcher = events;
            activate();
        }
    }

    private static final class Placement extends SfcPathManager {
        Placement(SfcManager sfcs, VnfInventoryManager inventory, Srv6IntConfigService config,
                  InMemoryNetworkConfigRegistry netcfg, InMemoryTopologyService paths) {
            this.sfcService = sfcs;
            this.inventoryService = inventory;
            this.configService = config;
            this.networkConfigService = netcfg;
            this.topologyService = paths;
            this.pathService = paths;
            activate();
        }
    }

    private static final class Programming extends Srv6IntProgrammingManager {
        Programming(AppCore app, InMemoryMastershipService mastership, ApplicationId appId) {
            this.flowRuleService = app.flows;
            this.groupService = app.groups;
            this.mastershipService = mastership;
            this.pathService = app.paths;
            this.topologyService = app.paths;
            this.networkConfigService = app.netcfg;
            this.sfcService = app.sfcs;
            this.inventoryService = app.inventory;
            this.pathsService = app.pathManager;
            this.configService = app.config;
            bindApplication(appId, () -> app.clockMillis.getAsLong());
        }
    }

    /**
     * The switches' view the loop's scale-in waits on (a drained replica's pod goes once no switch
     * steers to it), as the loop manager builds it: over this core's flow store.
     *
     * @return the loop's steering port
     */
    public org.srv6int.app.loop.SwitchSteering steering() {
        return org.srv6int.app.loop.SwitchSteering.ofFlowStore(flows, () -> config.devices().all().keySet(), inventory);
    }
}
