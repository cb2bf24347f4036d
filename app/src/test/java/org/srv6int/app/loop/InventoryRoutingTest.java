// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.junit.Before;
import org.junit.Test;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * {@link InventoryRouting} on the app's real inventory (the paper's testbed, Fig. 5 chains): what
 * the global loop's group changes do to the replicas, and the observations built from a window.
 */
public class InventoryRoutingTest {

    private static final VnfKey SNORT = VnfKey.of(PaperTestbed.SFC2, 0);

    private AppHarness app;
    private InventoryRouting routing;

    @Before
    public void setUp() {
        app = new AppHarness();
        app.deployFig5();
        routing = new InventoryRouting(app.inventory, app.pathManager);
    }

    private List<String> replicas(VnfKey vnf) {
        return app.inventory.getReplicas(vnf).stream()
                .map(r -> r.id().name() + "@" + r.node() + " " + r.state() + " " + r.weight())
                .sorted().collect(Collectors.toList());
    }

    @Test
    public void addedReplicaJoinsUnderItsPlatformNameAndEveryActiveReplicaGetsWeightOne() {
        app.inventory.updateReplica(VnfReplicaId.of(SNORT, "r0"), ReplicaState.ACTIVE, 3);
        routing.addReplicas(SNORT, List.of(new ReplicaInfo("sfc-2-vnf0-r1", "worker2", "10.244.1.5")));
        assertEquals(List.of("r0@worker1 ACTIVE 1", "sfc-2-vnf0-r1@worker2 ACTIVE 1"), replicas(SNORT));
        VnfReplica added = app.inventory.getReplica(VnfReplicaId.of(SNORT, "sfc-2-vnf0-r1")).orElseThrow();
        assertEquals(PaperTestbed.SW3, added.deviceId());
        // A retried create hands the same replica back: no second replica, no error.
        routing.addReplicas(SNORT, List.of(new ReplicaInfo("sfc-2-vnf0-r1", "worker2", "10.244.1.5")));
        assertEquals(2, app.inventory.getReplicas(SNORT).size());
    }

    @Test
    public void drainTakesTheReplicaOutOfTheGroupAndRemoveForgetsIt() {
        routing.addReplicas(SNORT, List.of(new ReplicaInfo("sfc-2-vnf0-r1", "worker2", null)));
        routing.drainReplica(SNORT, "sfc-2-vnf0-r1");
        assertEquals(List.of("r0@worker1 ACTIVE 1", "sfc-2-vnf0-r1@worker2 DRAINING 0"), replicas(SNORT));
        routing.removeReplica(SNORT, "sfc-2-vnf0-r1");
        assertEquals(List.of("r0@worker1 ACTIVE 1"), replicas(SNORT));
    }

    @Test
    public void observationsCoverEveryVnfInChainOrderWithOnlyTheReplicasThatCarryTraffic() {
        routing.addReplicas(SNORT, List.of(new ReplicaInfo("sfc-2-vnf0-r1", "worker2", null)));
        routing.drainReplica(SNORT, "r0");
        TelemetryEngine engine = new TelemetryEngine(TelemetryEngine.Limits.DEFAULT, () -> 0L);
        List<VnfObservation> obs = InventoryRouting.observations(engine.roll(), app.sfcs, app.inventory);
        assertEquals(List.of(VnfKey.of(PaperTestbed.SFC1, 0), VnfKey.of(PaperTestbed.SFC1, 1), SNORT),
                     obs.stream().map(VnfObservation::vnf).collect(Collectors.toList()));
        VnfObservation snort = obs.get(2);
        assertEquals(List.of("sfc-2-vnf0-r1"), snort.activeReplicas());
        assertEquals(PaperTestbed.LMAX, snort.lmaxNanos());
        // No reports in the window: no samples, so the loop neither starts nor extends a violation.
        assertTrue(obs.stream().allMatch(o -> o.samples() == 0));
    }

    /**
     * Algorithm 4 line 10 through the app's LCS placement (docs/placement.md), where it differs
     * from "most free resources": SFC 1 with Fwd on Worker 2 and nDPI on Worker 1. A new Fwd
     * replica on Worker 2 would come after nDPI on the path (SW2 before SW3), breaking chain order;
     * on Worker 1 it precedes nDPI. Worker 1 wins although Worker 2 has eight times the free CPU.
     */
    @Test
    public void placementKeepsChainOrderOverMostFreeResources() {
        AppHarness h = new AppHarness();
        h.sfcs.addSfc(PaperTestbed.sfc1());
        VnfKey fwd = VnfKey.of(PaperTestbed.SFC1, 0);
        h.inventory.registerReplica(PaperTestbed.replica(fwd, "r0", "worker2", 1));
        h.inventory.registerReplica(PaperTestbed.replica(VnfKey.of(PaperTestbed.SFC1, 1), "r0", "worker1", 1));
        InventoryRouting r = new InventoryRouting(h.inventory, h.pathManager);
        List<NodeResources> nodes = List.of(new NodeResources("worker1", 1000, 1L << 32),
                                            new NodeResources("worker2", 8000, 1L << 32));
        assertEquals(List.of("worker1"), r.placeReplicas(fwd, nodes, 1));
        // Where order does not decide (Fig. 5's own placement), the most free node does, and
        // several replicas spread over equally good nodes.
        assertEquals(List.of("worker2", "worker2", "worker1"), routing.placeReplicas(SNORT, List.of(
                new NodeResources("worker1", 2000, 1L << 32), new NodeResources("worker2", 5000, 1L << 32)), 3));
        try {
            routing.placeReplicas(SNORT, List.of(new NodeResources("worker1", 0, 0)), 1);
            org.junit.Assert.fail("a node without room is no candidate");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("no candidate node"));
        }
    }
}
