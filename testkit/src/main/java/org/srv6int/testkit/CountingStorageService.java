// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.store.service.AsyncConsistentMap;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.onosproject.store.service.StorageService;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Counts every {@code ConsistentMap} call by "map.method", for tests and benchmarks that count a
 * loop round's store operations. The maps come from another storage service (the cluster's, over
 * Atomix) or from this one's in-memory maps; every other primitive is this one's in-memory kind.
 */
public class CountingStorageService extends InMemoryStorageService {
    private final Map<String, AtomicLong> ops = new ConcurrentHashMap<>();
    private final StorageService maps;
    private final Consumer<ConsistentMap<?, ?>> onBuilt;

    /** Counts calls on this service's own in-memory maps. */
    public CountingStorageService() {
        this(null, m -> { });
    }

    /**
     * Counts calls on another service's maps.
     *
     * @param maps    the service that builds the maps (null: this one's in-memory maps)
     * @param onBuilt told of each map built, before it is wrapped (e.g. to read its own counters)
     */
    public CountingStorageService(StorageService maps, Consumer<ConsistentMap<?, ?>> onBuilt) {
        this.maps = maps;
        this.onBuilt = onBuilt;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> ConsistentMapBuilder<K, V> consistentMapBuilder() {
        ConsistentMapBuilder<K, V> inner = maps == null ? super.consistentMapBuilder() : maps.consistentMapBuilder();
        return new ConsistentMapBuilder<>() {
            @Override
            public ConsistentMap<K, V> build() {
                ConsistentMap<K, V> m = inner.withName(name()).withSerializer(serializer()).build();
                onBuilt.accept(m);
                String n = name();
                return (ConsistentMap<K, V>) Proxy.newProxyInstance(
                        ConsistentMap.class.getClassLoader(), new Class<?>[]{ConsistentMap.class},
                        (p, method, args) -> {
                            ops.computeIfAbsent(n + "." + method.getName(), k -> new AtomicLong()).incrementAndGet();
                            try {
                                return method.invoke(m, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }

            @Override
            public AsyncConsistentMap<K, V> buildAsyncMap() {
                throw new UnsupportedOperationException();
            }
        };
    }

    /**
     * Calls so far.
     *
     * @return count by "map.method", sorted
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> s = new TreeMap<>();
        ops.forEach((k, v) -> s.put(k, v.get()));
        return s;
    }

    /**
     * Calls between two snapshots.
     *
     * @param after  the later snapshot
     * @param before the earlier one
     * @return the non-zero differences by "map.method", sorted
     */
    public static Map<String, Long> diff(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> d = new TreeMap<>();
        after.forEach((k, v) -> {
            long x = v - before.getOrDefault(k, 0L);
            if (x != 0) {
                d.put(k, x);
            }
        });
        return d;
    }
}
