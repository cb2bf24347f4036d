// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.ReplicaHealthRecord;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.store.LoopStateStore;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the failure detection ({@link ChainHealth}) remembers of each chain and replica, and how
 * that memory lives in the cluster's loop state store: read by a new leader, the changes of each
 * round written at its end, gone replicas and chains removed (docs/failures.md). Times are the
 * loop clock's nanoseconds here, wall-clock milliseconds in the store.
 */
final class HealthMemory {

    static final long NONE = Long.MIN_VALUE;

    private HealthMemory() {
    }

    static final class ChainMemo {
        /** Went DOWN or UP this round: the store's DOWN chains change at the end of the round. */
        boolean dirty;
        long lastClassified = -1;
        long lastTraffic = NONE;
        long lastReport = NONE;
        long silentSince = NONE;
        boolean down;
        long downSince = NONE;
        long stateSince = NONE;
        String lastHop = "";
        String reason = "";
        ChainState.Liveness liveness = ChainState.Liveness.UNKNOWN;
    }

    static final class ReplicaMemo {
        final VnfReplicaId id;
        /** What the store should have changed: written at the end of the round. */
        boolean dirty;
        long lastSid = -1;
        long lastSidMoved = NONE;
        long silentSince = NONE;
        boolean dead;
        long deadSince = NONE;
        boolean probation;
        /** INT has shown packets through it at least once. */
        boolean passedTraffic;
        String cause = "";
        final ArrayDeque<Long> deaths = new ArrayDeque<>();

        ReplicaMemo(VnfReplicaId id) {
            this.id = id;
        }
    }

    /**
     * Reads the last leader's memory of the replicas and DOWN chains into the maps (the store
     * decides over what this instance remembers of DOWN chains from an earlier turn).
     *
     * @return false if the store could not be read (nothing changed)
     */
    static boolean load(LoopStateStore store, Map<SfcId, ChainMemo> chains, Map<String, ReplicaMemo> replicas,
                        long now, long nowMillis) {
        Map<VnfReplicaId, ReplicaHealthRecord> records;
        Map<SfcId, ChainState> down;
        try {
            records = store.replicaHealth();
            down = store.downChains();
        } catch (RuntimeException e) {
            return false;
        }
        for (Map.Entry<VnfReplicaId, ReplicaHealthRecord> e : records.entrySet()) {
            ReplicaHealthRecord r = e.getValue();
            ReplicaMemo m = new ReplicaMemo(e.getKey());
            m.dead = r.dead();
            m.deadSince = r.dead() ? toNanos(r.deadSinceMillis(), now, nowMillis) : NONE;
            m.cause = r.cause();
            r.deathsMillis().forEach(t -> m.deaths.addLast(toNanos(t, now, nowMillis)));
            m.probation = r.probation();
            m.passedTraffic = r.passedTraffic();
            replicas.put(e.getKey().toString(), m);
        }
        // What this instance remembers from an earlier turn as leader may be stale: the store decides.
        chains.values().removeIf(m -> m.down);
        for (ChainState c : down.values()) {
            ChainMemo m = new ChainMemo();
            m.down = true;
            m.downSince = toNanos(c.sinceMillis(), now, nowMillis);
            m.stateSince = m.downSince;
            m.liveness = ChainState.Liveness.DOWN;
            m.lastHop = c.lastHopSeen();
            m.reason = c.reason();
            m.lastReport = c.lastReportMillis() == 0 ? NONE : toNanos(c.lastReportMillis(), now, nowMillis);
            chains.put(c.sfc(), m);
        }
        return true;
    }

    /**
     * Writes the replicas and chains whose memory changed this round and removes those that are gone.
     *
     * @return how many writes failed (their memory stays dirty: written at the next round)
     */
    static int write(LoopStateStore store, Map<SfcId, ChainMemo> chains, Map<String, ReplicaMemo> replicas,
                     List<VnfReplicaId> gone, List<SfcId> chainsGone, long now, long nowMillis) {
        int storeFailures = 0;
        for (SfcId c : chainsGone) {
            try {
                store.removeDownChain(c);
            } catch (RuntimeException e) {
                storeFailures++;  // a gone chain's record is never read for a chain again
            }
        }
        for (Map.Entry<SfcId, ChainMemo> e : chains.entrySet()) {
            ChainMemo m = e.getValue();
            if (!m.dirty) {
                continue;
            }
            try {
                if (m.down) {
                    store.putDownChain(new ChainState(e.getKey(), ChainState.Liveness.DOWN,
                                                      toMillis(m.downSince, now, nowMillis), m.lastHop, m.reason,
                                                      m.lastClassified, toMillis(m.lastReport, now, nowMillis),
                                                      List.of()));
                } else {
                    store.removeDownChain(e.getKey());
                }
                m.dirty = false;
            } catch (RuntimeException ex) {
                storeFailures++;  // dirty still: written at the next round
            }
        }
        for (VnfReplicaId id : gone) {
            try {
                store.removeReplicaHealth(id);
            } catch (RuntimeException e) {
                // A stale record of a gone replica is harmless: it is never read for a replica again.
                storeFailures++;
            }
        }
        // All at once: a first round over 1,000 new chains writes 4,000 of them.
        Map<VnfReplicaId, ReplicaMemo> dirty = new LinkedHashMap<>();
        Map<VnfReplicaId, ReplicaHealthRecord> records = new LinkedHashMap<>();
        for (ReplicaMemo m : replicas.values()) {
            if (!m.dirty) {
                continue;
            }
            List<Long> deaths = new ArrayList<>();
            m.deaths.forEach(t -> deaths.add(toMillis(t, now, nowMillis)));
            dirty.put(m.id, m);
            records.put(m.id, new ReplicaHealthRecord(m.dead, m.dead ? toMillis(m.deadSince, now, nowMillis) : 0,
                                                      m.cause, deaths, m.probation, m.passedTraffic));
        }
        if (!records.isEmpty()) {
            Set<VnfReplicaId> failed;
            try {
                failed = store.putReplicaHealthAll(records);
            } catch (RuntimeException e) {
                failed = records.keySet();
            }
            for (ReplicaMemo m : dirty.values()) {
                // a failed one stays dirty: written at the next round
                m.dirty = failed.contains(m.id);
            }
            storeFailures += failed.size();
        }
        return storeFailures;
    }

    static long toNanos(long tMillis, long now, long nowMillis) {
        return now - (nowMillis - tMillis) * 1_000_000;
    }

    static long toMillis(long t, long now, long nowMillis) {
        return t == NONE ? 0 : nowMillis - (now - t) / 1_000_000;
    }
}
