// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.FakePorts;

import java.util.HashSet;
import java.util.Set;
import org.junit.Test;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The failure detection in simulated time: windows of 500 ms, silence 3 s, return hold 5 s.
 */
public class ChainHealthTest {

    private static final long MS = 1_000_000L;
    private static final SfcId SFC = SfcId.of(1);
    private static final VnfKey V0 = VnfKey.of(SFC, 0);
    private static final VnfKey V1 = VnfKey.of(SFC, 1);

    private final FakePorts.Clock clock = new FakePorts.Clock();
    private ChainHealth health = new ChainHealth(clock, 3000 * MS, 3000 * MS, 5000 * MS);
    /** Replicas the inventory holds at PENDING weight 0 (what the loop did about a death). */
    private final Set<String> parked = new HashSet<>();

    private long classified;
    private long sidA;
    private long sidB;

    /** Mutable view of the chain and its three replicas: a (vNF 0), b (vNF 1), c (vNF 1). */
    private long reports;
    private long pktsA;
    private long pktsB;
    private long pktsC;
    private boolean inGroupC = true;
    private Boolean readyB = true;
    private boolean portUpB = true;
    /** b draining for a scale-in (out of the group, its buckets held for their flows). */
    private boolean drainingB;
    private int lists = 2;
    private boolean counterReadable = true;
    /**
     * Replica d of vNF 1, absent unless set: "reserved" (PENDING weight 0, passed as parked, as the
     * detection's inputs did before session 18), "pending" (a reservation, not parked) or "active".
     */
    private String d;
    private Boolean readyD = true;
    private boolean creatingV1;
    private long pktsD;

    private List<ChainHealth.Finding> window() {
        clock.nanos += 500 * MS;
        List<ChainHealth.ReplicaSeen> rs = new ArrayList<>();
        rs.add(new ChainHealth.ReplicaSeen(V0, "a", "sw2/3", true, false, false, pktsA, OptionalLong.of(sidA), true,
                true));
        boolean parkedB = health.isDead(V1, "b") || parked.contains("b");
        rs.add(new ChainHealth.ReplicaSeen(V1, "b", "sw3/3", !parkedB && !drainingB, parkedB, creatingV1,
                                           pktsB, OptionalLong.of(sidB), readyB, portUpB, drainingB && !parkedB));
        rs.add(new ChainHealth.ReplicaSeen(V1, "c", "sw3/4", inGroupC && !health.isDead(V1, "c"),
                                           health.isDead(V1, "c"), creatingV1, pktsC, OptionalLong.empty(), null,
                                                   true));
        if (d != null) {
            boolean active = "active".equals(d) && !health.isDead(V1, "d");
            rs.add(new ChainHealth.ReplicaSeen(V1, "d", "sw3/5", active, !active && !"pending".equals(d), creatingV1,
                                               pktsD, OptionalLong.empty(), readyD, true, false,
                                               "reserved".equals(d)));
        }
        return health.observe(List.of(new ChainHealth.ChainSeen(
                SFC, "sw1", 2, counterReadable ? OptionalLong.of(classified) : OptionalLong.empty(), reports, lists,
                "no live replica of vNF 1", rs)), false);
    }

    /** Traffic that crosses everything, reported. */
    private void healthy() {
        classified += 100;
        sidA += 100;
        sidB += 50;
        reports = 10;
        pktsA = 100;
        pktsB = 50;
        pktsC = 50;
    }

    private ChainState state() {
        return health.states(clock.currentTimeMillis()).get(0);
    }

