// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;

import java.util.Comparator;
import org.junit.Test;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.store.TestStores;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * CoCo's push-aside before scale-out: the planner's cost model and the loop carrying a move out
 * make-before-break, in simulated time over the recording fakes of the loop's ports. The chain is
 * the paper's Fig. 4: classifier on w1, the stateful payload analyser (hot) and a logger on w2.
 */
public class PushAsideTest {

    private static final long SEC = TimeUnit.SECONDS.toNanos(1);
    private static final long LMAX = 1_000_000;

    private final SfcId sfc = SfcId.of(1);
    private final VnfKey cls = VnfKey.of(sfc, 0);
    private final VnfKey spa = VnfKey.of(sfc, 1);
    private final VnfKey log = VnfKey.of(sfc, 2);
    private final FakePorts.Clock clock = new FakePorts.Clock();
    private final FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
    private final Groups routing = new Groups();
    private final Map<VnfKey, Long> cpu = new HashMap<>(Map.of(cls, 500L, spa, 1000L, log, 500L));
    private final Map<String, Long> packets = new HashMap<>();
    private long logLatency = 200_000;

    {
        routing.put(cls, "cls0", "w1");
        routing.put(spa, "spa0", "w2");
        routing.put(log, "log0", "w2");
        platform.nodes.add(new NodeResources("w1", 1000, 1));
        platform.nodes.add(new NodeResources("w2", 0, 1));
    }

    /** Multipath groups of several vNFs with each replica's node, as the app's inventory keeps them. */
    static final class Groups implements ChainRouting, Colocation {
        final List<String> calls = new ArrayList<>();
        final Map<VnfKey, Map<String, Integer>> weights = new LinkedHashMap<>();
        final Map<String, String> nodes = new HashMap<>();
        final Map<VnfKey, Long> cpu = new HashMap<>();

        void put(VnfKey vnf, String replica, String node) {
            weights.computeIfAbsent(vnf, k -> new LinkedHashMap<>()).put(replica, 1);
            nodes.put(vnf + "/" + replica, node);
        }

        List<String> active(VnfKey vnf) {
            List<String> out = new ArrayList<>();
            weights.getOrDefault(vnf, Map.of()).forEach((r, w) -> {
                if (w > 0) {
                    out.add(r);
                }
            });
            return out;
        }

