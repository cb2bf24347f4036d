// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onosproject.store.service.StorageException;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.store.TestStores;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.FakePorts;
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
import static org.junit.Assert.assertTrue;

/**
 * Reservations no create owns (issue 33, docs/cluster.md), on the real inventory and stores with
 * store calls that time out (Atomix's {@link StorageException.Timeout} while a Raft partition
 * re-elects): a reservation left by a create that failed and whose give-back failed is given back
 * by the leader's loop after the reservation timeout, retried while the store times out; the
 * failure detection does not put such a reservation in the group on unknown readiness; and a
 * scale-out's replica that became Ready but whose group update failed joins at the next round.
 */
public class ReservationsTest {

    private static final long SEC = TimeUnit.SECONDS.toNanos(1);
    private static final VnfKey SNORT = VnfKey.of(PaperTestbed.SFC2, 0);

    private final InMemoryStorageService storage = new InMemoryStorageService();
    private final FakePorts.Clock clock = new FakePorts.Clock();
    private final LoopParams params = LoopParams.builder().tHatNanos(4 * SEC).cooldownNanos(10 * SEC)
            .demandLatency(LoopParams.DemandLatency.MEASURED).maxReplicas(3).reservationTimeoutNanos(20 * SEC)
            .build();
    private AppHarness h;
    private FakeReplicaPlatform platform;
    private TimingOutRouting routing;

    @Before
    public void setUp() {
        h = new AppHarness(storage, new InMemoryFlowRuleService(), new InMemoryGroupService());
        h.deployFig5();
        // each replica reserved in the inventory before its (held) workload, as the Kubernetes platform does
        platform = FakeReplicaPlatform.held(new NodeResources("worker1", 4000, 1L << 34),
                                            new NodeResources("worker2", 8000, 1L << 34))
                .reserving((vnf, node, requestId) -> {
                    String name = "sfc-2-vnf0-" + requestId;
                    h.inventory.reserveReplica(vnf, node, name);
                    return name;
                });
        routing = new TimingOutRouting(new InventoryRouting(h.inventory, h.pathManager));
    }

    private void tick(TestLoop loop, double pps, long latency) {
        clock.nanos += SEC;
        List<String> active = h.inventory.getReplicas(SNORT).stream().filter(VnfReplica::carriesTraffic)
                .map(r -> r.id().name()).sorted().collect(Collectors.toList());
        loop.round(List.of(new VnfObservation(SNORT, PaperTestbed.LMAX, pps, latency, 100, active, Map.of())));
    }

    /** Snort over its bound until the loop has a scale-out in flight; returns the replicas requested. */
    private int scaleOutInFlight(TestLoop loop) {
        tick(loop, 1000, 500_000);
        for (int i = 0; i < 6 && platform.requests() == 0; i++) {
            tick(loop, 2000, 2_000_000);
        }
        assertTrue("a scale-out was requested", platform.requests() > 0);
        return platform.requests();
    }

    private List<VnfReplica> inState(ReplicaState s) {
        return h.inventory.getReplicas(SNORT).stream().filter(r -> r.state() == s).collect(Collectors.toList());
    }

    private Set<Ip6Address> sidsClaimed() {
        return TestStores.replicas(storage).sidsInUse();
    }

    @Test
    public void aReservationWhoseGiveBackFailedIsGivenBackAfterTheTimeoutRetriedWhileTheStoreTimesOut() {
        TestLoop loop = new TestLoop(params, clock, platform, routing);
        int requested = scaleOutInFlight(loop);
        List<VnfReplica> left = inState(ReplicaState.PENDING);
        assertEquals(requested, left.size());
        // The pods never become Ready and each create's give-back fails all its attempts: the
        // creates fail with the store's timeout and leave their reservations (record, SID, workload).
        platform.setReadiness(SNORT, left.stream().collect(Collectors.toMap(r -> r.id().name(), r -> false)));
        platform.pendingCreates.forEach(f -> f.completeExceptionally(new StorageException.Timeout()));
        LoopDecision failed = loop.history().get(0);
        assertEquals(LoopDecision.Outcome.FAILED, failed.outcome());
        // a message-less exception is named by its type alone
        assertTrue(failed.detail(), failed.detail().endsWith("; no replica became ready; Timeout"));

        // Kept while younger than the reservation timeout (20 s) from the first round that saw it unowned.
        for (int i = 0; i < 20; i++) {
            tick(loop, 1000, 500_000);
        }
        assertEquals(left, inState(ReplicaState.PENDING));
        assertTrue(platform.calls.stream().noneMatch(c -> c.startsWith("delete ")));

        // Then given back; the store times out on each one's first give-back: retried at the next round.
        routing.releaseTimeouts = requested;
        tick(loop, 1000, 500_000);
        assertEquals(0, routing.releaseTimeouts);
        assertEquals(left, inState(ReplicaState.PENDING));
        tick(loop, 1000, 500_000);
        assertEquals(List.of(), inState(ReplicaState.PENDING));
        for (VnfReplica r : left) {
            assertFalse(r.sid() + " still claimed", sidsClaimed().contains(r.sid()));
            assertTrue(platform.calls.contains("delete " + SNORT + " " + r.id().name()));
        }
        assertEquals((long) requested, (long) loop.core().failureCounters().get("reservationsGivenBack"));
        assertEquals(0L, (long) loop.core().failureCounters().get("reservationsJoined"));
        assertEquals((long) requested, (long) loop.core().failureCounters().get("reservationStepsFailed"));
    }

