// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;

import org.junit.Test;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.NodePools;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.pools.NodePoolManager;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Line 10 with the node agents' pool reports (docs/global-loop.md, "Pools"): a replica goes where
 * a fresh report's pools hold its type's need, the node with the most room in its scarcest
 * resource first; stale or missing reports, or no node with room, fall back to free CPU, said in
 * the decision; the
 * loop's own replicas on their way count against the report that cannot show them yet.
 */
public class PoolPlacementTest {

    private static final long SEC = TimeUnit.SECONDS.toNanos(1);
    private static final long LMAX = 1_000_000;
    /** A replica needs 1500m, 3 ways, 25 %. */
    private static final ResourceNeed NEED = new ResourceNeed(1500, 3, 25);

    private final VnfKey vnf = VnfKey.of(SfcId.of(3), 1);
    private final VnfKey other = VnfKey.of(SfcId.of(4), 0);
    private final FakePorts.Clock clock = new FakePorts.Clock();
    private final FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
    private final FakePorts.Routing routing = new FakePorts.Routing("a");
    private final NodePoolManager pools = new NodePoolManager(new InMemoryStorageService(), n -> true,
            clock::currentTimeMillis, NodePoolManager.DEFAULT_MAX_AGE_MS);
    private final TestLoop loop = new TestLoop(LoopParams.builder().tHatNanos(4 * SEC).cooldownNanos(10 * SEC)
            .build(), clock, platform, routing);
    private final Map<String, Long> packets = new HashMap<>();

    {
        // Kubernetes' free CPU: w2 has more.
        platform.nodes.add(new NodeResources("w1", 2000, 1));
        platform.nodes.add(new NodeResources("w2", 3000, 1));
        loop.setColocation(new Colocation() {
            @Override
            public Map<String, String> replicaNodes(VnfKey v) {
                return Map.of();
            }

            @Override
            public long cpuRequestMillis(VnfKey v) {
                return NEED.cpuMillis();
            }

            @Override
            public ResourceNeed need(VnfKey v) {
                return NEED;
            }
        });
        loop.setPools(pools);
    }

    private void report(String node, long cpuFree, long waysFree, long mbFree) {
        pools.report(node, List.of(new NodePools.Pool(NodePools.WHOLE_NODE, cpuFree, 10_000, waysFree, 11, mbFree,
                                                      100)));
    }

    /** Six violating windows of each vNF, one second apart (t-hat 4 s). */
    private void violate(VnfKey... vnfs) {
        for (int i = 0; i < 6; i++) {
            clock.nanos += SEC;
            List<VnfObservation> obs = new ArrayList<>();
            for (VnfKey v : vnfs) {
                obs.add(new VnfObservation(v, LMAX, 5000, 2_000_000, 100, routing.active(), packets));
            }
            loop.round(obs);
        }
    }

    @Test
    public void aNodeWhosePoolsCannotHoldTheNeedIsNoCandidate() {
        // w2 has the CPU but 1 LLC way left; w1 holds the replica.
        report("w1", 2000, 6, 50);
        report("w2", 3000, 1, 10);
        violate(vnf);
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w1"), platform.calls);
        String d = loop.history().get(0).detail();
        assertTrue(d, d.contains("pools too small on w2 (cpu 3000m, llc 1 ways, mb 10 %)"));
    }

    @Test
    public void whatTheAgentCanTakeBackFromVnfsWithSlackCounts() {
        // w2's local loop handed out all its memory bandwidth, but vNFs with slack hold 30 % above
        // their floors: w2 can make room (w1 has no LLC left at all).
        report("w1", 2000, 0, 50);
        pools.report("w2", List.of(new NodePools.Pool(NodePools.WHOLE_NODE, 3000, 0, 10_000, 4, 2, 11, 0, 30, 100)));
        violate(vnf);
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w2"), platform.calls);
        String d = loop.history().get(0).detail();
        assertTrue(d, d.contains("pools too small on w1 (cpu 2000m, llc 0 ways, mb 50 %)"));
    }

