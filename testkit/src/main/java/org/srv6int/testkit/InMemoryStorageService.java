// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.store.service.AsyncConsistentMap;
import org.onosproject.store.service.AsyncConsistentMultimap;
import org.onosproject.store.service.AsyncConsistentTreeMap;
import org.onosproject.store.service.AsyncDocumentTree;
import org.onosproject.store.service.AtomicCounterBuilder;
import org.onosproject.store.service.AtomicCounterMapBuilder;
import org.onosproject.store.service.AtomicIdGeneratorBuilder;
import org.onosproject.store.service.AtomicValueBuilder;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.onosproject.store.service.ConsistentMultimapBuilder;
import org.onosproject.store.service.ConsistentTreeMapBuilder;
import org.onosproject.store.service.DistributedLockBuilder;
import org.onosproject.store.service.DistributedSetBuilder;
import org.onosproject.store.service.DocumentTreeBuilder;
import org.onosproject.store.service.EventuallyConsistentMapBuilder;
import org.onosproject.store.service.LeaderElectorBuilder;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Topic;
import org.onosproject.store.service.TopicBuilder;
import org.onosproject.store.service.TransactionContextBuilder;
import org.onosproject.store.service.WorkQueue;
import org.onosproject.store.service.WorkQueueBuilder;
import org.osgi.service.component.annotations.Component;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Storage service whose consistent maps ({@link InMemoryConsistentMap}) are shared by name, as
 * in an ONOS cluster: every user that builds map "x" sees the same entries and hears its events,
 * each through the serializer it built the map with.
 * Only synchronous consistent maps are modelled (all the SRv6-INT app uses); every other
 * primitive fails with {@link UnsupportedOperationException} naming itself rather than
 * pretending.
 */
@Component(immediate = true, service = StorageService.class)
public class InMemoryStorageService implements StorageService {

    private final Map<String, InMemoryConsistentMap.Entries> maps = new ConcurrentHashMap<>();

    @Override
    public <K, V> ConsistentMapBuilder<K, V> consistentMapBuilder() {
        return new ConsistentMapBuilder<>() {
            @Override
            @SuppressWarnings("unchecked")
            public ConsistentMap<K, V> build() {
                if (name() == null) {
                    throw new IllegalStateException("a consistent map needs a name");
                }
                // A view with this builder's serializer over the entries shared by name.
                return new InMemoryConsistentMap<>(maps.computeIfAbsent(name(), InMemoryConsistentMap.Entries::new),
                                                   serializer());
            }

            @Override
            public AsyncConsistentMap<K, V> buildAsyncMap() {
                throw unsupported("AsyncConsistentMap");
            }
        };
    }

    private static UnsupportedOperationException unsupported(String what) {
        return new UnsupportedOperationException(what + " is not modelled by srv6int-testkit");
    }

    @Override
    public <K, V> EventuallyConsistentMapBuilder<K, V> eventuallyConsistentMapBuilder() {
        throw unsupported("EventuallyConsistentMap");
    }

    @Override
    public <V> DocumentTreeBuilder<V> documentTreeBuilder() {
        throw unsupported("DocumentTree");
    }

    @Override
    public <V> ConsistentTreeMapBuilder<V> consistentTreeMapBuilder() {
        throw unsupported("ConsistentTreeMap");
    }

    @Override
    public <K, V> ConsistentMultimapBuilder<K, V> consistentMultimapBuilder() {
        throw unsupported("ConsistentMultimap");
    }

    @Override
    public <K> AtomicCounterMapBuilder<K> atomicCounterMapBuilder() {
        throw unsupported("AtomicCounterMap");
    }

    @Override
    public <E> DistributedSetBuilder<E> setBuilder() {
        throw unsupported("DistributedSet");
    }

    @Override
    public AtomicCounterBuilder atomicCounterBuilder() {
        throw unsupported("AtomicCounter");
    }

    @Override
    public AtomicIdGeneratorBuilder atomicIdGeneratorBuilder() {
        throw unsupported("AtomicIdGenerator");
    }

    @Override
    public <V> AtomicValueBuilder<V> atomicValueBuilder() {
        throw unsupported("AtomicValue");
    }

    @Override
    public DistributedLockBuilder lockBuilder() {
        throw unsupported("DistributedLock");
    }

    @Override
    public LeaderElectorBuilder leaderElectorBuilder() {
        throw unsupported("LeaderElector");
    }

    @Override
    public <T> TopicBuilder<T> topicBuilder() {
        throw unsupported("Topic");
    }

    @Override
    public TransactionContextBuilder transactionContextBuilder() {
        throw unsupported("TransactionContext");
    }

    @Override
    public <E> WorkQueueBuilder<E> workQueueBuilder() {
        throw unsupported("WorkQueue");
    }

    @Override
    public <E> WorkQueue<E> getWorkQueue(String name, Serializer serializer) {
        throw unsupported("WorkQueue");
    }

    @Override
    public <V> AsyncDocumentTree<V> getDocumentTree(String name, Serializer serializer) {
        throw unsupported("DocumentTree");
    }

    @Override
    public <K, V> AsyncConsistentMultimap<K, V> getAsyncSetMultimap(String name, Serializer serializer) {
        throw unsupported("ConsistentMultimap");
    }

    @Override
    public <V> AsyncConsistentTreeMap<V> getAsyncTreeMap(String name, Serializer serializer) {
        throw unsupported("ConsistentTreeMap");
    }

    @Override
    public <T> Topic<T> getTopic(String name, Serializer serializer) {
        throw unsupported("Topic");
    }
}