    @Test
    public void aReservationOfAVnfWithACreateInFlightIsLeftToThatCreate() {
        TestLoop loop = new TestLoop(params, clock, platform, routing);
        int requested = scaleOutInFlight(loop);
        List<VnfReplica> reserved = inState(ReplicaState.PENDING);
        platform.setReadiness(SNORT, reserved.stream().collect(Collectors.toMap(r -> r.id().name(), r -> false)));
        // The pod takes longer than the reservation timeout: its create is in flight all along.
        for (int i = 0; i < 30; i++) {
            tick(loop, 1000, 500_000);
        }
        assertEquals(reserved, inState(ReplicaState.PENDING));
        assertTrue(platform.calls.stream().noneMatch(c -> c.startsWith("delete ")));
        platform.ready();
        assertEquals(requested + 1, inState(ReplicaState.ACTIVE).size());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, loop.history().get(0).outcome());
    }

    @Test
    public void aReadyReplicaWhoseGroupUpdateFailedJoinsAtTheNextRound() {
        TestLoop loop = new TestLoop(params, clock, platform, routing);
        int requested = scaleOutInFlight(loop);
        List<VnfReplica> kept = inState(ReplicaState.PENDING);
        // The pods become Ready (the bridge's watch says so) but the group update times out.
        platform.setReadiness(SNORT, kept.stream().collect(Collectors.toMap(r -> r.id().name(), r -> true)));
        routing.addTimeouts = 1;
        platform.ready();
        LoopDecision failed = loop.history().get(0);
        assertEquals(LoopDecision.Outcome.FAILED, failed.outcome());
        assertTrue(failed.detail(), failed.detail().endsWith("; group update failed: Timeout"));
        assertEquals(kept, inState(ReplicaState.PENDING));

        // The next round does the group update again: the kept replicas carry traffic.
        tick(loop, 1000, 500_000);
        assertEquals(List.of(), inState(ReplicaState.PENDING));
        List<VnfReplica> active = inState(ReplicaState.ACTIVE);
        assertEquals(requested + 1, active.size());
        assertTrue(active.stream().allMatch(VnfReplica::carriesTraffic));
        assertEquals((long) requested, (long) loop.core().failureCounters().get("reservationsJoined"));
        assertEquals(0L, (long) loop.core().failureCounters().get("reservationStepsFailed"));
        assertTrue(platform.calls.stream().noneMatch(c -> c.startsWith("delete ")));
    }


    @Test
    public void interferenceAwareRoutingPassesReservationsAndOrphanClaimsOn() {
        ChainRouting r = new InterferenceAwareRouting(new InventoryRouting(h.inventory, h.pathManager),
                                                      new org.srv6int.app.placement.InterferenceMatrix(),
                                                      new InterferenceTest.Nodes());
        VnfReplica r4 = h.inventory.reserveReplica(SNORT, "worker2", "sfc-2-vnf0-r4");
        assertEquals(List.of("sfc-2-vnf0-r4"), r.reservations().get(SNORT).stream()
                .map(org.srv6int.app.api.model.ReplicaInfo::id).collect(Collectors.toList()));
        assertTrue(r.releaseReservation(SNORT, "sfc-2-vnf0-r4"));
        assertFalse(h.inventory.getReplica(r4.id()).isPresent());
        // a claim held by no record, too young to release yet: reported, so the loop asks again
        TestStores.claimSidAndDie(storage, r4.sid(), r4.id());
        assertEquals(1, r.releaseOrphanSids());
    }
}
