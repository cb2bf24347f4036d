// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import org.srv6int.codec.FlowHash;
import org.srv6int.pipeconf.Srv6IntPipelineConstants;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * How many active flows change replica when a vNF goes from n to n+1 replicas
 * and back (issue 18, benchmark), for our bucket table and for the old action
 * selector ({@code hash % n}, BMv2's pick) in the same run over the same flows;
 * and how many established flows a drain by flows moves. Counts, not times.
 * Run by {@code tools/bench-remap}; {@code RemapBenchTest} asserts the bounds.
 */
public final class RemapBench {

    /** One row: the fractions of flows moved on n -> n+1 and n+1 -> n. */
    public static final class Row {
        /** Replicas before scale-out. */
        public final int n;
        /** Ours, n -> n+1. */
        public final double oursOut;
        /** Ours, n+1 -> n (the last replica leaves). */
        public final double oursIn;
        /** hash % n, n -> n+1. */
        public final double moduloOut;
        /** hash % n, n+1 -> n. */
        public final double moduloIn;

        Row(int n, double oursOut, double oursIn, double moduloOut, double moduloIn) {
            this.n = n;
            this.oursOut = oursOut;
            this.oursIn = oursIn;
            this.moduloOut = moduloOut;
            this.moduloIn = moduloIn;
        }
    }

    /** Result of a drain run: established flows moved, and how the buckets moved. */
    public static final class DrainResult {
        /** Flows active at the scale-in. */
        public final int established;
        /** Flows (established or new) moved to another replica while still active. */
        public final int movedWhileActive;
        /** Buckets moved after their flows were gone. */
        public final long drained;
        /** Buckets moved at the deadline. */
        public final long forced;
        /** When the last bucket moved, ms after the scale-in (-1: never). */
        public final long completedMs;

        DrainResult(int established, int movedWhileActive, long drained, long forced, long completedMs) {
            this.established = established;
            this.movedWhileActive = movedWhileActive;
            this.drained = drained;
            this.forced = forced;
            this.completedMs = completedMs;
        }
    }

    private RemapBench() {
    }

    /**
     * Returns the flow hashes of random IPv4 TCP/UDP 5-tuples.
     *
     * @param flows how many
     * @param seed  random seed
     * @return flow hashes (codec {@link FlowHash})
     */
    public static int[] flowHashes(int flows, long seed) {
        Random rnd = new Random(seed);
        int[] h = new int[flows];
        byte[] p = new byte[24];
        for (int i = 0; i < flows; i++) {
            p[0] = 0x45;
            p[9] = (byte) (rnd.nextBoolean() ? 6 : 17);
            for (int j = 12; j < 24; j++) {
                p[j] = (byte) rnd.nextInt(256);
            }
            // 10.0.0.0/16 clients to a few servers: what a chain's classifier lets through
            p[12] = 10;
            p[13] = 0;
            p[16] = 10;
            p[17] = 4;
            p[18] = 0;
            h[i] = FlowHash.hash(p, 0, p.length);
        }
        return h;
    }

    private static Map<String, Integer> equal(int n) {
        Map<String, Integer> w = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            w.put("r" + i, 1);
        }
        return w;
    }

    private static double movedOurs(int[] hashes, List<String> a, List<String> b) {
        int buckets = a.size();
        int moved = 0;
        for (int h : hashes) {
            int k = FlowHash.bucket(h, buckets);
            if (!a.get(k).equals(b.get(k))) {
                moved++;
            }
        }
        return (double) moved / hashes.length;
    }

    private static double movedModulo(int[] hashes, int n, int m) {
        int moved = 0;
        for (int h : hashes) {
            if (Integer.remainderUnsigned(h, n) != Integer.remainderUnsigned(h, m)) {
                moved++;
            }
        }
        return (double) moved / hashes.length;
    }

    /**
     * Runs the remap comparison for n = 1..maxN.
     *
     * @param hashes  the active flows' hashes
     * @param buckets bucket count
     * @param maxN    largest n
     * @return one row per n
     */
    public static List<Row> remap(int[] hashes, int buckets, int maxN) {
        List<Row> rows = new ArrayList<>();
        for (int n = 1; n <= maxN; n++) {
            List<String> before = BucketAssignment.assign(new ArrayList<>(Collections.nCopies(buckets, (String) null)),
                                                          equal(n), 0);
            List<String> out = BucketAssignment.assign(before, equal(n + 1), 0);
            List<String> in = BucketAssignment.assign(out, equal(n), 0);
            rows.add(new Row(n, movedOurs(hashes, before, out), movedOurs(hashes, out, in),
                             movedModulo(hashes, n, n + 1), movedModulo(hashes, n + 1, n)));
        }
        return rows;
    }

    /**
     * Scale-in from n+1 to n replicas with drain by flows: flows of random
     * lengths (0.5..maxFlowMs) arrive for 20 s, the last replica drains at
     * 10 s; counters are read every 100 ms.
     *
     * @param n         replicas after the scale-in
     * @param flows     flows
     * @param maxFlowMs longest flow
     * @param idleMs    drain idle time
     * @param deadlineMs drain deadline
     * @param seed      random seed
     * @return what moved
     */
    public static DrainResult drain(int n, int flows, long maxFlowMs, long idleMs, long deadlineMs, long seed) {
        int buckets = Srv6IntPipelineConstants.ENCAP_BUCKETS;
        int[] hashes = flowHashes(flows, seed);
        Random rnd = new Random(seed + 1);
        long t0 = 10_000;
        long[] start = new long[flows];
        long[] end = new long[flows];
        for (int i = 0; i < flows; i++) {
            // arrivals before and for 10 s after the scale-in
            start[i] = rnd.nextInt((int) (t0 + 10_000));
            end[i] = start[i] + 500 + (long) (rnd.nextDouble() * (maxFlowMs - 500));
        }
        List<String> installed = BucketAssignment.assign(new ArrayList<>(Collections.nCopies(buckets, (String) null)),
                                                         equal(n + 1), 0);
        BucketDrain<String> drain = new BucketDrain<>(buckets, idleMs, deadlineMs, 0);
        Set<String> alive = new TreeSet<>(equal(n + 1).keySet());
        String[] on = new String[flows];
        long[] counters = new long[buckets];
        Set<Integer> establishedAtT0 = new TreeSet<>();
        int movedWhileActive = 0;
        long completed = -1;
        Map<String, Integer> after = new TreeMap<>(equal(n + 1));
        after.put("r" + n, 0);
        for (long now = 0; now <= t0 + deadlineMs + maxFlowMs; now += 100) {
            for (int i = 0; i < flows; i++) {
                if (start[i] <= now && now < end[i]) {
                    counters[FlowHash.bucket(hashes[i], buckets)]++;
                }
            }
            for (int b = 0; b < buckets; b++) {
                drain.observe(b, counters[b], now);
            }
            List<String> target = BucketAssignment.assign(installed, now < t0 ? equal(n + 1) : after, 0);
            List<String> next = drain.step(installed, target, alive, now);
            if (now >= t0 && !next.equals(installed)) {
                completed = now - t0;
            }
            installed = next;
            for (int i = 0; i < flows; i++) {
                if (start[i] <= now && now < end[i]) {
                    String r = installed.get(FlowHash.bucket(hashes[i], buckets));
                    if (on[i] == null) {
                        on[i] = r;
                    } else if (!on[i].equals(r)) {
                        movedWhileActive++;
                        on[i] = r;
                    }
                    if (now == t0) {
                        establishedAtT0.add(i);
                    }
                }
            }
        }
        return new DrainResult(establishedAtT0.size(), movedWhileActive, drain.drained(), drain.forced(), completed);
    }

    /**
     * Prints the remap table and the drain figures.
     *
     * @param args [flows] [seed]
     */
    public static void main(String[] args) {
        int flows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        int buckets = Srv6IntPipelineConstants.ENCAP_BUCKETS;
        int[] hashes = flowHashes(flows, seed);
        System.out.printf(Locale.ROOT, "flows that change replica, %d active flows, B = %d buckets, seed %d%n",
                          flows, buckets, seed);
        System.out.println("   n | n->n+1 ours | hash%n | goal <= | n+1->n ours | hash%n | goal <=");
        for (Row r : remap(hashes, buckets, 7)) {
            double goalOut = 1.0 / (r.n + 1) + 0.02;
            System.out.printf(Locale.ROOT, "%4d | %10.2f%% | %5.1f%% | %6.2f%% | %10.2f%% | %5.1f%% | %6.2f%%%n",
                              r.n, 100 * r.oursOut, 100 * r.moduloOut, 100 * goalOut,
                              100 * r.oursIn, 100 * r.moduloIn, 100 * goalOut);
        }
        System.out.println();
        System.out.println("drain by flows, scale-in n+1 -> n (flows of 0.5..8 s, idle 2 s, deadline 30 s):");
        for (int n = 1; n <= 3; n++) {
            DrainResult d = drain(n, 2_000, 8_000, 2_000, 30_000, seed);
            System.out.printf(Locale.ROOT,
                    "  %d->%d: %d flows active at the scale-in; %d flows moved while active (%.1f%%); "
                                      + "%d buckets drained, %d forced at the deadline, last move %.1f s after%n",
                              n + 1, n, d.established, d.movedWhileActive,
                              d.established == 0 ? 0 : 100.0 * d.movedWhileActive / d.established,
                              d.drained, d.forced, d.completedMs / 1000.0);
        }
        DrainResult tight = drain(1, 2_000, 60_000, 2_000, 10_000, seed);
        System.out.printf(Locale.ROOT, "  2->1 with flows up to 60 s and a 10 s deadline: %d flows moved while active "
                                  + "(%d active at the scale-in), %d buckets forced%n", tight.movedWhileActive,
                                          tight.established,
                          tight.forced);
    }
}
