// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.FakePorts;

import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onosproject.store.service.StorageException;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.inventory.ReplicaLifecycle;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.store.TestStores;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.FakeReplicaPlatform;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/**
 * The replica life cycle across a leader change, on the real inventory and stores: a scale-out whose
 * replicas were reserved (PENDING, SIDs claimed) when the leader died is resumed by the next leader
 * from the loop-state store, the same reservations joining the group (no second SID, no second
 * record); and a SID the dead leader claimed for a replica that never reached the store is given
 * back by the next leader once the claim is older than a create takes.
 */
public class LifecycleResumeTest {

    private static final long SEC = TimeUnit.SECONDS.toNanos(1);
    private static final VnfKey SNORT = VnfKey.of(PaperTestbed.SFC2, 0);

    private final InMemoryStorageService storage = new InMemoryStorageService();
    private final FakePorts.Clock clock = new FakePorts.Clock();
    private final LoopParams params = LoopParams.builder().tHatNanos(4 * SEC).cooldownNanos(10 * SEC)
            .demandLatency(LoopParams.DemandLatency.MEASURED).maxReplicas(3).build();
    private AppHarness h;
    private FakeReplicaPlatform platform;
    private InventoryRouting routing;

    @Before
    public void setUp() {
        h = new AppHarness(storage, new InMemoryFlowRuleService(), new InMemoryGroupService());
        h.nowMs.set(System.currentTimeMillis());
        h.deployFig5();
        // each replica is reserved in the inventory before its (held) workload, as the Kubernetes platform does
        platform = FakeReplicaPlatform.held(new NodeResources("worker1", 4000, 1L << 34),
                                            new NodeResources("worker2", 8000, 1L << 34))
                .reserving((vnf, node, requestId) -> {
                    String name = "sfc-2-vnf0-" + requestId;
                    h.inventory.reserveReplica(vnf, node, name);
                    return name;
                });
        routing = new InventoryRouting(h.inventory, h.pathManager);
    }

    private LoopStateStore store() {
        return TestStores.loopState(storage);
    }

    private void tick(TestLoop loop, double pps, long latency) {
        clock.nanos += SEC;
        List<String> active = h.inventory.getReplicas(SNORT).stream().filter(VnfReplica::carriesTraffic)
                .map(r -> r.id().name()).sorted().collect(Collectors.toList());
        loop.round(List.of(new VnfObservation(SNORT, PaperTestbed.LMAX, pps, latency, 100, active, Map.of())));
    }

    private List<VnfReplica> inState(ReplicaState s) {
        return h.inventory.getReplicas(SNORT).stream().filter(r -> r.state() == s).collect(Collectors.toList());
    }

