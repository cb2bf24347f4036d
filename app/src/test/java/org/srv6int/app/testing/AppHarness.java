package org.srv6int.app.testing;

import org.onosproject.cluster.NodeId;
import org.onosproject.mastership.MastershipService;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.MastershipRole;
import org.onosproject.net.config.NetworkConfigServiceAdapter;
import org.onosproject.net.topology.TopologyServiceAdapter;
import org.onosproject.store.service.StorageService;
import org.srv6int.app.assembly.AppAssembly;
import org.srv6int.app.placement.SfcPathManager;
import org.srv6int.app.program.Srv6IntProgrammingManager;
import org.srv6int.app.chain.SfcManager;
import org.srv6int.app.inventory.VnfInventoryManager;
import org.srv6int.testkit.InMemoryEventDeliveryService;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.testkit.InMemoryLinkService;
import org.srv6int.testkit.InMemoryTopologyService;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The app's core components wired together the way OSGi wires them, over
 * the testkit's in-memory ONOS services on the paper's testbed: real stores
 * (on {@link InMemoryStorageService}), real chain, inventory, path and
 * programming managers; in-memory flow rule and group services that stand for
 * the switches. One harness is one ONOS instance; two harnesses may share the
 * same flow rule and group services and storage to act as a cluster.
 */
public final class AppHarness {

    /** Flow rules of all switches. */
    public final InMemoryFlowRuleService flows;
    /** Groups of all switches. */
    public final InMemoryGroupService groups;
    /** Flow rule operations this harness's services heard, in order. */
    public final OperationLog flowLog;
    /** Group operations, in order. */
    public final OperationLog groupLog;
    /** The testbed's links (cut and connect them to change the topology). */
    public final InMemoryLinkService links;
    /** Topology paths over the links. */
    public final InMemoryTopologyService paths;
    /** Netcfg. */
    public final FakeConfigService config;
    /** Node id of this harness's instance. */
    public static final NodeId LOCAL_NODE = NodeId.nodeId("local");
    /** This instance's node id. */
    public final NodeId node;
    /** Chain service. */
    public final SfcManager sfcs;
    /** Inventory. */
    public final VnfInventoryManager inventory;
    /** Paths and placement. */
    public final SfcPathManager pathManager;
    /** Flow programming. */
    public final Srv6IntProgrammingManager programmer;
    /** The app's components as {@link AppAssembly} wires them. */
    public final AppAssembly app;
    /** The programming's clock (drain by flows), ms; tests move it. */
    public final AtomicLong nowMs = new AtomicLong(1_000_000);
    /** Devices this instance masters (all by default). */
    public final Set<DeviceId> mastered = new HashSet<>(PaperTestbed.SWITCHES);

    /** Creates a single-instance harness on the paper's testbed. */
    public AppHarness() {
        this(new InMemoryStorageService(), new InMemoryFlowRuleService(), new InMemoryGroupService());
    }

    /**
     * Creates an instance sharing storage and switches with others.
     *
     * @param storage storage service
     * @param flows   flow rules
     * @param groups  groups
     */
    public AppHarness(StorageService storage, InMemoryFlowRuleService flows, InMemoryGroupService groups) {
        this(storage, flows, groups, LOCAL_NODE);
    }

    /**
     * Creates a named instance sharing storage and switches with others.
     *
     * @param storage storage service
     * @param flows   flow rules
     * @param groups  groups
     * @param node    this instance's node id (the master it names for the switches it masters)
     */
    public AppHarness(StorageService storage, InMemoryFlowRuleService flows, InMemoryGroupService groups,
                      NodeId node) {
        this(storage, flows, groups, node, null);
    }

    /**
     * Creates a named instance of a cluster whose mastership is shared (an
     * {@link org.srv6int.testkit.InMemoryCluster}'s).
     *
     * @param storage    storage service
     * @param flows      flow rules
     * @param groups     groups
     * @param node       this instance's node id
     * @param mastership this instance's view of mastership; null: the {@link #mastered} set
     */
    public AppHarness(StorageService storage, InMemoryFlowRuleService flows, InMemoryGroupService groups, NodeId node,
                      MastershipService mastership) {
        this.node = node;
        this.flows = flows;
        this.groups = groups;
        this.flowLog = OperationLog.of(flows);
        this.groupLog = OperationLog.of(groups);
        this.links = PaperTestbed.linkService();
        this.paths = new InMemoryTopologyService().withLinkService(links);
        this.config = new FakeConfigService(PaperTestbed.devices(), PaperTestbed.appConfig());

        this.app = AppAssembly.builder()
                .storage(storage)
                .events(new InMemoryEventDeliveryService())
                .flowRules(flows)
                .groups(groups)
                .mastership(mastership != null ? mastership : new MastershipServiceAdapter() {
                    @Override
                    public MastershipRole getLocalRole(DeviceId deviceId) {
                        return mastered.contains(deviceId) ? MastershipRole.MASTER : MastershipRole.STANDBY;
                    }

                    @Override
                    public boolean isLocalMaster(DeviceId deviceId) {
                        return mastered.contains(deviceId);
                    }

                    @Override
                    public NodeId getMasterFor(DeviceId deviceId) {
                        return mastered.contains(deviceId) ? node : null;
                    }
                })
                // the path manager hears no topology events here: tests recompute through its calls
                .topology(new TopologyServiceAdapter(), paths)
                .config(config, new NetworkConfigServiceAdapter())
                .appId(PaperTestbed.APP_ID)
                .clock(nowMs::get)
                .build();
        this.sfcs = app.sfcs();
        this.inventory = app.inventory();
        this.pathManager = app.paths();
        this.programmer = app.programmer();
    }

    /**
     * Removes the links between two switches (both directions), like a link going down.
     *
     * @param a switch
     * @param b switch
     */
    public void cut(DeviceId a, DeviceId b) {
        for (Link l : links.getLinks()) {
            if ((l.src().deviceId().equals(a) && l.dst().deviceId().equals(b))
                    || (l.src().deviceId().equals(b) && l.dst().deviceId().equals(a))) {
                links.removeLink(l);
            }
        }
    }

    /**
     * Adds a cable between two switch ports (both directions), like a link coming up.
     *
     * @param a one end
     * @param b other end
     */
    public void connect(ConnectPoint a, ConnectPoint b) {
        links.addLink(PaperTestbed.link(a, b));
        links.addLink(PaperTestbed.link(b, a));
    }

    /**
     * Runs reconcile passes until one issues no operation.
     *
     * @return number of passes that issued operations
     */
    public int settle() {
        return app.settle();
    }

    /** Adds SFC 1 and SFC 2 with their initial replicas (Fig. 5). */
    public void deployFig5() {
        sfcs.addSfc(PaperTestbed.sfc1());
        sfcs.addSfc(PaperTestbed.sfc2());
        PaperTestbed.initialReplicas().forEach(inventory::registerReplica);
    }
}
