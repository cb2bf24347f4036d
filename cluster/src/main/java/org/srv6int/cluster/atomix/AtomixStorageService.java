// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.core.map.AtomicMap;
import io.atomix.utils.serializer.Namespaces;
import org.onosproject.store.service.AsyncConsistentMap;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ONOS's storage service over an Atomix cluster: a consistent map is an Atomix {@link AtomicMap} of
 * the same name in the Raft data group ({@link AtomixConsistentMap}), shared by every member.
 * Like the in-memory one it extends, it offers the synchronous consistent maps the app uses and
 * nothing else (every other primitive fails naming itself). The maps the loop reads in full every
 * round, and those built with relaxed read consistency (as in ONOS, where that builds a caching
 * map), serve their reads from a listener-fed local copy ({@link LocalCopy}).
 */
public final class AtomixStorageService extends InMemoryStorageService {

    /**
     * The maps read from a local copy by default: the chains and the replicas, which every loop
     * round reads in full (twice each) on the leader and which change only when a chain or a
     * replica does. The loop-state maps are read in full only on a leader's first round, and the
     * paused and escalation queues are small; they go through Raft.
     */
    public static final Set<String> LOCAL_COPIES = Set.of("srv6int-sfcs", "srv6int-replicas");

    private final AtomixNode node;
    private final Set<String> localCopies;
    private final Map<String, AtomicMap<String, byte[]>> maps = new ConcurrentHashMap<>();

    /**
     * Storage on a member, the maps in {@link #LOCAL_COPIES} read from local copies.
     *
     * @param node the started member
     */
    public AtomixStorageService(AtomixNode node) {
        this(node, LOCAL_COPIES);
    }

    /**
     * Storage on a member.
     *
     * @param node        the started member
     * @param localCopies names of the maps whose reads come from a listener-fed local copy
     */
    public AtomixStorageService(AtomixNode node, Set<String> localCopies) {
        this.node = node;
        this.localCopies = Set.copyOf(localCopies);
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
                return new AtomixConsistentMap<>(name(), atomicMap(name()), serializer(),
                                                 localCopies.contains(name()) || relaxedReadConsistency());
            }

            @Override
            public AsyncConsistentMap<K, V> buildAsyncMap() {
                throw new UnsupportedOperationException("AsyncConsistentMap is not offered over Atomix here");
            }
        };
    }
}