    @Test
    public void aNewLeaderResumesAScaleOutFromTheStoreAndGivesBackTheSidsItsPredecessorLeftClaimed() {
        // The smallest free SID on worker2's switch: the one a create in flight would have claimed.
        VnfReplica probe = h.inventory.addReplica(SNORT, "worker2", "probe");
        Ip6Address nextFree = probe.sid();
        h.inventory.removeReplica(probe.id());

        TestLoop first = new TestLoop(params, clock, platform, routing, store());
        tick(first, 1000, 500_000);
        for (int i = 0; i < 6 && platform.requests() == 0; i++) {
            tick(first, 2000, 2_000_000);
        }
        int requested = platform.requests();
        assertTrue("a scale-out was requested", requested > 0);
        List<VnfReplica> reserved = inState(ReplicaState.PENDING);
        assertEquals(requested, reserved.size());
        assertEquals(VnfLoopRecord.Phase.SCALING, store().records().get(SNORT).phase());
        LoopDecision started = first.history().get(0);

        // The leader dies, and with it a create it had got as far as claiming a SID for.
        first.close();
        VnfReplicaId ghost = VnfReplicaId.of(SNORT, "sfc-2-vnf0-lost");
        Set<Ip6Address> reservedSids = reserved.stream().map(VnfReplica::sid).collect(Collectors.toSet());
        Ip6Address orphan = reservedSids.contains(nextFree) ? null : nextFree;
        if (orphan == null) {
            // the scale-out took that SID: the dead create claimed the next one up
            VnfReplica p2 = h.inventory.addReplica(SNORT, "worker2", "probe2");
            orphan = p2.sid();
            h.inventory.removeReplica(p2.id());
        }
        TestStores.claimSidAndDie(storage, orphan, ghost);
        h.nowMs.set(System.currentTimeMillis());

        // The next leader resumes the same decision: the same requests, the same reservations.
        TestLoop second = new TestLoop(params, clock, platform, routing, store());
        tick(second, 2000, 2_000_000);
        assertEquals(requested, platform.requests());
        assertEquals(requested, platform.calls.stream().filter(c -> c.contains(" again (")).count());
        assertEquals(reserved, inState(ReplicaState.PENDING));
        // The orphaned claim is young (it may be a create in progress): kept for now.
        VnfReplica meanwhile = h.inventory.addReplica(SNORT, "worker2", "meanwhile");
        assertNotEquals(orphan, meanwhile.sid());
        h.inventory.removeReplica(meanwhile.id());

        platform.ready(); // each pod Ready under the name its replica was reserved with
        List<VnfReplica> active = inState(ReplicaState.ACTIVE);
        assertEquals(requested + 1, active.size());
        assertTrue(inState(ReplicaState.PENDING).isEmpty());
        assertEquals(reservedSids, active.stream().filter(r -> !r.id().name().equals("r0")).map(VnfReplica::sid)
                .collect(Collectors.toSet()));
        List<LoopDecision> hist = second.history();
        assertEquals(1, hist.size());
        assertEquals(started.timeMillis(), hist.get(0).timeMillis());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, hist.get(0).outcome());
        assertTrue(hist.get(0).detail(), hist.get(0).detail().startsWith("resumed after a leader change"));

        // Past the grace, the leader's next round gives the orphaned SID back: the next replica gets it.
        h.nowMs.addAndGet(ReplicaLifecycle.ORPHAN_GRACE_MILLIS + 1);
        tick(second, 1000, 500_000);
        assertEquals(1, h.inventory.lifecycle().sidsReleased());
        assertEquals(orphan, h.inventory.addReplica(SNORT, "worker2", "after").sid());
        assertFalse(h.inventory.getReplica(ghost).isPresent());
    }

    @Test
    public void aCreateThatFailedAfterItsSidClaimHasTheClaimGivenBackWithoutALeaderChange() {
        TestLoop loop = new TestLoop(params, clock, platform, routing, store());
        tick(loop, 1000, 500_000);
        for (int i = 0; i < 6 && platform.requests() == 0; i++) {
            tick(loop, 2000, 2_000_000);
        }
        assertTrue("a scale-out was requested", platform.requests() > 0);

        // A create of the scale-out claimed a SID, then its record's write failed (c4's "Connection
        // reset by peer" between members): the claim stays, held by no record, and the create fails.
        VnfReplica probe = h.inventory.addReplica(SNORT, "worker2", "probe");
        Ip6Address claimed = probe.sid();
        h.inventory.removeReplica(probe.id());
        VnfReplicaId lost = VnfReplicaId.of(SNORT, "sfc-2-vnf0-lost");
        TestStores.claimSidAndDie(storage, claimed, lost);
        platform.pendingCreates.forEach(f -> f.completeExceptionally(
                new StorageException("Connection reset by peer")));
        assertEquals(LoopDecision.Outcome.FAILED, loop.history().get(0).outcome());

        // Young, it may be a create in progress: kept. Past the grace, the same leader gives it back.
        tick(loop, 1000, 500_000);
        assertTrue(TestStores.replicas(storage).sidsInUse().contains(claimed));
        h.nowMs.addAndGet(ReplicaLifecycle.ORPHAN_GRACE_MILLIS + 1);
        tick(loop, 1000, 500_000);
        assertEquals(1, h.inventory.lifecycle().sidsReleased());
        assertFalse(claimed + " still claimed", TestStores.replicas(storage).sidsInUse().contains(claimed));
    }
}
