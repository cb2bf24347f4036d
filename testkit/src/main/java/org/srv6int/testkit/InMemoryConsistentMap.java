// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.onosproject.store.primitives.ConsistentMapBackedJavaMap;
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
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A consistent map held in memory, with the semantics of ONOS's Atomix-backed one: every
 * write gets a new, increasing version; conditional writes compare values or versions; null
 * values are refused; listeners hear INSERT/UPDATE/REMOVE on their executor after the write.
 * With a serializer, keys and values are kept encoded and decoded on every read, as they cross
 * the wire in ONOS, so a type missing from the serializer fails here too (as
 * {@link ConsistentMapException}). Each {@link #InMemoryConsistentMap(Entries, Serializer) view}
 * brings its own serializer over entries shared by name: an app bundle that is uninstalled and
 * installed again reads what its previous incarnation wrote through its new classes, as it does
 * in ONOS, instead of getting objects of a class loader that is gone.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class InMemoryConsistentMap<K, V> extends ComputeIfConsistentMap<K, V> {

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryConsistentMap.class);

    /** The entries of one named map, shared by every view of it; guarded by itself. */
    public static final class Entries {
        private final String name;
        private final Map<Object, Versioned<Object>> entries = new LinkedHashMap<>();
        private final Map<MapEventListener<?, ?>, Registration<?, ?>> listeners =
                new ConcurrentHashMap<>();
        private long version;

        /**
         * Empty entries.
         *
         * @param name primitive name
         */
        public Entries(String name) {
            this.name = name;
        }
    }

    // A listener with the view (serializer) it was added through and its executor.
    private static final class Registration<K, V> {
        final InMemoryConsistentMap<K, V> view;
        final MapEventListener<K, V> listener;
        final Executor executor;

        Registration(InMemoryConsistentMap<K, V> view, MapEventListener<K, V> listener, Executor executor) {
            this.view = view;
            this.listener = listener;
            this.executor = executor;
        }

        void announce(Object key, Versioned<Object> before, Versioned<Object> after) {
            MapEvent<K, V> e;
            try {
                e = view.event(key, before, after);
            } catch (RuntimeException t) {
                LOG.warn("Map {}: a listener's view cannot decode an event: {}", view.name, t.getMessage());
                return;
            }
            executor.execute(() -> {
                try {
                    listener.event(e);
                } catch (RuntimeException t) {
                    LOG.warn("Map {} listener failed on {}", view.name, e, t);
                }
            });
        }
    }

    // Keys are stored as their encoding when there is a serializer; equal keys, equal bytes.
    private static final class EncodedKey {
        final byte[] bytes;

        EncodedKey(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof EncodedKey && Arrays.equals(bytes, ((EncodedKey) o).bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    private final String name;
    private final Serializer serializer;
    private final Entries shared;
    private final Map<Object, Versioned<Object>> entries;

    /**
     * A map of its own.
     *
     * @param name       primitive name
     * @param serializer key and value serializer, or null to keep them as given
     */
    public InMemoryConsistentMap(String name, Serializer serializer) {
        this(new Entries(name), serializer);
    }

    /**
     * A view of shared entries through this serializer.
     *
     * @param shared     the named map's entries
     * @param serializer key and value serializer, or null to keep them as given
     */
    public InMemoryConsistentMap(Entries shared, Serializer serializer) {
        this.name = shared.name;
        this.serializer = serializer;
        this.shared = shared;
        this.entries = shared.entries;
    }

    private Object encodeKey(K key) {
        Objects.requireNonNull(key, "null keys are not allowed");
        if (serializer == null) {
            return key;
        }
        try {
            return new EncodedKey(serializer.encode(key));
        } catch (RuntimeException e) {
            throw new ConsistentMapException("map " + name + " cannot encode key " + key.getClass().getName()
                                                     + ": " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private K decodeKey(Object stored) {
        if (serializer == null) {
            return (K) stored;
        }
        try {
            return serializer.decode(((EncodedKey) stored).bytes);
        } catch (RuntimeException e) {
            throw new ConsistentMapException("map " + name + " cannot decode a key: " + e.getMessage());
        }
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

    private MapEvent<K, V> event(Object key, Versioned<Object> before, Versioned<Object> after) {
        MapEvent.Type type = after == null ? MapEvent.Type.REMOVE
                : before == null ? MapEvent.Type.INSERT : MapEvent.Type.UPDATE;
        return new MapEvent<>(type, name, decodeKey(key), view(after), view(before));
    }

    // A write done under the lock, announced to every view's listeners after it.
    private static final class Change {
        final Object key;
        final Versioned<Object> before;
        final Versioned<Object> after;

        Change(Object key, Versioned<Object> before, Versioned<Object> after) {
            this.key = key;
            this.before = before;
            this.after = after;
        }
    }

    // Writes (or removes, value null) under the lock; returns the change, null if nothing changed.
    private Change write(K key, V value) {
        Object k = encodeKey(key);
        Versioned<Object> old = entries.get(k);
        if (value == null) {
            if (old == null) {
                return null;
            }
            entries.remove(k);
            return new Change(k, old, null);
        }
        Versioned<Object> next = new Versioned<>(encode(value), ++shared.version, System.currentTimeMillis());
        entries.put(k, next);
        return new Change(k, old, next);
    }

    private void announce(Change c) {
        if (c == null) {
            return;
        }
        shared.listeners.values().forEach(r -> r.announce(c.key, c.before, c.after));
    }

    // The caller's view of a change: what the old value was, what the new one is.
    private Versioned<V> before(Change c) {
        return c == null ? null : view(c.before);
    }

    private Versioned<V> after(Change c) {
        return c == null ? null : view(c.after);
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
        synchronized (shared) {
            return entries.size();
        }
    }

    @Override
    public boolean isEmpty() {
        synchronized (shared) {
            return entries.isEmpty();
        }
    }

    @Override
    public boolean containsKey(K key) {
        synchronized (shared) {
            return entries.containsKey(encodeKey(key));
        }
    }

    @Override
    public boolean containsValue(V value) {
        synchronized (shared) {
            return entries.values().stream().anyMatch(v -> Objects.equals(decode(v.value()), value));
        }
    }

    @Override
    public Versioned<V> get(K key) {
        synchronized (shared) {
            return view(entries.get(encodeKey(key)));
        }
    }

    @Override
    public Versioned<V> getOrDefault(K key, V defaultValue) {
        Versioned<V> v = get(key);
        return v != null ? v : new Versioned<>(defaultValue, 0);
    }

    @Override
    public Versioned<V> computeIf(K key, Predicate<? super V> condition,
                                  BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        Change c;
        Versioned<V> result;
        synchronized (shared) {
            Versioned<V> cur = get(key);
            V curValue = cur == null ? null : cur.value();
            if (!condition.test(curValue)) {
                return cur;
            }
            V next = remappingFunction.apply(key, curValue);
            c = write(key, next);
            result = get(key);
        }
        announce(c);
        return result;
    }

    @Override
    public Versioned<V> put(K key, V value) {
        Change c;
        synchronized (shared) {
            c = write(key, Objects.requireNonNull(value, "null values are not allowed"));
        }
        announce(c);
        return before(c);
    }

    @Override
    public Versioned<V> putAndGet(K key, V value) {
        Change c;
        synchronized (shared) {
            c = write(key, Objects.requireNonNull(value, "null values are not allowed"));
        }
        announce(c);
        return after(c);
    }

    @Override
    public Versioned<V> remove(K key) {
        Change c;
        synchronized (shared) {
            c = write(key, null);
        }
        announce(c);
        return before(c);
    }

    @Override
    public void clear() {
        List<Change> changes = new ArrayList<>();
        synchronized (shared) {
            for (Object k : new ArrayList<>(entries.keySet())) {
                changes.add(new Change(k, entries.remove(k), null));
            }
        }
        changes.forEach(this::announce);
    }

    @Override
    public Set<K> keySet() {
        synchronized (shared) {
            return entries.keySet().stream().map(this::decodeKey).collect(Collectors.toCollection(LinkedHashSet::new));
        }
    }

    @Override
    public Collection<Versioned<V>> values() {
        synchronized (shared) {
            return entries.values().stream().map(this::view).collect(Collectors.toList());
        }
    }

    @Override
    public Set<Map.Entry<K, Versioned<V>>> entrySet() {
        synchronized (shared) {
            return entries.entrySet().stream()
                    .map(e -> new AbstractMap.SimpleImmutableEntry<>(decodeKey(e.getKey()), view(e.getValue())))
                    .collect(Collectors.toCollection(LinkedHashSet::new));
        }
    }

    @Override
    public Versioned<V> putIfAbsent(K key, V value) {
        Change c = null;
        Versioned<V> cur;
        synchronized (shared) {
            cur = get(key);
            if (cur == null) {
                c = write(key, Objects.requireNonNull(value, "null values are not allowed"));
            }
        }
        announce(c);
        return cur;
    }

    @Override
    public boolean remove(K key, V value) {
        Change c = null;
        synchronized (shared) {
            Versioned<V> cur = get(key);
            if (cur != null && Objects.equals(cur.value(), value)) {
                c = write(key, null);
            }
        }
        announce(c);
        return c != null;
    }

    @Override
    public boolean remove(K key, long version) {
        Change c = null;
        synchronized (shared) {
            Versioned<Object> cur = entries.get(encodeKey(key));
            if (cur != null && cur.version() == version) {
                c = write(key, null);
            }
        }
        announce(c);
        return c != null;
    }

    @Override
    public Versioned<V> replace(K key, V value) {
        Change c = null;
        Versioned<V> cur;
        synchronized (shared) {
            cur = get(key);
            if (cur != null) {
                c = write(key, Objects.requireNonNull(value, "null values are not allowed"));
            }
        }
        announce(c);
        return cur;
    }

    @Override
    public boolean replace(K key, V oldValue, V newValue) {
        Change c = null;
        synchronized (shared) {
            Versioned<V> cur = get(key);
            if (cur != null && Objects.equals(cur.value(), oldValue)) {
                c = write(key, Objects.requireNonNull(newValue, "null values are not allowed"));
            }
        }
        announce(c);
        return c != null;
    }

    @Override
    public boolean replace(K key, long oldVersion, V newValue) {
        Change c = null;
        synchronized (shared) {
            Versioned<Object> cur = entries.get(encodeKey(key));
            if (cur != null && cur.version() == oldVersion) {
                c = write(key, Objects.requireNonNull(newValue, "null values are not allowed"));
            }
        }
        announce(c);
        return c != null;
    }

    @Override
    public Iterator<Map.Entry<K, Versioned<V>>> iterator() {
        return entrySet().iterator();
    }

    @Override
    public void addListener(MapEventListener<K, V> listener, Executor executor) {
        shared.listeners.put(listener, new Registration<>(this, listener, executor));
    }

    @Override
    public void removeListener(MapEventListener<K, V> listener) {
        shared.listeners.remove(listener);
    }

    @Override
    public Map<K, V> asJavaMap() {
        return new ConsistentMapBackedJavaMap<>(this);
    }
}
