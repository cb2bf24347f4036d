// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

import org.junit.Before;
import org.junit.Test;
import org.srv6int.agent.loop.Decision.Action;
import org.srv6int.agent.window.LatencyWindow;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Scripted scenarios of Algorithms 1-3 with the paper's N = 1500: every
 * window is 1500 Detection Results around a chosen level with noise, and the
 * test checks the allocations the algorithm prescribes.
 */
public class LocalLoopTest {

    private static final int N = LatencyWindow.DEFAULT_N;
    // the project's policy, free hold off (its clock seldom moves; RaiseTest tests the hold)
    private static final SlackPolicy SLACK = SlackPolicy.DEFAULT.withFreeHold(0);
    private static final long LMAX = 1_000_000; // 1 ms
    private static final long INTERVAL = 1_000_000_000L; // least time between escalations
    private static final long HOLD = 1_000_000_000L; // escalation hold, the agent's default

    private final List<Decision> decisions = new ArrayList<>();
    private final List<long[]> escalations = new ArrayList<>();
    private final AtomicLong clock = new AtomicLong();
    private final Random rnd = new Random(1);
    private MemoryActuator cpu;
    private MemoryActuator llc;
    private MemoryActuator mb;
    private MemoryActuator freq;

    private final LoopListener listener = new LoopListener() {
        @Override
        public void onWindow(int vnf, long l95Ns, long slackNs) {
        }

        @Override
        public void onDecision(Decision decision) {
            decisions.add(decision);
        }

        @Override
        public void onEscalation(int vnf, long l95Ns, long lmaxNs, int triedMask) {
            escalations.add(new long[] {vnf, l95Ns, triedMask});
        }
    };

    @Before
    public void setUp() {
        cpu = new MemoryActuator(ResourceType.CPU_QUOTA, 500, 500, 500);
        llc = new MemoryActuator(ResourceType.LLC, 4, 4, 4);
        mb = new MemoryActuator(ResourceType.MEMORY_BANDWIDTH, 30, 30, 30);
        freq = new MemoryActuator(ResourceType.CPU_FREQUENCY, 2_000_000, 2_000_000, 2_000_000);
    }

    private ResourcePool[] pools(long cpuBudget, boolean all) {
        ResourcePool[] p = new ResourcePool[4];
        p[0] = new ResourcePool(cpu, 100, cpuBudget, fill(100), fill(2000), cpu.values.clone());
        if (all) {
            p[1] = new ResourcePool(llc, 1, 20, fill(1), fill(20), llc.values.clone());
            p[2] = new ResourcePool(mb, 10, 150, fill(10), fill(100), mb.values.clone());
            p[3] = new ResourcePool(freq, 100_000, 9_000_000, fill(800_000), fill(3_000_000), freq.values.clone());
        }
        return p;
    }

    private static long[] fill(long v) {
        return new long[] {v, v, v};
    }

    private LocalLoop loop(ResourcePool[] pools) {
        return loop(pools, SLACK);
    }

    private LocalLoop loop(ResourcePool[] pools, SlackPolicy policy) {
        return loop(pools, policy, HOLD);
    }

    private LocalLoop loop(ResourcePool[] pools, SlackPolicy policy, long holdNanos) {
        return new LocalLoop(fill(LMAX), N, pools, ResourceType.CPU_QUOTA, listener, clock::get,
                2_000_000_000L, INTERVAL, holdNanos, policy, RaisePolicy.LITERAL);
    }

    /** Feeds one window whose L95 is about {@code level} ns (95 % of samples below it, 5 % at 2x). */
    private void window(LocalLoop loop, int vnf, long level) {
        for (int k = 0; k < N; k++) {
            long v = k % 20 == 0 ? level * 2 : level - rnd.nextInt((int) (level / 10) + 1);
            loop.onSample(vnf, v);
        }
        clock.addAndGet(10_000_000); // 1500 packets at 150 kpps
    }

    private Decision last() {
        return decisions.get(decisions.size() - 1);
    }

    private List<Action> actions() {
        List<Action> a = new ArrayList<>();
        for (Decision d : decisions) {
            a.add(d.action());
        }
        return a;
    }

