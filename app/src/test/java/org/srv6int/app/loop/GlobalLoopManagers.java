package org.srv6int.app.loop;

import org.srv6int.app.api.ReplicaPlatform;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipService;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.api.PlacementService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.api.TelemetryWindows;

/**
 * Wires and activates a {@link GlobalLoopManager} from tests of other packages, as OSGi would.
 */
public final class GlobalLoopManagers {

    private GlobalLoopManagers() {
    }

    /**
     * Wires and activates the loop component of one instance.
     *
     * @param leadership this instance's leadership view
     * @param cluster    this instance's cluster view
     * @param windows    this instance's collector
     * @param sfcs       chains
     * @param inventory  replicas
     * @param placement  LCS placement
     * @param config     netcfg
     * @param platform   the replica platform (shared by the cluster, as Kubernetes is)
     * @param loopState  the cluster's loop state store
     * @return the active component
     */
    public static GlobalLoopManager start(LeadershipService leadership, ClusterService cluster,
                                          TelemetryWindows windows, SfcService sfcs, VnfInventoryService inventory,
                                          PlacementService placement, Srv6IntConfigService config, ReplicaPlatform platform,
                                          LoopStateStore loopState) {
        GlobalLoopManager m = new GlobalLoopManager();
        m.leadershipService = leadership;
        m.clusterService = cluster;
        m.telemetry = windows;
        m.sfcService = sfcs;
        m.inventory = inventory;
        m.placement = placement;
        m.configService = config;
        m.platform = platform;
        m.loopState = loopState;
        m.activate();
        return m;
    }

    /**
     * Wires and activates the loop component of one instance on a clock of the caller's.
     *
     * @param leadership this instance's leadership view
     * @param cluster    this instance's cluster view
     * @param windows    this instance's collector
     * @param sfcs       chains
     * @param inventory  replicas
     * @param placement  LCS placement
     * @param config     netcfg
     * @param platform   the replica platform
     * @param loopState  the cluster's loop state store
     * @param clock      the loop's clock
     * @return the active component
     */
    public static GlobalLoopManager start(LeadershipService leadership, ClusterService cluster,
                                          TelemetryWindows windows, SfcService sfcs, VnfInventoryService inventory,
                                          PlacementService placement, Srv6IntConfigService config,
                                          ReplicaPlatform platform, LoopStateStore loopState, LoopClock clock) {
        return start(leadership, cluster, windows, sfcs, inventory, placement, config, platform, loopState, clock,
                     null);
    }

    /**
     * Wires and activates the loop component of one instance on a clock of the caller's, reading the
     * switches' entries from a flow rule service (the scale-in's pod waits for them to stop steering
     * to the replica; the failure detection reads their counters).
     *
     * @param leadership this instance's leadership view
     * @param cluster    this instance's cluster view
     * @param windows    this instance's collector
     * @param sfcs       chains
     * @param inventory  replicas
     * @param placement  LCS placement
     * @param config     netcfg
     * @param platform   the replica platform
     * @param loopState  the cluster's loop state store
     * @param clock      the loop's clock
     * @param flows      the switches' flow rules, null for none
     * @return the active component
     */
    public static GlobalLoopManager start(LeadershipService leadership, ClusterService cluster,
                                          TelemetryWindows windows, SfcService sfcs, VnfInventoryService inventory,
                                          PlacementService placement, Srv6IntConfigService config,
                                          ReplicaPlatform platform, LoopStateStore loopState, LoopClock clock,
                                          org.onosproject.net.flow.FlowRuleService flows) {
        GlobalLoopManager m = new GlobalLoopManager();
        m.setClock(clock);
        m.flowRuleService = flows;
        m.leadershipService = leadership;
        m.clusterService = cluster;
        m.telemetry = windows;
        m.sfcService = sfcs;
        m.inventory = inventory;
        m.placement = placement;
        m.configService = config;
        m.platform = platform;
        m.loopState = loopState;
        m.activate();
        return m;
    }

    /**
     * Deactivates the loop component (its instance stops).
     *
     * @param m component
     */
    public static void stop(GlobalLoopManager m) {
        m.deactivate();
    }
}
