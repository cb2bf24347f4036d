// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;

import java.util.Optional;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReplicaPlatform;
import org.junit.Test;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Algorithm 4 and the additions (scale-in with draining, cool-down, failures) in simulated time.
 */
public class GlobalLoopTest {

    private static final long SEC = TimeUnit.SECONDS.toNanos(1);
    private static final long LMAX = 1_000_000;

    private final VnfKey vnf = VnfKey.of(SfcId.of(3), 1);
    private final FakePorts.Clock clock = new FakePorts.Clock();
    private final FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
    private final FakePorts.Routing routing = new FakePorts.Routing("a");
    // The arithmetic of these cases is the paper's formula as written (C_i = R_i * L_i).
    private final LoopParams params = LoopParams.builder().tHatNanos(4 * SEC).cooldownNanos(10 * SEC)
            .demandLatency(LoopParams.DemandLatency.MEASURED).scaleInHoldNanos(5 * SEC).drainQuietNanos(2 * SEC)
            .drainTimeoutNanos(30 * SEC).build();
    private final TestLoop loop = new TestLoop(params, clock, platform, routing);
    private final Map<String, Long> packets = new HashMap<>();

    {
        platform.nodes.add(new NodeResources("w1", 1000, 1));
        platform.nodes.add(new NodeResources("w2", 3000, 1));
    }

    private void tick(double pps, long latency) {
        clock.nanos += SEC;
        loop.round(List.of(new VnfObservation(vnf, LMAX, pps, latency, 100, routing.active(), packets)));
    }

    @Test
    public void noHealthyWindowYetAddsOneReplica() {
        for (int i = 0; i < 6; i++) {
            tick(5000, 2_000_000);
        }
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w2"), platform.calls);
        assertEquals(List.of("a", "r1"), routing.active());
        assertEquals(2.0, loop.history().get(0).inputs().get(GlobalLoop.IN_N), 0);
    }

    @Test
    public void freshEscalationScalesOutWithoutWaitingOutTHat() {
        tick(1000, 500_000);
        tick(3000, 2_000_000);
        assertTrue(platform.calls.isEmpty());
        LoopDecision e = loop.escalated(vnf, 1, "w1", 2_000_000, LMAX, List.of("CPU", "LLC"));
        assertEquals(LoopDecision.Action.ESCALATION, e.action());
        assertTrue(e.detail(), e.detail().contains("w1") && e.detail().contains("LLC"));
        // The next violating window acts, 2 s into a 4 s t-hat.
        tick(3000, 2_000_000);
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w2"), platform.calls.subList(0, 2));
        assertEquals(LoopDecision.Action.SCALE_OUT, loop.history().get(1).action());
    }

    @Test
    public void aFreshEscalationDoesNotScaleAOneWindowViolation() {
        tick(1000, 500_000);
        // the agent escalates at the start of a transient: its window is over the bound, the next is not
        loop.escalated(vnf, 1, "w1", 2_000_000, LMAX, List.of("CPU", "LLC", "MB", "FREQ"));
        tick(3000, 2_000_000);
        tick(1000, 500_000);
        assertTrue(platform.calls.toString(), platform.calls.isEmpty());
        // a violation that outlasts its first window, with the hint still fresh, scales out at its second
        tick(3000, 2_000_000);
        assertTrue(platform.calls.toString(), platform.calls.isEmpty());
        tick(3000, 2_000_000);
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w2"), platform.calls.subList(0, 2));
    }

