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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Algorithm 1 raises a vNF's CPU quota only when the quota throttled it (docs/node-agent.md section 2,
 * "Raise only when throttled"): the share of its periods throttled in its last two windows read from
 * cpu.stat (v1 {@code throttled_time}, v2 {@code throttled_usec} beside the same {@code nr_periods},
 * {@code nr_throttled}), on the fake worker's tree of each hierarchy. Snort (vNF 1) at 1000 mc, step 100,
 * ceiling 2000; the cgroup's cpu.stat is set before each window closes.
 */
public class ThrottleGateTest extends BothHierarchies {

    private static final long LMAX = 1_000_000;
    private static final int N = 20;

    private final List<Decision> decisions = new ArrayList<>();
    private final List<String> unread = new ArrayList<>();
    private FakeHost host;
    private AgentConfig config;
    private AgentMetrics metrics;
    private long now;
    private long periods;
    private long throttled;

    public ThrottleGateTest(CgroupVersion version) {
        super(version);
    }

    @Before
    public void setUp() throws IOException {
        host = worker();
        config = CpuOnlyWorker.config(host, N);
        metrics = new AgentMetrics(List.of("fwd", "snort"), List.of("1", "2"), List.of("1", "1"),
                new long[] {LMAX, LMAX});
    }

    private LocalLoop loop() throws IOException {
        return CpuOnlyWorker.loop(config, d -> {
            decisions.add(d);
            metrics.decision(d);
        }, unread::add, () -> now);
    }

    /** 2 periods pass, {@code throttledNow} of them throttled, then a window of snort at {@code level}. */
    private void window(LocalLoop loop, long level, int throttledNow) {
        periods += 2;
        throttled += throttledNow;
        host.cpuStat(HostSetupTest.CG_B, periods, throttled);
        for (int k = 0; k < N; k++) {
            loop.onSample(1, level);
        }
        now += 200_000_000L;
    }

    /**
     * 250 ms of 5 ms windows of snort just within its bound, a 100 ms quota period ending every 20 of them
     * (throttled or not), then one more window at {@code level} in which no period ends.
     */
    private void shortWindows(LocalLoop loop, boolean throttledPeriods, long level) {
        for (int w = 1; w <= 51; w++) {
            if (w % 20 == 0) {
                periods++;
                throttled += throttledPeriods ? 1 : 0;
            }
            host.cpuStat(HostSetupTest.CG_B, periods, throttled);
            for (int k = 0; k < N; k++) {
                loop.onSample(1, w == 51 ? level : 3 * LMAX / 5);
            }
            now += 5_000_000L;
        }
    }

    /** The actions but line 11's rotations (with CPU quota the only type, T[i] rotates back to it). */
    private List<Action> actions() {
        List<Action> a = new ArrayList<>(CpuOnlyWorker.actions(decisions));
        a.removeIf(x -> x == Action.ROTATE);
        return a;
    }

    private Decision last() {
        return decisions.get(decisions.size() - 1);
    }

    @Test
    public void aThrottledVnfOverItsBoundIsRaised() throws IOException {
        assertEquals("on by default", 0.1, config.minThrottledShare, 0);
        LocalLoop loop = loop();
        window(loop, LMAX / 2, 0);             // the first reads: the baseline
        window(loop, LMAX / 2, 1);
        window(loop, 2 * LMAX, 1);             // 2 of 4 periods throttled in the last two windows
        assertEquals(List.of(Action.ADD), actions());
        assertEquals(1100, CpuOnlyWorker.snortQuota(host));
        assertTrue(last().detail(), last().detail().contains("throttled 2 of 4 periods"));
        assertEquals(List.of(), unread);
    }

    @Test
    public void aVnfOverItsBoundItsQuotaDidNotThrottleIsNotRaised() throws IOException {
        LocalLoop loop = loop();
        window(loop, LMAX / 2, 0);
        window(loop, LMAX / 2, 0);
        window(loop, 2 * LMAX, 0);             // over, and no period throttled: waiting for a core, not quota
        assertEquals(List.of(Action.SKIP_NOT_THROTTLED), actions());
        assertEquals(1000, CpuOnlyWorker.snortQuota(host));
        assertEquals(1000, last().from());
        assertEquals(1000, last().to());
        assertTrue(last().detail(), last().detail().contains("not throttled: 0 of 4 quota periods"));
        assertEquals(1, metrics.decisions(1, Action.SKIP_NOT_THROTTLED));
        window(loop, 2 * LMAX, 0);             // still over, still not throttled: still nothing added
        assertEquals(2, metrics.decisions(1, Action.SKIP_NOT_THROTTLED));
        assertEquals(1000, CpuOnlyWorker.snortQuota(host));
        window(loop, 2 * LMAX, 2);             // now the quota bites: 2 of 4 periods over the last two windows
        assertEquals(Action.ADD, last().action());
        assertEquals(1100, CpuOnlyWorker.snortQuota(host));
        assertEquals("no free from a vNF whose own window was over", 0, metrics.decisions(1, Action.FREE));
    }

