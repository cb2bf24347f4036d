package org.srv6int.testkit;

import org.onosproject.store.primitives.ConsistentMapBackedJavaMap;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapException;
import org.onosproject.store.service.DistributedPrimitive;
import org.onosproject.store.service.MapEvent;
import org.onosproject.store.service.MapEventListener;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.Versioned;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A consistent map held in memory, with the semantics of ONOS's Atomix-backed one: every
 * write gets a new, increasing version; conditional writes compare values or versions; null
 * values are refused; listeners hear INSERT/UPDATE/REMOVE on their executor after the write.
 * With a serializer, values are kept encoded and decoded on every read, as they cross the
 * wire in ONOS, so a type missing from the serializer fails here too (as
 * {@link ConsistentMapException}).
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class InMemoryConsistentMap<K, V> implements ConsistentMap<K, V> {

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryConsistentMap.class);

    private final String name;
    private final Serializer serializer;
    private final Map<K, Versioned<Object>> entries = new LinkedHashMap<>();
    private final Map<MapEventListener<K, V>, Executor> listeners = new java.util.concurrent.ConcurrentHashMap<>();
    private long version;

    /**
     * A map.
     *
     * @param name       primitive name
     * @param serializer value serializer, or null to keep values as given
     */
    public InMemoryConsistentMap(String name, Serializer serializer) {
        this.name = name;
        this.serializer = serializer;
    }

    private Object encode(V value) {
        Objects.requireNonNull(value, "null values are not allowed");
        if (serializer == null) {
            return value;
        }
        try {
            return serializer.encode(value);
        } catch (RuntimeException e) {
            throw new ConsistentMapException("map " + name + " cannot encode " + value.getClass().getName()
                                                     + ": " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private V decode(Object stored) {
        if (serializer == null) {
            return (V) stored;
        }
        try {
            return serializer.decode((byte[]) stored);
        } catch (RuntimeException e) {
            throw new ConsistentMapException("map " + name + " cannot decode a value: " + e.getMessage());
        }
    }

    private Versioned<V> view(Versioned<Object> v) {
        return v == null ? null : new Versioned<>(decode(v.value()), v.version(), v.creationTime());
    }

    // Writes (or removes, value null) under the lock; returns the event, null if nothing changed.
    private MapEvent<K, V> write(K key, V value) {
        Versioned<Object> old = entries.get(key);
        Versioned<V> oldView = view(old);
        if (value == null) {
            if (old == null) {
                return null;
            }
            entries.remove(key);
            return new MapEvent<>(MapEvent.Type.REMOVE, name, key, null, oldView);
        }
        Versioned<Object> next = new Versioned<>(encode(value), ++version, System.currentTimeMillis());
        entries.put(key, next);
        return new MapEvent<>(old == null ? MapEvent.Type.INSERT : MapEvent.Type.UPDATE, name, key, view(next),
                              oldView);
    }

    private void announce(MapEvent<K, V> e) {
        if (e == null) {
            return;
        }
        listeners.forEach((l, ex) -> ex.execute(() -> {
            try {
                l.event(e);
            } catch (RuntimeException t) {
                LOG.warn("Map {} listener failed on {}", name, e, t);
            }
        }));
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
    public synchronized int size() {
        return entries.size();
    }

    @Override
    public synchronized boolean isEmpty() {
        return entries.isEmpty();
    }

    @Override
    public synchronized boolean containsKey(K key) {
        return entries.containsKey(key);
    }

    @Override
    public synchronized boolean containsValue(V value) {
        return entries.values().stream().anyMatch(v -> Objects.equals(decode(v.value()), value));
    }

    @Override
    public synchronized Versioned<V> get(K key) {
        return view(entries.get(key));
    }

    @Override
    public synchronized Versioned<V> getOrDefault(K key, V defaultValue) {
        Versioned<V> v = get(key);
        return v != null ? v : new Versioned<>(defaultValue, 0);
    }

    @Override
    public Versioned<V> computeIf(K key, Predicate<? super V> condition,
                                  BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        MapEvent<K, V> e;
        Versioned<V> result;
        synchronized (this) {
            Versioned<V> cur = get(key);
            V curValue = cur == null ? null : cur.value();
            if (!condition.test(curValue)) {
                return cur;
            }
            V next = remappingFunction.apply(key, curValue);
            e = write(key, next);
            result = get(key);
        }
        announce(e);
        return result;
    }

    @Override
    public Versioned<V> computeIfAbsent(K key, Function<? super K, ? extends V> mappingFunction) {
        return computeIf(key, Objects::isNull, (k, v) -> mappingFunction.apply(k));
    }

    @Override
    public Versioned<V> computeIfPresent(K key, BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        return computeIf(key, Objects::nonNull, remappingFunction);
    }

    @Override
    public Versioned<V> compute(K key, BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        return computeIf(key, v -> true, remappingFunction);
    }

    @Override
    public Versioned<V> put(K key, V value) {
        MapEvent<K, V> e;
        synchronized (this) {
            e = write(key, Objects.requireNonNull(value, "null values are not allowed"));
        }
        announce(e);
        return e.oldValue();
    }

    @Override
    public Versioned<V> putAndGet(K key, V value) {
        MapEvent<K, V> e;
        synchronized (this) {
            e = write(key, Objects.requireNonNull(value, "null values are not allowed"));
        }
        announce(e);
        return e.newValue();
    }

    @Override
    public Versioned<V> remove(K key) {
        MapEvent<K, V> e;
        synchronized (this) {
            e = write(key, null);
        }
        announce(e);
        return e == null ? null : e.oldValue();
    }

    @Override
    public void clear() {
        List<MapEvent<K, V>> events = new ArrayList<>();
        synchronized (this) {
            for (K k : new ArrayList<>(entries.keySet())) {
                events.add(write(k, null));
            }
        }
        events.forEach(this::announce);
    }

    @Override
    public synchronized Set<K> keySet() {
        return new LinkedHashSet<>(entries.keySet());
    }

    @Override
    public synchronized Collection<Versioned<V>> values() {
        return entries.values().stream().map(this::view).collect(Collectors.toList());
    }

    @Override
    public synchronized Set<Map.Entry<K, Versioned<V>>> entrySet() {
        return entries.entrySet().stream()
                .map(e -> new AbstractMap.SimpleImmutableEntry<>(e.getKey(), view(e.getValue())))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Override
    public Versioned<V> putIfAbsent(K key, V value) {
        MapEvent<K, V> e = null;
        Versioned<V> cur;
        synchronized (this) {
            cur = get(key);
            if (cur == null) {
                e = write(key, Objects.requireNonNull(value, "null values are not allowed"));
            }
        }
        announce(e);
        return cur;
    }

    @Override
    public boolean remove(K key, V value) {
        MapEvent<K, V> e = null;
        synchronized (this) {
            Versioned<V> cur = get(key);
            if (cur != null && Objects.equals(cur.value(), value)) {
                e = write(key, null);
            }
        }
        announce(e);
        return e != null;
    }

    @Override
    public boolean remove(K key, long version) {
        MapEvent<K, V> e = null;
        synchronized (this) {
            Versioned<Object> cur = entries.get(key);
            if (cur != null && cur.version() == version) {
                e = write(key, null);
            }
        }
        announce(e);
        return e != null;
    }

    @Override
    public Versioned<V> replace(K key, V value) {
        MapEvent<K, V> e = null;
        Versioned<V> cur;
        synchronized (this) {
            cur = get(key);
            if (cur != null) {
                e = write(key, Objects.requireNonNull(value, "null values are not allowed"));
            }
        }
        announce(e);
        return cur;
    }

    @Override
    public boolean replace(K key, V oldValue, V newValue) {
        MapEvent<K, V> e = null;
        synchronized (this) {
            Versioned<V> cur = get(key);
            if (cur != null && Objects.equals(cur.value(), oldValue)) {
                e = write(key, Objects.requireNonNull(newValue, "null values are not allowed"));
            }
        }
        announce(e);
        return e != null;
    }

    @Override
    public boolean replace(K key, long oldVersion, V newValue) {
        MapEvent<K, V> e = null;
        synchronized (this) {
            Versioned<Object> cur = entries.get(key);
            if (cur != null && cur.version() == oldVersion) {
                e = write(key, Objects.requireNonNull(newValue, "null values are not allowed"));
            }
        }
        announce(e);
        return e != null;
    }

    @Override
    public Iterator<Map.Entry<K, Versioned<V>>> iterator() {
        return entrySet().iterator();
    }

    @Override
    public void addListener(MapEventListener<K, V> listener, Executor executor) {
        listeners.put(listener, executor);
    }

    @Override
    public void removeListener(MapEventListener<K, V> listener) {
        listeners.remove(listener);
    }

    @Override
    public Map<K, V> asJavaMap() {
        return new ConsistentMapBackedJavaMap<>(this);
    }
}
