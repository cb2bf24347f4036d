// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;

import java.util.Optional;
import java.util.Set;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaHealthRecord;
import org.srv6int.app.api.model.ReplicaInfo;
import org.junit.Test;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.LearnedInterference;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfClass;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.placement.InterferenceMatrix;
import org.srv6int.app.store.Srv6IntSerializers;
import org.srv6int.app.store.TestStores;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The loop's state in the cluster's store: a new leader (another process: its own monotonic
 * clock, the same wall clock) resumes R*, L*, the violation timer and an action in flight;
 * a scale-out interrupted by a leader failure is finished exactly once (same decision, same
 * idempotent replica requests); a write that fails stops the action, not the loop.
 */
public class GlobalLoopFailoverTest {

    private static final long SEC = TimeUnit.SECONDS.toNanos(1);
    private static final long LMAX = 1_000_000;
    /** The new leader's monotonic clock is another process's. */
    private static final long OTHER_PROCESS = 987_654_321_000L;

    private final VnfKey vnf = VnfKey.of(SfcId.of(3), 1);
    private final FakePorts.Clock clock = new FakePorts.Clock();
    private final LoopClock otherClock = new LoopClock() {
        @Override
        public long nanoTime() {
            return clock.nanos + OTHER_PROCESS;
        }

        @Override
        public long currentTimeMillis() {
            return clock.currentTimeMillis();
        }
    };
    private final FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
    private final FakePorts.Routing routing = new FakePorts.Routing("a");
    private final LoopParams params = LoopParams.builder().tHatNanos(4 * SEC).cooldownNanos(10 * SEC)
            .demandLatency(LoopParams.DemandLatency.MEASURED).build();
    private final InMemoryStorageService storage = new InMemoryStorageService();
    private final Map<String, Long> packets = new HashMap<>();

    {
        platform.nodes.add(new NodeResources("w1", 1000, 1));
        platform.nodes.add(new NodeResources("w2", 3000, 1));
    }

    private LoopStateStore store() {
        return TestStores.loopState(storage);
    }

    private void tick(TestLoop loop, double pps, long latency) {
        clock.nanos += SEC;
        loop.round(List.of(new VnfObservation(vnf, LMAX, pps, latency, 100, routing.active(), packets)));
    }

    @Test
    public void aScaleOutInterruptedByALeaderFailureIsFinishedExactlyOnce() {
        TestLoop first = new TestLoop(params, clock, platform, routing, store());
        platform.readyAtOnce(false);
        tick(first, 1000, 500_000);
        for (int i = 0; i < 6; i++) {
            tick(first, 2000, 2_000_000);
        }
        // n = ceil(2000 * 2 ms / (1000 * 0.5 ms)) = 8: +7 replicas requested, none Ready yet.
        assertEquals(7, platform.pendingCreates.size());
        LoopDecision started = first.history().get(0);
        assertEquals(LoopDecision.Outcome.IN_PROGRESS, started.outcome());

        // The leader fails; two pods become Ready meanwhile, nobody hears of it.
        first.close();
        platform.pendingCreates.get(0).complete(new ReplicaInfo("p0", "w2", "10.1.0.0"));
        platform.pendingCreates.get(1).complete(new ReplicaInfo("p1", "w1", "10.1.0.1"));
        assertTrue(routing.calls.isEmpty());

        // The next leader reads the store at its first window and finishes the same decision.
        TestLoop second = new TestLoop(params, otherClock, platform, routing, store());
        tick(second, 2000, 2_000_000);
        assertEquals(7, platform.pendingCreates.size());
        assertEquals(7, platform.created());
        assertEquals(7, platform.calls.stream().filter(c -> c.contains(" again (d1-")).count());
        assertTrue(second.busy(vnf));
        for (int i = 2; i < 7; i++) {
            platform.pendingCreates.get(i).complete(new ReplicaInfo("p" + i, "w2", "10.1.0." + i));
        }
        assertEquals(List.of("add 3/1 [p0, p1, p2, p3, p4, p5, p6] -> weights {a=1, p0=1, p1=1, p2=1, p3=1, "
                                     + "p4=1, p5=1, p6=1}"), routing.calls);
        List<LoopDecision> h = second.history();
        assertEquals(1, h.size());
        assertEquals(started.timeMillis(), h.get(0).timeMillis());
        assertEquals(started.inputs(), h.get(0).inputs());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, h.get(0).outcome());
        assertTrue(h.get(0).detail(), h.get(0).detail().startsWith("resumed after a leader change"));
        assertFalse(second.busy(vnf));
        VnfLoopRecord r = store().records().get(vnf);
        assertEquals(VnfLoopRecord.Phase.IDLE, r.phase());
        assertTrue(r.cooldownUntilMillis() > clock.currentTimeMillis());

