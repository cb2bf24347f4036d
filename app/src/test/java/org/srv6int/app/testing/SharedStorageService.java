package org.srv6int.app.testing;

import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.onosproject.store.service.TestConsistentMap;
import org.onosproject.store.service.TestStorageService;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link TestStorageService} whose ConsistentMaps are shared by name, as in an ONOS cluster:
 * every instance that builds map "x" gets the same map and hears its events. (The onos-api
 * TestStorageService builds a fresh map per call.)
 */
public final class SharedStorageService extends TestStorageService {

    private final Map<String, ConsistentMap<?, ?>> maps = new ConcurrentHashMap<>();

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> ConsistentMapBuilder<K, V> consistentMapBuilder() {
        return new TestConsistentMap.Builder<K, V>() {
            @Override
            public ConsistentMap<K, V> build() {
                return (ConsistentMap<K, V>) maps.computeIfAbsent(name(), n -> super.build());
            }
        };
    }
}