    @Test
    public void blackHoledChainGoesDownWithTheLastHopSeenWithinTheSilenceAndComesBack() {
        healthy();
        window();
        window();
        assertEquals(ChainState.Liveness.UP, state().liveness());
        // vNF 1 black-holes: the ingress and vNF 0's SID still count, nothing reaches vNF 1's SID or the egress.
        reports = 0;
        pktsA = 0;
        pktsB = 0;
        pktsC = 0;
        inGroupC = false;
        List<ChainHealth.Finding> all = new ArrayList<>();
        int windows = 0;
        while (all.stream().noneMatch(f -> f.kind() == ChainHealth.Finding.Kind.CHAIN_DOWN) && windows < 20) {
            classified += 100;
            sidA += 100;
            all.addAll(window());
            windows++;
        }
        // First silent window at t0; down once 3 s of silence are over: the 7th window (t0 + 3 s).
        assertEquals(7, windows);
        ChainHealth.Finding down = all.stream().filter(f -> f.kind() == ChainHealth.Finding.Kind.CHAIN_DOWN)
                .findFirst().orElseThrow();
        assertEquals(V1, down.vnf());
        assertTrue(down.detail(), down.detail().contains("no INT report arrived for 3000 ms"));
        assertTrue(down.detail(), down.detail().contains("last hop seen: vNF 0 (a at sw2/3)"));
        ChainState s = state();
        assertEquals(ChainState.Liveness.DOWN, s.liveness());
        assertEquals("vNF 0 (a at sw2/3)", s.lastHopSeen());
        assertEquals(1, (long) health.counters().get("chainsDownNow"));
        // Reports return: cleared at once.
        healthy();
        inGroupC = true;
        List<ChainHealth.Finding> up = window();
        assertTrue(up.toString(), up.stream().anyMatch(f -> f.kind() == ChainHealth.Finding.Kind.CHAIN_UP));
        assertEquals(ChainState.Liveness.UP, state().liveness());
        assertEquals(0, (long) health.counters().get("chainsDownNow"));
        assertEquals(1, (long) health.counters().get("chainDowns"));
    }