    @Test
    public void overBoundVnfGetsAStepFromTheFreePool() {
        LocalLoop loop = loop(pools(3000, true));
        window(loop, 0, 2 * LMAX);
        assertEquals(List.of(Action.ADD), actions());
        assertEquals(ResourceType.CPU_QUOTA, last().resource());
        assertArrayEquals(new long[] {600, 500, 500}, cpu.values);
        assertTrue(loop.l95(0) > LMAX);
        assertTrue(loop.slack(0) < 0);
    }

    @Test
    public void reclaimableIsWhatVnfsWithSlackHoldAboveTheirFloors() {
        // Budgets exactly allocated: nothing free. vNF 1 shows slack of 0.9 Lmax (take rule: > 0.5),
        // vNF 0 is over its bound, vNF 2 has sent no window yet: only vNF 1's share above its floor.
        LocalLoop loop = loop(pools(1500, true));
        assertEquals(0, loop.reclaimable(ResourceType.LLC));
        window(loop, 1, LMAX / 10);
        window(loop, 0, 3 * LMAX);
        long cpu1 = loop.pool(ResourceType.CPU_QUOTA).allocation(1);
        assertEquals(cpu1 - 100, loop.reclaimable(ResourceType.CPU_QUOTA));
        assertEquals(4 - 1, loop.reclaimable(ResourceType.LLC));
        assertEquals(30 - 10, loop.reclaimable(ResourceType.MEMORY_BANDWIDTH));
        // vNF 1 at 0.6 Lmax: slack 0.4 Lmax, below the take rule: nothing reclaimable.
        window(loop, 1, LMAX * 6 / 10);
        assertEquals(0, loop.reclaimable(ResourceType.LLC));
    }

    @Test
    public void vnfWithSlackGivesResourcesUpDownToItsFloor() {
        LocalLoop loop = loop(pools(1500, true));
        for (int w = 0; w < 20; w++) {
            window(loop, 1, LMAX / 5);
        }
        // every other window frees a step (the next one is the trial's window), never below the floor
        assertEquals(100, cpu.values[1]);
        assertEquals(100, loop.pool(ResourceType.CPU_QUOTA).allocation(1));
        long frees = decisions.stream().filter(d -> d.action() == Action.FREE).count();
        long kept = decisions.stream().filter(d -> d.action() == Action.FREE_KEPT).count();
        assertEquals(4, frees);
        assertEquals(4, kept);
        assertEquals(400, loop.pool(ResourceType.CPU_QUOTA).free());
    }

    @Test
    public void overBoundVnfTakesFromTheVnfWithTheLargestSlackWhenThePoolIsEmpty() {
        LocalLoop loop = loop(pools(1500, true));
        window(loop, 2, LMAX / 4);            // vNF 2: slack 0.75 ms -> frees 100 on trial
        window(loop, 2, LMAX / 4);            // trial window within bound: kept, pool free = 100
        window(loop, 1, LMAX / 10);           // vNF 1: slack 0.9 ms, the largest -> frees 100 on trial
        window(loop, 1, LMAX / 10);           // kept: pool free = 200
        window(loop, 0, 3 * LMAX);            // vNF 0 over: free pool -> 600
        window(loop, 0, 2 * LMAX);            // decreased: no rotation, -> 700; pool empty now
        assertEquals(0, loop.pool(ResourceType.CPU_QUOTA).free());
        assertArrayEquals(new long[] {700, 400, 400}, cpu.values);
        decisions.clear();
        window(loop, 0, (long) (1.5 * LMAX)); // still over, pool empty -> Algorithm 2 on vNF 1 (largest slack)
        assertEquals(List.of(Action.FREE), actions());
        assertEquals(1, last().vnf());
        assertEquals(0, last().peer());
        assertArrayEquals(new long[] {700, 300, 400}, cpu.values);
        assertTrue(loop.onTrial(1));
        window(loop, 0, (long) (1.4 * LMAX)); // vNF 0 waits for the trial: no decision
        assertEquals(1, decisions.size());
        window(loop, 1, LMAX / 10);           // donor stays within bound: the free stands, vNF 0 gets it
        assertEquals(List.of(Action.FREE, Action.FREE_KEPT, Action.ADD), actions());
        assertEquals(0, last().vnf());
        assertEquals(1, last().peer());
        assertArrayEquals(new long[] {800, 300, 400}, cpu.values);
        assertEquals(0, loop.pool(ResourceType.CPU_QUOTA).free());
    }

