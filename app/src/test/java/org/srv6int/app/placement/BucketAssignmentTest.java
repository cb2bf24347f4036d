// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import org.junit.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Bucket-to-replica mapping: proportional to the weights, fewest moves, deterministic.
 */
public class BucketAssignmentTest {

    private static final int B = 256;

    private static List<String> empty() {
        return new ArrayList<>(Collections.nCopies(B, (String) null));
    }

    private static Map<String, Integer> equal(int n) {
        Map<String, Integer> w = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            w.put("r" + i, 1);
        }
        return w;
    }

    private static Map<String, Integer> counts(List<String> m) {
        Map<String, Integer> c = new TreeMap<>();
        m.forEach(k -> c.merge(k == null ? "-" : k, 1, Integer::sum));
        return c;
    }

    /** Moves no proportional assignment can avoid: buckets of keys that left, excess of the others. */
    private static int lowerBound(List<String> before, Map<String, Integer> weights) {
        Map<String, Integer> quota = BucketAssignment.quotas(B, weights);
        int bound = 0;
        for (Map.Entry<String, Integer> e : counts(before).entrySet()) {
            bound += Math.max(0, e.getValue() - quota.getOrDefault(e.getKey(), 0));
        }
        return bound;
    }

    @Test
    public void bucketsFollowTheWeights() {
        List<String> m = BucketAssignment.assign(empty(), Map.of("a", 1, "b", 1, "c", 2), 0);
        assertEquals(Map.of("a", 64, "b", 64, "c", 128), counts(m));
        // largest remainder: 256 / 3 = 85.33 -> one key gets 86, the smaller key on a tie
        assertEquals(Map.of("r0", 86, "r1", 85, "r2", 85), counts(BucketAssignment.assign(empty(), equal(3), 0)));
    }

    @Test
    public void scaleOutAndInMoveOnlyTheBucketsTheyMust() {
        for (int n = 1; n <= 7; n++) {
            List<String> before = BucketAssignment.assign(empty(), equal(n), 3);
            List<String> out = BucketAssignment.assign(before, equal(n + 1), 3);
            int moved = BucketAssignment.moved(before, out);
            assertEquals("n=" + n + " -> n+1", lowerBound(before, equal(n + 1)), moved);
            // only the new replica receives buckets, and it gets its share
            for (int b = 0; b < B; b++) {
                if (!before.get(b).equals(out.get(b))) {
                    assertEquals("r" + n, out.get(b));
                }
            }
            assertTrue("n=" + n + ": moved " + moved, moved <= B / (n + 1) + 1);
            List<String> back = BucketAssignment.assign(out, equal(n), 3);
            // scale-in: only the buckets of the replica that left move
            assertEquals(counts(out).get("r" + n).intValue(), BucketAssignment.moved(out, back));
        }
    }

    @Test
    public void removingAMiddleReplicaMovesOnlyItsBuckets() {
        List<String> four = BucketAssignment.assign(empty(), equal(4), 0);
        Map<String, Integer> w = new TreeMap<>(equal(4));
        w.remove("r1");
        List<String> three = BucketAssignment.assign(four, w, 0);
        for (int b = 0; b < B; b++) {
            if (!"r1".equals(four.get(b))) {
                assertEquals(four.get(b), three.get(b));
            }
        }
        assertEquals(64, BucketAssignment.moved(four, three));
    }

    @Test
    public void aWeightChangeMovesOnlyTheExcess() {
        List<String> even = BucketAssignment.assign(empty(), Map.of("a", 1, "b", 1), 0);
        List<String> skewed = BucketAssignment.assign(even, Map.of("a", 3, "b", 1), 0);
        assertEquals(Map.of("a", 192, "b", 64), counts(skewed));
        assertEquals(64, BucketAssignment.moved(even, skewed));
        // weight 0 empties a replica
        List<String> drained = BucketAssignment.assign(skewed, Map.of("a", 3, "b", 0), 0);
        assertEquals(Map.of("a", 256), counts(drained));
        assertEquals(64, BucketAssignment.moved(skewed, drained));
    }

    @Test
    public void randomChangesAlwaysMeetTheLowerBound() {
        Random rnd = new Random(18);
        List<String> m = empty();
        for (int step = 0; step < 300; step++) {
            Map<String, Integer> w = new TreeMap<>();
            int n = 1 + rnd.nextInt(8);
            for (int i = 0; i < n; i++) {
                w.put("r" + rnd.nextInt(10), 1 + rnd.nextInt(5));
            }
            List<String> next = BucketAssignment.assign(m, w, step % 4);
            assertEquals("step " + step, lowerBound(m, w), BucketAssignment.moved(m, next));
            Map<String, Integer> quota = BucketAssignment.quotas(B, w);
            assertEquals(new TreeMap<>(quota), counts(next));
            m = next;
        }
    }

    @Test
    public void deterministicAndStable() {
        Map<String, Integer> hashed = new HashMap<>(Map.of("x", 2, "y", 1, "z", 1));
        Map<String, Integer> ordered = new LinkedHashMap<>();
        ordered.put("z", 1);
        ordered.put("y", 1);
        ordered.put("x", 2);
        List<String> a = BucketAssignment.assign(empty(), hashed, 5);
        assertEquals(a, BucketAssignment.assign(empty(), ordered, 5));
        // nothing changed: nothing moves
        assertEquals(a, BucketAssignment.assign(a, ordered, 5));
    }

    @Test
    public void vnfsOfOneChainAreNotCorrelated() {
        // two vNFs of a chain share the chain's buckets; each combination of their replicas gets about a quarter
        List<String> v0 = BucketAssignment.assign(empty(), Map.of("a0", 1, "a1", 1), 0);
        List<String> v1 = BucketAssignment.assign(empty(), Map.of("b0", 1, "b1", 1), 1);
        Map<String, Integer> combos = new TreeMap<>();
        for (int b = 0; b < B; b++) {
            combos.merge(v0.get(b) + v1.get(b), 1, Integer::sum);
        }
        assertEquals(4, combos.size());
        combos.values().forEach(c -> assertTrue("combination counts " + combos, c >= 44 && c <= 84));
    }

    @Test
    public void noPositiveWeightLeavesEveryBucketEmpty() {
        List<String> m = BucketAssignment.assign(BucketAssignment.assign(empty(), equal(2), 0), Map.of("r0", 0), 0);
        assertEquals(Map.of("-", B), counts(m));
    }

    @Test(expected = IllegalArgumentException.class)
    public void bucketCountMustBeAPowerOfTwo() {
        BucketAssignment.assign(new ArrayList<>(Collections.nCopies(100, (String) null)), equal(2), 0);
    }

    @Test(expected = IllegalArgumentException.class)
    public void negativeWeightIsRefused() {
        BucketAssignment.assign(empty(), Map.of("a", -1), 0);
    }
}
