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
import java.util.function.BooleanSupplier;

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
     * The maps read from a local copy by default: every map read in full on each evaluation
     * window — the chains and the replicas (twice each on the leader), the paused chains, the
     * queued escalations and the members' telemetry summaries (every member, every window) — so
     * that a steady window and loop round make no Raft read and do not wait while one partition
     * re-elects its Raft leader ({@link LocalCopy}). The loop-state records are read in full only
     * on a leader's first round; they go through Raft.
     */
    public static final Set<String> LOCAL_COPIES = Set.of("srv6int-sfcs", "srv6int-replicas",
                                                          "srv6int-loop-paused", "srv6int-loop-escalations",
                                                          "srv6int-telemetry-summaries");

    private final AtomixNode node;
    private final Set<String> localCopies;
    private final BooleanSupplier majority;
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
        this(node, localCopies, node::hasQuorum);
    }

    /**
     * Storage on a member, with how it tells whether it reaches a majority (tests).
     *
     * @param node        the started member
     * @param localCopies names of the maps whose reads come from a listener-fed local copy
     * @param majority    whether this member reaches a majority of the members now
     */
    AtomixStorageService(AtomixNode node, Set<String> localCopies, BooleanSupplier majority) {
        this.node = node;
        this.localCopies = Set.copyOf(localCopies);
        this.majority = majority;
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
                                                 localCopies.contains(name()) || relaxedReadConsistency(), majority);
            }

            @Override
            public AsyncConsistentMap<K, V> buildAsyncMap() {
                throw new UnsupportedOperationException("AsyncConsistentMap is not offered over Atomix here");
            }
        };
    }
}
