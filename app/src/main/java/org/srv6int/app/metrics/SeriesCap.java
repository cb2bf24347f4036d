// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A cap on the series of one level (chains, vNFs or replicas): the first {@code limit} keys in
 * their natural order keep series of their own, the rest fold into one series whose labels all
 * say {@link #OVERFLOW}. Keys are chain ids, vNF positions and replica names, never flow keys,
 * so the cap bounds what a misconfiguration can send to a Prometheus server.
 *
 * @param <K> key
 */
final class SeriesCap<K> {

    /** Label value of the series that folded keys go to. */
    static final String OVERFLOW = "overflow";

    private final Set<K> kept = new HashSet<>();
    private final int folded;

    /**
     * Decides which keys keep their series.
     *
     * @param keys  distinct keys of the level
     * @param order their order (lowest first keep theirs)
     * @param limit most keys with series of their own, &gt;= 0
     */
    SeriesCap(Collection<K> keys, Comparator<K> order, int limit) {
        List<K> sorted = new ArrayList<>(new HashSet<>(keys));
        sorted.sort(order);
        int n = Math.min(limit, sorted.size());
        kept.addAll(sorted.subList(0, n));
        folded = sorted.size() - n;
    }

    /**
     * Tells whether a key has series of its own.
     *
     * @param key key
     * @return true if kept, false if folded into the overflow series
     */
    boolean keeps(K key) {
        return kept.contains(key);
    }

    /**
     * Returns how many keys fold into the overflow series.
     *
     * @return keys
     */
    int folded() {
        return folded;
    }
}
