// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.srv6int.twin.Experiment;
import org.srv6int.twin.Policy;
import org.srv6int.twin.RunResult;
import org.srv6int.twin.Runner;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfType;

/**
 * The VPA baseline behaves like the VPA recommender and updater: a pod is evicted only when its
 * request leaves the recommendation's bounds, a young pod's bounds are wide, it comes back with
 * P90 of its usage plus the 15 % margin, and its traffic stops only while it restarts.
 */
public class VpaTest {
    private static final double GBPS = 1.0;

    private static RunResult run(VnfType type, Allocation start, double seconds) {
        Fabric f = new Fabric();
        Host w1 = f.addHost(new Host("worker1", "sw2"));
        w1.addInstance("vnf1", type, start, 0);
        f.addChain(new Chain("c", List.of("vnf1"), t -> GBPS, 1024, 1000));
        return Runner.run(new Experiment("", f, seconds), Policy.VPA, 1, null);
    }

    /** Quota of the pod after each change: {time, cores}. */
    private static List<double[]> quotaChanges(RunResult r) {
        List<double[]> out = new ArrayList<>();
        double last = Double.NaN;
        for (RunResult.ResourceRow row : r.resources()) {
            double q = row.values[Resource.CPU_QUOTA.ordinal()];
            if (q != last) {
                out.add(new double[] {row.t, q});
                last = q;
            }
        }
        return out;
    }

    private static int silentBuckets(RunResult r) {
        int n = 0;
        for (RunResult.Row row : r.rows()) {
            n += row.gbps == 0 ? 1 : 0;
        }
        return n;
    }

    @Test
    public void anOverProvisionedPodIsShrunkOnceWhenItsHistoryIsLongEnough() {
        Allocation start = new Allocation(2.0, 2, 25, 1900);
        RunResult r = run(VnfType.FWD, start, 60);
        List<double[]> changes = quotaChanges(r);
        // the pod's own quota at the start, then exactly one eviction in 60 s
        assertEquals(2, changes.size());
        double at = changes.get(1)[0];
        // with a few seconds of history VPA's upper bound is many times P95: no eviction yet
        assertTrue("evicted at " + at + " s", at > 5);
        double needCores = VnfType.FWD.serviceTimeUs(start, 1024) * GBPS * 1e9 / (1024 * 8) / 1e6;
        double q = changes.get(1)[1];
        // target = P90 (end of its 5 % bucket) + 15 %
        assertTrue("new quota " + q + " for usage " + needCores,
                q >= 1.15 * needCores * 0.99 && q <= 1.15 * 1.05 * needCores * 1.01);
        // traffic stops only while the pod restarts (1 s = 10 buckets, one more at an edge)
        int silent = silentBuckets(r);
        assertTrue(silent + " silent buckets", silent >= 9 && silent <= 11);
    }

    @Test
    public void aThrottledPodGrowsByAtMostTheMarginPerEvictionAndKeepsServingInBetween() {
        RunResult r = run(VnfType.SNORT, new Allocation(2.0, 4, 40, 2000), 60);
        List<double[]> changes = quotaChanges(r);
        assertTrue("VPA grows a throttled pod: " + changes.size() + " quotas", changes.size() >= 3);
        for (int i = 1; i < changes.size(); i++) {
            double before = changes.get(i - 1)[1];
            double after = changes.get(i)[1];
            // its usage cannot exceed its quota, so one eviction gives at most margin x bucket
            assertTrue(before + " -> " + after, after > before && after <= before * 1.15 * 1.05 + 0.001);
            if (i > 1) {
                // the re-created pod first builds a new median (several recommender periods)
                assertTrue("evictions " + (changes.get(i)[0] - changes.get(i - 1)[0]) + " s apart",
                        changes.get(i)[0] - changes.get(i - 1)[0] >= 2 * Vpa.RECOMMEND_S + Vpa.RESTART_S);
            }
        }
        int silent = silentBuckets(r);
        assertTrue(silent + " silent buckets for " + (changes.size() - 1) + " evictions",
                silent <= (changes.size() - 1) * (int) Math.round(Vpa.RESTART_S / Runner.BUCKET_S + 1));
        assertTrue("it serves most of the time", silent < 0.5 * r.rows().size());
    }

    @Test
    public void histogramPercentilesAreBucketEndsWeightedByRequestAndAge() {
        Vpa.CpuHistogram h = new Vpa.CpuHistogram();
        h.add(1.0, 1.0, 0);
        assertEquals(Vpa.CpuHistogram.bucketStart(Vpa.CpuHistogram.bucket(1.0) + 1), h.percentile(0.5), 1e-12);
        assertTrue(h.percentile(0.5) > 1.0 && h.percentile(0.5) <= 1.05 + 1e-9);
        // one sample: no confidence, so no bound can force an eviction
        assertEquals(Vpa.MIN_CPU, h.estimate(Vpa.LOWER_P, 0.001, -2), 1e-12);
        assertTrue(Double.isInfinite(h.estimate(Vpa.UPPER_P, 1.0, 1.0)));
        // a later sample of a larger request outweighs it: the median moves to it
        h.add(3.0, 2.0, Vpa.DAY_S);
        assertTrue(h.percentile(0.5) > 3.0);
        assertEquals(1.15 * h.percentile(0.9), h.estimate(Vpa.TARGET_P, 0, 0), 1e-12);
    }
}
