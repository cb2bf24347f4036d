// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * Resilient replica selection (issue 18 item 1): the switch hashes a flow to
 * one of B buckets, this class maps the buckets of one vNF to its replicas.
 *
 * <p>Each replica gets a quota of {@code B · w / W} buckets (largest
 * remainder, ties to the smaller key). Starting from the current mapping, a
 * bucket keeps its replica while that replica is still wanted and within its
 * quota; only the buckets of replicas that left and the excess of replicas
 * above their quota are handed to replicas below theirs. No assignment
 * proportional to the weights moves fewer buckets (a replica above its quota
 * must lose its excess, a bucket of a replica that left must move), so going
 * from n to n+1 equal replicas moves about B/(n+1) buckets instead of the
 * n/(n+1) of all flows that {@code hash % n} moves. This is the stateful form
 * of resilient hashing; Maglev's table needs no previous state but moves a
 * few percent more.
 *
 * <p>Deterministic: the same current mapping, weights and seed give the same
 * result. Which buckets an over-quota replica gives up and the order in which
 * free buckets are handed out follow a fixed pseudo-random permutation of the
 * bucket indices per seed; the seed is the vNF's index in its chain, so the
 * vNFs of one chain (which share the chain's buckets) are not correlated.
 */
public final class BucketAssignment {

    private BucketAssignment() {
    }

    /**
     * Maps buckets to replicas with the fewest moves from {@code current}.
     *
     * @param current the replica of each bucket now (null: none); its size is
     *                the bucket count, a power of two
     * @param weights wanted replicas and their weights (0: wanted by none)
     * @param seed    permutation seed (the vNF's index in its chain)
     * @param <K>     replica key
     * @return the replica of each bucket; all null if no weight is positive
     */
    public static <K extends Comparable<? super K>> List<K> assign(List<K> current, Map<K, Integer> weights,
                                                                    int seed) {
        checkNotNull(current, "current is null");
        checkNotNull(weights, "weights is null");
        int n = current.size();
        checkArgument(n > 0 && Integer.bitCount(n) == 1, "bucket count must be a power of two, got %s", n);
        Map<K, Integer> quota = quotas(n, weights);
        List<K> next = new ArrayList<>(Collections.nCopies(n, (K) null));
        if (quota.isEmpty()) {
            return next;
        }
        int[] order = order(n, seed);
        Map<K, Integer> kept = new HashMap<>();
        List<Integer> free = new ArrayList<>();
        // keep in permutation order, so the buckets an over-quota replica gives up are its last ones
        for (int b : order) {
            K owner = current.get(b);
            Integer q = owner == null ? null : quota.get(owner);
            int k = owner == null ? 0 : kept.getOrDefault(owner, 0);
            if (q != null && k < q) {
                next.set(b, owner);
                kept.put(owner, k + 1);
            } else {
                free.add(b);
            }
        }
        int f = 0;
        for (Map.Entry<K, Integer> e : quota.entrySet()) {
            for (int need = e.getValue() - kept.getOrDefault(e.getKey(), 0); need > 0; need--) {
                next.set(free.get(f++), e.getKey());
            }
        }
        return next;
    }

    /**
     * Returns each replica's bucket quota: {@code buckets · w / W} rounded by
     * largest remainder (ties to the smaller key), so the quotas sum to the
     * bucket count. Replicas with weight 0 get none.
     *
     * @param buckets bucket count
     * @param weights replica weights, each at least 0
     * @param <K>     replica key
     * @return quotas of the replicas with a positive weight, in key order
     */
    public static <K extends Comparable<? super K>> Map<K, Integer> quotas(int buckets, Map<K, Integer> weights) {
        TreeMap<K, Integer> positive = new TreeMap<>();
        long total = 0;
        for (Map.Entry<K, Integer> e : weights.entrySet()) {
            checkArgument(e.getValue() != null && e.getValue() >= 0, "weight of %s must be >= 0, got %s",
                          e.getKey(), e.getValue());
            if (e.getValue() > 0) {
                positive.put(e.getKey(), e.getValue());
                total += e.getValue();
            }
        }
        TreeMap<K, Integer> quota = new TreeMap<>();
        if (positive.isEmpty()) {
            return quota;
        }
        List<K> keys = new ArrayList<>(positive.keySet());
        long[] rem = new long[keys.size()];
        int given = 0;
        for (int i = 0; i < keys.size(); i++) {
            long share = (long) buckets * positive.get(keys.get(i));
            quota.put(keys.get(i), (int) (share / total));
            rem[i] = share % total;
            given += (int) (share / total);
        }
        for (; given < buckets; given++) {
            int best = 0;
            for (int i = 1; i < rem.length; i++) {
                if (rem[i] > rem[best]) {
                    best = i;
                }
            }
            quota.merge(keys.get(best), 1, Integer::sum);
            rem[best] = -1;
        }
        return quota;
    }

    /**
     * Returns the bucket indices in the seed's fixed pseudo-random order.
     *
     * @param buckets bucket count
     * @param seed    seed
     * @return a permutation of 0..buckets-1
     */
    public static int[] order(int buckets, int seed) {
        long[] keyed = new long[buckets];
        for (int b = 0; b < buckets; b++) {
            keyed[b] = ((long) (mix(b * 0x9E3779B9 ^ seed * 0x85EBCA6B ^ seed) & 0x7FFFFFFF) << 32) | b;
        }
        Arrays.sort(keyed);
        int[] order = new int[buckets];
        for (int i = 0; i < buckets; i++) {
            order[i] = (int) keyed[i];
        }
        return order;
    }

    /**
     * Returns how many buckets map to another replica in {@code b} than in {@code a}.
     *
     * @param a   one mapping
     * @param b   another of the same size
     * @param <K> replica key
     * @return buckets that differ
     */
    public static <K> int moved(List<K> a, List<K> b) {
        checkArgument(a.size() == b.size(), "mappings differ in size: %s, %s", a.size(), b.size());
        int m = 0;
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) == null ? b.get(i) != null : !a.get(i).equals(b.get(i))) {
                m++;
            }
        }
        return m;
    }

    // murmur3's 32-bit finaliser: every input bit flips about half the output bits
    private static int mix(int h) {
        int x = h;
        x ^= x >>> 16;
        x *= 0x85EBCA6B;
        x ^= x >>> 13;
        x *= 0xC2B2AE35;
        x ^= x >>> 16;
        return x;
    }
}