    @Test
    public void noVnfSidCountingMeansTheIngressIsTheLastHop() {
        healthy();
        window();
        reports = 0;
        pktsA = 0;
        pktsB = 0;
        pktsC = 0;
        List<ChainHealth.Finding> all = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            classified += 10;
            all.addAll(window());
        }
        ChainHealth.Finding down = all.stream().filter(f -> f.kind() == ChainHealth.Finding.Kind.CHAIN_DOWN)
                .findFirst().orElseThrow();
        assertEquals(V0, down.vnf());
        assertTrue(down.detail(), down.detail().contains("last hop seen: ingress sw1 (no vNF SID counter moved)"));
    }

    @Test
    public void anIdleChainOrAnUnreadableCounterIsNeverDown() {
        healthy();
        window();
        reports = 0;
        pktsA = 0;
        pktsB = 0;
        pktsC = 0;
        for (int i = 0; i < 20; i++) {
            assertTrue(window().isEmpty());
        }
        assertEquals(ChainState.Liveness.IDLE, state().liveness());
        counterReadable = false;
        for (int i = 0; i < 20; i++) {
            assertTrue(window().isEmpty());
        }
        assertEquals(-1, state().classifiedPackets());
    }

    @Test
    public void aReplicaNoReportCrossesDiesAfterTheSilenceWhileItsChainCarriesTraffic() {
        healthy();
        window();
        List<ChainHealth.Finding> all = new ArrayList<>();
        assertEquals(7, windowsUntilAFinding(all, () -> {
            healthy();
            pktsC = 0;
        }));
        assertEquals(1, all.size());
        ChainHealth.Finding f = all.get(0);
        assertEquals(ChainHealth.Finding.Kind.REPLICA_DEAD, f.kind());
        assertEquals("c", f.replica());
        assertEquals(1, f.liveLeft());
        assertTrue(f.detail(), f.detail().contains("no INT report crossed it for 3000 ms"));
        // c carried traffic before: it gets a replacement.
        assertTrue(f.replace());
        assertTrue(health.isDead(V1, "c"));
        assertEquals(List.of("1/1/c"), state().deadReplicas());
        // The chain itself stays up: its reports arrive through b.
        assertEquals(ChainState.Liveness.UP, state().liveness());
    }

    /** A replica that INT never showed traffic through is taken out but not replaced (no thrash). */
    @Test
    public void aNewReplicaThatNeverPassedTrafficIsNotReplaced() {
        healthy();
        pktsC = 0;
        window();
        List<ChainHealth.Finding> all = new ArrayList<>();
        for (int w = 0; all.isEmpty() && w < 20; w++) {
            healthy();
            pktsC = 0;
            all.addAll(window());
        }
        assertEquals(1, all.size());
        ChainHealth.Finding f = all.get(0);
        assertEquals(ChainHealth.Finding.Kind.REPLICA_DEAD, f.kind());
        assertEquals("c", f.replica());
        assertFalse(f.replace());
        assertTrue(f.detail(), f.detail().contains("it never passed traffic: not replaced"));
    }

    @Test
    public void podOrPortFailureKillsAtOnceAndTheLastLiveReplicaIsNamed() {
        healthy();
        window();
        readyB = false;
        List<ChainHealth.Finding> f = window();
        assertEquals(1, f.size());
        assertEquals("b", f.get(0).replica());
        assertEquals(1, f.get(0).liveLeft());
        assertTrue(f.get(0).detail(), f.get(0).detail().contains("pod gone or not Ready"));
        // c's switch port is fine, its pod is unknown to the platform: judged by INT only.
        healthy();
        pktsB = 0;
        pktsC = 0;
        List<ChainHealth.Finding> all = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            all.addAll(window());
        }
        ChainHealth.Finding last = all.stream().filter(x -> "c".equals(x.replica())).findFirst().orElseThrow();
        assertEquals(0, last.liveLeft());
        assertTrue(last.detail(), last.detail().contains("it was the last live replica of vNF 1"));
    }

    @Test
    public void aFlappingReplicaWaitsDoublingHoldsAndFlapsAreCounted() {
        healthy();
        window();
        portUpB = false;
        assertEquals(ChainHealth.Finding.Kind.REPLICA_DEAD, window().get(0).kind());
        portUpB = true;
        // Port up again at once, but the hold is 5 s: back in the 10th window after the death.
        List<ChainHealth.Finding> f = new ArrayList<>();
        assertEquals(10, windowsUntilAFinding(f));
        assertEquals(ChainHealth.Finding.Kind.REPLICA_RETURNED, f.get(0).kind());
        assertTrue(f.get(0).detail(), f.get(0).detail().contains("hold of 5000 ms"));
        // On probation; it dies again before passing traffic: a flap, and the next hold is 10 s.
        portUpB = false;
        assertEquals(ChainHealth.Finding.Kind.REPLICA_DEAD, window().get(0).kind());
        assertEquals(1, (long) health.counters().get("replicaFlaps"));
        portUpB = true;
        f.clear();
        assertEquals(20, windowsUntilAFinding(f));
        assertTrue(f.get(0).detail(), f.get(0).detail().contains("hold of 10000 ms"));
        // Passing traffic ends the probation: a later death is no flap.
        healthy();
        window();
        portUpB = false;
        window();
        assertEquals(1, (long) health.counters().get("replicaFlaps"));
        assertEquals(3, (long) health.counters().get("replicaDeaths"));
    }

    @Test
    public void aReplicaReservedForACreateInFlightIsNotDeadAndJoinsWithoutAReturn() {
        healthy();
        window();
        // The loop scales vNF 1 out: the platform reserves d (PENDING, weight 0) until its pod is Ready.
        creatingV1 = true;
        d = "reserved";
        for (int i = 0; i < 10; i++) {
            healthy();
            assertEquals(List.of(), window());
            assertFalse(health.isDead(V1, "d"));
        }
        // Ready: the group takes it (ACTIVE) as the create ends; it carries traffic.
        d = "active";
        creatingV1 = false;
        for (int i = 0; i < 20; i++) {
            healthy();
            pktsD = 50;
            assertEquals(List.of(), window());
        }
        assertEquals(0, (long) health.counters().get("replicaDeaths"));
        assertEquals(0, (long) health.counters().get("replicaReturns"));
    }

    @Test
    public void aParkedReplicaWithoutARecordIsDeadAtOnceOrOnceNoCreateIsInFlight() {
        healthy();
        window();
        // No create in flight: PENDING weight 0 without a record is a replica an earlier leader parked.
        d = "reserved";
        List<ChainHealth.Finding> f = window();
        assertTrue(health.isDead(V1, "d"));
        assertEquals(List.of(), f);
        d = null;
        window();
        // While a create is in flight it is not judged; once none is, it is dead as above.
        creatingV1 = true;
        d = "reserved";
        window();
        assertFalse(health.isDead(V1, "d"));
        creatingV1 = false;
        window();
        assertTrue(health.isDead(V1, "d"));
    }

    @Test
    public void aParkedReservationReturnsOnlyOnAPodThePlatformListsReady() {
        healthy();
        window();
        // A create that failed left its reservation (PENDING weight 0), no create in flight: parked as dead.
        d = "reserved";
        readyD = null;
        window();
        assertTrue(health.isDead(V1, "d"));
        // Well past the return hold: unknown readiness (its pod not listed) or a pod not Ready keeps it out.
        for (int i = 0; i < 30; i++) {
            healthy();
            readyD = i < 15 ? null : Boolean.FALSE;
            assertEquals(List.of(), window());
            assertTrue(health.isDead(V1, "d"));
        }
        readyD = true;
        healthy();
        List<ChainHealth.Finding> f = window();
        assertEquals(f.toString(), 1, f.size());
        assertEquals(ChainHealth.Finding.Kind.REPLICA_RETURNED, f.get(0).kind());
        assertFalse(health.isDead(V1, "d"));
    }

    @Test
    public void aDeadReplicaOfUnknownReadinessReturnsAfterTheHold() {
        // c's platform tells nothing (readiness unknown): a death by its INT silence, a return on its port alone.
        healthy();
        window();
        List<ChainHealth.Finding> found = new ArrayList<>();
        int n = windowsUntilAFinding(found, () -> {
            healthy();
            pktsC = 0;
        });
        assertTrue("c died of its INT silence in " + n + " windows", health.isDead(V1, "c"));
        List<ChainHealth.Finding> back = new ArrayList<>();
        windowsUntilAFinding(back, this::healthy);
        assertFalse("c never returned", back.isEmpty());
        assertEquals(back.toString(), ChainHealth.Finding.Kind.REPLICA_RETURNED, back.get(0).kind());
    }

    /** A new leader: another process (its own monotonic clock, the same wall clock), the same store. */
    private ChainHealth newLeader(org.srv6int.app.store.LoopStateStore store, long processOffsetNanos) {
        LoopClock other = new LoopClock() {
            @Override
            public long nanoTime() {
                return clock.nanos + processOffsetNanos;
            }

            @Override
            public long currentTimeMillis() {
                return clock.currentTimeMillis();
            }
        };
        ChainHealth h = new ChainHealth(other, 3000 * MS, 3000 * MS, 5000 * MS);
        h.remember(store);
        return h;
    }

    /** Windows of traffic that does not cross b until a finding; returns how many it took. */
    private int windowsUntilAFinding(List<ChainHealth.Finding> found) {
        return windowsUntilAFinding(found, () -> {
            healthy();
            pktsB = 0;
        });
    }

    /** Windows of the given traffic until a finding (at most 60); returns how many it took. */
    private int windowsUntilAFinding(List<ChainHealth.Finding> found, Runnable traffic) {
        int windows = 0;
        while (found.isEmpty() && windows < 60) {
            traffic.run();
            found.addAll(window());
            windows++;
        }
        return windows;
    }

    @Test
    public void aDeadReplicasHoldAndDeathsOutliveALeaderChange() {
        org.srv6int.app.store.LoopStateStore store =
                org.srv6int.app.store.TestStores.loopState(new org.srv6int.testkit.InMemoryStorageService());
        health.remember(store);
        healthy();
        window();
        portUpB = false;
        assertEquals(ChainHealth.Finding.Kind.REPLICA_DEAD, window().get(0).kind());
        parked.add("b");
        portUpB = true;
        for (int i = 0; i < 4; i++) {
            healthy();
            pktsB = 0;
            assertEquals(List.of(), window());
        }
        // The leader dies 2 s after b's death. The next one reads b's record: b is dead since then
        // (no new REPLICA_DEAD) and returns when the 5 s hold is over, in the 10th window after the
        // death as without a leader change (it would be the 10th after the change without the store).
        health = newLeader(store, 987_654_321_000L);
        List<ChainHealth.Finding> f = new ArrayList<>();
        assertEquals(6, windowsUntilAFinding(f));
        assertEquals(ChainHealth.Finding.Kind.REPLICA_RETURNED, f.get(0).kind());
        assertTrue(f.get(0).detail(), f.get(0).detail().contains("hold of 5000 ms (1 death(s) recently"));
        parked.remove("b");
        // Another change while b is on probation: its next death is a flap and doubles the hold.
        health = newLeader(store, 123_456_789_000L);
        healthy();
        pktsB = 0;
        assertEquals(List.of(), window());
        portUpB = false;
        List<ChainHealth.Finding> dead = window();
        assertEquals(ChainHealth.Finding.Kind.REPLICA_DEAD, dead.get(0).kind());
        assertEquals("a death on probation after the change is a flap", 1,
                     (long) health.counters().get("replicaFlaps"));
        parked.add("b");
        portUpB = true;
        f.clear();
        assertEquals(20, windowsUntilAFinding(f));
        assertTrue(f.get(0).detail(), f.get(0).detail().contains("hold of 10000 ms (2 death(s) recently"));
        assertEquals(0, health.storeFailures());
    }

    @Test
    public void aDownChainStaysDownAcrossALeaderChangeWithoutASecondDecision() {
        org.srv6int.app.store.LoopStateStore store =
                org.srv6int.app.store.TestStores.loopState(new org.srv6int.testkit.InMemoryStorageService());
        health.remember(store);
        healthy();
        window();
        window();
        reports = 0;
        pktsA = 0;
        pktsB = 0;
        pktsC = 0;
        inGroupC = false;
        List<ChainHealth.Finding> all = new ArrayList<>();
        for (int w = 0; w < 7; w++) {
            classified += 100;
            sidA += 100;
            all.addAll(window());
        }
        assertEquals(1, all.stream().filter(f -> f.kind() == ChainHealth.Finding.Kind.CHAIN_DOWN).count());
        ChainState before = state();
        assertEquals(ChainState.Liveness.DOWN, before.liveness());

        // A new leader while the black hole lasts: the chain is DOWN there since the same time, with
        // the same reason and last hop, and no second CHAIN_DOWN is found.
        health = newLeader(store, 555_555_555_000L);
        all.clear();
        for (int w = 0; w < 10; w++) {
            classified += 100;
            sidA += 100;
            all.addAll(window());
        }
        assertEquals(all.toString(), 0, all.stream().filter(f -> f.kind() == ChainHealth.Finding.Kind.CHAIN_DOWN)
                .count());
        ChainState after = state();
        assertEquals(ChainState.Liveness.DOWN, after.liveness());
        assertEquals(before.sinceMillis(), after.sinceMillis());
        assertEquals(before.lastHopSeen(), after.lastHopSeen());
        assertEquals(before.reason(), after.reason());
        assertEquals(1, (long) health.counters().get("chainsDownNow"));
        // Reports return: UP on the new leader, and the store forgets the DOWN chain.
        healthy();
        inGroupC = true;
        List<ChainHealth.Finding> up = window();
        assertTrue(up.toString(), up.stream().anyMatch(f -> f.kind() == ChainHealth.Finding.Kind.CHAIN_UP
                && f.detail().contains("after 5500 ms down")));
        assertTrue(store.downChains().isEmpty());
    }

    @Test
    public void noSegmentListLeftIsDownAtOnceEvenBetweenWindows() {
        healthy();
        window();
        lists = 0;
        List<ChainHealth.ReplicaSeen> rs = List.of(
                new ChainHealth.ReplicaSeen(V0, "a", "sw2/3", true, false, false, 0, OptionalLong.of(sidA), true,
                                            true));
        List<ChainHealth.Finding> f = health.observe(List.of(new ChainHealth.ChainSeen(
                SFC, "sw1", 2, OptionalLong.of(classified), 0, 0, "no live replica of vNF 1", rs)), true);
        assertEquals(1, f.size());
        assertEquals(ChainHealth.Finding.Kind.CHAIN_DOWN, f.get(0).kind());
        assertTrue(f.get(0).detail(), f.get(0).detail().startsWith("no segment list left: no live replica of vNF 1"));
        assertFalse(health.isDead(V1, "b"));
    }
    @Test
    public void aDrainingReplicaIsJudgedOnItsPodAndPortNotOnSilenceAndNeverReplaced() {
        healthy();
        window();
        drainingB = true;
        pktsB = 0;
        for (int i = 0; i < 20; i++) {
            assertEquals("silence is what a drain looks like", List.of(), window());
        }
        readyB = false;
        List<ChainHealth.Finding> f = window();
        assertEquals(1, f.size());
        assertEquals(ChainHealth.Finding.Kind.REPLICA_DEAD, f.get(0).kind());
        assertEquals("b at sw3/3: pod gone or not Ready (platform)", f.get(0).detail());
        assertFalse("nothing replaces a replica on its way out", f.get(0).replace());
    }
}