    @Test
    public void windowsShorterThanAPeriodAreJudgedOverTwoPeriods() throws IOException {
        assertEquals(100_000, config.cpuPeriodUs);
        LocalLoop loop = loop();
        shortWindows(loop, true, 2 * LMAX);    // its last two windows saw no period end: the last 200 ms did
        assertEquals(List.of(Action.ADD), actions());
        assertTrue(last().detail(), last().detail().matches(".*throttled [1-3] of [1-3] periods.*"));
    }

    @Test
    public void windowsShorterThanAPeriodWithoutThrottlingAreNotRaised() throws IOException {
        LocalLoop loop = loop();
        shortWindows(loop, false, 2 * LMAX);
        assertEquals(List.of(Action.SKIP_NOT_THROTTLED), actions());
        assertTrue(last().detail(),
                last().detail().contains("quota periods in its last two windows (at least 200 ms)"));
        assertTrue(last().detail(), !last().detail().contains(" 0 of 0 "));
    }

    @Test
    public void aShareUnderTheThresholdIsNotThrottled() throws IOException {
        config.minThrottledShare = 0.5;
        LocalLoop loop = loop();
        window(loop, LMAX / 2, 0);
        window(loop, LMAX / 2, 0);
        window(loop, 2 * LMAX, 1);             // 1 of 4: under one half
        assertEquals(Action.SKIP_NOT_THROTTLED, last().action());
        assertTrue(last().detail(), last().detail().contains("(under 50 %)"));
        window(loop, 2 * LMAX, 2);             // 3 of 4
        assertEquals(Action.ADD, last().action());
    }

    @Test
    public void withoutCpuStatTheLoopRaisesAsTheListingAndCountsIt() throws IOException {
        LocalLoop loop = loop();
        for (int k = 0; k < N; k++) {
            loop.onSample(1, 2 * LMAX);         // no cpu.stat in the fake tree at all
        }
        assertEquals(List.of(Action.ADD), actions());
        assertEquals(1100, CpuOnlyWorker.snortQuota(host));
        assertEquals(1, unread.size());
        assertTrue(unread.get(0), unread.get(0).startsWith("1: ") && unread.get(0).contains("cpu.stat"));
        host.file(host.cpuDir(HostSetupTest.CG_B) + "/cpu.stat", "nr_periods twelve\nnr_throttled 1\n");
        for (int k = 0; k < N; k++) {
            loop.onSample(1, 3 * LMAX);         // malformed: the same
        }
        assertEquals(List.of(Action.ADD, Action.ADD), actions());
        assertEquals(2, unread.size());
        assertTrue(unread.get(1), unread.get(1).contains("malformed nr_periods"));
    }

    @Test
    public void countersThatGoBackAreNoSignal() throws IOException {
        LocalLoop loop = loop();
        window(loop, LMAX / 2, 0);
        window(loop, LMAX / 2, 0);
        window(loop, LMAX / 2, 0);
        periods = 0;                            // the container's cgroup was made anew
        throttled = 0;
        window(loop, 2 * LMAX, 0);
        assertEquals("no baseline: the listing's raise", List.of(Action.ADD), actions());
        window(loop, 2 * LMAX, 0);             // a baseline of one window again, and not throttled
        assertEquals(Action.SKIP_NOT_THROTTLED, last().action());
    }

    @Test
    public void atItsCeilingAVnfNotThrottledStillFindsNothingAsBefore() throws IOException {
        for (AgentConfig.Vnf v : config.vnfs) {
            v.initial.put(ResourceType.CPU_QUOTA, 2000L);
        }
        LocalLoop loop = loop();
        window(loop, LMAX / 2, 0);
        window(loop, LMAX / 2, 0);
        window(loop, 2 * LMAX, 0);
        assertEquals("the escalation path is unchanged", Action.NO_RESOURCE, last().action());
    }

    @Test
    public void offTheLoopRaisesRegardlessAndReadsNothing() throws IOException {
        config.minThrottledShare = 0;
        LocalLoop loop = loop();
        window(loop, LMAX / 2, 0);
        window(loop, 2 * LMAX, 0);
        assertEquals(List.of(Action.ADD), actions());
        host.file(host.cpuDir(HostSetupTest.CG_B) + "/cpu.stat", "garbage");
        window(loop, 3 * LMAX, 0);
        assertEquals(List.of(), unread);
    }

    @Test
    public void aVnfItsQuotaThrottlesIsNotFreedWhateverItsSlack() throws IOException {
        LocalLoop loop = loop();
        for (int k = 0; k < 6; k++) {
            window(loop, LMAX / 10, 1);         // far under its bound, yet throttled in 1 of every 2 periods
        }
        // its first window has no baseline (the listing's free); none after it while the quota binds
        assertEquals(actions().toString(), 1, metrics.decisions(1, Action.FREE));
        for (int k = 0; k < 6; k++) {
            window(loop, LMAX / 10, 0);         // the quota no longer binds: its slack is real
        }
        assertTrue(actions().toString(), metrics.decisions(1, Action.FREE) >= 2);
    }

    @Test
    public void aThresholdOutOfRangeIsRefused() {
        config.minThrottledShare = 1.5;
        try {
            config.validate();
            fail("1.5 accepted");
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("minThrottledShare"));
        }
    }
}