        @Override
        public List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count) {
            List<NodeResources> ns = new ArrayList<>(candidates);
            ns.sort(Comparator.comparingLong(NodeResources::freeCpuMillis).reversed());
            List<String> out = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                out.add(ns.get(i % ns.size()).node());
            }
            return out;
        }

        @Override
        public void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas) {
            for (ReplicaInfo r : replicas) {
                put(vnf, r.id(), r.node());
                calls.add("add " + vnf + " " + r.id() + " on " + r.node());
            }
        }

        @Override
        public void drainReplica(VnfKey vnf, String replicaId) {
            weights.get(vnf).put(replicaId, 0);
            calls.add("drain " + vnf + " " + replicaId);
        }

        @Override
        public void removeReplica(VnfKey vnf, String replicaId) {
            weights.get(vnf).remove(replicaId);
            calls.add("remove " + vnf + " " + replicaId);
        }

        @Override
        public Map<String, String> replicaNodes(VnfKey vnf) {
            Map<String, String> out = new LinkedHashMap<>();
            for (String r : active(vnf)) {
                out.put(r, nodes.get(vnf + "/" + r));
            }
            return out;
        }

        @Override
        public long cpuRequestMillis(VnfKey vnf) {
            return cpu.getOrDefault(vnf, 0L);
        }
    }

    private TestLoop loop(boolean pushAside) {
        return loop(pushAside, null, clock);
    }

    private TestLoop loop(boolean pushAside, LoopStateStore store, LoopClock on) {
        routing.cpu.putAll(cpu);
        LoopParams p = LoopParams.builder().tHatNanos(4 * SEC).cooldownNanos(10 * SEC).drainQuietNanos(2 * SEC)
                .pushAside(pushAside).pushAsideTimeoutNanos(60 * SEC).build();
        TestLoop l = new TestLoop(p, on, platform, routing, store);
        l.setColocation(routing);
        return l;
    }

    private void tick(TestLoop l, double spaPps, long spaLatency) {
        clock.nanos += SEC;
        l.round(List.of(new VnfObservation(cls, LMAX, spaPps, 100_000, 100, routing.active(cls), Map.of()),
                       new VnfObservation(spa, LMAX, spaPps, spaLatency, 100, routing.active(spa), Map.of()),
                       new VnfObservation(log, LMAX, spaPps, logLatency, 100, routing.active(log), packets)));
    }

    private List<LoopDecision> of(TestLoop l, VnfKey vnf) {
        List<LoopDecision> out = new ArrayList<>();
        for (LoopDecision d : l.history()) {
            if (d.vnf().equals(vnf)) {
                out.add(d);
            }
        }
        return out;
    }

    /** 100 kpps within the bound, then 150 kpps over it for longer than t-hat. */
    private void step(TestLoop l, int violatingWindows) {
        tick(l, 100_000, 800_000);
        for (int i = 0; i < violatingWindows; i++) {
            tick(l, 150_000, 3_000_000);
        }
    }

    @Test
    public void hotVnfPushesItsSlackNeighbourAsideInsteadOfScalingOut() {
        TestLoop l = loop(true);
        step(l, 6);
        // The logger gets a new replica on w1 (1000m free >= its 500m); the analyser gets none.
        assertEquals(List.of("nodeFreeResources", "create " + log + " on w1"), platform.calls);
        // Make-before-break: the new logger replica is in the group before the old one drains.
        assertEquals(List.of("add " + log + " r1 on w1", "drain " + log + " log0"), routing.calls);
        assertEquals(List.of("r1"), routing.active(log));
        assertEquals(List.of("spa0"), routing.active(spa));
        LoopDecision plan = of(l, spa).get(0);
        assertEquals(LoopDecision.Action.PUSH_ASIDE, plan.action());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, plan.outcome());
        assertEquals(1, plan.replicasBefore());
        assertEquals(1, plan.replicasAfter());
        assertTrue(plan.detail(), plan.detail().contains("push-aside on w2 for 500m (1 move(s)")
                && plan.detail().contains(log + " (replica log0, 500m, slack 0.80) to w1")
                && plan.detail().contains("fewest moves"));
        // The old logger goes once its Port_Counter stood still for the drain quiet time.
        packets.put("log0", 0L);
        for (int i = 0; i < 3; i++) {
            tick(l, 150_000, 500_000);
        }
        assertEquals("delete " + log + " log0", platform.calls.get(platform.calls.size() - 1));
        assertEquals("remove " + log + " log0", routing.calls.get(routing.calls.size() - 1));
        List<LoopDecision> moved = of(l, log);
        assertEquals(2, moved.size());
        assertEquals(LoopDecision.Action.PUSH_ASIDE, moved.get(1).action());
        assertTrue(moved.get(1).detail(), moved.get(1).detail().startsWith("pushed aside for " + spa));
        assertEquals(0, l.decisionsMade(LoopDecision.Action.SCALE_OUT));
    }

    /**
     * The leader fails while the neighbour's new replica is starting: the next leader (another
     * process's monotonic clock, the same store) finishes the move exactly once (the same request,
     * no second pod; the new replica joins, then the old one drains and is deleted once) and keeps
     * the hot vNF's push-aside time, so a violation that outlasts it scales out instead of pushing
     * aside again.
     */
    @Test
    public void aNewLeaderFinishesAPushAsideMoveExactlyOnce() {
        InMemoryStorageService storage = new InMemoryStorageService();
        LoopClock otherProcess = new LoopClock() {
            @Override
            public long nanoTime() {
                return clock.nanos + 987_654_321_000L;
            }

            @Override
            public long currentTimeMillis() {
                return clock.currentTimeMillis();
            }
        };
        platform.readyAtOnce(false);
        TestLoop first = loop(true, TestStores.loopState(storage), clock);
        step(first, 6);
        assertEquals(List.of("nodeFreeResources", "create " + log + " on w1"), platform.calls);
        first.close();
        // Its pod becomes Ready after the leader failed: nobody hears of it.
        platform.pendingCreates.get(0).complete(new ReplicaInfo("r1", "w1", "10.0.0.1"));
        assertTrue(routing.calls.isEmpty());

        TestLoop second = loop(true, TestStores.loopState(storage), otherProcess);
        tick(second, 150_000, 500_000);
        assertEquals(1, platform.created());
        assertTrue(platform.calls.toString(), platform.calls.get(2).startsWith("create " + log + " on w1 again (d"));
        // Make-before-break as on the first leader: the new replica joins, then the old one drains.
        assertEquals(List.of("add " + log + " r1 on w1", "drain " + log + " log0"), routing.calls);
        LoopDecision resumed = of(second, log).get(0);
        assertEquals(LoopDecision.Action.PUSH_ASIDE, resumed.action());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, resumed.outcome());
        assertTrue(resumed.detail(), resumed.detail().startsWith("pushed aside for " + spa
                + ": resumed after a leader change: 1 replica(s) on w1"));
        packets.put("log0", 0L);
        for (int i = 0; i < 3; i++) {
            tick(second, 150_000, 500_000);
        }
        assertEquals(1, platform.calls.stream().filter(c -> c.startsWith("delete ")).count());
        assertEquals("delete " + log + " log0", platform.calls.get(platform.calls.size() - 1));
        assertEquals("remove " + log + " log0", routing.calls.get(routing.calls.size() - 1));
        List<LoopDecision> moved = of(second, log);
        assertEquals(LoopDecision.Action.PUSH_ASIDE, moved.get(moved.size() - 1).action());
        assertTrue(moved.get(moved.size() - 1).detail().startsWith("pushed aside for " + spa));
        assertEquals(List.of("r1"), routing.active(log));

        // The analyser violates again within CoCo's timeout: the new leader knows it was pushed aside.
        platform.readyAtOnce(true);
        for (int i = 0; i < 12; i++) {
            tick(second, 150_000, 3_000_000);
        }
        List<LoopDecision> ds = of(second, spa);
        LoopDecision last = ds.get(ds.size() - 1);
        assertEquals(LoopDecision.Action.SCALE_OUT, last.action());
        assertTrue(last.detail(), last.detail().contains("push-aside not possible: pushed aside "));
        assertTrue(ds.toString(), ds.stream().noneMatch(d -> d.action() == LoopDecision.Action.PUSH_ASIDE));
    }

    @Test
    public void switchedOffTheHotVnfScalesOutAsBefore() {
        TestLoop l = loop(false);
        step(l, 6);
        assertEquals(List.of("nodeFreeResources", "create " + spa + " on w1"), platform.calls);
        assertEquals(LoopDecision.Action.SCALE_OUT, of(l, spa).get(0).action());
        assertEquals(0, l.decisionsMade(LoopDecision.Action.PUSH_ASIDE));
    }

    @Test
    public void aNeighbourWithoutSlackIsNotMovedAndTheScaleOutSaysWhy() {
        logLatency = 900_000;
        TestLoop l = loop(true);
        step(l, 6);
        LoopDecision d = of(l, spa).get(0);
        assertEquals(LoopDecision.Action.SCALE_OUT, d.action());
        assertTrue(d.detail(), d.detail().contains("push-aside not possible: no neighbour on w2 has slack >= 0.3"));
        assertEquals(List.of("log0"), routing.active(log));
    }

    @Test
    public void noRoomElsewhereForTheNeighbourScalesOut() {
        platform.nodes.set(0, new NodeResources("w1", 400, 1));
        TestLoop l = loop(true);
        step(l, 6);
        LoopDecision d = of(l, spa).get(0);
        assertEquals(LoopDecision.Action.SCALE_OUT, d.action());
        assertTrue(d.detail(), d.detail().contains("no other node has room"));
    }

    @Test
    public void aVnfNeedingMoreThanOneReplicasWorthScalesOut() {
        TestLoop l = loop(true);
        tick(l, 100_000, 800_000);
        for (int i = 0; i < 6; i++) {
            tick(l, 400_000, 3_000_000);
        }
        LoopDecision d = of(l, spa).get(0);
        assertEquals(LoopDecision.Action.SCALE_OUT, d.action());
        assertTrue(d.detail(), d.detail().contains("push-aside gives at most one"));
    }

    @Test
    public void aViolationThatOutlastsThePushAsideScalesOutWithinTheTimeout() {
        TestLoop l = loop(true);
        step(l, 6);
        packets.put("log0", 0L);
        // Still over the bound after the move: the cool-down (10 s) and t-hat pass, then scale-out.
        for (int i = 0; i < 12; i++) {
            tick(l, 150_000, 3_000_000);
        }
        List<LoopDecision> ds = of(l, spa);
        assertEquals(LoopDecision.Action.SCALE_OUT, ds.get(ds.size() - 1).action());
        assertTrue(ds.get(ds.size() - 1).detail(), ds.get(ds.size() - 1).detail().contains("pushed aside"));
        assertEquals(1, l.decisionsMade(LoopDecision.Action.SCALE_OUT));
    }

    @Test
    public void plannerTakesFewestMovesThenNoNewHopThenMostSlack() {
        VnfKey a = VnfKey.of(SfcId.of(2), 0);
        VnfKey b = VnfKey.of(SfcId.of(3), 0);
        VnfKey c = VnfKey.of(SfcId.of(4), 0);
        List<PushAside.Resident> rs = List.of(
                new PushAside.Resident(a, "a0", 300, 0.9, Set.of()),
                new PushAside.Resident(b, "b0", 300, 0.8, Set.of()),
                new PushAside.Resident(c, "c0", 700, 0.4, Set.of("w3")));
        List<NodeResources> nodes = List.of(new NodeResources("w1", 800, 1), new NodeResources("w3", 800, 1));
        // One move (c, 700m) beats two moves with more slack (a + b, 600m).
        PushAside.Result r = PushAside.plan("w2", 600, 0, rs, nodes, 0.3);
        assertEquals(1, r.moves().size());
        assertEquals(c, r.moves().get(0).resident().vnf());
        // To the node of its chain neighbour: no new hop, although w1 has as much room.
        assertEquals("w3", r.moves().get(0).to());
        assertFalse(r.moves().get(0).newHop());
        // Needing more than c frees: the two of fewest moves that are enough.
        PushAside.Result two = PushAside.plan("w2", 900, 0, rs, nodes, 0.3);
        assertEquals(2, two.moves().size());
        assertEquals(1000, two.freedMillis());
        // Free CPU on the node counts: nothing to move.
        assertFalse(PushAside.plan("w2", 600, 600, rs, nodes, 0.3).feasible());
        // More than all of them free: no plan, and why.
        PushAside.Result none = PushAside.plan("w2", 5000, 0, rs, nodes, 0.3);
        assertFalse(none.feasible());
        assertTrue(none.reason(), none.reason().contains("frees less than 5000m"));
    }

    @Test
    public void plannerNeverOverfillsATargetNode() {
        VnfKey a = VnfKey.of(SfcId.of(2), 0);
        VnfKey b = VnfKey.of(SfcId.of(3), 0);
        List<PushAside.Resident> rs = List.of(new PushAside.Resident(a, "a0", 500, 0.9, Set.of()),
                                              new PushAside.Resident(b, "b0", 500, 0.9, Set.of()));
        // Both must move, but w1 holds only one of them.
        assertFalse(PushAside.plan("w2", 1000, 0, rs, List.of(new NodeResources("w1", 700, 1)), 0.3).feasible());
        PushAside.Result r = PushAside.plan("w2", 1000, 0, rs,
                List.of(new NodeResources("w1", 700, 1), new NodeResources("w3", 600, 1)), 0.3);
        assertEquals(2, r.moves().size());
        assertTrue(!r.moves().get(0).to().equals(r.moves().get(1).to()));
    }
}
