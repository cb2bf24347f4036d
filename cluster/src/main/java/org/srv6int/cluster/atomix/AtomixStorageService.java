// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.core.map.AtomicMap;
import io.atomix.utils.serializer.Namespaces;
import org.onosproject.store.service.AsyncConsistentMap;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ONOS's storage service over an Atomix cluster: a consistent map is an Atomix {@link AtomicMap} of
 * the same name in the Raft data group ({@link AtomixConsistentMap}), shared by every member.
 * Like the in-memory one it extends, it offers the synchronous consistent maps the app uses and
 * nothing else (every other primitive fails naming itself).
 */
public final class AtomixStorageService extends InMemoryStorageService {

    private final AtomixNode node;
    private final Map<String, AtomicMap<String, byte[]>> maps = new ConcurrentHashMap<>();

    /**
     * Storage on a member.
     *
     * @param node the started member
     */
    public AtomixStorageService(AtomixNode node) {
        this.node = node;
    }

    /**
     * The Atomix map behind a consistent map (one per name per member, shared by its views).
     *
     * @param name map name
     * @return atomix map
     */
    AtomicMap<String, byte[]> atomicMap(String name) {
        return maps.computeIfAbsent(name, n -> node.atomix().<String, byte[]>atomicMapBuilder(n)
                .withProtocol(node.protocol())
                .withSerializer(io.atomix.utils.serializer.Serializer.using(Namespaces.BASIC))
                .build());
    }

    @Override
    public <K, V> ConsistentMapBuilder<K, V> consistentMapBuilder() {
        return new ConsistentMapBuilder<>() {
            @Override
            public ConsistentMap<K, V> build() {
                if (name() == null) {
                    throw new IllegalStateException("a consistent map needs a name");
                }
                return new AtomixConsistentMap<>(name(), atomicMap(name()), serializer());
            }

            @Override
            public AsyncConsistentMap<K, V> buildAsyncMap() {
                throw new UnsupportedOperationException("AsyncConsistentMap is not offered over Atomix here");
            }
        };
    }
}
