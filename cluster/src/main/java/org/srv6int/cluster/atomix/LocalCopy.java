// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.core.map.AtomicMapEvent;
import io.atomix.primitive.PrimitiveState;
import org.onosproject.store.service.Versioned;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A member's listener-fed copy of a whole consistent map (issue 33 item 4: the loop reads the chain
 * and replica maps in full every round). Filled by one read through Raft, then kept current by the
 * map's change events, which Atomix's session delivers in log order, but not always before the
 * answer to the write that caused them: so a member's own write also puts the key's value read
 * through Raft after it into the copy (it reads its own writes). An event or write applies only if
 * its version (the Raft index) is newer than the copy's, so events queued while the fill ran cannot
 * roll it back. A <em>suspended</em> session (one partition's Raft leader unreachable: the partition
 * elects a new one, and Atomix's client waits out a 5 s request timeout per server it tries) keeps
 * the copy while this member still reaches a majority of the members: a live Raft session keeps
 * every event until the client acknowledges it and sends it again to the reconnected client, in
 * order, so the copy only lags, and the loop's rounds on the leader do not wait on one
 * partition's re-election (docs/cluster.md section 4). A suspended member that reaches no majority
 * (it is the one cut off) drops the copy and reads through Raft, failing while it is unreachable.
 * The copy is also dropped when the session comes back CONNECTED after a suspension (Atomix
 * reports an expired session that it recovered as SUSPENDED then CONNECTED: its events in between
 * are lost), when it expires or closes, and on a lost compare-and-set; the next read refills it.
 * Writes never touch it: they go through Raft with their version checks, so a read from a stale
 * copy can only fail a compare-and-set, never lose an update.
 *
 * @param <K> key type
 * @param <V> value type
 */
final class LocalCopy<K, V> {

    private final Function<String, K> decodeKey;
    private final Function<io.atomix.utils.time.Versioned<byte[]>, Versioned<V>> decode;
    private final Object lock = new Object();
    private final Object fillLock = new Object();
    /** Encoded key -> (key, value); null while there is no valid copy. Written under lock. */
    private volatile Map<String, Map.Entry<K, Versioned<V>>> entries;
    /** Events that came while a fill was reading; null when no fill runs. Guarded by lock. */
    private List<AtomicMapEvent<String, byte[]>> pending;
    /** Bumped by every drop; a fill that saw another generation does not install. Guarded by lock. */
    private long generation;
    /** The map's session state as Atomix last reported it. */
    private volatile PrimitiveState state = PrimitiveState.CONNECTED;
    /** Whether this member reaches a majority of the members (its failure detector). */
    private final BooleanSupplier majority;
    private long fills;
    /** Reads served from the copy while the session was suspended. Guarded by lock. */
    private long suspendedReads;

    LocalCopy(Function<String, K> decodeKey,
              Function<io.atomix.utils.time.Versioned<byte[]>, Versioned<V>> decode,
              BooleanSupplier majority) {
        this.decodeKey = decodeKey;
        this.decode = decode;
        this.majority = majority;
    }

    /** The map's change event (the listener runs on Atomix's event thread, in log order). */
    void event(AtomicMapEvent<String, byte[]> e) {
        synchronized (lock) {
            if (entries != null) {
                apply(entries, e);
            } else if (pending != null) {
                pending.add(e);
            }
        }
    }

    /**
     * The session's state: SUSPENDED keeps the copy (served while this member reaches a majority);
     * CONNECTED after anything else, EXPIRED and CLOSED drop it.
     */
    void state(PrimitiveState now) {
        synchronized (lock) {
            PrimitiveState before = state;
            state = now;
            boolean keep = now == PrimitiveState.SUSPENDED
                    || now == PrimitiveState.CONNECTED && before == PrimitiveState.CONNECTED;
            if (!keep) {
                drop();
            }
        }
    }

    /** Drops the copy; the next read refills it from Raft. */
    void drop() {
        synchronized (lock) {
            entries = null;
            pending = null;
            generation++;
        }
    }

    /** How many times the copy was filled from Raft (tests and the bench). */
    long fills() {
        synchronized (lock) {
            return fills;
        }
    }

    /** How many reads the copy served while the session was suspended (tests, the member's log). */
    long suspendedReads() {
        synchronized (lock) {
            return suspendedReads;
        }
    }

    /**
     * A write of this member's went through: its event may come after the write's answer, so the
     * key's value read through Raft after the write goes in now (if newer); an absent key drops
     * the copy (an insert from elsewhere may already be in it).
     *
     * @param key   encoded key
     * @param value the key's value read through Raft after the write, or null
     */
    void wrote(String key, io.atomix.utils.time.Versioned<byte[]> value) {
        synchronized (lock) {
            if (entries == null) {
                return;
            }
            Map.Entry<K, Versioned<V>> cur = entries.get(key);
            if (value == null) {
                if (cur != null) {
                    drop();
                }
            } else if (cur == null || cur.getValue().version() < value.version()) {
                entries.put(key, new AbstractMap.SimpleImmutableEntry<>(decodeKey.apply(key), decode.apply(value)));
            }
        }
    }

    private void apply(Map<String, Map.Entry<K, Versioned<V>>> into, AtomicMapEvent<String, byte[]> e) {
        Map.Entry<K, Versioned<V>> cur = into.get(e.key());
        if (e.newValue() != null) {
            if (cur == null || cur.getValue().version() < e.newValue().version()) {
                into.put(e.key(), new AbstractMap.SimpleImmutableEntry<>(decodeKey.apply(e.key()),
                                                                         decode.apply(e.newValue())));
            }
        } else if (e.oldValue() != null && cur != null && cur.getValue().version() <= e.oldValue().version()) {
            into.remove(e.key());
        }
    }

    /**
     * The whole map: the copy, filled first if there is none; through Raft alone (not kept) while
     * the session is not connected or a drop came during the fill. While the session is suspended
     * an existing copy is served if this member reaches a majority, else dropped.
     *
     * @param readAll a full read through Raft
     * @return encoded key -> entry: the live copy (events change it; iterate it weakly consistent
     *         and copy what you keep) or a one-off read
     */
    Map<String, Map.Entry<K, Versioned<V>>> all(
            Supplier<List<Map.Entry<String, io.atomix.utils.time.Versioned<byte[]>>>> readAll) {
        PrimitiveState now = state;
        if (now == PrimitiveState.SUSPENDED) {
            // one partition re-elects: the copy lags at most by that partition's events, which its
            // session delivers on reconnect; a member cut off from the majority must not serve it
            boolean served = majority.getAsBoolean();
            synchronized (lock) {
                if (entries != null && served && state == PrimitiveState.SUSPENDED) {
                    suspendedReads++;
                    return entries;
                }
            }
            if (!served) {
                drop();
            }
            return decodeAll(readAll.get());
        }
        synchronized (lock) {
            if (entries != null) {
                return entries;
            }
        }
        if (now != PrimitiveState.CONNECTED) {
            return decodeAll(readAll.get());
        }
        synchronized (fillLock) {
            long gen;
            synchronized (lock) {
                if (entries != null) {
                    return entries;
                }
                pending = new ArrayList<>();
                gen = generation;
            }
            Map<String, Map.Entry<K, Versioned<V>>> read;
            try {
                read = decodeAll(readAll.get());
            } catch (RuntimeException e) {
                synchronized (lock) {
                    pending = null;
                }
                throw e;
            }
            synchronized (lock) {
                if (generation == gen && pending != null && state == PrimitiveState.CONNECTED) {
                    for (AtomicMapEvent<String, byte[]> e : pending) {
                        apply(read, e);
                    }
                    entries = read;
                    fills++;
                }
                pending = null;
                return read;
            }
        }
    }

    private Map<String, Map.Entry<K, Versioned<V>>> decodeAll(
            List<Map.Entry<String, io.atomix.utils.time.Versioned<byte[]>>> all) {
        Map<String, Map.Entry<K, Versioned<V>>> out = new ConcurrentHashMap<>();
        for (Map.Entry<String, io.atomix.utils.time.Versioned<byte[]>> e : all) {
            out.put(e.getKey(), new AbstractMap.SimpleImmutableEntry<>(decodeKey.apply(e.getKey()),
                                                                       decode.apply(e.getValue())));
        }
        return out;
    }
}
