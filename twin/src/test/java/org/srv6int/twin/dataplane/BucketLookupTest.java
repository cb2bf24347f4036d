// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.Arrays;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.Assume;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;

/**
 * The bucket table's index (srv6_encap, exact on chain and bucket): the same entry as the
 * scan in match order for every key, and a benchmark of the two in one run (skipped unless
 * {@code -Dsrv6int.bench=true}; it prints a ratio, asserts no time).
 */
public class BucketLookupTest {

    private static SwitchProgram.Table ingressBuckets() {
        AppHarness app = new AppHarness();
        app.deployFig5();
        app.settle();
        DeviceId sw1 = PaperTestbed.SWITCHES.get(0);
        List<FlowRule> rules = new ArrayList<>();
        app.flows.getFlowEntries(sw1).forEach(rules::add);
        List<Group> groups = new ArrayList<>();
        app.groups.getGroups(sw1).forEach(groups::add);
        return SwitchProgram.compile(sw1, rules, groups).encap;
    }

    @Test
    public void theIndexFindsWhatTheScanFinds() {
        SwitchProgram.Table t = ingressBuckets();
        assertEquals("two chains of 256 buckets", 512, t.entries.length);
        long[] hi = new long[8];
        long[] lo = new long[8];
        int hits = 0;
        for (int chain = 0; chain < 4; chain++) {
            for (int bucket = 0; bucket < 300; bucket++) {
                lo[0] = chain;
                lo[1] = bucket;
                SwitchProgram.Entry e = t.lookup(hi, lo);
                assertSame(chain + "/" + bucket, t.scan(hi, lo), e);
                hits += e == null ? 0 : 1;
            }
        }
        // chains 1 and 2; the 8-bit bucket field takes the low bits of 256..299 too, as the scan does
        assertEquals(2 * 300, hits);
        // bits above a field's width are not part of the key, as in the scan
        lo[0] = 1 | 1 << 16;
        lo[1] = 7 | 1 << 8;
        assertNotNull(t.lookup(hi, lo));
        assertSame(t.scan(hi, lo), t.lookup(hi, lo));
    }

    @Test
    public void benchmarkIndexAgainstScan() {
        Assume.assumeTrue("benchmark: -Dsrv6int.bench=true", Boolean.getBoolean("srv6int.bench"));
        SwitchProgram.Table t = ingressBuckets();
        int n = 200_000;
        long[][] keys = new long[n][2];
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < n; i++) {
            keys[i][0] = 1 + r.nextInt(2);
            keys[i][1] = r.nextInt(256);
        }
        long[] hi = new long[8];
        long[] lo = new long[8];
        double[] ratios = new double[15];
        long sink = 0;
        for (int round = 0; round < 20; round++) {
            long t0 = System.nanoTime();
            for (long[] k : keys) {
                lo[0] = k[0];
                lo[1] = k[1];
                sink += t.scan(hi, lo).priority;
            }
            long t1 = System.nanoTime();
            for (long[] k : keys) {
                lo[0] = k[0];
                lo[1] = k[1];
                sink += t.lookup(hi, lo).priority;
            }
            long t2 = System.nanoTime();
            if (round >= 5) {
                ratios[round - 5] = (double) (t1 - t0) / (t2 - t1);
            }
            if (round == 19) {
                System.out.println(String.format(Locale.ROOT, "bucket lookup, 512 entries: scan %.1f ns, index %.1f ns"
                        + " a lookup (last round)", (t1 - t0) / (double) n, (t2 - t1) / (double) n));
            }
        }
        Arrays.sort(ratios);
        System.out.println(String.format(Locale.ROOT, "bucket lookup: scan / index = %.1f (median of 15 rounds, "
                + "p10 %.1f, p90 %.1f) [%d]", ratios[7], ratios[1], ratios[13], sink & 1));
    }
}