    @Test
    public void repeatedEscalationsAreCountedOnOneRecordAndNeverPushAScaleOutOut() {
        TestLoop l = new TestLoop(LoopParams.builder().historySize(4).tHatNanos(4 * SEC).build(),
                                      clock, platform, routing);
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(vnf, LMAX, 1000, 500_000, 100, routing.active(), packets)));
        // the agent escalates once a second while its local loop stays exhausted
        for (int i = 0; i < 10; i++) {
            clock.nanos += SEC / 2;
            l.escalated(vnf, 1, "w1", 2_000_000 + i, LMAX, List.of("CPU"));
        }
        assertEquals(1, l.history().size());
        LoopDecision e = l.history().get(0);
        assertEquals(LoopDecision.Action.ESCALATION, e.action());
        assertEquals(10.0, e.inputs().get(LoopDecision.IN_ESCALATIONS), 0);
        assertEquals((double) clock.currentTimeMillis(), e.inputs().get(LoopDecision.IN_LAST_ESCALATION_MS), 0);
        assertEquals(2_000_009.0, e.inputs().get(LoopDecision.IN_LATENCY), 0);
        assertEquals(clock.currentTimeMillis() - 4500, e.timeMillis()); // the first one's time
        assertTrue(e.detail(), e.detail().contains("10 escalations"));
        assertEquals(10, l.decisionsMade(LoopDecision.Action.ESCALATION));
        // the violation scales out; an escalation after the action opens a new record
        for (int i = 0; i < 2; i++) {
            clock.nanos += SEC / 2;
            l.round(List.of(new VnfObservation(vnf, LMAX, 3000, 2_000_000, 100, routing.active(), packets)));
        }
        assertEquals(LoopDecision.Action.SCALE_OUT, l.history().get(1).action());
        l.escalated(vnf, 2, "w1", 2_000_000, LMAX, List.of("CPU"));
        assertEquals(3, l.history().size());
        assertEquals(1.0, l.history().get(2).inputs().get(LoopDecision.IN_ESCALATIONS), 0);
        // escalations of many vNFs fill their own bound, not the decisions'
        for (int v = 2; v < 12; v++) {
            for (int i = 0; i < 3; i++) {
                l.escalated(VnfKey.of(SfcId.of(10 + v), 0), 1, "w1", 2_000_000, LMAX, List.of("CPU"));
            }
        }
        List<LoopDecision> h = l.history();
        assertEquals(5, h.size());
        assertEquals(LoopDecision.Action.SCALE_OUT, h.get(0).action());
        for (LoopDecision d : h.subList(1, 5)) {
            assertEquals(LoopDecision.Action.ESCALATION, d.action());
            assertEquals(3.0, d.inputs().get(LoopDecision.IN_ESCALATIONS), 0);
        }
        // a stale escalation (more than t-hat after the last) opens a new record too
        clock.nanos += 5 * SEC;
        l.escalated(VnfKey.of(SfcId.of(21), 0), 1, "w1", 2_000_000, LMAX, List.of("CPU"));
        assertEquals(1.0, l.history().get(4).inputs().get(LoopDecision.IN_ESCALATIONS), 0);
        assertEquals(LoopDecision.Action.SCALE_OUT, l.history().get(0).action());
    }

    @Test
    public void staleEscalationIsNoHint() {
        tick(1000, 500_000);
        loop.escalated(vnf, 1, "w1", 2_000_000, LMAX, List.of("CPU"));
        for (int i = 0; i < 5; i++) {
            tick(1000, 500_000);
        }
        // Older than t-hat when the violation starts: the violation waits t-hat as usual.
        for (int i = 0; i < 4; i++) {
            tick(3000, 2_000_000);
        }
        assertTrue(platform.calls.isEmpty());
    }

    @Test
    public void shortViolationDoesNotScale() {
        tick(1000, 500_000);
        for (int i = 0; i < 4; i++) {
            tick(3000, 2_000_000);
        }
        tick(1000, 500_000);
        for (int i = 0; i < 4; i++) {
            tick(3000, 2_000_000);
        }
        assertTrue(platform.calls.isEmpty());
        assertTrue(loop.history().isEmpty());
    }

    @Test
    public void aDeadReplicaLeavesAtOnceAndItsReplacementWaitsForTheActionInFlight() {
        platform.readyAtOnce(false);
        FakePorts.Routing r2 = new FakePorts.Routing("a", "b");
        TestLoop l = new TestLoop(params, clock, platform, r2);
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(vnf, LMAX, 1000, 500_000, 100, r2.active(), packets)));
        for (int i = 0; i < 6; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 1500, 2_000_000, 100, r2.active(), packets)));
        }
        // Scaling out (n = ceil(1500*2ms / (500*0.5ms)) = 12, capped at 8: +6), pods not Ready yet; then b dies.
        assertTrue(l.busy(vnf));
        assertEquals(6, platform.pendingCreates.size());
        List<LoopDecision> ds = l.onFindings(List.of(new ChainHealth.Finding(
                ChainHealth.Finding.Kind.REPLICA_DEAD, vnf.sfcId(), vnf, "b", "b at sw3/3: switch port sw3/3 down",
                        1)));
        assertEquals(1, ds.size());
        assertEquals(LoopDecision.Action.REPLICA_DEAD, ds.get(0).action());
        assertEquals(2, ds.get(0).replicasBefore());
        assertEquals(1, ds.get(0).replicasAfter());
        assertEquals("b at sw3/3: switch port sw3/3 down; weight 0", ds.get(0).detail());
        assertEquals(List.of("drain 3/1 b"), r2.calls);
        assertEquals(6, platform.pendingCreates.size());
        // The scale-out ends; the owed replacement starts with the next window, cool-down or not.
        for (int i = 0; i < 6; i++) {
            platform.pendingCreates.get(i).complete(new ReplicaInfo("p" + i, "w2", "10.1.0." + i));
        }
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(vnf, LMAX, 1000, 500_000, 100, r2.active(), packets)));
        assertEquals(7, platform.pendingCreates.size());
        LoopDecision replace = l.history().get(l.history().size() - 1);
        assertEquals(LoopDecision.Action.REPLACE, replace.action());
        assertEquals(LoopDecision.Outcome.IN_PROGRESS, replace.outcome());
        assertEquals(7, replace.replicasBefore());
        assertEquals(8, replace.replicasAfter());
        platform.pendingCreates.get(6).complete(new ReplicaInfo("r9", "w2", "10.1.0.9"));
        assertEquals(LoopDecision.Outcome.SUCCEEDED, l.history().get(l.history().size() - 1).outcome());
        assertTrue(r2.active().contains("r9"));
        assertFalse(r2.active().contains("b"));
        // A returning replica is put back with weight 1.
        l.onFindings(List.of(new ChainHealth.Finding(ChainHealth.Finding.Kind.REPLICA_RETURNED, vnf.sfcId(), vnf,
                                                     "b", "b: port up", 0)));
        assertTrue(r2.active().contains("b"));
    }

    @Test
    public void groupIsUpdatedOnlyOncePodsAreReady() {
        platform.readyAtOnce(false);
        tick(1000, 500_000);
        for (int i = 0; i < 6; i++) {
            tick(2000, 2_000_000);
        }
        // n = ceil(2000*2ms / (1000*0.5ms)) = 8 -> capped at maxReplicas 8 -> +7
        assertEquals(7, platform.pendingCreates.size());
        assertTrue(routing.calls.isEmpty());
        assertTrue(loop.busy(vnf));
        assertEquals(LoopDecision.Outcome.IN_PROGRESS, loop.history().get(0).outcome());
        for (int i = 0; i < 7; i++) {
            CompletableFuture<ReplicaInfo> f = platform.pendingCreates.get(i);
            if (i == 3) {
                f.completeExceptionally(new IllegalStateException("pod not Ready within 60 s"));
            } else {
                f.complete(new ReplicaInfo("p" + i, "w", "10.1.0." + i));
            }
        }
        assertEquals(List.of("add 3/1 [p0, p1, p2, p4, p5, p6] -> weights {a=1, p0=1, p1=1, p2=1, p4=1, p5=1, p6=1}"),
                     routing.calls);
        LoopDecision d = loop.history().get(0);
        assertEquals(LoopDecision.Outcome.FAILED, d.outcome());
        assertTrue(d.detail(), d.detail().contains("not Ready"));
        assertFalse(loop.busy(vnf));
    }

    @Test
    public void scaleInDrainsFirstAndDeletesOnlyWhenTrafficIsGone() {
        FakePorts.Routing r2 = new FakePorts.Routing("a", "b", "c");
        TestLoop l = new TestLoop(params, clock, platform, r2);
        // Healthy at 3 replicas: R* = 1000 per replica, L* = 800 us -> C* = 0.8.
        Map<String, Long> moved = new HashMap<>(Map.of("a", 1000L, "b", 1000L, "c", 1000L));
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(vnf, LMAX, 3000, 800_000, 100, r2.active(), moved)));
        // Load falls: C_i = 500 * 0.4 ms = 0.2 <= 0.5 * 2 * 0.8. Needs 5 s hold.
        for (int i = 0; i < 5; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 500, 400_000, 100, r2.active(), moved)));
            assertTrue(r2.calls.isEmpty());
        }
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(vnf, LMAX, 500, 400_000, 100, r2.active(), moved)));
        assertEquals(List.of("drain 3/1 c"), r2.calls);
        assertEquals(List.of("a", "b"), r2.active());
        // c still carries in-flight packets for 3 windows, then stops; 2 s quiet later its pod goes.
        for (int i = 0; i < 3; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 500, 400_000, 100, r2.active(), moved)));
        }
        assertTrue(platform.calls.isEmpty());
        moved.put("c", 0L);
        for (int i = 0; i < 2; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 500, 400_000, 100, r2.active(), moved)));
        }
        assertTrue(platform.calls.isEmpty());
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(vnf, LMAX, 500, 400_000, 100, r2.active(), moved)));
        assertEquals(List.of("delete 3/1 c"), platform.calls);
        assertEquals(List.of("drain 3/1 c", "remove 3/1 c"), r2.calls);
        List<LoopDecision> h = l.history();
        assertEquals(2, h.size());
        assertEquals(LoopDecision.Action.SCALE_IN, h.get(0).action());
        assertEquals(3, h.get(0).replicasBefore());
        assertEquals(2, h.get(0).replicasAfter());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, h.get(1).outcome());
        // Cool-down: no second scale-in right away although the load is still low.
        for (int i = 0; i < 8; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 100, 400_000, 100, r2.active(), moved)));
        }
        assertEquals(2, r2.calls.size());
    }

    /** Three healthy replicas, then low load for the scale-in hold: the loop drains c. */
    private void lowLoadDrains(TestLoop l, FakePorts.Routing r, Map<String, Long> moved) {
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(vnf, LMAX, 3000, 800_000, 100, r.active(), moved)));
        lowWindows(l, r, moved, 6);
        assertEquals(List.of("drain 3/1 c"), r.calls);
    }

    /** n windows of low load, one second apart. */
    private void lowWindows(TestLoop l, FakePorts.Routing r, Map<String, Long> moved, int n) {
        for (int i = 0; i < n; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 500, 400_000, 100, r.active(), moved)));
        }
    }

    @Test
    public void aDrainedReplicasPodGoesOnlyOnceNoSwitchSteersToIt() {
        FakePorts.Routing r2 = new FakePorts.Routing("a", "b", "c");
        TestLoop l = new TestLoop(params, clock, platform, r2);
        String[] steering = {"of:1: 128 bucket entries with 2001:db8:2::c"};
        l.setSteering((v, r) -> {
            assertEquals(vnf, v);
            assertEquals("c", r);
            return Optional.ofNullable(steering[0]);
        });
        Map<String, Long> moved = new HashMap<>(Map.of("a", 1000L, "b", 1000L, "c", 0L));
        lowLoadDrains(l, r2, moved);
        // c's Port_Counter stands still (its buckets' flows ended) but the switch still holds its SID:
        // a new flow hashed into one of those buckets would reach a deleted pod.
        lowWindows(l, r2, moved, 20);
        assertTrue(platform.calls.toString(), platform.calls.isEmpty());
        assertEquals(1, l.deletesHeld());
        assertTrue(l.busy(vnf));
        // The programming moved the buckets and the switch confirmed: the pod goes at the next window.
        steering[0] = null;
        lowWindows(l, r2, moved, 1);
        assertEquals(List.of("delete 3/1 c"), platform.calls);
        assertEquals(List.of("drain 3/1 c", "remove 3/1 c"), r2.calls);
        LoopDecision done = l.history().get(1);
        assertEquals(LoopDecision.Outcome.SUCCEEDED, done.outcome());
        assertTrue(done.detail(), done.detail().contains("no switch steers to it (confirmed)"));
        assertEquals(0, l.releasesGivenUp());
    }

    @Test
    public void aScaleInTheSwitchesNeverConfirmKeepsThePodAndPutsTheReplicaBack() {
        FakePorts.Routing r2 = new FakePorts.Routing("a", "b", "c");
        TestLoop l = new TestLoop(LoopParams.builder().tHatNanos(4 * SEC).cooldownNanos(10 * SEC)
                .scaleInHoldNanos(5 * SEC).drainQuietNanos(2 * SEC).drainTimeoutNanos(30 * SEC)
                .releaseTimeoutNanos(40 * SEC).build(), clock, platform, r2);
        l.setSteering((v, r) -> {
            throw new IllegalStateException("flow store unavailable");
        });
        Map<String, Long> moved = new HashMap<>(Map.of("a", 1000L, "b", 1000L, "c", 0L));
        lowLoadDrains(l, r2, moved);
        lowWindows(l, r2, moved, 39);
        assertTrue(l.busy(vnf));
        lowWindows(l, r2, moved, 1);
        // 40 s after the drain began: never deleted, c serves again, the decision says why.
        assertTrue(platform.calls.toString(), platform.calls.isEmpty());
        assertEquals(List.of("drain 3/1 c", "restore 3/1 c"), r2.calls);
        assertEquals(List.of("a", "b", "c"), r2.active());
        LoopDecision given = l.history().get(1);
        assertEquals(LoopDecision.Action.SCALE_IN, given.action());
        assertEquals(LoopDecision.Outcome.FAILED, given.outcome());
        assertTrue(given.detail(),
                given.detail().contains("pod of c not deleted: the switches still steer to it 40000 ms")
                && given.detail().contains("switches unreadable: flow store unavailable")
                && given.detail().contains("pod kept, c back in the multipath group"));
        assertEquals(1, l.releasesGivenUp());
        assertEquals(1, l.decisionsEnded(LoopDecision.Action.SCALE_IN, LoopDecision.Outcome.FAILED));
        assertFalse(l.busy(vnf));
    }

    @Test
    public void aDrainingReplicaThatDiesLeavesTheInventoryAtOnceAndIsNotReplaced() {
        FakePorts.Routing r2 = new FakePorts.Routing("a", "b", "c");
        TestLoop l = new TestLoop(params, clock, platform, r2);
        l.setSteering((v, r) -> Optional.of("of:1: 128 bucket entries with c's SID (flows still on them)"));
        Map<String, Long> moved = new HashMap<>(Map.of("a", 1000L, "b", 1000L, "c", 0L));
        lowLoadDrains(l, r2, moved);
        // Coming back while draining does not put it back into the group.
        l.onFindings(List.of(new ChainHealth.Finding(ChainHealth.Finding.Kind.REPLICA_RETURNED, vnf.sfcId(), vnf,
                                                     "c", "c: pod Ready", 0)));
        assertEquals(List.of("drain 3/1 c"), r2.calls);
        List<LoopDecision> ds = l.onFindings(List.of(new ChainHealth.Finding(ChainHealth.Finding.Kind.REPLICA_DEAD,
                vnf.sfcId(), vnf, "c", "c at sw3/3: pod gone or not Ready (platform)", 2, false)));
        assertEquals("c at sw3/3: pod gone or not Ready (platform); it was draining for a scale-in: out of the "
                     + "inventory at once, its workload deleted", ds.get(0).detail());
        assertEquals(2, ds.get(0).replicasBefore());
        // Out of the inventory first (its buckets move at the next pass), then the workload goes.
        assertEquals(List.of("drain 3/1 c", "remove 3/1 c", "remove 3/1 c"), r2.calls);
        assertEquals(List.of("delete 3/1 c"), platform.calls);
        assertFalse(l.busy(vnf));
        LoopDecision in = l.history().stream().filter(d -> d.action() == LoopDecision.Action.SCALE_IN)
                .reduce((x, y) -> y).orElseThrow();
        assertEquals(LoopDecision.Outcome.SUCCEEDED, in.outcome());
        assertTrue(in.detail(), in.detail().startsWith("died while draining (c at sw3/3: pod gone"));
        // Nothing replaces a replica that was on its way out.
        lowWindows(l, r2, moved, 3);
        assertEquals(List.of("delete 3/1 c"), platform.calls);
    }

    @Test
    public void failedDeleteKeepsDrainingAndRetries() {
        int[] attempts = {0};
        ReplicaPlatform flaky = new ReplicaPlatform() {
            @Override
            public List<NodeResources> nodeFreeResources() {
                return List.of();
            }

            @Override
            public CompletionStage<ReplicaInfo> createReplica(VnfKey v, String node, String requestId) {
                throw new UnsupportedOperationException();
            }

            @Override
            public CompletionStage<Void> deleteReplica(VnfKey v, String replicaId) {
                attempts[0]++;
                return attempts[0] == 1 ? CompletableFuture.failedFuture(new RuntimeException("apiserver 500"))
                        : CompletableFuture.completedFuture(null);
            }
        };
        FakePorts.Routing r2 = new FakePorts.Routing("a", "b");
        TestLoop l = new TestLoop(params, clock, flaky, r2);
        Map<String, Long> moved = Map.of("a", 10L, "b", 0L);
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(vnf, LMAX, 2000, 900_000, 100, r2.active(), moved)));
        for (int i = 0; i < 20 && attempts[0] < 2; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 10, 100_000, 100, r2.active(), moved)));
        }
        assertEquals(2, attempts[0]);
        assertEquals(List.of("drain 3/1 b", "remove 3/1 b"), r2.calls);
        List<LoopDecision> h = l.history();
        assertEquals(LoopDecision.Outcome.FAILED, h.get(1).outcome());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, h.get(2).outcome());
    }

    @Test
    public void noNodeIsRecordedAsFailure() {
        platform.nodes.clear();
        for (int i = 0; i < 6; i++) {
            tick(5000, 2_000_000);
        }
        LoopDecision d = loop.history().get(0);
        assertEquals(LoopDecision.Outcome.FAILED, d.outcome());
        assertEquals("no schedulable node", d.detail());
        assertTrue(routing.calls.isEmpty());
    }

    @Test
    public void historyIsBounded() {
        TestLoop l = new TestLoop(LoopParams.builder().historySize(3).cooldownNanos(0).tHatNanos(SEC).build(),
                                      clock, platform, routing);
        platform.nodes.clear();
        for (int i = 0; i < 40; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 5000, 2_000_000, 100, routing.active(), packets)));
        }
        assertEquals(3, l.history().size());
    }

    @Test
    public void windowsWithoutSamplesNeitherStartNorExtendAViolation() {
        for (int i = 0; i < 10; i++) {
            clock.nanos += SEC;
            loop.round(List.of(new VnfObservation(vnf, LMAX, 0, 0, 0, routing.active(), packets)));
        }
        assertTrue(loop.history().isEmpty());
        assertEquals(Long.MIN_VALUE, loop.violatingSinceNanos(vnf));
    }

    /** A saturated window: the full ring makes L_i ten times L*, the rate only a little above R*. */
    private TestLoop saturate(LoopParams.DemandLatency demand) {
        TestLoop l = new TestLoop(LoopParams.builder().tHatNanos(4 * SEC).demandLatency(demand).build(), clock,
                                      platform, routing);
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(vnf, LMAX, 1000, 800_000, 100, routing.active(), packets)));
        for (int i = 0; i < 6; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 1100, 8_000_000, 100, routing.active(), packets)));
        }
        return l;
    }

    @Test
    public void measuredDemandOfASaturatedVnfIsTheRingNotTheTraffic() {
        TestLoop l = saturate(LoopParams.DemandLatency.MEASURED);
        // C_i = 1100 · 8 ms = 8.8, C* = 1000 · 0.8 ms = 0.8: n = 11, capped at 8 replicas.
        LoopDecision d = l.history().get(0);
        assertEquals(11.0, d.inputs().get(GlobalLoop.IN_N), 0);
        assertEquals(8, d.replicasAfter());
    }

    @Test
    public void healthyTailDemandScalesWithTheTraffic() {
        TestLoop l = saturate(LoopParams.DemandLatency.HEALTHY_TAIL);
        // C_i = 1100 · min(8 ms, L* = 0.8 ms) = 0.88, C* = 0.8: n = 2.
        LoopDecision d = l.history().get(0);
        assertEquals(0.88, d.inputs().get(LoopDecision.IN_DEMAND), 1e-9);
        assertEquals(2.0, d.inputs().get(GlobalLoop.IN_N), 0);
        assertEquals(2, d.replicasAfter());
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w2"), platform.calls);
    }

    @Test
    public void scaleOutRecordsHowLongTheViolationLasted() {
        TestLoop l = saturate(LoopParams.DemandLatency.MEASURED);
        // Violating windows at 2..6 s; the one at 7 s finds it older than t-hat (5 s > 4 s).
        assertEquals(5000.0, l.history().get(0).inputs().get(LoopDecision.IN_VIOLATION_MS), 0);
    }

    /** A co-location view in which every replica requests the same CPU. */
    private static Colocation requesting(long millis) {
        return new Colocation() {
            @Override
            public Map<String, String> replicaNodes(VnfKey v) {
                return Map.of();
            }

            @Override
            public long cpuRequestMillis(VnfKey v) {
                return millis;
            }
        };
    }

    @Test
    public void aReplicaGoesOnlyWhereItsCpuRequestFits() {
        // w2 has the most free CPU (3000m) but not the 3500m a replica requests: nothing is created.
        loop.setColocation(requesting(3500));
        for (int i = 0; i < 6; i++) {
            tick(5000, 2_000_000);
        }
        assertEquals(List.of("nodeFreeResources"), platform.calls);
        LoopDecision d = loop.history().get(0);
        assertEquals(LoopDecision.Outcome.FAILED, d.outcome());
        assertTrue(d.detail(), d.detail().contains("no node has 3500m free") && d.detail().contains("w2(3000m)"));
        assertEquals(List.of("a"), routing.active());
    }

    @Test
    public void aNodeWithRoomForTheRequestTakesTheReplicaThoughAnotherHasMoreFree() {
        // w1 (1000m) cannot hold a 1500m request; w3 (2000m) can, and takes it although w2 does not.
        platform.nodes.clear();
        platform.nodes.add(new NodeResources("w1", 1000, 1));
        platform.nodes.add(new NodeResources("w3", 2000, 1));
        loop.setColocation(requesting(1500));
        for (int i = 0; i < 6; i++) {
            tick(5000, 2_000_000);
        }
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w3"), platform.calls);
    }

    @Test
    public void severalReplicasOfOneDecisionDoNotOverfillANode() {
        // n = 11 wanted, capped at 8: w2 (3000m) holds two 1500m replicas, w1 (1000m) none.
        platform.nodes.clear();
        platform.nodes.add(new NodeResources("w1", 1000, 1));
        platform.nodes.add(new NodeResources("w2", 3000, 1));
        TestLoop l = new TestLoop(LoopParams.builder().tHatNanos(4 * SEC).cooldownNanos(10 * SEC)
                .demandLatency(LoopParams.DemandLatency.MEASURED).build(), clock, platform, routing);
        l.setColocation(requesting(1500));
        for (int i = 0; i < 6; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 1000, 800_000, 100, routing.active(), packets)));
        }
        for (int i = 0; i < 6; i++) {
            clock.nanos += SEC;
            l.round(List.of(new VnfObservation(vnf, LMAX, 1100, 8_000_000, 100, routing.active(), packets)));
        }
        assertEquals(List.of("nodeFreeResources", "create 3/1 on w2", "create 3/1 on w2"), platform.calls);
        LoopDecision d = l.history().get(0);
        assertTrue(d.detail(), d.detail().contains("+2 on w2,w2") && d.detail().contains("5 more do not fit"));
    }
}