    /**
     * The revert horizon when the kept free went to an over-bound vNF: the beneficiary keeps it (it
     * asked over its own bound; the pool has nothing to give back), the donor's free still counts as
     * reverted and it cools down for the type; Algorithm 1 then goes on for the donor's window.
     */
    @Test
    public void aLateRevertOfAStepLentToAnOverBoundVnfTakesNothingBackButCoolsTheDonor() {
        LocalLoop loop = loop(pools(1500, true));
        window(loop, 1, LMAX / 10);
        window(loop, 1, LMAX / 10);           // vNF 1 at 400, pool free 100
        window(loop, 0, 3 * LMAX);            // vNF 0 takes it -> 600
        window(loop, 0, 2 * LMAX);            // pool empty -> trial on vNF 1: 400 -> 300 for vNF 0
        window(loop, 1, LMAX / 10);           // kept: vNF 0 gets it -> 700
        assertEquals(Action.ADD, last().action());
        assertArrayEquals(new long[] {700, 300, 500}, cpu.values);
        assertEquals(4, loop.revertWatch(1));
        decisions.clear();
        window(loop, 1, 2 * LMAX);            // the donor goes over on its next window
        assertEquals(List.of(Action.REVERT_LATE, Action.ROTATE, Action.ADD), actions());
        Decision late = decisions.get(0);
        assertEquals(300, late.from());
        assertEquals("nothing free to give back", 300, late.to());
        assertEquals(0, late.peer());
        assertEquals(1000, loop.cooldown(1, ResourceType.CPU_QUOTA));
        assertEquals(0, loop.cooldown(1, ResourceType.LLC));
        // line 10-14 for the donor's window: L95 rose, T[1] := LLC, a way from the free LLC pool
        assertEquals(ResourceType.LLC, last().resource());
        assertEquals(5, llc.values[1]);
        assertArrayEquals(new long[] {700, 300, 500}, cpu.values);
    }

    /** The horizon and the cool-down are per type: LLC ways go the same way as CPU quota. */
    @Test
    public void aLateRevertOfAnLlcFreeRestoresTheWayAndCoolsOnlyLlc() {
        LocalLoop loop = loop(pools(1500, true));
        window(loop, 1, LMAX / 10);           // frees CPU on trial
        window(loop, 1, 3 * LMAX / 2);        // reverted by the trial: T[1] := LLC, CPU cools down
        assertEquals(ResourceType.LLC, loop.resourceType(1));
        decisions.clear();
        window(loop, 1, LMAX / 10);           // line 24 frees type T[1] = LLC: 4 -> 3 ways
        window(loop, 1, LMAX / 10);           // kept
        assertEquals(List.of(Action.FREE, Action.FREE_KEPT), actions());
        assertEquals(3, llc.values[1]);
        window(loop, 1, 2 * LMAX);            // over within the horizon: the way goes back
        assertEquals(Action.REVERT_LATE, last().action());
        assertEquals(ResourceType.LLC, last().resource());
        assertEquals(4, llc.values[1]);
        assertEquals(1000, loop.cooldown(1, ResourceType.LLC));
        assertEquals(997, loop.cooldown(1, ResourceType.CPU_QUOTA));
        assertEquals(0, loop.cooldown(1, ResourceType.MEMORY_BANDWIDTH));
        assertEquals(ResourceType.LLC, loop.resourceType(1)); // not rotated
    }