    @Test
    public void theNodeWithMostRoomInItsScarcestResourceIsPreferred() {
        // w2: more free CPU, but its LLC holds one replica; w1's pools hold 1.33 (CPU-bound).
        report("w1", 2000, 9, 90);
        report("w2", 3000, 3, 90);
        violate(vnf);
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w1"), platform.calls);
    }

    @Test
    public void withoutFreshReportsPlacementIsByCpuAloneAndSaysSo() {
        report("w2", 3000, 1, 10);
        clock.nanos += 20 * SEC; // w2's report is now 20 s old (stale after 15 s); w1 never reported
        violate(vnf);
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w2"), platform.calls);
        String d = loop.history().get(0).detail();
        assertTrue(d, d.contains("CPU only (no fresh pool report) on w1 (no report), w2 (report 26 s old)"));
    }

    @Test
    public void noNodeWithRoomPlacesByFreeCpuNamingEachNodesPools() {
        // LLC and memory bandwidth are the agents' to share: a replica where the CPU fits still
        // takes load off the violating one, so the decision goes on by free CPU and says why.
        report("w1", 2000, 2, 50);
        report("w2", 3000, 6, 20);
        violate(vnf);
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w2"), platform.calls);
        LoopDecision d = loop.history().get(0);
        assertEquals(LoopDecision.Outcome.SUCCEEDED, d.outcome());
        assertTrue(d.detail(), d.detail().contains("; no node's pools hold a replica (1500m/3 ways/25 %): "
                + "w1 (cpu 2000m, llc 2 ways, mb 50 %), w2 (cpu 3000m, llc 6 ways, mb 20 %); placed by free CPU"));
    }

    @Test
    public void replicasOnTheirWayCountAgainstAReportThatCannotShowThemYet() {
        // Each node's pools hold exactly one replica (equal room: by name).
        platform.readyAtOnce(false);
        report("w1", 2000, 3, 25);
        report("w2", 3000, 3, 25);
        violate(vnf, other);
        // The first vNF takes w1; the second finds w1's pools taken by the first, still starting.
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w1", "nodeFreeResources", "create 4/0 on w2"),
                     platform.calls);
        // Both become Ready; the reports (older than the joins) do not show them: no room.
        platform.pendingCreates.forEach(f -> f.complete(new org.srv6int.app.api.model.ReplicaInfo(
                "x" + f.hashCode(), f == platform.pendingCreates.get(0) ? "w1" : "w2", "10.0.0.9")));
        LoopDecision second = loop.history().stream().filter(d -> d.vnf().equals(other)).findFirst().orElseThrow();
        assertTrue(second.detail(), second.detail()
                .contains("pools too small on w1 (cpu 2000m, llc 3 ways, mb 25 %, less 1 replica(s) on their way)"));
        platform.calls.clear();
        VnfKey third = VnfKey.of(SfcId.of(5), 0);
        violate(third);
        // no node's pools hold it now: placed by free CPU (w2 has more), the decision says why
        assertEquals(List.of("nodeFreeResources", "create 5/0 on w2"), platform.calls);
        platform.pendingCreates.get(2).complete(new org.srv6int.app.api.model.ReplicaInfo("x3", "w2", "10.0.0.9"));
        LoopDecision d3 = loop.history().stream().filter(d -> d.vnf().equals(third)).findFirst().orElseThrow();
        assertTrue(d3.detail(), d3.detail().contains("; no node's pools hold a replica (1500m/3 ways/25 %): "
                + "w1 (cpu 2000m, llc 3 ways, mb 25 %, less 1 replica(s) on their way), "
                + "w2 (cpu 3000m, llc 3 ways, mb 25 %, less 1 replica(s) on their way); placed by free CPU"));
        // A report after the join (the agent saw its new pod) is taken as it is.
        platform.calls.clear();
        report("w1", 500, 0, 0);
        report("w2", 1500, 3, 25);
        violate(VnfKey.of(SfcId.of(6), 0));
        assertEquals(List.of("nodeFreeResources", "create 6/0 on w2"), platform.calls);
    }
}
