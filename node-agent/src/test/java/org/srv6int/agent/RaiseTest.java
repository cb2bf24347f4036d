// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.junit.Before;
import org.junit.Test;
import org.srv6int.agent.actuate.CgroupVersion;
import org.srv6int.agent.loop.Decision;
import org.srv6int.agent.loop.Decision.Action;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.RaisePolicy;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * How fast the loop reacts (docs/node-agent.md section 2, "Raise and windows" and the time caps of
 * the cool-down and the revert horizon), on the fake worker's cgroup tree of each hierarchy: the loop
 * built by {@link AgentConfig#newLoop} on the pools of {@link HostSetup}, the quota read back from
 * cpu.max (v2) or cpu.cfs_quota_us (v1). CPU quota only, step 100 millicores, start 1000, ceiling
 * 2000. The clock is the test's: every sample and window says how much time it takes.
 */
public class RaiseTest extends BothHierarchies {

    private static final long LMAX = 1_000_000;
    private static final long MS = 1_000_000;

    private final List<Decision> decisions = new ArrayList<>();
    private FakeHost host;
    private AgentConfig config;
    private long now;

    public RaiseTest(CgroupVersion version) {
        super(version);
    }

    @Before
    public void setUp() throws IOException {
        host = worker();
        config = CpuOnlyWorker.config(host, 20);
    }

    private LocalLoop loop() throws IOException {
        return CpuOnlyWorker.loop(config, decisions::add, () -> now);
    }

    /** One full window of snort (vNF 1) at {@code level}, then 100 ms pass. */
    private void window(LocalLoop loop, long level) {
        for (int k = 0; k < config.windowSize; k++) {
            loop.onSample(1, level);
        }
        now += 100 * MS;
    }

    /** The quota of snort in its cgroup's files, millicores. */
    private long snortQuota() {
        return CpuOnlyWorker.snortQuota(host);
    }

    private List<Action> actions() {
        return CpuOnlyWorker.actions(decisions);
    }

    @Test
    public void aSustainedOvershootRaisesInProportionUpToTheCap() throws IOException {
        config.maxRaiseSteps = 4;
        LocalLoop loop = loop();
        window(loop, 3 * LMAX / 2);           // the first window over: one step, as the listing
        assertEquals(List.of(Action.ADD), actions());
        assertEquals(1100, snortQuota());
        window(loop, 3 * LMAX / 2);           // over again: 1100 x 0.5 = 550 -> 6 steps, at most 4
        assertEquals(1500, snortQuota());
        Decision d = decisions.get(decisions.size() - 1);
        assertEquals(Action.ADD, d.action());
        assertEquals(1100, d.from());
        assertEquals(1500, d.to());
        assertTrue(d.detail(), d.detail().contains("4 steps: L95 1.5 x Lmax"));
        window(loop, 11 * LMAX / 10);          // 1500 x 0.1 = 150 -> 2 steps (line 10 rotates: L95 fell, no)
        assertEquals(1700, snortQuota());
        window(loop, 3 * LMAX);                // 4 steps would pass the ceiling: cut at 2000
        assertEquals(2000, snortQuota());
        window(loop, 3 * LMAX);
        assertEquals(Action.NO_RESOURCE, decisions.get(decisions.size() - 1).action());
        assertEquals(2000, snortQuota());
    }

    @Test
    public void aSlightOvershootOrAOneWindowSpikeAddsOneStep() throws IOException {
        config.maxRaiseSteps = 4;
        LocalLoop loop = loop();
        window(loop, 21 * LMAX / 20);          // 5 % over
        window(loop, 21 * LMAX / 20);          // 1100 x 0.05 = 55: one step
        assertEquals(1200, snortQuota());
        window(loop, LMAX / 2);                // within: no free (slack not above half Lmax)
        window(loop, 4 * LMAX);                // far over, but the window before was within: one step
        assertEquals(1300, snortQuota());
        assertEquals(3, decisions.stream().filter(d -> d.action() == Action.ADD).count());
        assertTrue(decisions.stream().allMatch(d -> d.action() == Action.ADD || d.action() == Action.ROTATE));
    }

    @Test
    public void byDefaultOneStepAWindowAsTheListing() throws IOException {
        assertEquals(1, config.maxRaiseSteps);
        LocalLoop loop = loop();
        for (int w = 0; w < 5; w++) {
            window(loop, 3 * LMAX);
        }
        assertEquals(1500, snortQuota());      // 100 a window, whatever the overshoot
    }

    @Test
    public void aLowRateVnfsWindowClosesByTime() throws IOException {
        config.windowSize = 1000;
        config.windowMaxMs = 200;
        LocalLoop loop = loop();
        for (int k = 1; k <= 39; k++) {        // 5 ms apart (200 pps): 39 samples span 190 ms
            loop.onSample(1, 2 * LMAX);
            now += 5 * MS;
        }
        assertTrue(actions().toString(), decisions.isEmpty());
        loop.onSample(1, 2 * LMAX);            // the 40th, 195 ms after the first: not yet
        now += 5 * MS;
        for (int k = 0; k < 8; k++) {          // checked every 8th sample: the 48th closes it
            assertTrue(actions().toString(), decisions.isEmpty());
            loop.onSample(1, 2 * LMAX);
            now += 5 * MS;
        }
        assertEquals(List.of(Action.ADD), actions());
        assertEquals(1100, snortQuota());
        assertEquals(0, loop.slack(0));        // fwd sent nothing: no window
    }

    @Test
    public void withoutATimeCapTheWindowWaitsForItsNSamples() throws IOException {
        config.windowSize = 1000;
        config.windowMaxMs = 0;
        LocalLoop loop = loop();
        for (int k = 1; k < 1000; k++) {
            loop.onSample(1, 2 * LMAX);
            now += 5 * MS;
        }
        loop.tick();
        assertTrue(actions().toString(), decisions.isEmpty());
        loop.onSample(1, 2 * LMAX);
        assertEquals(List.of(Action.ADD), actions());
    }

    @Test
    public void aTickClosesAWindowWhosePacketsStopped() throws IOException {
        config.windowSize = 1000;
        config.windowMaxMs = 200;
        LocalLoop loop = loop();
        for (int k = 0; k < 19; k++) {
            loop.onSample(1, 2 * LMAX);
        }
        now += 300 * MS;
        loop.tick();                           // 19 samples are too few for an L95
        assertTrue(actions().toString(), decisions.isEmpty());
        loop.onSample(1, 2 * LMAX);            // the 20th: not a multiple of 8, the tick judges it
        assertTrue(decisions.isEmpty());
        loop.tick();
        assertEquals(List.of(Action.ADD), actions());
        assertEquals(1100, snortQuota());
    }

    /** snort frees on a healthy window, keeps it on the next, then goes over: a late revert. */
    private void freeKeptThenLateRevert(LocalLoop loop) {
        window(loop, LMAX / 10);
        window(loop, LMAX / 10);
        window(loop, 2 * LMAX);
        assertEquals(List.of(Action.FREE, Action.FREE_KEPT, Action.REVERT_LATE), actions());
        assertEquals(1000, snortQuota());
    }

    @Test
    public void theCooldownEndsAtItsTimeCapBeforeItsWindows() throws IOException {
        config.donorCooldownWindows = 1000;
        config.donorCooldownMs = 1000;
        LocalLoop loop = loop();
        freeKeptThenLateRevert(loop);
        assertEquals(1000, loop.cooldown(1, ResourceType.CPU_QUOTA));
        decisions.clear();
        for (int w = 0; w < 8; w++) {          // 100 ms windows with slack: still cooling down
            window(loop, LMAX / 10);
        }
        assertEquals(992, loop.cooldown(1, ResourceType.CPU_QUOTA));
        window(loop, LMAX / 10);               // 0.9 s after the revert
        assertTrue(actions().toString(), decisions.isEmpty());
        window(loop, LMAX / 10);               // 1 s after the revert: it may give again
        assertEquals(List.of(Action.FREE), actions());
        assertEquals(0, loop.cooldown(1, ResourceType.CPU_QUOTA));
        assertEquals(900, snortQuota());
        window(loop, LMAX / 10);               // kept; the next revert doubles the time cap too (2 s)
        window(loop, 2 * LMAX);
        assertEquals(Action.REVERT_LATE, decisions.get(decisions.size() - 1).action());
        assertEquals(2, loop.revertsInARow(1, ResourceType.CPU_QUOTA));
        now += 1800 * MS;
        assertTrue(loop.cooldown(1, ResourceType.CPU_QUOTA) > 0);
        now += 100 * MS;
        assertEquals(0, loop.cooldown(1, ResourceType.CPU_QUOTA));
    }

    @Test
    public void withoutATimeCapTheCooldownCountsWindowsOnly() throws IOException {
        config.donorCooldownWindows = 1000;
        config.donorCooldownMs = 0;
        config.maxDonorCooldownMs = 0L;
        LocalLoop loop = loop();
        freeKeptThenLateRevert(loop);
        now += 3_600_000 * MS;                 // an hour without a window of snort
        assertEquals(1000, loop.cooldown(1, ResourceType.CPU_QUOTA));
    }

    @Test
    public void theRevertHorizonEndsAtItsTimeCap() throws IOException {
        config.revertHorizonMs = 250;
        LocalLoop loop = loop();
        window(loop, LMAX / 10);
        window(loop, LMAX / 10);
        assertEquals(List.of(Action.FREE, Action.FREE_KEPT), actions());
        assertEquals(4, loop.revertWatch(1));
        window(loop, 6 * LMAX / 10);           // 100 ms after the kept free: watched
        assertEquals(3, loop.revertWatch(1));
        assertEquals(0, loop.revertWatch(0));
        decisions.clear();
        now += 100 * MS;                       // a pause in the traffic
        window(loop, 2 * LMAX);                // 300 ms after: past the cap, Algorithm 1's (no cool-down)
        assertEquals(List.of(Action.ROTATE, Action.ADD), actions());
        assertEquals(0, loop.cooldown(1, ResourceType.CPU_QUOTA));
        assertEquals(1000, snortQuota());
    }

    @Test
    public void noFreeWithinTheFreeHoldOfAViolation() throws IOException {
        assertEquals("off by default", 0, config.freeHoldMs);
        config.freeHoldMs = 1000;              // as the lab sets it
        LocalLoop loop = loop();
        window(loop, 2 * LMAX);                // over at t = 0: one step
        assertEquals(1100, snortQuota());
        decisions.clear();
        for (int w = 0; w < 9; w++) {          // slack in the windows at 0.1 .. 0.9 s: the backlog just drained
            window(loop, LMAX / 10);
        }
        assertTrue(actions().toString(), decisions.isEmpty());
        window(loop, LMAX / 10);               // 1 s after the violation: line 24 frees
        assertEquals(List.of(Action.FREE), actions());
        assertEquals(1000, snortQuota());
    }

    @Test
    public void withoutAFreeHoldTheWindowAfterARaiseFrees() throws IOException {
        config.freeHoldMs = 0;
        LocalLoop loop = loop();
        window(loop, 2 * LMAX);
        window(loop, LMAX / 10);
        assertEquals(List.of(Action.ADD, Action.FREE), actions());
        assertEquals(1000, snortQuota());
    }

    @Test
    public void badSettingsAreRefused() throws IOException {
        refused(c -> c.maxRaiseSteps = 0, "maximum raise must be >= 1 step");
        refused(c -> c.windowMaxMs = -1, "window time cap must be >= 0");
        refused(c -> c.revertHorizonMs = -5, "time caps must be >= 0");
        refused(c -> c.freeHoldMs = -1, "free hold must be >= 0");
        refused(c -> {
            c.donorCooldownMs = 5000;
            c.maxDonorCooldownMs = 1000L;
        }, "maximum cool-down cap");
    }

    private void refused(Consumer<AgentConfig> change, String message) throws IOException {
        AgentConfig c = HostSetupTest.config(host.root());
        change.accept(c);
        try {
            c.validate();
            fail("accepted: " + message);
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(message));
        }
    }

    @Test
    public void stepsGrowWithTheOvershoot() {
        RaisePolicy p = new RaisePolicy(4, 0, 20);
        assertEquals(1, p.steps(1000, 100, LMAX, LMAX));
        assertEquals(1, p.steps(1000, 100, LMAX + LMAX / 10, LMAX));
        assertEquals(2, p.steps(1000, 100, LMAX + LMAX / 10 + 1, LMAX));
        assertEquals(4, p.steps(1000, 100, 10 * LMAX, LMAX));
        assertEquals(1, p.steps(0, 100, 10 * LMAX, LMAX));
        assertEquals(1, RaisePolicy.LITERAL.steps(1000, 100, 10 * LMAX, LMAX));
    }
}