    @Test
    public void badFreeIsRevertedAndTheDonorRotatesItsResourceType() {
        LocalLoop loop = loop(pools(1500, true));
        window(loop, 1, LMAX / 10);
        window(loop, 1, LMAX / 10);           // vNF 1 at 400, pool free 100
        window(loop, 0, 3 * LMAX);            // vNF 0 takes the free 100 -> 600
        decisions.clear();
        window(loop, 0, 2 * LMAX);            // pool empty -> trial on vNF 1: 400 -> 300
        assertEquals(List.of(Action.FREE), actions());
        assertArrayEquals(new long[] {600, 300, 500}, cpu.values);
        window(loop, 1, 3 * LMAX / 2);        // donor breaks its bound: revert, T[1] := LLC
        assertEquals(List.of(Action.FREE, Action.REVERT, Action.ROTATE), actions());
        assertArrayEquals(new long[] {600, 400, 500}, cpu.values);
        assertEquals(ResourceType.LLC, loop.resourceType(1));
        assertEquals(ResourceType.CPU_QUOTA, loop.resourceType(0));
        assertEquals(0, loop.pool(ResourceType.CPU_QUOTA).free());
        assertFalse(loop.onTrial(1));
        // vNF 0 got nothing from the reverted free; no vNF has slack left to give
        decisions.clear();
        window(loop, 0, (long) (1.9 * LMAX));
        assertEquals(List.of(Action.NO_RESOURCE), actions());
        assertArrayEquals(new long[] {600, 400, 500}, cpu.values);
    }

    @Test
    public void healthyVnfGivesOnlyWhileItsSlackIsAboveTheFreeMargin() {
        // L95 at 0.6 Lmax: slack 0.4 Lmax, below the default margin of 0.5 Lmax: nothing is freed
        LocalLoop loop = loop(pools(1500, true));
        for (int w = 0; w < 10; w++) {
            window(loop, 1, 6 * LMAX / 10);
        }
        assertTrue(decisions.isEmpty());
        assertArrayEquals(new long[] {500, 500, 500}, cpu.values);
        // the listing read literally squeezes the same vNF on every other window (free, then its trial window)
        LocalLoop literal = loop(pools(1500, true), SlackPolicy.LITERAL);
        for (int w = 0; w < 10; w++) {
            window(literal, 1, 6 * LMAX / 10);
        }
        assertEquals(4, decisions.stream().filter(d -> d.action() == Action.FREE).count());
        assertEquals(100, cpu.values[1]); // down to its floor, each trial window at 0.6 Lmax
    }

    @Test
    public void overBoundVnfDoesNotTakeFromADonorBelowTheLendMargin() {
        LocalLoop loop = loop(pools(1500, true));   // pool empty: 3 x 500 of 1500
        window(loop, 1, 7 * LMAX / 10);            // vNF 1: slack 0.3 Lmax, the largest, but below 0.5 Lmax
        window(loop, 0, 2 * LMAX);
        assertEquals(List.of(Action.NO_RESOURCE), actions());
        assertArrayEquals(new long[] {500, 500, 500}, cpu.values);
        assertFalse(loop.onTrial(1));
        // with more slack it lends
        decisions.clear();
        window(loop, 1, LMAX / 5);                 // slack 0.8 Lmax: its own healthy window frees a step
        assertEquals(List.of(Action.FREE), actions());
    }

    @Test
    public void donorWhoseFreeWasRevertedGivesNoneOfThatTypeDuringItsCooldown() {
        LocalLoop loop = loop(pools(1500, true), new SlackPolicy(0.5, 0.5, 3));
        window(loop, 1, LMAX / 10);           // free CPU on trial
        window(loop, 1, 3 * LMAX / 2);        // trial window over the bound: revert, T[1] := LLC, CPU cool-down 3
        assertEquals(List.of(Action.FREE, Action.REVERT, Action.ROTATE), actions());
        assertEquals(3, loop.cooldown(1, ResourceType.CPU_QUOTA));
        assertEquals(0, loop.cooldown(1, ResourceType.LLC));
        assertEquals(500, cpu.values[1]);
        decisions.clear();
        window(loop, 0, 2 * LMAX);            // vNF 0 over, CPU pool empty, the only CPU donor cools down
        assertEquals(List.of(Action.NO_RESOURCE), actions());
        assertArrayEquals(new long[] {500, 500, 500}, cpu.values);
        decisions.clear();
        window(loop, 1, LMAX / 10);           // CPU cool-down 2 left; LLC it still gives (line 24, T[1] = LLC)
        assertEquals(List.of(Action.FREE), actions());
        assertEquals(ResourceType.LLC, last().resource());
        window(loop, 1, LMAX / 10);           // 1 left; the LLC trial's window: kept
        assertEquals(Action.FREE_KEPT, last().action());
        window(loop, 1, LMAX / 10);           // 0 left; frees another LLC way on trial
        window(loop, 1, LMAX / 10);           // kept
        assertEquals(0, loop.cooldown(1, ResourceType.CPU_QUOTA));
        decisions.clear();
        window(loop, 0, (long) (1.8 * LMAX)); // vNF 0 still over (L95 fell: T[0] stays CPU): takes from vNF 1 again
        assertEquals(List.of(Action.FREE), actions());
        assertEquals(1, last().vnf());
        assertEquals(0, last().peer());
        assertEquals(ResourceType.CPU_QUOTA, last().resource());
    }

