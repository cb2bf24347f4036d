// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import org.junit.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * Drain by flows on simulated time: flows in buckets, counters that count their
 * packets, a scale-in, a deadline, a failure and a flapping replica.
 */
public class BucketDrainTest {

    private static final int B = 16;
    private static final long IDLE = 2_000;
    private static final long DEADLINE = 30_000;
    private static final long HOLD = 5_000;

    /** A flow: its bucket, when it starts and ends (ms), the replica it was established on. */
    private static final class Flow {
        final int bucket;
        final long start;
        final long end;
        String replica;

        Flow(int bucket, long start, long end) {
            this.bucket = bucket;
            this.start = start;
            this.end = end;
        }
    }

    private final long[] counters = new long[B];

    private static List<String> table(Map<String, Integer> w) {
        return BucketAssignment.assign(new ArrayList<>(Collections.nCopies(B, (String) null)), w, 0);
    }

    /** One packet per active flow per 100 ms into its bucket's counter. */
    private void count(List<Flow> flows, long now) {
        for (Flow f : flows) {
            if (f.start <= now && now < f.end) {
                counters[f.bucket]++;
            }
        }
    }

    @Test
    public void scaleInMovesNoEstablishedFlowWhenFlowsEndBeforeTheDeadline() {
        List<String> installed = table(Map.of("a", 1, "b", 1));
        Random rnd = new Random(2);
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            long start = rnd.nextInt(10_000);
            flows.add(new Flow(rnd.nextInt(B), start, start + 1_000 + rnd.nextInt(9_000)));
        }
        BucketDrain<String> drain = new BucketDrain<>(B, IDLE, DEADLINE, HOLD);
        int movedEstablished = 0;
        for (long now = 0; now <= 40_000; now += 100) {
            count(flows, now);
            // at 5 s, b drains: weight 0, still alive
            Map<String, Integer> w = now < 5_000 ? Map.of("a", 1, "b", 1) : Map.of("a", 1, "b", 0);
            List<String> target = BucketAssignment.assign(installed, w, 0);
            for (int b = 0; b < B; b++) {
                drain.observe(b, counters[b], now);
            }
            installed = drain.step(installed, target, Set.of("a", "b"), now);
            for (Flow f : flows) {
                if (f.start <= now && now < f.end) {
                    String r = installed.get(f.bucket);
                    if (f.replica == null) {
                        f.replica = r;
                    } else if (!f.replica.equals(r)) {
                        movedEstablished++;
                        f.replica = r;
                    }
                }
            }
        }
        assertEquals(0, movedEstablished);
        assertEquals(0, drain.forced());
        assertTrue("drained " + drain.drained(), drain.drained() > 0);
        assertEquals(table(Map.of("a", 1)), installed);
        assertEquals(0, drain.waiting());
    }

    @Test
    public void aBusyBucketMovesAtTheDeadlineCounted() {
        List<String> installed = List.of("a", "b");
        BucketDrain<String> drain = new BucketDrain<>(2, IDLE, DEADLINE, HOLD);
        List<String> target = List.of("a", "a");
        long packets = 0;
        for (long now = 0; now < DEADLINE; now += 500) {
            packets += 10;
            drain.observe(1, packets, now);
            installed = drain.step(installed, target, Set.of("a", "b"), now);
            assertEquals("b", installed.get(1));
        }
        assertEquals(1, drain.waiting());
        drain.observe(1, packets + 10, DEADLINE);
        installed = drain.step(installed, target, Set.of("a", "b"), DEADLINE);
        assertEquals("a", installed.get(1));
        assertEquals(1, drain.forced());
        assertEquals(0, drain.drained());
    }

    @Test
    public void withoutCounterReadingsABucketWaitsForItsDeadline() {
        BucketDrain<String> drain = new BucketDrain<>(1, IDLE, DEADLINE, HOLD);
        List<String> installed = List.of("b");
        installed = drain.step(installed, List.of("a"), Set.of("a", "b"), 0);
        installed = drain.step(installed, List.of("a"), Set.of("a", "b"), DEADLINE - 1);
        assertEquals(List.of("b"), installed);
        installed = drain.step(installed, List.of("a"), Set.of("a", "b"), DEADLINE);
        assertEquals(List.of("a"), installed);
        assertEquals(1, drain.forced());
    }

    @Test
    public void aDeadReplicasBucketsMoveAtOnce() {
        BucketDrain<String> drain = new BucketDrain<>(2, IDLE, DEADLINE, HOLD);
        drain.observe(0, 5, 0);
        drain.observe(1, 5, 0);
        List<String> next = drain.step(List.of("a", "b"), List.of("a", "a"), Set.of("a"), 0);
        assertEquals(List.of("a", "a"), next);
        assertEquals(1, drain.movedAtOnce());
        assertEquals(0, drain.waiting());
    }

    @Test
    public void aBucketWithNowhereToGoStays() {
        BucketDrain<String> drain = new BucketDrain<>(1, IDLE, DEADLINE, HOLD);
        assertEquals("b", drain.step(List.of("b"), Collections.singletonList(null), Set.of("b"), 0).get(0));
        assertNull(drain.step(List.of("b"), Collections.singletonList(null), Set.of(), 0).get(0));
    }

    @Test
    public void aFlappingReplicaDoesNotThrashItsBuckets() {
        // b dies at 0 (its bucket fails over to a), returns at 1 s and dies again at 2 s, every 2 s
        BucketDrain<String> drain = new BucketDrain<>(1, IDLE, DEADLINE, HOLD);
        List<String> installed = List.of("b");
        int moves = 0;
        for (long now = 0; now < 20_000; now += 100) {
            boolean bAlive = (now / 1_000) % 2 == 1;
            // the bucket is idle: its flows do not matter for the hold
            drain.observe(0, 0, now);
            List<String> target = bAlive ? List.of("b") : List.of("a");
            List<String> next = drain.step(installed, target, bAlive ? Set.of("a", "b") : Set.of("a"), now);
            if (!next.equals(installed)) {
                moves++;
            }
            installed = next;
        }
        // one failover at 0, then b's returns (each within the hold of the last move) do not take the bucket back
        // until the hold has passed: 20 s / 5 s hold -> at most one move back and one failover per hold
        assertTrue("moves " + moves, moves <= 2 * (20_000 / HOLD) + 1);
        assertTrue("held " + drain.held(), drain.held() > 0);
    }

    @Test(expected = IllegalArgumentException.class)
    public void aDeadlineShorterThanTheIdleTimeIsRefused() {
        new BucketDrain<String>(4, 5_000, 1_000, 0);
    }
}
