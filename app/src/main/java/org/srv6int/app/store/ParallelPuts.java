// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onosproject.store.service.ConsistentMap;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many puts into one ConsistentMap with up to {@link #IN_FLIGHT} of them in flight, waiting for
 * all: over Raft each put is a round trip (~3 ms here), so a leader's first round over 1,000 new
 * chains (8,000 records) took 26-30 s one put after the other (docs/cluster.md). ONOS 2.7's
 * ConsistentMap has no putAll and its AsyncConsistentMap none either; its synchronous map is safe
 * to call from several threads, and Atomix pipelines the calls of one session.
 */
final class ParallelPuts {

    /** Puts in flight at once. */
    static final int IN_FLIGHT = 16;
    /** Below this many, one after the other on the caller's thread (a steady round writes a few). */
    static final int SEQUENTIAL_BELOW = 8;

    private static final AtomicInteger THREADS = new AtomicInteger();
    // Shared by every store in the JVM; its threads are daemons and end when idle.
    private static final ThreadPoolExecutor POOL = pool();

    private ParallelPuts() {
    }

    private static ThreadPoolExecutor pool() {
        ThreadPoolExecutor p = new ThreadPoolExecutor(IN_FLIGHT, IN_FLIGHT, 5, TimeUnit.SECONDS,
                                                      new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "srv6int-store-puts-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        p.allowCoreThreadTimeOut(true);
        return p;
    }

    /**
     * Puts every entry and waits for all.
     *
     * @param map     the map
     * @param entries what to put
     * @param <K>     key type
     * @param <V>     value type
     * @return the keys whose put failed (written or not)
     */
    static <K, V> Set<K> putAll(ConsistentMap<K, V> map, Map<K, V> entries) {
        List<Map.Entry<K, V>> list = new ArrayList<>(entries.entrySet());
        if (list.size() < SEQUENTIAL_BELOW) {
            return lane(map, list, 0, 1);
        }
        int lanes = Math.min(IN_FLIGHT, list.size());
        List<Future<Set<K>>> futures = new ArrayList<>();
        for (int i = 0; i < lanes; i++) {
            int first = i;
            futures.add(POOL.submit(() -> lane(map, list, first, lanes)));
        }
        Set<K> failed = new LinkedHashSet<>();
        boolean interrupted = false;
        for (int i = 0; i < lanes; i++) {
            try {
                failed.addAll(futures.get(i).get());
            } catch (InterruptedException e) {
                interrupted = true;
                failed.addAll(keys(list, i, lanes));
            } catch (ExecutionException e) {
                failed.addAll(keys(list, i, lanes));
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return failed;
    }

    private static <K, V> Set<K> lane(ConsistentMap<K, V> map, List<Map.Entry<K, V>> list, int first, int step) {
        Set<K> failed = new LinkedHashSet<>();
        for (int i = first; i < list.size(); i += step) {
            Map.Entry<K, V> e = list.get(i);
            try {
                map.put(e.getKey(), e.getValue());
            } catch (RuntimeException ex) {
                failed.add(e.getKey());
            }
        }
        return failed;
    }

    private static <K, V> Set<K> keys(List<Map.Entry<K, V>> list, int first, int step) {
        Set<K> out = new LinkedHashSet<>();
        for (int i = first; i < list.size(); i += step) {
            out.add(list.get(i).getKey());
        }
        return out;
    }
}
