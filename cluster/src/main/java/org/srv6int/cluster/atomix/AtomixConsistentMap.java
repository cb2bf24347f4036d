// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.core.map.AtomicMap;
import io.atomix.core.map.AtomicMapEvent;
import io.atomix.core.map.AtomicMapEventListener;
import io.atomix.primitive.PrimitiveException;
import org.onosproject.store.primitives.ConsistentMapBackedJavaMap;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapException;
import org.onosproject.store.service.DistributedPrimitive;
import org.onosproject.store.service.MapEvent;
import org.onosproject.store.service.MapEventListener;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageException;
import org.onosproject.store.service.Versioned;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.testkit.ComputeIfConsistentMap;

import java.util.AbstractMap;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * An ONOS {@link ConsistentMap} over an Atomix {@link AtomicMap} of encoded keys and values, as ONOS
 * 2.7 maps its consistent maps onto Atomix: keys and values go through the builder's ONOS
 * serializer (Kryo), the key's bytes become the Atomix key as text, the value's bytes the Atomix
 * value; versions are the Raft log's. The compute family reads, applies the function here and
 * writes back with a compare-and-set on the version read (the function runs on the caller, never
 * in the Raft state machine), retried while another writer got in between. Atomix failures surface
 * as ONOS's {@link StorageException}s (timeout, unavailable, concurrent modification).
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class AtomixConsistentMap<K, V> extends ComputeIfConsistentMap<K, V> {

    /** How often a compute retries a lost compare-and-set before giving up. */
    static final int COMPUTE_RETRIES = 16;

    private static final Logger log = LoggerFactory.getLogger(AtomixConsistentMap.class);

    private final String name;
    private final AtomicMap<String, byte[]> map;
    private final Serializer serializer;
    private final Map<MapEventListener<K, V>, AtomicMapEventListener<String, byte[]>> listeners =
            new ConcurrentHashMap<>();
    /** The member's listener-fed copy the reads come from, or null: every read goes through Raft. */
    private final LocalCopy<K, V> copy;

    /**
     * A view of an Atomix map through an ONOS serializer.
     *
     * @param name       primitive name
     * @param map        the Atomix map (text keys, byte values)
     * @param serializer the ONOS serializer the app built the map with
     */
    public AtomixConsistentMap(String name, AtomicMap<String, byte[]> map, Serializer serializer) {
        this(name, map, serializer, false);
    }

    /**
     * A view of an Atomix map through an ONOS serializer, its reads optionally served from a local
     * copy kept current by the map's events ({@link LocalCopy}; as ONOS's relaxed read consistency).
     *
     * @param name       primitive name
     * @param map        the Atomix map (text keys, byte values)
     * @param serializer the ONOS serializer the app built the map with
     * @param localCopy  whether reads come from a listener-fed local copy
     */
    public AtomixConsistentMap(String name, AtomicMap<String, byte[]> map, Serializer serializer,
                               boolean localCopy) {
        this(name, map, serializer, localCopy, () -> false);
    }

    /**
     * A view of an Atomix map through an ONOS serializer, its reads optionally served from a local
     * copy kept current by the map's events, which also serves them while the map's session is
     * suspended and this member reaches a majority ({@link LocalCopy}).
     *
     * @param name       primitive name
     * @param map        the Atomix map (text keys, byte values)
     * @param serializer the ONOS serializer the app built the map with
     * @param localCopy  whether reads come from a listener-fed local copy
     * @param majority   whether this member reaches a majority of the members now
     */
    public AtomixConsistentMap(String name, AtomicMap<String, byte[]> map, Serializer serializer,
                               boolean localCopy, BooleanSupplier majority) {
        this.name = name;
        this.map = map;
        this.serializer = Objects.requireNonNull(serializer, "a consistent map needs a serializer");
        if (localCopy) {
            copy = new LocalCopy<>(this::decodeKey, this::view, majority);
            // in the session's order, on its thread: the copy sees events before later answers
            call(() -> {
                map.addListener(copy::event, Runnable::run);
                return null;
            });
            map.addStateChangeListener(s -> {
                // a suspension's reads from the copy are counted; the log shows when it began and ended
                log.info("map {}: session {}, {} reads from its local copy while suspended so far", name, s,
                         copy.suspendedReads());
                copy.state(s);
            });
        } else {
            copy = null;
        }
    }

    /**
     * How often this view's local copy was filled from Raft (0 without one).
     *
     * @return fills
     */
    public long localCopyFills() {
        return copy == null ? 0 : copy.fills();
    }

    /**
     * How many reads this view's local copy served while the map's session was suspended (0 without one).
     *
     * @return reads
     */
    public long localCopySuspendedReads() {
        return copy == null ? 0 : copy.suspendedReads();
    }

    /** The local copy, or null (tests). */
    LocalCopy<K, V> localCopy() {
        return copy;
    }

    private Map<String, Map.Entry<K, Versioned<V>>> copied() {
        return copy.all(() -> call(() -> List.copyOf(map.entrySet())));
    }

    // A write of ours went through: our next read must see it, whatever its event's delay.
    private <T> T wrote(String k, T result) {
        if (copy != null) {
            copy.wrote(k, call(() -> map.get(k)));
        }
        return result;
    }

    private boolean wroteIf(String k, boolean won) {
        return won ? wrote(k, true) : lostIsDrop(false);
    }

    // A lost compare-and-set may mean the copy it was read from is behind: refill it at the next read.
    private boolean lostIsDrop(boolean won) {
        if (!won && copy != null) {
            copy.drop();
        }
        return won;
    }

    private String encodeKey(K key) {
        Objects.requireNonNull(key, "null keys are not allowed");
        try {
            return Base64.getEncoder().encodeToString(serializer.encode(key));
        } catch (RuntimeException e) {
            throw new ConsistentMapException("map " + name + " cannot encode key " + key.getClass().getName()
                                                     + ": " + e.getMessage());
        }
    }

    private K decodeKey(String key) {
        try {
            return serializer.decode(Base64.getDecoder().decode(key));
        } catch (RuntimeException e) {
            throw new ConsistentMapException("map " + name + " cannot decode a key: " + e.getMessage());
        }
    }

    private byte[] encode(V value) {
        Objects.requireNonNull(value, "null values are not allowed");
        try {
            return serializer.encode(value);
        } catch (RuntimeException e) {
            throw new ConsistentMapException("map " + name + " cannot encode " + value.getClass().getName()
                                                     + ": " + e.getMessage());
        }
    }

    private V decode(byte[] value) {
        try {
            return serializer.decode(value);
        } catch (RuntimeException e) {
            throw new ConsistentMapException("map " + name + " cannot decode a value: " + e.getMessage());
        }
    }

    private Versioned<V> view(io.atomix.utils.time.Versioned<byte[]> v) {
        return v == null ? null : new Versioned<>(decode(v.value()), v.version(), v.creationTime());
    }

    // Every call into Atomix: its failures as ONOS's storage exceptions.
    private <T> T call(Supplier<T> op) {
        try {
            return op.get();
        } catch (PrimitiveException.Timeout e) {
            throw new StorageException.Timeout();
        } catch (PrimitiveException.Unavailable | PrimitiveException.ClosedSession
                | PrimitiveException.UnknownSession e) {
            throw new StorageException.Unavailable();
        } catch (PrimitiveException.ConcurrentModification e) {
            throw new StorageException.ConcurrentModification();
        } catch (PrimitiveException e) {
            throw new StorageException(e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public DistributedPrimitive.Type primitiveType() {
        return DistributedPrimitive.Type.CONSISTENT_MAP;
    }

    @Override
    public int size() {
        if (copy != null) {
            return copied().size();
        }
        return call(map::size);
    }

    @Override
    public boolean isEmpty() {
        if (copy != null) {
            return copied().isEmpty();
        }
        return call(map::isEmpty);
    }

    @Override
    public boolean containsKey(K key) {
        String k = encodeKey(key);
        if (copy != null) {
            return copied().containsKey(k);
        }
        return call(() -> map.containsKey(k));
    }

    @Override
    public boolean containsValue(V value) {
        byte[] v = encode(value);
        return call(() -> map.containsValue(v));
    }

    @Override
    public Versioned<V> get(K key) {
        String k = encodeKey(key);
        if (copy != null) {
            Map.Entry<K, Versioned<V>> e = copied().get(k);
            return e == null ? null : e.getValue();
        }
        return view(call(() -> map.get(k)));
    }

    @Override
    public Versioned<V> getOrDefault(K key, V defaultValue) {
        Versioned<V> v = get(key);
        return v != null ? v : new Versioned<>(defaultValue, 0);
    }

    @Override
    public Versioned<V> computeIf(K key, Predicate<? super V> condition,
                                  BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        String k = encodeKey(key);
        for (int attempt = 0; attempt < COMPUTE_RETRIES; attempt++) {
            io.atomix.utils.time.Versioned<byte[]> cur = call(() -> map.get(k));
            V curValue = cur == null ? null : decode(cur.value());
            if (!condition.test(curValue)) {
                return cur == null ? null : view(cur);
            }
            V next = remappingFunction.apply(key, curValue);
            if (next == null) {
                if (cur == null || call(() -> map.remove(k, cur.version()))) {
                    return wrote(k, null);
                }
            } else if (cur == null) {
                byte[] n = encode(next);
                if (call(() -> map.putIfAbsent(k, n)) == null) {
                    return view(wrote(k, call(() -> map.get(k))));
                }
            } else {
                byte[] n = encode(next);
                if (call(() -> map.replace(k, cur.version(), n))) {
                    return view(wrote(k, call(() -> map.get(k))));
                }
            }
        }
        throw new ConsistentMapException.ConcurrentModification();
    }

    @Override
    public Versioned<V> put(K key, V value) {
        String k = encodeKey(key);
        byte[] v = encode(value);
        return view(wrote(k, call(() -> map.put(k, v))));
    }

    @Override
    public Versioned<V> putAndGet(K key, V value) {
        String k = encodeKey(key);
        byte[] v = encode(value);
        return view(wrote(k, call(() -> map.putAndGet(k, v))));
    }

    @Override
    public Versioned<V> remove(K key) {
        String k = encodeKey(key);
        return view(wrote(k, call(() -> map.remove(k))));
    }

    @Override
    public void clear() {
        call(() -> {
            map.clear();
            return null;
        });
        if (copy != null) {
            copy.drop();
        }
    }

    @Override
    public Set<K> keySet() {
        if (copy != null) {
            return copied().values().stream().map(Map.Entry::getKey)
                    .collect(Collectors.toCollection(LinkedHashSet::new));
        }
        List<String> keys = call(() -> List.copyOf(map.keySet()));
        return keys.stream().map(this::decodeKey).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Override
    public Collection<Versioned<V>> values() {
        // Not through entrySet(): a set of entries hashes every key and value only to drop the keys
        // (a third of the loop round's allocation at 1,000 chains), and the keys need no decoding.
        if (copy != null) {
            return copied().values().stream().map(Map.Entry::getValue).collect(Collectors.toList());
        }
        List<Map.Entry<String, io.atomix.utils.time.Versioned<byte[]>>> all =
                call(() -> List.copyOf(map.entrySet()));
        return all.stream().map(e -> view(e.getValue())).collect(Collectors.toList());
    }

    @Override
    public Set<Map.Entry<K, Versioned<V>>> entrySet() {
        if (copy != null) {
            return new LinkedHashSet<>(copied().values());
        }
        List<Map.Entry<String, io.atomix.utils.time.Versioned<byte[]>>> all =
                call(() -> List.copyOf(map.entrySet()));
        Set<Map.Entry<K, Versioned<V>>> out = new LinkedHashSet<>();
        for (Map.Entry<String, io.atomix.utils.time.Versioned<byte[]>> e : all) {
            out.add(new AbstractMap.SimpleImmutableEntry<>(decodeKey(e.getKey()), view(e.getValue())));
        }
        return out;
    }

    @Override
    public Versioned<V> putIfAbsent(K key, V value) {
        String k = encodeKey(key);
        byte[] v = encode(value);
        return view(wrote(k, call(() -> map.putIfAbsent(k, v))));
    }

    @Override
    public boolean remove(K key, V value) {
        String k = encodeKey(key);
        byte[] v = encode(value);
        return wroteIf(k, call(() -> map.remove(k, v)));
    }

    @Override
    public boolean remove(K key, long version) {
        String k = encodeKey(key);
        return wroteIf(k, call(() -> map.remove(k, version)));
    }

    @Override
    public Versioned<V> replace(K key, V value) {
        String k = encodeKey(key);
        byte[] v = encode(value);
        return view(wrote(k, call(() -> map.replace(k, v))));
    }

    @Override
    public boolean replace(K key, V oldValue, V newValue) {
        String k = encodeKey(key);
        byte[] o = encode(oldValue);
        byte[] n = encode(newValue);
        return wroteIf(k, call(() -> map.replace(k, o, n)));
    }

    @Override
    public boolean replace(K key, long oldVersion, V newValue) {
        String k = encodeKey(key);
        byte[] n = encode(newValue);
        return wroteIf(k, call(() -> map.replace(k, oldVersion, n)));
    }

    @Override
    public Iterator<Map.Entry<K, Versioned<V>>> iterator() {
        return entrySet().iterator();
    }

    @Override
    public void addListener(MapEventListener<K, V> listener, Executor executor) {
        AtomicMapEventListener<String, byte[]> adapter = e -> listener.event(event(e));
        if (listeners.putIfAbsent(listener, adapter) == null) {
            call(() -> {
                map.addListener(adapter, executor);
                return null;
            });
        }
    }

    private MapEvent<K, V> event(AtomicMapEvent<String, byte[]> e) {
        MapEvent.Type type = e.newValue() == null ? MapEvent.Type.REMOVE
                : e.oldValue() == null ? MapEvent.Type.INSERT : MapEvent.Type.UPDATE;
        return new MapEvent<>(type, name, decodeKey(e.key()), view(e.newValue()), view(e.oldValue()));
    }

    @Override
    public void removeListener(MapEventListener<K, V> listener) {
        AtomicMapEventListener<String, byte[]> adapter = listeners.remove(listener);
        if (adapter != null) {
            call(() -> {
                map.removeListener(adapter);
                return null;
            });
        }
    }

    @Override
    public Map<K, V> asJavaMap() {
        return new ConsistentMapBackedJavaMap<>(this);
    }
}
