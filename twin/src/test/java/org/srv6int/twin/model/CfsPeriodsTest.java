// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** The twin's CFS bandwidth accounting (what a vNF's cpu.stat shows): per period of the pod's cpu.max. */
public class CfsPeriodsTest {
    private static final double DT = 0.001;

    /** Runs {@code ticks} ticks of one vNF alone on a host at {@code pps}. */
    private static VnfInstance run(double cores, double pps, int ticks) {
        Host h = new Host("worker1", "sw2");
        VnfInstance v = h.addInstance("vnf1", VnfType.SNORT, new Allocation(cores, 4, 40, 2100), 0);
        v.setLoad(pps, 1024);
        for (int k = 0; k < ticks; k++) {
            h.tick(DT, k * DT);
        }
        return v;
    }

    /** Packets per second the vNF serves at its allocation (service time of the selected model). */
    private static double capacityPps(double cores) {
        return cores * 1e6 / VnfModels.selected().serviceTimeUs(VnfType.SNORT, new Allocation(cores, 4, 40, 2100),
                1024);
    }

    @Test
    public void throttledInEveryPeriodWhenDemandExceedsTheQuota() {
        VnfInstance v = run(0.5, 1.5 * capacityPps(0.5), 1000);
        assertEquals("one period per 100 ms of work", 10, v.cfs().periods());
        assertEquals("the quota ran out with work left in each", 10, v.cfs().throttled());
        assertTrue(v.cfs().cpuStat().contains("nr_periods 10\nnr_throttled 10"));
        // used about its quota: 0.5 cores for 1 s
        assertEquals(500_000, v.cfs().usageUs(), 5_000);
    }

    @Test
    public void notThrottledUnderItsQuota() {
        VnfInstance v = run(0.5, 0.5 * capacityPps(0.5), 1000);
        assertEquals(10, v.cfs().periods());
        assertEquals(0, v.cfs().throttled());
        assertEquals(250_000, v.cfs().usageUs(), 5_000);
    }

    @Test
    public void anIdleVnfCountsNoPeriods() {
        VnfInstance v = run(0.5, 0, 1000);
        assertEquals("the period timer idles without work", 0, v.cfs().periods());
        assertEquals(0, v.cfs().throttled());
        assertEquals(0, v.cfs().usageUs());
    }

    @Test
    public void countersMoveAtPeriodEndsAndGrowPerPeriod() {
        CfsPeriods c = new CfsPeriods();
        c.period(0.05);
        for (int k = 0; k < 49; k++) {
            c.tick(0, 10, 5, 1, DT);
        }
        assertEquals("nothing before the period ends", 0, c.periods());
        c.tick(0, 10, 5, 1, DT);
        assertEquals(1, c.periods());
        assertEquals(1, c.throttled());
        // a backlog carried into the next period is work of that period even with no new arrivals
        for (int k = 0; k < 50; k++) {
            c.tick(k == 0 ? 300 : 0, 0, 5, 1, DT);
        }
        assertEquals(2, c.periods());
        assertEquals("300 queued > 250 servable", 2, c.throttled());
        for (int k = 0; k < 50; k++) {
            c.tick(k == 0 ? 100 : 0, 0, 5, 1, DT);
        }
        assertEquals(3, c.periods());
        assertEquals("100 queued, 250 servable: drained", 2, c.throttled());
        for (int k = 0; k < 50; k++) {
            c.tick(0, 0, 5, 0, DT);
        }
        assertEquals("idle: not counted", 3, c.periods());
        c.reset();
        assertEquals(0, c.periods());
        assertEquals("usage_usec 0\nnr_periods 0\nnr_throttled 0", c.cpuStat());
    }

    @Test(expected = IllegalArgumentException.class)
    public void aPeriodMustBePositive() {
        new CfsPeriods().period(0);
    }
}
