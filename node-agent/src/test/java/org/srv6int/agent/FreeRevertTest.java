// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.junit.Before;
import org.junit.Test;
import org.srv6int.agent.actuate.CgroupVersion;
import org.srv6int.agent.loop.Decision;
import org.srv6int.agent.loop.Decision.Action;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.obs.AgentMetrics;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The revert horizon and the growing freeing cool-down (docs/node-agent.md section 2, "Slack
 * policy" 4-5), on the fake worker's cgroup tree of each hierarchy: the loop built by
 * {@link AgentConfig#newLoop} on the pools of {@link HostSetup}, the quota read back from
 * cpu.max (v2) or cpu.cfs_quota_us (v1). CPU quota only, step 100 millicores, N = 20.
 */
public class FreeRevertTest extends BothHierarchies {

    private static final long LMAX = 1_000_000;
    private static final int N = 20;

    private final List<Decision> decisions = new ArrayList<>();
    private FakeHost host;
    private AgentConfig config;
    private AgentMetrics metrics;
    private long now;

    public FreeRevertTest(CgroupVersion version) {
        super(version);
    }

    @Before
    public void setUp() throws IOException {
        host = worker();
        config = CpuOnlyWorker.config(host, N);
        // small numbers so that growth and reset fit in a test
        config.donorCooldownWindows = 5;
        config.maxDonorCooldownWindows = 20;
        config.cooldownResetWindows = 30;
        config.freeHoldMs = 0; // the free hold after a violation has its own test (RaiseTest): windows only here
        metrics = new AgentMetrics(List.of("fwd", "snort"), List.of("1", "2"), List.of("1", "1"),
                new long[] {LMAX, LMAX});
    }

    private LocalLoop loop() throws IOException {
        return CpuOnlyWorker.loop(config, d -> {
            decisions.add(d);
            metrics.decision(d);
        }, () -> now);
    }

    /** One window of vNF whose L95 is {@code level}: 19 samples at it, one at twice it. */
    private void window(LocalLoop loop, int vnf, long level) {
        for (int k = 0; k < N; k++) {
            loop.onSample(vnf, k == 7 ? 2 * level : level);
        }
        now += 100_000_000L;
    }

    /** The quota of snort (vNF 1) in its cgroup's files, millicores. */
    private long snortQuota() {
        return CpuOnlyWorker.snortQuota(host);
    }

    private List<Action> actions() {
        return CpuOnlyWorker.actions(decisions);
    }

    private Decision last() {
        return decisions.get(decisions.size() - 1);
    }

    /** snort frees one step on its healthy window, the trial's window keeps it: 1000 -> 900. */
    private void freeKept(LocalLoop loop) {
        long before = snortQuota();
        window(loop, 1, LMAX / 10);
        window(loop, 1, LMAX / 10);
        assertEquals(List.of(Action.FREE, Action.FREE_KEPT), actions().subList(actions().size() - 2,
                actions().size()));
        assertEquals(before - 100, snortQuota());
    }

    @Test
    public void aKeptFreeFollowedByAViolationIsRestoredAndStartsTheCooldown() throws IOException {
        LocalLoop loop = loop();
        assertEquals(1000, snortQuota());
        freeKept(loop);
        assertEquals(900, snortQuota());
        assertEquals(4, loop.revertWatch(1));
        window(loop, 1, 6 * LMAX / 10);       // within the bound, no free (slack 0.4 Lmax < 0.5): watched
        window(loop, 1, 6 * LMAX / 10);
        assertEquals(2, loop.revertWatch(1));
        decisions.clear();
        window(loop, 1, 2 * LMAX);            // over, 3 windows after the kept free: counted as reverted
        assertEquals(List.of(Action.REVERT_LATE), actions());
        assertEquals(1000, snortQuota());     // the step is back, in the file
        assertEquals(900, last().from());
        assertEquals(1000, last().to());
        assertTrue(last().detail(), last().detail().contains("3 window(s) after a kept free; cool-down 5 windows"));
        assertEquals(5, loop.cooldown(1, ResourceType.CPU_QUOTA));
        assertEquals(1, loop.revertsInARow(1, ResourceType.CPU_QUOTA));
        assertEquals(0, loop.revertWatch(1));
        assertEquals(1, metrics.freesReverted(1, ResourceType.CPU_QUOTA, true));
        assertEquals(0, metrics.freesReverted(1, ResourceType.CPU_QUOTA, false));
        assertEquals(1, metrics.decisions(1, Action.REVERT_LATE));
        String text = metrics.render(Map.of());
        assertTrue(text, text.contains("srv6int_local_loop_frees_reverted_total{chain=\"2\",vnf=\"1\","
                + "replica=\"snort\",resource=\"cpu_quota\",after=\"horizon\"} 1"));
        assertTrue(text, text.contains("srv6int_local_loop_decisions_total{chain=\"2\",vnf=\"1\",replica=\"snort\","
                + "action=\"revert_late\"} 1"));
        metrics.cooldowns(1, loop);
        text = metrics.render(Map.of());
        assertTrue(text, text.contains("srv6int_local_loop_free_cooldown_windows{chain=\"2\",vnf=\"1\","
                + "replica=\"snort\",resource=\"cpu_quota\"} 5"));
    }

    @Test
    public void noFreeFromTheVnfDuringItsCooldown() throws IOException {
        LocalLoop loop = loop();
        freeKept(loop);
        window(loop, 1, 2 * LMAX);            // reverted at once after the kept free: cool-down 5
        assertEquals(Action.REVERT_LATE, last().action());
        decisions.clear();
        for (int w = 0; w < 4; w++) {         // lots of slack, but cooling down: nothing is freed
            window(loop, 1, LMAX / 10);
        }
        assertTrue(actions().toString(), decisions.isEmpty());
        assertEquals(1000, snortQuota());
        assertEquals(1, loop.cooldown(1, ResourceType.CPU_QUOTA));
        // fwd (vNF 0) over its bound takes from the free pool, never from the cooling donor
        window(loop, 0, 2 * LMAX);
        assertEquals(List.of(Action.ADD), actions());
        assertEquals(0, last().vnf());
        decisions.clear();
        window(loop, 1, LMAX / 10);           // the fifth window: the cool-down is over, it frees again
        assertEquals(0, loop.cooldown(1, ResourceType.CPU_QUOTA));
        assertEquals(List.of(Action.FREE), actions());
        assertEquals(900, snortQuota());
    }

    @Test
    public void theCooldownDoublesOnRevertsInARowUpToItsCapAndResetsAfterALongGoodStretch() throws IOException {
        LocalLoop loop = loop();
        // the first revert is the trial's own (Algorithm 2): the same cool-down, the same count
        window(loop, 1, LMAX / 10);
        window(loop, 1, 2 * LMAX);
        assertEquals(List.of(Action.FREE, Action.REVERT, Action.ROTATE), actions());
        assertEquals(1000, snortQuota());
        assertEquals(5, loop.cooldown(1, ResourceType.CPU_QUOTA));
        assertEquals(1, metrics.freesReverted(1, ResourceType.CPU_QUOTA, false));
        int[] expected = {10, 20, 20}; // doubling, capped at maxDonorCooldownWindows
        for (int k = 0; k < expected.length; k++) {
            while (loop.cooldown(1, ResourceType.CPU_QUOTA) > 1) {
                window(loop, 1, 6 * LMAX / 10); // within the bound, no free: the cool-down runs out
            }
            decisions.clear();
            freeKept(loop);                    // the window the cool-down ends in frees, the next keeps it
            window(loop, 1, 2 * LMAX);
            assertEquals(List.of(Action.FREE, Action.FREE_KEPT, Action.REVERT_LATE), actions());
            assertEquals(1000, snortQuota());
            assertEquals("revert " + (k + 2), expected[k], loop.cooldown(1, ResourceType.CPU_QUOTA));
            assertEquals(k + 2, loop.revertsInARow(1, ResourceType.CPU_QUOTA));
        }
        // 20 windows of cool-down, then 29 good windows after it (free, keep, the revert's): not yet long
        for (int w = 0; w < 20 + 29 - 3; w++) {
            window(loop, 1, 6 * LMAX / 10);
        }
        decisions.clear();
        freeKept(loop);
        window(loop, 1, 2 * LMAX);
        assertEquals(Action.REVERT_LATE, last().action());
        assertEquals("still growing: at the cap", 20, loop.cooldown(1, ResourceType.CPU_QUOTA));
        // 30 good windows after the cool-down: the next revert starts from the first cool-down again
        for (int w = 0; w < 20 + 30 - 3; w++) {
            window(loop, 1, 6 * LMAX / 10);
        }
        decisions.clear();
        freeKept(loop);
        window(loop, 1, 2 * LMAX);
        assertEquals(Action.REVERT_LATE, last().action());
        assertEquals(5, loop.cooldown(1, ResourceType.CPU_QUOTA));
        assertEquals(1, loop.revertsInARow(1, ResourceType.CPU_QUOTA));
        assertEquals(5, metrics.freesReverted(1, ResourceType.CPU_QUOTA, true));
    }

    @Test
    public void slackThatPersistsFreesAsBeforeAndAViolationPastTheHorizonIsAlgorithmOnes() throws IOException {
        LocalLoop loop = loop();
        for (int w = 0; w < 22; w++) {
            window(loop, 1, LMAX / 10);
        }
        // every other window frees a step (the next one is the trial's), down to the floor, none reverted
        assertEquals(100, snortQuota());
        assertEquals(9, decisions.stream().filter(d -> d.action() == Action.FREE).count());
        assertEquals(9, decisions.stream().filter(d -> d.action() == Action.FREE_KEPT).count());
        assertEquals(0, metrics.freesReverted(1, ResourceType.CPU_QUOTA, true));
        // at the floor the last kept free is watched for 4 windows; 4 healthy windows used them up
        assertEquals(0, loop.revertWatch(1));
        decisions.clear();
        window(loop, 1, 2 * LMAX);            // over after the horizon: Algorithm 1 (line 11, 14), no cool-down
        assertEquals(List.of(Action.ROTATE, Action.ADD), actions());
        assertEquals(200, snortQuota());
        assertEquals(0, loop.cooldown(1, ResourceType.CPU_QUOTA));
    }

    @Test
    public void withoutAHorizonOnlyTheTrialsWindowJudges() throws IOException {
        config.revertHorizonWindows = 0;
        LocalLoop loop = loop();
        freeKept(loop);
        decisions.clear();
        window(loop, 1, 2 * LMAX);            // the listing's behaviour: an ordinary over-bound window
        assertEquals(List.of(Action.ROTATE, Action.ADD), actions());
        assertEquals(0, loop.cooldown(1, ResourceType.CPU_QUOTA));
        window(loop, 1, LMAX / 10);           // and the same vNF is squeezed again at once
        assertEquals(Action.FREE, last().action());
    }

    @Test
    public void withStabilisationOnlySlackInSeveralWindowsInARowFrees() throws IOException {
        config.freeSlackWindows = 3;
        LocalLoop loop = loop();
        window(loop, 1, LMAX / 10);
        window(loop, 1, LMAX / 10);
        assertTrue(decisions.isEmpty());
        window(loop, 1, LMAX / 10);           // the third in a row
        assertEquals(List.of(Action.FREE), actions());
        window(loop, 1, LMAX / 10);           // the trial's window (kept) is the first at the new quota
        window(loop, 1, LMAX / 10);
        assertEquals(List.of(Action.FREE, Action.FREE_KEPT), actions());
        window(loop, 1, 6 * LMAX / 10);       // within the bound but under the margin: the run starts again
        window(loop, 1, LMAX / 10);
        window(loop, 1, LMAX / 10);
        assertEquals(2, decisions.size());
        window(loop, 1, LMAX / 10);
        assertEquals(Action.FREE, last().action());
        assertEquals(800, snortQuota());
    }
}
