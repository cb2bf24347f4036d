// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplicaId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Failure detection of chains and replicas (docs/failures.md), plain Java on the loop's clock:
 * fed once per telemetry window with what the switches' counters and the INT reports show of
 * every chain, it says which chains went down or came back and which replicas died or may
 * return. It decides nothing about scaling; {@link GlobalLoop} carries out what it finds.
 *
 * <p>A chain is DOWN when its ingress classifier's packet counter moved while no INT report of
 * the chain arrived for {@code silence} (the counter counts as moving for two silences after its
 * last step, as ONOS may poll flow statistics less often than windows close), or at once when no segment list is left
 * for it while it
 * had traffic; the last hop seen is the furthest hop (ingress, then each vNF's replica SID entries
 * on their switches) whose counter moved during the silence. It is UP again when reports arrive.
 *
 * <p>A replica is dead when the platform says its pod is gone or not Ready, when its switch port
 * is down, or when for {@code replicaSilence} no INT report counted packets through it while
 * reports of its chain arrived (through its other replicas; a chain silent as a whole is down, and
 * says nothing about one replica). A dead replica may return (pod Ready, port up) only after a hold
 * that doubles with each death within the last ten holds (at most 16 times); it is then on
 * probation until INT shows packets through it; every return followed by another death is a flap.
 * A parked reservation (PENDING weight 0: a create's, left by one that failed) returns only on a pod
 * the platform lists Ready, never on unknown readiness.
 *
 * <p>With a {@link LoopStateStore} ({@link #remember}), what it knows of each replica (dead, since
 * when and why, recent deaths, probation, whether it ever passed traffic) is written there when it
 * changes and read back by the next leader, so holds, flap counts and "never passed traffic" go on
 * across a leader change; so is a DOWN chain (since when, reason, last hop seen), which stays DOWN
 * on the new leader until its reports arrive. Silences start afresh on a new leader.
 */
public final class ChainHealth {

    private static final long NONE = Long.MIN_VALUE;
    private static final int MAX_HOLD_SHIFT = 4;
    private static final int FLAP_MEMORY_HOLDS = 10;

    /** What one window shows of one replica. */
    public static final class ReplicaSeen {
        final VnfKey vnf;
        final String id;
        final String where;
        final boolean inGroup;
        final boolean parked;
        final boolean creating;
        final long intPackets;
        final OptionalLong sidPackets;
        final Boolean podReady;
        final boolean portUp;
        final boolean draining;
        final boolean reservation;
        // The health memory's key, read several times a round.
        private final String key;

        /**
         * Creates the view of one replica.
         *
         * @param vnf        its vNF
         * @param id         replica name
         * @param where      where it hangs off ("device/port"), for messages
         * @param inGroup    whether it is in the multipath group (ACTIVE, weight &gt; 0)
         * @param parked     whether it is out of the group as a dead replica (DEAD, or PENDING weight 0 as
         *                   an earlier version stored a dead one)
         * @param creating   whether a create of its vNF is in flight and the replica may be the one
         *                   reserved for it (PENDING; never for a DEAD one)
         * @param intPackets packets the window's INT reports counted through it
         * @param sidPackets its my_sid entry's packet counter on its switch, empty if unreadable
         * @param podReady   the platform's readiness: true, false (gone or not Ready), null if unknown
         * @param portUp     whether its switch port is up
         */
        public ReplicaSeen(VnfKey vnf, String id, String where, boolean inGroup, boolean parked,
                           boolean creating, long intPackets, OptionalLong sidPackets, Boolean podReady,
                                   boolean portUp) {
            this(vnf, id, where, inGroup, parked, creating, intPackets, sidPackets, podReady, portUp, false);
        }

        /**
         * Creates the view of one replica that may be draining for a scale-in.
         *
         * @param vnf        its vNF
         * @param id         replica name
         * @param where      where it hangs off ("device/port"), for messages
         * @param inGroup    whether it is in the multipath group (ACTIVE, weight &gt; 0)
         * @param parked     whether it is out of the group as a dead replica (DEAD, or PENDING weight 0 as
         *                   an earlier version stored a dead one)
         * @param creating   whether a create of its vNF is in flight
         * @param intPackets packets the window's INT reports counted through it
         * @param sidPackets its my_sid entry's packet counter on its switch, empty if unreadable
         * @param podReady   the platform's readiness: true, false (gone or not Ready), null if unknown
         * @param portUp     whether its switch port is up
         * @param draining   whether it is draining (DRAINING, its workload not being deleted): its
         *                   buckets keep their flows while it lives, so its death is judged (on pod
         *                   and port facts only) and never replaced
         */
        public ReplicaSeen(VnfKey vnf, String id, String where, boolean inGroup, boolean parked,
                           boolean creating, long intPackets, OptionalLong sidPackets, Boolean podReady, boolean portUp,
                           boolean draining) {
            this(vnf, id, where, inGroup, parked, creating, intPackets, sidPackets, podReady, portUp, draining, false);
        }

        /**
         * Creates the view of one replica, telling whether a parked one is stored as a reservation.
         *
         * @param vnf         its vNF
         * @param id          replica name
         * @param where       where it hangs off ("device/port"), for messages
         * @param inGroup     whether it is in the multipath group (ACTIVE, weight &gt; 0)
         * @param parked      whether it is out of the group as a dead replica
         * @param creating    whether a create of its vNF is in flight
         * @param intPackets  packets the window's INT reports counted through it
         * @param sidPackets  its my_sid entry's packet counter on its switch, empty if unreadable
         * @param podReady    the platform's readiness: true, false (gone or not Ready), null if unknown
         * @param portUp      whether its switch port is up
         * @param draining    whether it is draining (see the constructor above)
         * @param reservation whether it is stored PENDING weight 0, as a create's reservation is: parked,
         *                    it returns only on a pod the platform lists Ready (a failed create's pod may
         *                    never be; unknown readiness is not enough)
         */
        public ReplicaSeen(VnfKey vnf, String id, String where, boolean inGroup, boolean parked,
                           boolean creating, long intPackets, OptionalLong sidPackets, Boolean podReady, boolean portUp,
                           boolean draining, boolean reservation) {
            this.reservation = reservation;
            this.draining = draining;
            this.vnf = Objects.requireNonNull(vnf);
            this.id = Objects.requireNonNull(id);
            this.where = where;
            this.inGroup = inGroup;
            this.parked = parked;
            this.creating = creating;
            this.intPackets = intPackets;
            this.sidPackets = sidPackets;
            this.podReady = podReady;
            this.portUp = portUp;
            this.key = vnf + "/" + id;
        }

        String key() {
            return key;
        }
    }

    /** What one window shows of one chain. */
    public static final class ChainSeen {
        final SfcId sfc;
        final String ingress;
        final int vnfs;
        final OptionalLong classifiedPackets;
        final long reports;
        final int segmentLists;
        final String noListReason;
        final List<ReplicaSeen> replicas;

        /**
         * Creates the view of one chain.
         *
         * @param sfc               chain
         * @param ingress           its ingress switch, for messages
         * @param vnfs              number of vNFs
         * @param classifiedPackets its ingress classifier entry's packet counter, empty if unreadable
         * @param reports           INT reports of the chain in the window
         * @param segmentLists      segment lists the chain has now
         * @param noListReason      why it has none (when segmentLists is 0), for messages
         * @param replicas          its replicas
         */
        public ChainSeen(SfcId sfc, String ingress, int vnfs, OptionalLong classifiedPackets, long reports,
                         int segmentLists, String noListReason, List<ReplicaSeen> replicas) {
            this.sfc = Objects.requireNonNull(sfc);
            this.ingress = ingress;
            this.vnfs = vnfs;
            this.classifiedPackets = classifiedPackets;
            this.reports = reports;
            this.segmentLists = segmentLists;
            this.noListReason = noListReason == null ? "" : noListReason;
            this.replicas = List.copyOf(replicas);
        }
    }

    /** What the detection found; {@link GlobalLoop} records and carries it out. */
    public static final class Finding {
        /** Kinds of findings. */
        public enum Kind {
            /** The chain is down. */
            CHAIN_DOWN,
            /** The chain's reports are back. */
            CHAIN_UP,
            /** A replica died. */
            REPLICA_DEAD,
            /** A dead replica may return (on probation). */
            REPLICA_RETURNED
        }

        final Kind kind;
        final SfcId sfc;
        final VnfKey vnf;
        final String replica;
        final String detail;
        final int liveLeft;
        final boolean replace;

        Finding(Kind kind, SfcId sfc, VnfKey vnf, String replica, String detail, int liveLeft) {
            this(kind, sfc, vnf, replica, detail, liveLeft, true);
        }

        Finding(Kind kind, SfcId sfc, VnfKey vnf, String replica, String detail, int liveLeft, boolean replace) {
            this.replace = replace;
            this.kind = kind;
            this.sfc = sfc;
            this.vnf = vnf;
            this.replica = replica;
            this.detail = detail;
            this.liveLeft = liveLeft;
        }

        /** @return kind */
        public Kind kind() {
            return kind;
        }

        /** @return the vNF concerned (for a chain: the first vNF past the last hop seen) */
        public VnfKey vnf() {
            return vnf;
        }

        /** @return replica name, null for a chain finding */
        public String replica() {
            return replica;
        }

        /** @return what was seen */
        public String detail() {
            return detail;
        }

        /** @return replicas of the vNF still live after a death */
        public int liveLeft() {
            return liveLeft;
        }

        /**
         * Whether a dead replica gets a replacement: not when INT silence killed a replica that
         * never passed traffic (whatever keeps traffic from a new replica would keep it from its
         * replacement too, and replacing would repeat until the cluster is full).
         *
         * @return true to request a replacement
         */
        public boolean replace() {
            return replace;
        }

        @Override
        public String toString() {
            return kind + " " + (replica == null ? vnf : vnf + "/" + replica) + ": " + detail;
        }
    }

    private static final String INT_SILENCE = "no INT report crossed it for ";

    private final LoopClock clock;
    private volatile long silenceNanos;
    private volatile long replicaSilenceNanos;
    private volatile long returnHoldNanos;
    private final Map<SfcId, HealthMemory.ChainMemo> chains = new HashMap<>();
    private final Map<String, HealthMemory.ReplicaMemo> replicas = new HashMap<>();
    private long chainDowns;
    private long replicaDeaths;
    private long replicaReturns;
    private long flaps;
    private LoopStateStore store;
    private boolean loaded;
    // cleared without the lock when this instance stops leading: a round blocked on the store
    // (holding the lock) writes nothing once it resumes
    private volatile boolean writing = true;
    private long storeFailures;

    /**
     * Creates the detection.
     *
     * @param clock               the loop's clock
     * @param silenceNanos        chain silence, &gt; 0
     * @param replicaSilenceNanos replica silence, 0 = INT silence does not kill replicas
     * @param returnHoldNanos     base hold before a dead replica may return
     */
    public ChainHealth(LoopClock clock, long silenceNanos, long replicaSilenceNanos, long returnHoldNanos) {
        this.clock = Objects.requireNonNull(clock);
        setParams(silenceNanos, replicaSilenceNanos, returnHoldNanos);
    }

    /**
     * Changes the parameters (netcfg); state is kept.
     *
     * @param silenceNanos        chain silence, &gt; 0
     * @param replicaSilenceNanos replica silence, 0 = off
     * @param returnHoldNanos     base return hold, &ge; 0
     */
    public synchronized void setParams(long silenceNanos, long replicaSilenceNanos, long returnHoldNanos) {
        if (silenceNanos <= 0 || replicaSilenceNanos < 0 || returnHoldNanos < 0) {
            throw new IllegalArgumentException("silence must be > 0, replica silence and hold >= 0");
        }
        this.silenceNanos = silenceNanos;
        this.replicaSilenceNanos = replicaSilenceNanos;
        this.returnHoldNanos = returnHoldNanos;
    }

    /**
     * Looks at one window of every chain. Chains and replicas absent from the list are forgotten.
     *
     * @param seen      every chain
     * @param eventOnly true between windows (a link or port event): counters and reports are not
     *                  new, only port, platform and segment-list facts are judged
     * @return findings, chains in the given order, replica deaths before chain changes
     */
    public synchronized List<Finding> observe(List<ChainSeen> seen, boolean eventOnly) {
        long now = clock.nanoTime();
        if (store != null && !loaded) {
            loaded = HealthMemory.load(store, chains, replicas, now, clock.currentTimeMillis());
            storeFailures += loaded ? 0 : 1;
        }
        List<Finding> out = new ArrayList<>();
        Set<SfcId> liveChains = new HashSet<>();
        Set<String> liveReplicas = new HashSet<>();
        for (ChainSeen c : seen) {
            liveChains.add(c.sfc);
            HealthMemory.ChainMemo m = chains.computeIfAbsent(c.sfc, k -> new HealthMemory.ChainMemo());
            boolean entered = false;
            if (eventOnly) {
                // nothing new from the counters or the collector
            } else if (c.classifiedPackets.isPresent()) {
                long v = c.classifiedPackets.getAsLong();
                // A counter that went back (entry re-installed) is a new baseline, not traffic.
                entered = m.lastClassified >= 0 && v > m.lastClassified;
                m.lastClassified = v;
            } else {
                m.lastClassified = -1;
            }
            if (entered) {
                m.lastTraffic = now;
            }
            long reports = eventOnly ? 0 : c.reports;
            if (reports > 0) {
                m.lastReport = now;
            }
            // Within two silences: ONOS reads the switches' counters with the flow statistics, which
            // may be polled less often than windows close.
            boolean carries = m.lastTraffic != NONE && now - m.lastTraffic < 2 * silenceNanos;
            for (ReplicaSeen r : c.replicas) {
                liveReplicas.add(r.key());
                // A replica is judged by INT only while reports of its chain arrive through others:
                // a chain silent as a whole says nothing about one replica (it is down instead).
                replica(c, r, now, reports > 0, m.down, eventOnly, out);
            }
            chain(c, m, now, reports, entered, carries, eventOnly, out);
        }
        List<SfcId> chainsGone = new ArrayList<>(chains.keySet());
        chainsGone.removeAll(liveChains);
        chains.keySet().retainAll(liveChains);
        List<VnfReplicaId> gone = new ArrayList<>();
        replicas.forEach((k, m) -> {
            if (!liveReplicas.contains(k)) {
                gone.add(m.id);
            }
        });
        replicas.keySet().retainAll(liveReplicas);
        if (store != null && loaded && writing) {
            storeFailures += HealthMemory.write(store, chains, replicas, gone, chainsGone, now,
                                                clock.currentTimeMillis());
        }
        return out;
    }

    /**
     * Keeps what this detection knows of replicas in the cluster's loop state store, and reads
     * what is there at the next round (call on becoming the leader).
     *
     * @param s the store, null to keep it in memory only
     */
    public synchronized void remember(LoopStateStore s) {
        store = s;
        loaded = false;
    }

    /** Reads the store again at the next round (another leader may have written since), and writes again. */
    public synchronized void reload() {
        loaded = false;
        writing = true;
    }

    /** Writes nothing more to the store until {@link #reload}: this instance no longer leads (not locked). */
    public void stopWriting() {
        writing = false;
    }

    /**
     * Returns how often the store could not be read or written (each retried at the next round).
     *
     * @return failures since start
     */
    public synchronized long storeFailures() {
        return storeFailures;
    }

    private void replica(ChainSeen c, ReplicaSeen r, long now, boolean chainReports, boolean chainDown,
                         boolean eventOnly, List<Finding> out) {
        HealthMemory.ReplicaMemo m = replicas.get(r.key());
        if (m == null && r.parked && r.creating) {
            // PENDING weight 0 is also how the platform reserves a replica for a create in flight:
            // not judged (no memory) until no create of its vNF is in flight.
            return;
        }
        if (m == null) {
            m = new HealthMemory.ReplicaMemo(VnfReplicaId.of(r.vnf, r.id));
            replicas.put(r.key(), m);
            if (r.parked) {
                // Parked by an earlier leader that left no record: dead until it may return, like any other.
                m.dirty = true;
                m.dead = true;
                m.deadSince = now;
                m.cause = "out of the group (DEAD, or PENDING weight 0) when this loop started";
                m.deaths.addLast(now);
            }
        }
        if (r.sidPackets.isPresent() && !eventOnly) {
            long v = r.sidPackets.getAsLong();
            if (m.lastSid >= 0 && v > m.lastSid) {
                m.lastSidMoved = now;
            }
            m.lastSid = v;
        }
        if (r.intPackets > 0 && !eventOnly) {
            m.dirty |= m.probation || !m.passedTraffic;
            m.silentSince = NONE;
            m.probation = false;
            m.passedTraffic = true;
        }
        if (!m.dead && !r.inGroup && !r.draining) {
            // Pending creation, or its workload being deleted: not ours to judge.
            m.silentSince = NONE;
            return;
        }
        if (!m.dead) {
            String cause = null;
            if (Boolean.FALSE.equals(r.podReady)) {
                cause = "pod gone or not Ready (platform)";
            } else if (!r.portUp) {
                cause = "switch port " + r.where + " down";
            } else if (eventOnly || r.draining) {
                // INT silence is judged on windows only, and not for a draining replica (it gets ever less)
                m.silentSince = r.draining ? NONE : m.silentSince;
            } else if (chainDown || replicaSilenceNanos == 0) {
                m.silentSince = NONE;
            } else if (r.intPackets == 0) {
                if (m.silentSince == NONE) {
                    m.silentSince = now;
                } else if (chainReports && now - m.silentSince >= replicaSilenceNanos) {
                    cause = INT_SILENCE + (now - m.silentSince) / 1_000_000
                            + " ms while its chain's reports arrived" + (m.probation ? " (on probation)" : "");
                }
            }
            if (cause != null) {
                if (m.probation) {
                    flaps++;
                }
                m.dirty = true;
                m.dead = true;
                m.deadSince = now;
                m.cause = cause;
                m.probation = false;
                m.silentSince = NONE;
                m.deaths.addLast(now);
                replicaDeaths++;
                int live = 0;
                for (ReplicaSeen o : c.replicas) {
                    HealthMemory.ReplicaMemo om = replicas.get(o.key());
                    if (o.vnf.equals(r.vnf) && o.inGroup && !o.id.equals(r.id) && (om == null || !om.dead)) {
                        live++;
                    }
                }
                // a draining replica was on its way out: nothing to replace
                boolean replace = !r.draining && (m.passedTraffic || !cause.startsWith(INT_SILENCE));
                String detail = r.id + " at " + r.where + ": " + cause
                        + (live == 0 && !r.draining ? "; it was the last live replica of vNF " + r.vnf.index() : "")
                        + (replace || r.draining ? "" : "; it never passed traffic: not replaced");
                out.add(new Finding(Finding.Kind.REPLICA_DEAD, c.sfc, r.vnf, r.id, detail, live, replace));
            }
            return;
        }
        // Dead: may it return?
        while (!m.deaths.isEmpty() && now - m.deaths.peekFirst() > FLAP_MEMORY_HOLDS * Math.max(1, returnHoldNanos)) {
            m.deaths.removeFirst();
        }
        int shift = Math.min(MAX_HOLD_SHIFT, Math.max(0, m.deaths.size() - 1));
        long hold = returnHoldNanos << shift;
        // A reservation comes back only on a Ready pod: unknown readiness would steer to a pod never made Ready.
        boolean healthy = (r.reservation ? Boolean.TRUE.equals(r.podReady) : !Boolean.FALSE.equals(r.podReady))
                && r.portUp;
        if (healthy && now - m.deadSince >= hold) {
            m.dirty = true;
            m.dead = false;
            m.probation = true;
            m.silentSince = NONE;
            replicaReturns++;
            String detail = r.id + " at " + r.where + ": " + (Boolean.TRUE.equals(r.podReady) ? "pod Ready" : "")
                    + (Boolean.TRUE.equals(r.podReady) ? ", " : "") + "port up, after a hold of " + hold / 1_000_000
                    + " ms (" + m.deaths.size() + " death(s) recently; was: " + m.cause + "); on probation "
                    + "until INT shows traffic through it";
            out.add(new Finding(Finding.Kind.REPLICA_RETURNED, c.sfc, r.vnf, r.id, detail, 0));
        }
    }

    private void chain(ChainSeen c, HealthMemory.ChainMemo m, long now, long reports, boolean entered, boolean carries,
                       boolean eventOnly, List<Finding> out) {
        if (c.vnfs == 0) {
            if (!eventOnly) {
                m.liveness = reports > 0 ? ChainState.Liveness.UP : ChainState.Liveness.UNKNOWN;
            }
            return;
        }
        if (reports > 0) {
            m.silentSince = NONE;
            if (m.down) {
                m.down = false;
                m.dirty = true;
                out.add(new Finding(Finding.Kind.CHAIN_UP, c.sfc, VnfKey.of(c.sfc, 0), null,
                                    "INT reports arrive again after " + (now - m.downSince) / 1_000_000
                                            + " ms down", 0));
            }
            setLiveness(m, ChainState.Liveness.UP, now);
            return;
        }
        if (entered && m.silentSince == NONE) {
            m.silentSince = now;
        }
        if (!carries && !eventOnly) {
            m.silentSince = NONE;
        }
        boolean noList = c.segmentLists == 0 && (carries || m.lastReport != NONE);
        boolean silent = !eventOnly && m.silentSince != NONE && now - m.silentSince >= silenceNanos && carries;
        if (!m.down && (noList || silent)) {
            m.down = true;
            m.dirty = true;
            m.downSince = now;
            chainDowns++;
            int suspect = lastHop(c, m, now);
            m.reason = noList ? "no segment list left: " + c.noListReason
                    : "ingress classified traffic but no INT report arrived for " + (now - m.silentSince) / 1_000_000
                    + " ms";
            String detail = m.reason + "; last hop seen: " + m.lastHop;
            out.add(new Finding(Finding.Kind.CHAIN_DOWN, c.sfc, VnfKey.of(c.sfc, suspect), null, detail, 0));
        }
        if (m.down) {
            setLiveness(m, ChainState.Liveness.DOWN, now);
        } else if (c.classifiedPackets.isEmpty() && m.lastReport == NONE) {
            setLiveness(m, ChainState.Liveness.UNKNOWN, now);
        } else if (!carries && (m.lastReport == NONE || now - m.lastReport >= silenceNanos)) {
            setLiveness(m, ChainState.Liveness.IDLE, now);
        }
    }

    private static void setLiveness(HealthMemory.ChainMemo m, ChainState.Liveness l, long now) {
        if (m.liveness != l) {
            m.liveness = l;
            m.stateSince = now;
        }
    }

    /** Sets the chain's last hop seen; returns the index of the first vNF past it. */
    private int lastHop(ChainSeen c, HealthMemory.ChainMemo m, long now) {
        int furthest = -1;
        String at = null;
        boolean anyCounter = false;
        for (ReplicaSeen r : c.replicas) {
            HealthMemory.ReplicaMemo rm = replicas.get(r.key());
            anyCounter |= r.sidPackets.isPresent();
            // Since the silence began (for a chain silent for another reason: within two silences).
            long from = m.silentSince != NONE ? m.silentSince : now - 2 * silenceNanos;
            if (rm != null && rm.lastSidMoved != NONE && rm.lastSidMoved - from >= 0
                    && r.vnf.index() >= furthest) {
                if (r.vnf.index() > furthest) {
                    at = "";
                }
                furthest = r.vnf.index();
                at += (at.isEmpty() ? "" : ", ") + r.id + " at " + r.where;
            }
        }
        if (furthest >= 0) {
            m.lastHop = "vNF " + furthest + " (" + at + ")";
            return Math.min(furthest + 1, c.vnfs - 1);
        }
        if (m.lastTraffic != NONE && now - m.lastTraffic < 2 * silenceNanos) {
            m.lastHop = "ingress " + c.ingress + (anyCounter ? " (no vNF SID counter moved)"
                    : " (vNF SID counters unreadable)");
        } else {
            m.lastHop = "none (ingress counter " + (c.classifiedPackets.isPresent() ? "still" : "unreadable") + ")";
        }
        return 0;
    }

    /**
     * Returns every chain's state, by chain id.
     *
     * @param nowMillis wall clock now, to date the states
     * @return states
     */
    public synchronized List<ChainState> states(long nowMillis) {
        long now = clock.nanoTime();
        Map<SfcId, ChainState> out = new TreeMap<>((a, b) -> Integer.compare(a.tag(), b.tag()));
        for (Map.Entry<SfcId, HealthMemory.ChainMemo> e : chains.entrySet()) {
            HealthMemory.ChainMemo m = e.getValue();
            List<String> dead = new ArrayList<>();
            String prefix = e.getKey() + "/";
            replicas.forEach((k, r) -> {
                if (r.dead && k.startsWith(prefix)) {
                    dead.add(k);
                }
            });
            dead.sort(null);
            out.put(e.getKey(), new ChainState(e.getKey(), m.liveness, toMillis(m.stateSince, now, nowMillis),
                                               m.down ? m.lastHop : "", m.down ? m.reason : "", m.lastClassified,
                                               toMillis(m.lastReport, now, nowMillis), dead));
        }
        return new ArrayList<>(out.values());
    }

    private static long toMillis(long t, long now, long nowMillis) {
        return HealthMemory.toMillis(t, now, nowMillis);
    }

    /**
     * Returns whether a replica counts dead.
     *
     * @param vnf vNF
     * @param id  replica name
     * @return true if dead
     */
    public synchronized boolean isDead(VnfKey vnf, String id) {
        HealthMemory.ReplicaMemo m = replicas.get(vnf + "/" + id);
        return m != null && m.dead;
    }

    /**
     * Returns the counters: chains gone down, replica deaths, returns and flaps (a death of a
     * replica on probation), and chains down now.
     *
     * @return counter name to value
     */
    public synchronized Map<String, Long> counters() {
        Map<String, Long> c = new TreeMap<>();
        c.put("chainDowns", chainDowns);
        c.put("chainsDownNow", chains.values().stream().filter(m -> m.down).count());
        c.put("replicaDeaths", replicaDeaths);
        c.put("replicaReturns", replicaReturns);
        c.put("replicaFlaps", flaps);
        return c;
    }
}
