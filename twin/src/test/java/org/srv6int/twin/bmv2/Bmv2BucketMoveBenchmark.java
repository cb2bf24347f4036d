// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/**
 * Wall time of the P4Runtime writes that move a dead replica's buckets on real BMv2 (issue 18,
 * docs/failures.md "Timings"), against baselines measured in the same run on the same switch:
 * a reconcile pass with nothing to change (the diff alone, no write) and a write of a single
 * bucket entry. The rules are the app's: SFC 2 of Fig. 5 with a second Snort replica on Worker 2,
 * then the replica on Worker 1 parked as dead by the app (DEAD, weight 0, as the failure
 * handling does), which rewrites the bucket entries it held on SW1 to the live replica; then
 * revived (ACTIVE, weight 1), which moves them back. Each such {@code program(SW1, ...)} is one
 * P4Runtime batch of modifies. Prints medians, p90 and ratios; asserts only the number of entries
 * written (not time). Skipped unless {@code -Dsrv6int.bench=true} and BMv2 can run.
 */
public class Bmv2BucketMoveBenchmark {

    private static final int RUNS = 40;
    private static final int WARMUP = 5;

    private static Bmv2Dataplane dp;

    @BeforeClass
    public static void startFabric() {
        Assume.assumeTrue("benchmark: run with -Dsrv6int.bench=true", Boolean.getBoolean("srv6int.bench"));
        dp = AppRules.startOrSkip("Bmv2BucketMoveBenchmark", 10);
    }

    @AfterClass
    public static void stopFabric() {
        if (dp != null) {
            dp.close();
        }
    }

    @Test
    public void deadReplicasBucketsMovedAgainstSingleEntryAndNoOpPass() {
        AppHarness app = AppRules.fig5();
        VnfKey snort = VnfKey.of(PaperTestbed.SFC2, 0);
        VnfReplica dying = app.inventory.getReplicas(snort).iterator().next();
        app.inventory.addReplica(snort, "worker2");
        app.settle();
        AppRules.programAll(dp, app);
        List<FlowRule> alive = AppRules.rules(app, PaperTestbed.SW1);
        List<Group> groups = AppRules.groups(app, PaperTestbed.SW1);

        app.inventory.failReplica(dying.id());
        app.settle();
        List<FlowRule> dead = AppRules.rules(app, PaperTestbed.SW1);
        if (!AppRules.groups(app, PaperTestbed.SW1).equals(groups)) {
            throw new AssertionError("parking a replica changed SW1's groups; this benchmark times entries only");
        }

        // The single-entry step: the live rules with one moved bucket entry in its dead-replica form.
        List<FlowRule> oneMoved = oneEntryMoved(alive, dead);

        long[] moveOut = new long[RUNS];
        long[] moveBack = new long[RUNS];
        long[] single = new long[RUNS];
        long[] noop = new long[RUNS];
        int movedEntries = -1;
        for (int i = -WARMUP; i < RUNS; i++) {
            long t0 = System.nanoTime();
            dp.program(PaperTestbed.SW1, alive, groups); // nothing to change
            long tNoop = System.nanoTime() - t0;
            expectWrites(0, "no-op pass");

            t0 = System.nanoTime();
            dp.program(PaperTestbed.SW1, oneMoved, groups);
            long tSingle = System.nanoTime() - t0;
            expectWrites(1, "single entry");
            dp.program(PaperTestbed.SW1, alive, groups);
            expectWrites(1, "single entry back");

            t0 = System.nanoTime();
            dp.program(PaperTestbed.SW1, dead, groups);
            long tOut = System.nanoTime() - t0;
            movedEntries = dp.lastWrites(PaperTestbed.SW1);

            t0 = System.nanoTime();
            dp.program(PaperTestbed.SW1, alive, groups);
            long tBack = System.nanoTime() - t0;
            expectWrites(movedEntries, "move back");
            if (i >= 0) {
                noop[i] = tNoop;
                single[i] = tSingle;
                moveOut[i] = tOut;
                moveBack[i] = tBack;
            }
        }
        if (movedEntries <= 1) {
            throw new AssertionError("parking a replica of two moved " + movedEntries + " entries");
        }
        double base = median(single);
        System.out.printf("BMv2 bucket move on SW1 (%d runs after %d warm-up; wall ms median / p90, ratio of medians"
                + " to the single-entry write):%n", RUNS, WARMUP);
        row("no-op reconcile pass (0 writes)", noop, base);
        row("single bucket entry modified (1 write)", single, base);
        row("dead replica's buckets moved (" + movedEntries + " writes, one batch)", moveOut, base);
        row("buckets moved back on revival (" + movedEntries + " writes)", moveBack, base);
    }

    private static void expectWrites(int n, String what) {
        int w = dp.lastWrites(PaperTestbed.SW1);
        if (w != n) {
            throw new AssertionError(what + ": expected " + n + " P4Runtime updates on SW1, wrote " + w);
        }
    }

    /** The live rules with exactly one entry that differs between the two sets replaced by its dead form. */
    private static List<FlowRule> oneEntryMoved(List<FlowRule> alive, List<FlowRule> dead) {
        PiToP4Runtime t = new PiToP4Runtime(P4InfoIndex.pipeconf());
        Map<TableEntry, FlowRule> deadByKey = new LinkedHashMap<>();
        for (FlowRule r : dead) {
            deadByKey.put(PiToP4Runtime.key(t.tableEntry(r)), r);
        }
        List<FlowRule> out = new ArrayList<>();
        boolean swapped = false;
        for (FlowRule r : alive) {
            TableEntry e = t.tableEntry(r);
            FlowRule d = deadByKey.get(PiToP4Runtime.key(e));
            if (!swapped && d != null && !t.tableEntry(d).equals(e)) {
                out.add(d);
                swapped = true;
            } else {
                out.add(r);
            }
        }
        if (!swapped) {
            throw new AssertionError("no SW1 entry differs between the live and the dead-replica rules");
        }
        return out;
    }

    private static void row(String what, long[] nanos, double baseNanos) {
        System.out.printf("  %-58s %8.2f / %8.2f  (%.1fx)%n", what, median(nanos) / 1e6, p90(nanos) / 1e6,
                          median(nanos) / baseNanos);
    }

    private static double median(long[] v) {
        long[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    private static double p90(long[] v) {
        long[] c = v.clone();
        Arrays.sort(c);
        return c[(int) (c.length * 0.9)];
    }
}
