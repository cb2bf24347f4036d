// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.srv6int.app.assembly.AppAssembly;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigManager;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.placement.SfcPathManager;
import org.srv6int.app.program.Srv6IntProgrammingManager;
import org.srv6int.app.chain.SfcManager;
import org.srv6int.app.inventory.VnfInventoryManager;
import org.srv6int.app.loop.SwitchSteering;
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
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The app's core components in one JVM without OSGi: its netcfg reader, chain and replica
 * stores, chain and inventory managers, path and placement manager and flow programming, over
 * srv6int-testkit's in-memory ONOS services (netcfg registry, storage, event delivery, links and
 * paths, one-instance mastership, flow rules and groups that stand for the switches), wired by
 * the app's own {@link AppAssembly}. The programming manager runs without its own thread and
 * listeners: the twin calls {@link #settle()} when it wants the switches programmed, in
 * simulated time.
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
    /** The app's components as {@link AppAssembly} wires them. */
    public final AppAssembly app;
    // the programming's clock (drain by flows); the wall clock until a host sets its own
    private volatile LongSupplier clockMillis = System::currentTimeMillis;

    /**
     * Wires the app's core over a fabric's links and netcfg.
     *
     * @param links  the fabric's directed links
     * @param netcfg a netcfg document: "apps" (the app's "srv6int" config) and "devices"
     * @throws org.onosproject.net.config.InvalidConfigException if a config is invalid
     */
    public AppCore(List<Link> links, JsonNode netcfg) {
        links.forEach(this.links::addLink);
        this.app = AppAssembly.builder()
                .storage(new InMemoryStorageService())
                .events(new InMemoryEventDeliveryService())
                .flowRules(flows)
                .groups(groups)
                .mastership(new InMemoryMastershipService(new InMemoryCluster(), NODE))
                .topology(paths, paths)
                .netcfg(this.netcfg, core)
                .clock(() -> clockMillis.getAsLong())
                .build();
        this.config = app.config();
        apply(core, this.netcfg, netcfg);
        this.sfcs = app.sfcs();
        this.inventory = app.inventory();
        this.pathManager = app.paths();
        this.programmer = app.programmer();
        this.pools = app.pools();
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
        InMemoryNetworkConfigRegistry registry = new InMemoryNetworkConfigRegistry().withCoreService(core);
        Srv6IntConfigManager reader = new Srv6IntConfigManager(registry, core);
        reader.activate();
        apply(core, registry, netcfg);
        return reader;
    }

    // applies a netcfg document to a registry the app's config classes are registered with
    private static void apply(InMemoryCoreService core, InMemoryNetworkConfigRegistry registry, JsonNode netcfg) {
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
    }

    /**
     * Sets the clock the flow programming's drain by flows runs on (the twin's simulated time).
     *
     * @param millis milliseconds
     */
    public void useClock(LongSupplier millis) {
        clockMillis = Objects.requireNonNull(millis, "millis");
    }

    /**
     * Runs reconcile passes until one issues no operation.
     *
     * @return number of passes that issued operations
     * @throws IllegalStateException if programming does not converge in 20 passes
     */
    public int settle() {
        return app.settle();
    }

    /**
     * The switches' view the loop's scale-in waits on (a drained replica's pod goes once no switch
     * steers to it), as the loop manager builds it: over this core's flow store.
     *
     * @return the loop's steering port
     */
    public SwitchSteering steering() {
        return SwitchSteering.ofFlowStore(flows, () -> config.devices().all().keySet(), inventory);
    }
}