        // Still over the bound, but cooling down: no second scale-out from the same violation.
        for (int i = 0; i < 5; i++) {
            tick(second, 2000, 2_000_000);
        }
        assertEquals(7, platform.created());
    }

    @Test
    public void aReplacementOwedWhenTheLeaderDiesIsCreatedExactlyOnceByTheNext() {
        TestLoop first = new TestLoop(params, clock, platform, routing, store());
        platform.readyAtOnce(false);
        tick(first, 1000, 500_000);
        for (int i = 0; i < 6; i++) {
            tick(first, 2000, 2_000_000);
        }
        assertEquals(7, platform.pendingCreates.size());
        // Replica a dies during the scale-out: out of the group at once, its replacement owed.
        first.onFindings(List.of(new ChainHealth.Finding(ChainHealth.Finding.Kind.REPLICA_DEAD, vnf.sfcId(), vnf,
                                                         "a", "a at sw2/3: pod gone or not Ready (platform)", 0)));
        assertEquals(List.of("drain 3/1 a"), routing.calls);
        assertEquals(7, platform.created());
        assertEquals("the debt is in the store before the leader can die", 1, store().records().get(vnf).replaceOwed());

        // The leader dies; the scale-out's pods become Ready meanwhile.
        first.close();
        for (int i = 0; i < 7; i++) {
            platform.pendingCreates.get(i).complete(new ReplicaInfo("p" + i, "w2", "10.1.0." + i));
        }
        TestLoop second = new TestLoop(params, otherClock, platform, routing, store());
        // It resumes and finishes the scale-out (the same requests), then requests the owed
        // replacement, cool-down or not.
        tick(second, 1000, 500_000);
        tick(second, 1000, 500_000);
        assertEquals(7, platform.calls.stream().filter(c -> c.contains(" again (")).count());
        assertEquals(8, platform.created());
        LoopDecision replace = second.history().get(second.history().size() - 1);
        assertEquals(LoopDecision.Action.REPLACE, replace.action());
        assertEquals(0, store().records().get(vnf).replaceOwed());
        // Once: further windows, and a third leader resuming the replacement, create nothing new.
        tick(second, 1000, 500_000);
        second.close();
        TestLoop third = new TestLoop(params, clock, platform, routing, store());
        tick(third, 1000, 500_000);
        platform.pendingCreates.get(7).complete(new ReplicaInfo("p7", "w2", "10.1.0.7"));
        for (int i = 0; i < 3; i++) {
            tick(third, 1000, 500_000);
        }
        assertEquals(8, platform.created());
        assertEquals(routing.calls.toString(), 1, routing.calls.stream().filter(c
                -> c.startsWith("add 3/1 [p7]")).count());
        assertFalse(third.busy(vnf));
    }

    @Test
    public void rStarLStarAndTheViolationTimerSurviveALeaderChange() {
        TestLoop first = new TestLoop(params, clock, platform, routing, store());
        tick(first, 1000, 500_000);
        tick(first, 1200, 600_000);
        tick(first, 2000, 2_000_000);
        tick(first, 2000, 2_000_000);
        first.close();
        TestLoop second = new TestLoop(params, otherClock, platform, routing, store());
        // The violation began at 3 s, before the change: t-hat (4 s) is over at 8 s, not 4 s after
        // the new leader's first window.
        for (int i = 0; i < 3; i++) {
            tick(second, 2000, 2_000_000);
        }
        assertTrue(platform.calls.toString(), platform.calls.isEmpty());
        tick(second, 2000, 2_000_000);
        assertEquals(1200.0, second.rStar(vnf), 0);
        assertEquals(600_000, second.lStarNanos(vnf));
        // C* = 1200 * 0.6 ms: n = ceil(2000 * 2 ms / 0.72) = 6.
        assertEquals(6.0, second.history().get(0).inputs().get(GlobalLoop.IN_N), 0);
        assertEquals(5, platform.created());
        assertEquals(5000, second.history().get(0).inputs().get(LoopDecision.IN_VIOLATION_MS), 0);
    }

    /** The store as the loop sees it, failing on command: reads while down, writes while down or told to. */
    private static final class FlakyStore implements LoopStateStore {
        final LoopStateStore real;
        int failWrites;
        boolean down;

        FlakyStore(LoopStateStore real) {
            this.real = real;
        }

        private <T> T read(Supplier<T> r) {
            if (down) {
                throw new IllegalStateException("store unreachable");
            }
            return r.get();
        }

        private void write(Runnable w) {
            if (down) {
                throw new IllegalStateException("write timed out");
            }
            w.run();
        }

        // a write that also fails the next failWrites times
        private void countedWrite(Runnable w) {
            if (down || failWrites > 0) {
                failWrites--;
                throw new IllegalStateException("write timed out");
            }
            w.run();
        }

        @Override
        public Map<VnfKey, VnfLoopRecord> records() {
            return read(real::records);
        }

        @Override
        public void put(VnfKey v, VnfLoopRecord r) {
            countedWrite(() -> real.put(v, r));
        }

        @Override
        public void remove(VnfKey v) {
            real.remove(v);
        }

        @Override
        public Set<SfcId> pausedChains() {
            return read(real::pausedChains);
        }

        @Override
        public void setPaused(SfcId sfc, boolean p) {
            real.setPaused(sfc, p);
        }

        @Override
        public long nextDecisionId() {
            return read(real::nextDecisionId);
        }

        @Override
        public Map<VnfReplicaId, ReplicaHealthRecord> replicaHealth() {
            return read(real::replicaHealth);
        }

        @Override
        public void putReplicaHealth(VnfReplicaId r, ReplicaHealthRecord h) {
            write(() -> real.putReplicaHealth(r, h));
        }

        @Override
        public void removeReplicaHealth(VnfReplicaId r) {
            real.removeReplicaHealth(r);
        }

        @Override
        public Map<SfcId, ChainState> downChains() {
            return read(real::downChains);
        }

        @Override
        public void putDownChain(ChainState s) {
            write(() -> real.putDownChain(s));
        }

        @Override
        public void removeDownChain(SfcId sfc) {
            real.removeDownChain(sfc);
        }

        @Override
        public Optional<LearnedInterference> learnedInterference() {
            return read(real::learnedInterference);
        }

        @Override
        public void putLearnedInterference(LearnedInterference learned) {
            countedWrite(() -> real.putLearnedInterference(learned));
        }
    }

    @Test
    public void noActionOnStateThatCouldNotBeReadOrWritten() {
        FlakyStore flaky = new FlakyStore(store());
        flaky.down = true;
        TestLoop loop = new TestLoop(params, clock, platform, routing, flaky);
        for (int i = 0; i < 6; i++) {
            tick(loop, 2000, 2_000_000);
        }
        // Unreadable store: the loop does not even start.
        assertTrue(platform.calls.isEmpty());
        assertTrue(loop.history().isEmpty());
        flaky.down = false;
        // Readable now; the write-ahead of the scale-out fails 3 times (retried at once), then works.
        tick(loop, 1000, 500_000);
        for (int i = 0; i < 5; i++) {
            tick(loop, 2000, 2_000_000);
        }
        assertTrue(platform.calls.toString(), platform.calls.isEmpty());
        flaky.failWrites = 6;
        tick(loop, 2000, 2_000_000);
        assertEquals(List.of("nodeFreeResources"), platform.calls);
        assertEquals(LoopDecision.Outcome.FAILED, loop.history().get(0).outcome());
        assertTrue(loop.history().get(0).detail(), loop.history().get(0).detail().contains("not started"));
        assertTrue(loop.storeFailures() >= 3);
        // Next window: the violation still runs, the write goes through, the scale-out starts.
        tick(loop, 2000, 2_000_000);
        assertEquals(loop.history() + " " + platform.calls, 7, platform.created());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, loop.history().get(1).outcome());
    }

    /** An IDS alone on w1, then a NAT lands next to it and its capacity drops to 40 %: one observation. */
    private static void learnOnePair(ClusterInterference c, InterferenceTest.Nodes n, VnfKey ids, VnfKey nat) {
        n.put(ids, VnfClass.PAYLOAD_INSPECTION, "s0", "w1");
        c.observe(List.of(InterferenceTest.window(ids, 20_000, 100_000, "s0")), n, n);
        c.observe(List.of(InterferenceTest.window(ids, 20_000, 100_000, "s0")), n, n);
        n.put(nat, VnfClass.PORT_REWRITING, "n0", "w1");
        for (int i = 0; i <= InterferenceLearner.SETTLE_WINDOWS; i++) {
            c.observe(List.of(InterferenceTest.window(ids, 20_000, 40_000, "s0"),
                              InterferenceTest.window(nat, 20_000, 90_000, "n0")), n, n);
        }
    }

    @Test
    public void theLearnedInterferenceMatrixSurvivesALeaderChange() {
        VnfClass ids = VnfClass.PAYLOAD_INSPECTION;
        VnfClass nat = VnfClass.PORT_REWRITING;
        double seed = InterferenceMatrix.paper(ids, nat);
        double once = 0.7 * seed + 0.3 * 0.4;
        ClusterInterference first = new ClusterInterference(store());
        first.lead();
        learnOnePair(first, new InterferenceTest.Nodes(), VnfKey.of(SfcId.of(1), 0), VnfKey.of(SfcId.of(2), 0));
        assertEquals(1, first.learned());
        assertEquals(once, first.matrix().normalized(ids, nat), 1e-6);
        // Another instance, not leading, shows what the leader learned (REST / CLI on any instance).
        ClusterInterference second = new ClusterInterference(store());
        assertEquals(seed, second.matrix().normalized(ids, nat), 0);
        assertEquals(once, second.view(false).normalized(ids, nat), 1e-6);
        assertEquals(1, second.view(false).samples(ids, nat));
        // The leader fails; the second leads and goes on from the learned matrix, not from the seed.
        second.lead();
        learnOnePair(second, new InterferenceTest.Nodes(), VnfKey.of(SfcId.of(3), 0), VnfKey.of(SfcId.of(4), 0));
        double twice = 0.7 * once + 0.3 * 0.4;
        assertEquals(twice, second.matrix().normalized(ids, nat), 1e-5);
        assertEquals(2, second.view(true).samples(ids, nat));
        assertEquals(second.matrix().normalized(ids, nat), store().learnedInterference().orElseThrow().value(ids, nat),
                0);
        assertEquals(2, store().learnedInterference().orElseThrow().samples(ids, nat));
    }

    @Test
    public void anUnreadableStoreStopsLearningAndAFailedWriteIsRetried() {
        ClusterInterference first = new ClusterInterference(store());
        first.lead();
        learnOnePair(first, new InterferenceTest.Nodes(), VnfKey.of(SfcId.of(1), 0), VnfKey.of(SfcId.of(2), 0));
        LearnedInterference learned = store().learnedInterference().orElseThrow();
        FlakyStore flaky = new FlakyStore(store());
        ClusterInterference second = new ClusterInterference(flaky);
        second.lead();
        flaky.down = true;
        InterferenceTest.Nodes n = new InterferenceTest.Nodes();
        learnOnePair(second, n, VnfKey.of(SfcId.of(3), 0), VnfKey.of(SfcId.of(4), 0));
        // Not knowing what was learned, it learns nothing and writes nothing over it.
        assertEquals(0, second.learned());
        assertEquals(learned, store().learnedInterference().orElseThrow());
        assertTrue(second.storeFailures() > 0);
        // The store is back but the next write fails: learned here, written at the next window.
        flaky.down = false;
        flaky.failWrites = 1;
        learnOnePair(second, new InterferenceTest.Nodes(), VnfKey.of(SfcId.of(5), 0), VnfKey.of(SfcId.of(6), 0));
        assertEquals(1, second.learned());
        assertEquals(learned, store().learnedInterference().orElseThrow());
        second.observe(List.of(), n, n);
        assertEquals(2, store().learnedInterference().orElseThrow()
                .samples(VnfClass.PAYLOAD_INSPECTION, VnfClass.PORT_REWRITING));
    }

    @Test
    public void recordsSurviveTheClustersSerializer() {
        VnfLoopRecord r = new VnfLoopRecord(1200.5, 600_000, 1_700_000_001_000L, 0, 1_700_000_009_000L,
                                            VnfLoopRecord.Phase.SCALING,
                                            new LoopDecision(1_700_000_005_000L, vnf, Map.of(LoopDecision.IN_LATENCY,
                                                    2e6),
                                                             LoopDecision.Action.SCALE_OUT, 1, 3,
                                                             LoopDecision.Outcome.IN_PROGRESS, ""),
                                            7, List.of("w1", "w2"), null, 0, 0)
                .withPushAside("log0", "1/1", 1_700_000_004_000L);
        byte[] bytes = Srv6IntSerializers.SERIALIZER.encode(r);
        assertEquals(r, Srv6IntSerializers.SERIALIZER.decode(bytes));
        assertEquals("log0", ((VnfLoopRecord) Srv6IntSerializers.SERIALIZER.decode(bytes)).movingOut());
        LearnedInterference learned = new InterferenceMatrix().learned();
        assertEquals(learned, Srv6IntSerializers.SERIALIZER.decode(Srv6IntSerializers.SERIALIZER.encode(learned)));
    }
}