    @Test
    public void typeRotatesWhenL95DidNotFallAndFollowsTheStateMachine() {
        LocalLoop loop = loop(pools(3000, true));
        window(loop, 0, 2 * LMAX);
        assertEquals(ResourceType.CPU_QUOTA, last().resource());
        List<ResourceType> seen = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            decisions.clear();
            window(loop, 0, 2 * LMAX + 10_000 * (w + 1)); // L95 did not decrease
            assertEquals(Action.ROTATE, decisions.get(0).action());
            assertEquals(Action.ADD, decisions.get(1).action());
            seen.add(decisions.get(1).resource());
        }
        assertEquals(List.of(ResourceType.LLC, ResourceType.MEMORY_BANDWIDTH, ResourceType.CPU_FREQUENCY,
                ResourceType.CPU_QUOTA), seen);
        assertEquals(5, llc.values[0]);
        assertEquals(40, mb.values[0]);
        assertEquals(2_100_000, freq.values[0]);
        assertEquals(700, cpu.values[0]);
        // a falling L95 keeps the type
        decisions.clear();
        window(loop, 0, LMAX + LMAX / 2);
        assertEquals(List.of(Action.ADD), actions());
        assertEquals(ResourceType.CPU_QUOTA, last().resource());
    }

    @Test
    public void rotationSkipsTypesTheHostDoesNotOffer() {
        LocalLoop loop = loop(pools(3000, false));
        assertEquals(ResourceType.CPU_QUOTA.bit(), loop.availableMask());
        window(loop, 0, 2 * LMAX);
        window(loop, 0, 2 * LMAX + 50_000);
        assertEquals(ResourceType.CPU_QUOTA, loop.resourceType(0));
        assertEquals(700, cpu.values[0]);
    }

    @Test
    public void aSustainedExhaustedViolationEscalatesOncePerInterval() {
        LocalLoop loop = loop(pools(3000, false));
        long level = 2 * LMAX;
        for (int w = 0; w < 100; w++) {
            window(loop, 0, level); // never falls; cpu climbs to its ceiling of 2000 in 15 windows
        }
        assertEquals(2000, cpu.values[0]);
        // exhausted since the last add at 0.14 s: 0.85 s given nothing, under the 1 s hold
        assertTrue(escalations.isEmpty());
        for (int w = 0; w < 14; w++) {
            window(loop, 0, level);
        }
        assertTrue(escalations.isEmpty());
        window(loop, 0, level); // 1.00 s after the last add
        assertEquals(1, escalations.size());
        long[] e = escalations.get(0);
        assertEquals(0, e[0]);
        assertEquals(ResourceType.CPU_QUOTA.bit(), e[2]);
        assertEquals(Action.ESCALATE, last().action());
        assertTrue(last().detail(), last().detail().contains("given nothing for 1000 ms"));
        // at most one per escalation interval (1 s; windows are 10 ms apart here)
        for (int w = 0; w < 99; w++) {
            window(loop, 0, level);
        }
        assertEquals(1, escalations.size());
        window(loop, 0, level);
        assertEquals(2, escalations.size());
        // back within bound: episode over, no more escalations
        window(loop, 0, LMAX / 2);
        clock.addAndGet(2_000_000_000L);
        window(loop, 0, LMAX / 2);
        assertEquals(2, escalations.size());
    }

    @Test
    public void aShortTransientDoesNotEscalate() {
        // the script exhausts the loop: with no hold it escalates at once
        exhaustThenRecover(loop(pools(3000, false), SlackPolicy.DEFAULT, 0));
        assertEquals(1, escalations.size());
        escalations.clear();
        setUp();
        LocalLoop loop = loop(pools(3000, false));
        exhaustThenRecover(loop);
        assertTrue(escalations.isEmpty());
        // an unbroken run is needed: 0.9 s over, one window within, 0.9 s over again
        for (int w = 0; w < 90; w++) {
            window(loop, 0, 2 * LMAX);
        }
        window(loop, 0, LMAX / 2);
        for (int w = 0; w < 90; w++) {
            window(loop, 0, 2 * LMAX);
        }
        assertTrue(escalations.isEmpty());
    }

    /** 0.3 s over the bound, every type tried (CPU at its ceiling), then back within it. */
    private void exhaustThenRecover(LocalLoop loop) {
        for (int w = 0; w < 30; w++) {
            window(loop, 0, 2 * LMAX);
        }
        assertEquals(2000, cpu.values[0]);
        window(loop, 0, LMAX / 2);
    }

    @Test
    public void noEscalationWhileTheLoopStillFindsResource() {
        LocalLoop loop = loop(pools(1500, false));
        // vNF 0 over, CPU its only type; vNF 1 has slack and gives it CPU step by step
        for (int w = 0; w < 12; w++) {
            window(loop, 0, 2 * LMAX);
            window(loop, 1, LMAX / 10);
            window(loop, 2, LMAX / 10);
            clock.addAndGet(200_000_000L);
        }
        assertTrue(actions().contains(Action.ADD));
        assertTrue(decisions.toString(), escalations.isEmpty());
        assertTrue(cpu.values[0] > 500);
        // once the others are at their floor the loop has nothing left: it escalates
        for (int w = 0; w < 20 && escalations.isEmpty(); w++) {
            window(loop, 0, 2 * LMAX);
            window(loop, 1, LMAX / 10);
            window(loop, 2, LMAX / 10);
            clock.addAndGet(200_000_000L);
        }
        assertEquals(1, escalations.size());
        assertEquals(100, cpu.values[1]);
        assertEquals(100, cpu.values[2]);
    }

    @Test
    public void badTimesAreRefused() {
        assertTrue(refused(1, 0, -1).contains("escalation hold must be >= 0"));
        assertTrue(refused(1, -1, 0).contains("escalation interval must be >= 0"));
        assertTrue(refused(0, 0, 0).contains("trial timeout must be positive"));
    }

    private String refused(long trialTimeout, long interval, long hold) {
        try {
            new LocalLoop(fill(LMAX), N, pools(3000, false), ResourceType.CPU_QUOTA, listener, clock::get,
                    trialTimeout, interval, hold, SlackPolicy.DEFAULT, RaisePolicy.LITERAL);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        fail("accepted trial timeout " + trialTimeout + ", interval " + interval + ", hold " + hold);
        return "";
    }

    @Test
    public void allocationsStayWithinFloorsAndCeilings() {
        LocalLoop loop = loop(pools(100_000, true));
        for (int w = 0; w < 200; w++) {
            int vnf = rnd.nextInt(3);
            window(loop, vnf, rnd.nextBoolean() ? 3 * LMAX : LMAX / 4);
            loop.tick();
            for (int i = 0; i < 3; i++) {
                assertTrue(cpu.values[i] >= 100 && cpu.values[i] <= 2000);
                assertTrue(llc.values[i] >= 1 && llc.values[i] <= 20);
                assertTrue(mb.values[i] >= 10 && mb.values[i] <= 100);
                assertTrue(freq.values[i] >= 800_000 && freq.values[i] <= 3_000_000);
            }
            for (ResourceType t : ResourceType.all()) {
                assertTrue(t + " over budget", loop.pool(t).free() >= 0);
            }
        }
    }

    @Test
    public void trialWithoutDonorTrafficIsKeptAfterTheTimeout() {
        LocalLoop loop = loop(pools(1500, true));
        window(loop, 1, LMAX / 10);
        assertTrue(loop.onTrial(1));
        loop.tick();
        assertTrue(loop.onTrial(1));
        clock.addAndGet(2_000_000_001L);
        loop.tick();
        assertFalse(loop.onTrial(1));
        assertEquals(Action.FREE_KEPT, last().action());
        assertEquals(100, loop.pool(ResourceType.CPU_QUOTA).free());
    }

    @Test
    public void failedWriteChangesNothingAndIsReported() {
        LocalLoop loop = loop(pools(3000, true));
        cpu.fail = true;
        window(loop, 0, 2 * LMAX);
        assertEquals(Action.ACTUATOR_ERROR, last().action());
        assertEquals(500, loop.pool(ResourceType.CPU_QUOTA).allocation(0));
        assertEquals(1500, loop.pool(ResourceType.CPU_QUOTA).free());
    }

    /**
     * Issue 22: CPU held for pods of the node the loop does not manage is never handed out; when
     * more is held than is free the vNFs give the excess back, largest slack first (a vNF without
     * a window counts slack 0, one over its bound gives last), each down to its floor at most;
     * releasing it frees it again.
     */
    @Test
    public void heldCpuIsNeverHandedOutAndAnExcessIsTakenBackLargestSlackFirst() {
        ResourcePool[] pools = pools(3000, false);
        LocalLoop loop = loop(pools);
        ResourcePool pool = pools[0];
        assertEquals("within the free amount: nothing taken", 0, loop.hold(ResourceType.CPU_QUOTA, 1000));
        assertEquals(1000, pool.held());
        assertEquals(500, pool.free());
        assertTrue(decisions.isEmpty());
        for (int w = 0; w < 8; w++) {
            window(loop, 0, 2 * LMAX);
        }
        assertEquals("vNF 0 grew into the free 500 only", 1000, pool.allocation(0));
        assertEquals(0, pool.free());
        assertEquals(Action.NO_RESOURCE, last().action());
        decisions.clear();
        // a pod is scheduled while the vNFs hold all but 1000: 1000 more held, taken back
        assertEquals(0, loop.hold(ResourceType.CPU_QUOTA, 2000));
        assertEquals(List.of(Action.RECLAIM, Action.RECLAIM, Action.RECLAIM), actions());
        assertEquals("vNFs 1 and 2 (no window: slack 0) first, to their floors", 100, pool.allocation(1));
        assertEquals(100, pool.allocation(2));
        assertEquals("the over-bound vNF last, only the rest", 800, pool.allocation(0));
        assertArrayEquals(new long[] {800, 100, 100}, cpu.values);
        assertEquals(0, pool.free());
        // the pod is deleted: its CPU is free again, nothing is written
        decisions.clear();
        assertEquals(0, loop.hold(ResourceType.CPU_QUOTA, 0));
        assertEquals(2000, pool.free());
        assertTrue(decisions.isEmpty());
        // more held than the floors leave: taken down to the floors, the rest is reported
        assertEquals(100, loop.hold(ResourceType.CPU_QUOTA, 2800));
        assertArrayEquals(new long[] {100, 100, 100}, cpu.values);
        assertEquals(-100, pool.free());
    }

    @Test
    public void aReclaimTheActuatorRefusesChangesNothingAndIsReported() {
        ResourcePool[] pools = pools(3000, false);
        LocalLoop loop = loop(pools);
        cpu.fail = true;
        assertEquals("nothing could be taken: all 500 still held by the vNFs", 500,
                loop.hold(ResourceType.CPU_QUOTA, 2000));
        assertEquals(List.of(Action.ACTUATOR_ERROR, Action.ACTUATOR_ERROR, Action.ACTUATOR_ERROR), actions());
        assertArrayEquals(new long[] {500, 500, 500}, cpu.values);
        assertEquals(-500, pools[0].free());
        assertFalse("nothing is added while the pool is over", pools[0].canAdd(0));
        cpu.fail = false;
        assertEquals("tried again: taken", 0, loop.hold(ResourceType.CPU_QUOTA, 2000));
        assertEquals(0, pools[0].free());
    }

    @Test
    public void anOverCommitFoundAtStartIsNotTakenBackByAHold() {
        ResourcePool[] pools = pools(1000, false); // the vNFs hold 1500 of 1000 (read back at start)
        LocalLoop loop = loop(pools);
        assertEquals(0, loop.hold(ResourceType.CPU_QUOTA, 0));
        assertEquals(-500, pools[0].free());
        assertTrue(decisions.isEmpty());
        assertEquals("only what is held is taken", 0, loop.hold(ResourceType.CPU_QUOTA, 200));
        assertEquals(-500, pools[0].free());
        assertArrayEquals(new long[] {300, 500, 500}, cpu.values);
        assertEquals(List.of(Action.RECLAIM), actions());
    }
}
