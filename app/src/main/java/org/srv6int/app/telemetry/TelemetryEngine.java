// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.api.ReportTap;
import org.srv6int.app.api.model.SampledReport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.codec.DecodeStatus;
import org.srv6int.codec.IntMetadataVisitor;
import org.srv6int.codec.IntReportView;
import org.srv6int.codec.WireFormat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * Turns INT reports into telemetry windows. One receiver thread calls
 * {@link #onReport(ByteBuffer, int, int, int)} (allocation-free: flyweight codec views,
 * open-addressing lookups, preallocated arrays, HdrHistogram histograms double-buffered with
 * HdrHistogram's {@link WriterReaderPhaser} as its Recorder does, but with one critical section
 * per report instead of one per recorded value); any other
 * thread may call {@link #setReporters(Map)}, {@link #setBindings(Collection)},
 * {@link #roll()} and {@link #counters()}. Memory is fixed by {@link Limits}.
 */
public final class TelemetryEngine implements IntMetadataVisitor {

    /** Size limits, fixed at construction. */
    public static final class Limits {
        final int maxReporters;
        final int maxVnfs;
        final int maxReplicas;
        final int maxChains;
        final long highestLatencyNanos;

        /**
         * Creates limits.
         *
         * @param maxReporters        switches on the allow-list
         * @param maxVnfs             vNFs tracked
         * @param maxReplicas         vNF replicas tracked
         * @param maxChains           chains tracked
         * @param highestLatencyNanos latency clamp of the histograms (larger samples count as it)
         */
        public Limits(int maxReporters, int maxVnfs, int maxReplicas, int maxChains, long highestLatencyNanos) {
            if (maxReporters < 1 || maxVnfs < 1 || maxReplicas < 1 || maxChains < 1 || highestLatencyNanos < 1000) {
                throw new IllegalArgumentException("telemetry limits must be positive (latency clamp >= 1000 ns)");
            }
            this.maxReporters = maxReporters;
            this.maxVnfs = maxVnfs;
            this.maxReplicas = maxReplicas;
            this.maxChains = maxChains;
            this.highestLatencyNanos = highestLatencyNanos;
        }

        /**
         * Defaults: 256 reporters, 128 vNFs, 1024 replicas, 128 chains, 60 s clamp (netcfg's
         * defaults, {@code Srv6IntAppConfig.DEFAULT_MAX_*}; {@link TelemetryManager#limits} reads
         * an operator's).
         */
        public static final Limits DEFAULT = new Limits(256, 128, 1024, 128, 60_000_000_000L);

        /**
         * Returns these limits with other counts and this latency clamp.
         *
         * @param reporters reporters
         * @param vnfs      vNFs
         * @param replicas  replicas
         * @param chains    chains
         * @return limits
         */
        public Limits withCounts(int reporters, int vnfs, int replicas, int chains) {
            return new Limits(reporters, vnfs, replicas, chains, highestLatencyNanos);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Limits)) {
                return false;
            }
            Limits l = (Limits) o;
            return maxReporters == l.maxReporters && maxVnfs == l.maxVnfs && maxReplicas == l.maxReplicas
                    && maxChains == l.maxChains && highestLatencyNanos == l.highestLatencyNanos;
        }

        @Override
        public int hashCode() {
            return Objects.hash(maxReporters, maxVnfs, maxReplicas, maxChains, highestLatencyNanos);
        }

        @Override
        public String toString() {
            return "reporters " + maxReporters + ", vNFs " + maxVnfs + ", replicas " + maxReplicas + ", chains "
                    + maxChains;
        }
    }

    private static final int C_DATAGRAMS = 0;
    private static final int C_ACCEPTED = 1;
    private static final int C_FORGED_SOURCE = 2;
    private static final int C_FORGED_DEVICE = 3;
    private static final int C_MALFORMED = 4;
    private static final int C_DUPLICATE = 5;
    private static final int C_UNMAPPED = 6;
    private static final int C_STALE = 7;
    /** Port_Counter cells of a switch (p4src/shared/size.p4 FLOW_COUNTER_CELLS). */
    static final int FLOW_COUNTER_CELLS = 4096;
    private static final int C_UNKNOWN_CHAIN = 8;
    private static final int C_BINDINGS_REFUSED = 9;
    private static final int C_NOT_MASTER = 10;
    private static final int C_COUNT = 11;
    private static final int DEVICES = 1 << 16;

    /** Allow-list snapshot: address to reporter slot; trackers survive reconfiguration. */
    private static final class Reporters {
        final LongIntMap bySource;
        final int[] deviceId;
        final SequenceTracker[] trackers;
        // False for a switch another cluster instance masters: its reports are counted and dropped.
        final boolean[] local;

        Reporters(LongIntMap bySource, int[] deviceId, SequenceTracker[] trackers, boolean[] local) {
            this.bySource = bySource;
            this.deviceId = deviceId;
            this.trackers = trackers;
            this.local = local;
        }
    }

    /** Binding snapshot: (tag, hop, device) to replica slot; tag to chain slot. */
    private static final class Bindings {
        final LongIntMap replicaByHop;
        final LongIntMap chainByTag;
        final int[] vnfOfReplica;

        Bindings(LongIntMap replicaByHop, LongIntMap chainByTag, int[] vnfOfReplica) {
            this.replicaByHop = replicaByHop;
            this.chainByTag = chainByTag;
            this.vnfOfReplica = vnfOfReplica;
        }
    }

    private final Limits limits;
    private final LongSupplier clock;
    private final IntReportView report = new IntReportView();
    private final long[] counters = new long[C_COUNT];

    private volatile Reporters reporters;
    // The per-report export's sampling; null (one volatile read per report) while it is off.
    private volatile Sampling sampling;
    private volatile Bindings bindings;

    // Slot state. Slots are assigned under the lock; the receiver only indexes them.
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private volatile Histogram[] vnfActive;
    private Histogram[] vnfInactive;
    private volatile Histogram[] chainActive;
    private Histogram[] chainInactive;
    private final VnfKey[] vnfKeys;
    // Port_Counter is per flow (a register cell per flow-hash value, wire-format 1.5): its baseline
    // is kept per slot and cell, a row allocated on a slot's first report (null: no baseline).
    private final int[][] lastReplicaCounter;
    private final AtomicLongArray replicaPackets;
    private final long[] rolledReplicaPackets;
    private final String[] replicaIds;
    private final int[] replicaVnf;
    // Replica slot to the slot its group counts in (itself unless it shares a hop key).
    private final int[] groupOf;
    private final int[] chainTags;
    private final int[][] lastChainCounter;
    private final AtomicLongArray chainPackets;
    private final long[] rolledChainPackets;
    private final AtomicIntegerArray queueLast = new AtomicIntegerArray(DEVICES);
    private final AtomicIntegerArray queueMax = new AtomicIntegerArray(DEVICES);
    private final AtomicLongArray devicesSeen = new AtomicLongArray(DEVICES / 64);

    private final Map<VnfKey, Integer> vnfSlots = new HashMap<>();
    private final Map<String, Integer> replicaSlots = new HashMap<>();
    private final Map<Integer, Integer> chainSlots = new HashMap<>();
    private final ArrayDeque<Integer> freeVnf = new ArrayDeque<>();
    private final ArrayDeque<Integer> freeReplica = new ArrayDeque<>();
    private final ArrayDeque<Integer> freeChain = new ArrayDeque<>();
    private final Map<Integer, SequenceTracker> trackersBySource = new HashMap<>();
    // Sources this engine has collected at some time.
    private final Set<Integer> everLocal = new HashSet<>();
    // lost, late, duplicates, resyncs of trackers no longer in use
    private final long[] retired = new long[4];
    private final Map<Integer, List<HopBinding>> applied = new HashMap<>();
    private long windowStart;

    // Per-report scratch, receiver thread only.
    private Bindings cur;
    private Histogram[] curVnf;
    private int curTag;
    private int curMap;
    private int curLastHop;
    private long ingressInTime;
    private long egressInTime;
    private int egressPortCounter;
    private int curCell;

    /**
     * Creates an engine with nothing on the allow-list and no bindings.
     *
     * @param limits size limits
     * @param clock  monotonic nanosecond clock used to time windows
     */
    public TelemetryEngine(Limits limits, LongSupplier clock) {
        this.limits = limits;
        this.clock = clock;
        vnfActive = new Histogram[limits.maxVnfs];
        vnfInactive = new Histogram[limits.maxVnfs];
        vnfKeys = new VnfKey[limits.maxVnfs];
        lastReplicaCounter = new int[limits.maxReplicas][];
        replicaPackets = new AtomicLongArray(limits.maxReplicas);
        rolledReplicaPackets = new long[limits.maxReplicas];
        replicaIds = new String[limits.maxReplicas];
        replicaVnf = new int[limits.maxReplicas];
        groupOf = new int[limits.maxReplicas];
        chainActive = new Histogram[limits.maxChains];
        chainInactive = new Histogram[limits.maxChains];
        chainTags = new int[limits.maxChains];
        lastChainCounter = new int[limits.maxChains][];
        chainPackets = new AtomicLongArray(limits.maxChains);
        rolledChainPackets = new long[limits.maxChains];
        for (int i = limits.maxVnfs - 1; i >= 0; i--) {
            freeVnf.push(i);
        }
        for (int i = limits.maxReplicas - 1; i >= 0; i--) {
            freeReplica.push(i);
        }
        for (int i = limits.maxChains - 1; i >= 0; i--) {
            freeChain.push(i);
        }
        reporters = new Reporters(new LongIntMap(1), new int[0], new SequenceTracker[0], new boolean[0]);
        bindings = new Bindings(new LongIntMap(1), new LongIntMap(1), new int[limits.maxReplicas]);
        windowStart = clock.getAsLong();
    }

    /**
     * Replaces the allow-list; every switch on it is collected here. A switch keeps its
     * sequence state across calls.
     *
     * @param reportSources IPv4 source address (as an int, network order) to the reporter's
     *                      Device_ID
     * @throws IllegalArgumentException if more than the limit or a device id is out of range
     */
    public void setReporters(Map<Integer, Integer> reportSources) {
        setReporters(reportSources, Set.of());
    }

    /**
     * Replaces the allow-list. Reports of a switch another cluster instance masters are counted
     * ({@link CollectorCounters#notMaster()}) and dropped, so no window counts them twice. A
     * switch keeps its sequence state while it stays collected here; one that comes back starts
     * afresh (the reports it sent elsewhere are not lost).
     *
     * @param reportSources      IPv4 source address (as an int, network order) to the reporter's
     *                           Device_ID, for every configured switch
     * @param masteredElsewhere  source addresses of the switches this instance does not master
     * @throws IllegalArgumentException if more than the limit or a device id is out of range
     */
    public synchronized void setReporters(Map<Integer, Integer> reportSources, Set<Integer> masteredElsewhere) {
        if (reportSources.size() > limits.maxReporters) {
            throw new IllegalArgumentException("too many reporters: " + reportSources.size()
                                                       + " > " + limits.maxReporters
                                                       + " (raise netcfg collector.maxReporters)");
        }
        LongIntMap map = new LongIntMap(reportSources.size());
        int[] devs = new int[reportSources.size()];
        SequenceTracker[] trackers = new SequenceTracker[reportSources.size()];
        boolean[] local = new boolean[reportSources.size()];
        Map<Integer, SequenceTracker> kept = new HashMap<>();
        int i = 0;
        for (Map.Entry<Integer, Integer> e : reportSources.entrySet()) {
            int dev = e.getValue();
            if (dev < 0 || dev > 0xFFFF) {
                throw new IllegalArgumentException("reporter device id out of range: " + dev);
            }
            map.put(e.getKey() & 0xFFFFFFFFL, i);
            devs[i] = dev;
            local[i] = !masteredElsewhere.contains(e.getKey());
            trackers[i] = local[i] ? trackersBySource.getOrDefault(e.getKey(), new SequenceTracker())
                    : new SequenceTracker();
            if (local[i]) {
                kept.put(e.getKey(), trackers[i]);
            }
            i++;
        }
        // Counters of trackers let go stay in the totals, which are monotonic.
        for (Map.Entry<Integer, SequenceTracker> e : trackersBySource.entrySet()) {
            if (kept.get(e.getKey()) != e.getValue()) {
                SequenceTracker t = e.getValue();
                retired[0] += t.lost();
                retired[1] += t.late();
                retired[2] += t.duplicates();
                retired[3] += t.resyncs();
            }
        }
        // A switch that comes back from another instance: the Port_Counters it reported meanwhile
        // went elsewhere, so the next delta from here would count them again. Start afresh.
        boolean back = false;
        for (Integer src : kept.keySet()) {
            back |= !trackersBySource.containsKey(src) && everLocal.contains(src);
        }
        everLocal.addAll(kept.keySet());
        if (back) {
            Arrays.fill(lastReplicaCounter, null);
            Arrays.fill(lastChainCounter, null);
        }
        trackersBySource.clear();
        trackersBySource.putAll(kept);
        reporters = new Reporters(map, devs, trackers, local);
    }

    /**
     * Replaces the hop bindings (derived from the chains' segment lists and replicas). vNFs,
     * replicas and chains keep their windows across calls; those no longer bound free their slot.
     *
     * <p>Replicas of one vNF whose bindings share a (chain, hop, device) key sit behind the same
     * switch: their INT entries are identical on the wire (a report carries no SID, every segment
     * is overwritten by INT metadata, docs/collector.md), so they are bound together as one group.
     * The vNF's latency and rate stay exact; each member's {@link VnfWindow#replicaPackets()}
     * shows the packets of its whole group. A chain whose bindings give one key to two different
     * vNFs is refused alone: it keeps the bindings it had (none if it had none), every other
     * chain takes its new ones, and the refusal is counted ({@link CollectorCounters#bindingsRefused()}).
     *
     * @param all every binding of every chain
     * @return one message per refused chain, empty if every chain's bindings were applied
     * @throws IllegalArgumentException if a limit would be exceeded (then nothing changes)
     */
    public synchronized List<String> setBindings(Collection<HopBinding> all) {
        Map<Integer, List<HopBinding>> byChain = new LinkedHashMap<>();
        for (HopBinding b : all) {
            byChain.computeIfAbsent(b.chainTag(), k -> new ArrayList<>()).add(b);
        }
        List<String> refused = new ArrayList<>();
        Map<Integer, List<HopBinding>> use = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<HopBinding>> e : byChain.entrySet()) {
            String problem = conflict(e.getValue());
            if (problem == null) {
                use.put(e.getKey(), e.getValue());
                continue;
            }
            List<HopBinding> old = applied.get(e.getKey());
            refused.add("chain " + e.getKey() + ": " + problem + (old == null ? "; the chain stays unbound"
                    : "; the chain keeps its previous bindings"));
            if (old != null) {
                use.put(e.getKey(), old);
            }
        }
        Map<Long, List<HopBinding>> byKey = new LinkedHashMap<>();
        Map<VnfKey, Boolean> vnfs = new LinkedHashMap<>();
        Map<String, VnfKey> replicas = new LinkedHashMap<>();
        for (List<HopBinding> l : use.values()) {
            for (HopBinding b : l) {
                byKey.computeIfAbsent(b.key(), k -> new ArrayList<>()).add(b);
                vnfs.put(b.vnf(), Boolean.TRUE);
                replicas.put(replicaKey(b), b.vnf());
            }
        }
        if (vnfs.size() > limits.maxVnfs || replicas.size() > limits.maxReplicas || use.size() > limits.maxChains) {
            throw new IllegalArgumentException("telemetry limits exceeded: vNFs " + vnfs.size() + "/" + limits.maxVnfs
                                                       + ", replicas " + replicas.size() + "/" + limits.maxReplicas
                                                       + ", chains " + use.size() + "/" + limits.maxChains
                                                       + " (raise netcfg " + raise(vnfs.size(), replicas.size(),
                                                                                   use.size()) + ")");
        }
        counters[C_BINDINGS_REFUSED] += refused.size();
        applied.clear();
        applied.putAll(use);
        // Free what is gone, then allocate what is new.
        vnfSlots.keySet().removeIf(k -> {
            if (!vnfs.containsKey(k)) {
                freeVnf.push(vnfSlots.get(k));
                return true;
            }
            return false;
        });
        replicaSlots.keySet().removeIf(k -> {
            if (!replicas.containsKey(k)) {
                freeReplica.push(replicaSlots.get(k));
                return true;
            }
            return false;
        });
        chainSlots.keySet().removeIf(k -> {
            if (!use.containsKey(k)) {
                freeChain.push(chainSlots.get(k));
                return true;
            }
            return false;
        });
        for (VnfKey v : vnfs.keySet()) {
            vnfSlots.computeIfAbsent(v, k -> {
                int s = freeVnf.pop();
                vnfKeys[s] = k;
                installHistograms(vnfActive, vnfInactive, s);
                return s;
            });
        }
        int[] vnfOfReplica = new int[limits.maxReplicas];
        for (Map.Entry<String, VnfKey> e : replicas.entrySet()) {
            int s = replicaSlots.computeIfAbsent(e.getKey(), k -> {
                int r = freeReplica.pop();
                lastReplicaCounter[r] = null;
                rolledReplicaPackets[r] = replicaPackets.get(r);
                groupOf[r] = -1;
                return r;
            });
            replicaIds[s] = e.getKey().substring(e.getKey().indexOf('|') + 1);
            replicaVnf[s] = vnfSlots.get(e.getValue());
            vnfOfReplica[s] = replicaVnf[s];
        }
        regroup(byKey);
        LongIntMap chainByTag = new LongIntMap(use.size());
        for (Integer t : use.keySet()) {
            int s = chainSlots.computeIfAbsent(t, k -> {
                int c = freeChain.pop();
                chainTags[c] = k;
                installHistograms(chainActive, chainInactive, c);
                lastChainCounter[c] = null;
                rolledChainPackets[c] = chainPackets.get(c);
                return c;
            });
            chainByTag.put(t, s);
        }
        LongIntMap replicaByHop = new LongIntMap(byKey.size());
        for (Map.Entry<Long, List<HopBinding>> e : byKey.entrySet()) {
            replicaByHop.put(e.getKey(), groupOf[replicaSlots.get(replicaKey(e.getValue().get(0)))]);
        }
        bindings = new Bindings(replicaByHop, chainByTag, vnfOfReplica);
        return refused;
    }

    // The netcfg knobs to raise for these counts.
    private String raise(int vnfs, int replicas, int chains) {
        List<String> knobs = new ArrayList<>();
        if (vnfs > limits.maxVnfs) {
            knobs.add("collector.maxVnfs");
        }
        if (replicas > limits.maxReplicas) {
            knobs.add("collector.maxReplicas");
        }
        if (chains > limits.maxChains) {
            knobs.add("collector.maxChains");
        }
        return String.join(", ", knobs);
    }

    // Why a chain's bindings cannot be used: one (hop, device) of two different vNFs; null if fine.
    private static String conflict(List<HopBinding> chain) {
        Map<Long, HopBinding> byKey = new HashMap<>();
        for (HopBinding b : chain) {
            HopBinding prev = byKey.putIfAbsent(b.key(), b);
            if (prev != null && !prev.vnf().equals(b.vnf())) {
                return "INT metadata of " + prev.vnf() + "/" + prev.replicaId() + " and " + b.vnf() + "/"
                        + b.replicaId() + " cannot be told apart: different vNFs at hop " + b.hop()
                        + " of device " + b.deviceId();
            }
        }
        return null;
    }

    /**
     * Puts replicas that share a (chain, hop, device) key into one group (transitively); a group
     * counts in the slot of its smallest replica id. A slot that starts counting for itself again
     * restarts its Port_Counter baseline.
     */
    private void regroup(Map<Long, List<HopBinding>> byKey) {
        Map<String, String> parent = new HashMap<>();
        for (List<HopBinding> l : byKey.values()) {
            String first = find(parent, replicaKey(l.get(0)));
            for (int i = 1; i < l.size(); i++) {
                String other = find(parent, replicaKey(l.get(i)));
                if (!other.equals(first)) {
                    // The smaller key is the root, so the root is the group's representative.
                    if (other.compareTo(first) < 0) {
                        parent.put(first, other);
                        first = other;
                    } else {
                        parent.put(other, first);
                    }
                }
            }
        }
        for (Map.Entry<String, Integer> e : replicaSlots.entrySet()) {
            int s = e.getValue();
            int g = replicaSlots.get(find(parent, e.getKey()));
            if (g == s && groupOf[s] != s) {
                lastReplicaCounter[s] = null;
                rolledReplicaPackets[s] = replicaPackets.get(s);
            }
            groupOf[s] = g;
        }
    }

    private static String find(Map<String, String> parent, String k) {
        String r = k;
        for (String p = parent.get(r); p != null; p = parent.get(r)) {
            r = p;
        }
        return r;
    }

    private void installHistograms(Histogram[] active, Histogram[] inactive, int slot) {
        phaser.readerLock();
        try {
            active[slot] = new Histogram(1, limits.highestLatencyNanos, 2);
            inactive[slot] = new Histogram(1, limits.highestLatencyNanos, 2);
            // Wait out a writer that may still hold the slot's previous histogram.
            phaser.flipPhase();
        } finally {
            phaser.readerUnlock();
        }
    }

    private static String replicaKey(HopBinding b) {
        return b.vnf() + "|" + b.replicaId();
    }

    /**
     * Accounts one report held in {@code buf[off, off+len)} (the UDP payload: report header and
     * mirrored frame) received from {@code sourceIpv4}. Never throws on bad input; counts it.
     *
     * @param buf        buffer (absolute indices; position and limit are not used)
     * @param off        first byte of the report header
     * @param len        payload length
     * @param sourceIpv4 the datagram's IPv4 source address
     * @return true if the report updated telemetry
     */
    public boolean onReport(ByteBuffer buf, int off, int len, int sourceIpv4) {
        Reporters r = reporters;
        int slot = allowedSource(r, sourceIpv4);
        // Decode only what the allow-list admitted.
        return slot >= 0 && decoded(report.wrapPayload(buf, off, len)) && account(r, slot);
    }

    /**
     * As {@link #onReport(ByteBuffer, int, int, int)} for a byte array.
     *
     * @param buf        bytes
     * @param off        first byte of the report header
     * @param len        payload length
     * @param sourceIpv4 the datagram's IPv4 source address
     * @return true if the report updated telemetry
     */
    public boolean onReport(byte[] buf, int off, int len, int sourceIpv4) {
        Reporters r = reporters;
        int slot = allowedSource(r, sourceIpv4);
        return slot >= 0 && decoded(report.wrapPayload(buf, off, len)) && account(r, slot);
    }

    // Counts the datagram; the reporter's slot, or -1 (counted as forged) if its source is not allowed.
    private int allowedSource(Reporters r, int sourceIpv4) {
        counters[C_DATAGRAMS]++;
        int slot = r.bySource.get(sourceIpv4 & 0xFFFFFFFFL, -1);
        if (slot < 0) {
            counters[C_FORGED_SOURCE]++;
        } else if (!r.local[slot]) {
            counters[C_NOT_MASTER]++;
            return -1;
        }
        return slot;
    }

    private boolean decoded(DecodeStatus status) {
        if (status != DecodeStatus.OK) {
            counters[C_MALFORMED]++;
            return false;
        }
        return true;
    }

    private boolean account(Reporters r, int slot) {
        if (report.reporterDeviceId() != r.deviceId[slot]) {
            counters[C_FORGED_DEVICE]++;
            return false;
        }
        if (r.trackers[slot].accept((int) report.sequenceNumber()) == SequenceTracker.DUPLICATE) {
            counters[C_DUPLICATE]++;
            return false;
        }
        long epoch = phaser.writerCriticalSectionEnter();
        try {
            update();
        } finally {
            phaser.writerCriticalSectionExit(epoch);
        }
        counters[C_ACCEPTED]++;
        Sampling s = sampling;
        if (s != null && s.take(clock)) {
            s.tap.offer(SampledReport.of(report, s.last));
        }
        return true;
    }

    /**
     * Starts or stops handing sampled accepted reports to a tap: one in {@code tap.sampleEvery()},
     * at most {@code perSecond} per second from this engine. Any thread may call it.
     *
     * @param tap       where sampled reports go, null to stop
     * @param perSecond this engine's share of the rate cap
     */
    public void setReportTap(ReportTap tap, double perSecond) {
        sampling = tap == null ? null : new Sampling(tap, perSecond);
    }

    /**
     * Sampling state of one engine: touched only by its receive thread once published (the
     * volatile field publishes the settings).
     */
    private static final class Sampling {
        final ReportTap tap;
        final int every;
        final double perNano;
        final double burst;
        int countdown;
        double tokens;
        long last;
        boolean started;

        Sampling(ReportTap tap, double perSecond) {
            this.tap = tap;
            this.every = Math.max(1, tap.sampleEvery());
            this.perNano = perSecond / 1e9;
            this.burst = Math.max(1, perSecond / 10); // at most 100 ms of the rate at once
            this.countdown = every;
        }

        /** One in {@code every}, then a token bucket; reads the clock only for a candidate. */
        boolean take(LongSupplier clock) {
            if (--countdown > 0) {
                return false;
            }
            countdown = every;
            long now = clock.getAsLong();
            if (!started) {
                started = true;
                tokens = burst;
            } else {
                tokens = Math.min(burst, tokens + (now - last) * perNano);
            }
            last = now;
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            return true;
        }
    }

    private void update() {
        cur = bindings;
        curVnf = vnfActive;
        Histogram[] chainHist = chainActive;
        curTag = report.packet().tag();
        curMap = report.packet().mapInfo();
        curLastHop = report.hopCount() - 1;
        // The switch's Port_Counter cell: the flow hash's low bits, which the Flow Label carries.
        curCell = report.packet().flowLabel() & (FLOW_COUNTER_CELLS - 1);
        egressPortCounter = -1;
        report.visitIntMetadata(this);
        int chain = cur.chainByTag.get(curTag, -1);
        if (chain < 0) {
            counters[C_UNKNOWN_CHAIN]++;
        } else {
            if ((curMap & WireFormat.MAP_IN_TIME) != 0 && curLastHop > 0) {
                record(chainHist[chain], (egressInTime - ingressInTime) & 0xFFFFFFFFL);
            }
            if (egressPortCounter >= 0) {
                advance(lastChainCounter, chain, egressPortCounter, chainPackets);
            }
        }
    }

    @Override
    public void onEntry(int hop, int deviceId, int queueId, int queueLength, long inTime, long vnfLatency,
                        int portCounter) {
        if (hop == 0) {
            ingressInTime = inTime;
        }
        if (hop == curLastHop) {
            egressInTime = inTime;
            if ((curMap & WireFormat.MAP_PORT_COUNTER) != 0) {
                egressPortCounter = portCounter;
            }
        }
        if ((curMap & WireFormat.MAP_DEVICE_ID) == 0) {
            if (vnfLatency != 0) {
                counters[C_UNMAPPED]++;
            }
            return;
        }
        if ((curMap & WireFormat.MAP_QUEUE) != 0) {
            queue(deviceId, queueLength);
        }
        int replica = cur.replicaByHop.get(HopBinding.key(curTag, hop, deviceId), -1);
        if (replica < 0) {
            if (vnfLatency != 0 && (curMap & WireFormat.MAP_VNF_LATENCY) != 0) {
                counters[C_UNMAPPED]++;
            }
            return;
        }
        if ((curMap & WireFormat.MAP_VNF_LATENCY) != 0 && vnfLatency != 0) {
            record(curVnf[cur.vnfOfReplica[replica]], vnfLatency);
        }
        if ((curMap & WireFormat.MAP_PORT_COUNTER) != 0) {
            advance(lastReplicaCounter, replica, portCounter, replicaPackets);
        }
    }

    private void record(Histogram h, long value) {
        if (h != null) {
            h.recordValue(Math.max(1, Math.min(value, limits.highestLatencyNanos)));
        }
    }

    /**
     * Adds the Port_Counter delta (mod 2^16) of the report's flow cell unless the value is older
     * than the cell's last one; a cell's first report only sets its baseline.
     */
    private void advance(int[][] last, int slot, int now, AtomicLongArray acc) {
        int[] cells = last[slot];
        if (cells == null) {
            // Once per slot (and after a baseline restart), not per report.
            cells = new int[FLOW_COUNTER_CELLS];
            Arrays.fill(cells, -1);
            last[slot] = cells;
        }
        int before = cells[curCell];
        if (before < 0) {
            cells[curCell] = now;
            return;
        }
        int d = (now - before) & 0xFFFF;
        if (d >= 0x8000) {
            counters[C_STALE]++;
            return;
        }
        cells[curCell] = now;
        acc.lazySet(slot, acc.get(slot) + d);
    }

    private void queue(int dev, int depth) {
        queueLast.lazySet(dev, depth);
        int m = queueMax.get(dev);
        if (depth > m) {
            queueMax.compareAndSet(dev, m, depth);
        }
        int w = dev >>> 6;
        long bit = 1L << (dev & 63);
        long seen = devicesSeen.get(w);
        if ((seen & bit) == 0) {
            devicesSeen.compareAndSet(w, seen, seen | bit);
        }
    }

    /**
     * Closes the current window and opens the next.
     *
     * @return the closed window's telemetry
     */
    public synchronized TelemetrySnapshot roll() {
        WindowMerge m = new WindowMerge(limits.highestLatencyNanos);
        rollInto(m);
        return m.snapshot(counters());
    }

    /**
     * Closes the current window, adds it to {@code into} and opens the next. The receiver keeps
     * writing the other half of the double buffer meanwhile.
     */
    synchronized void rollInto(WindowMerge into) {
        long now = clock.getAsLong();
        double secs = Math.max(1e-9, (now - windowStart) / 1e9);
        into.window(windowStart, now);
        Map<Integer, Map<String, Long>> perVnfReplicas = new HashMap<>();
        Map<Integer, Long> perVnfPackets = new HashMap<>();
        // A group's packets are counted once for the vNF's rate and shown under each member.
        Map<Integer, Long> groupPackets = new HashMap<>();
        for (int r : replicaSlots.values()) {
            int g = groupOf[r];
            Long d = groupPackets.get(g);
            if (d == null) {
                long total = replicaPackets.get(g);
                d = total - rolledReplicaPackets[g];
                rolledReplicaPackets[g] = total;
                groupPackets.put(g, d);
                perVnfPackets.merge(replicaVnf[r], d, Long::sum);
            }
            perVnfReplicas.computeIfAbsent(replicaVnf[r], k -> new LinkedHashMap<>()).put(replicaIds[r], d);
        }
        phaser.readerLock();
        try {
            Histogram[] v = vnfActive;
            vnfActive = vnfInactive;
            vnfInactive = v;
            Histogram[] c = chainActive;
            chainActive = chainInactive;
            chainInactive = c;
            phaser.flipPhase();
            // The inactive halves now hold the closed window and no writer touches them.
            for (Map.Entry<VnfKey, Integer> e : vnfSlots.entrySet()) {
                int s = e.getValue();
                Histogram h = vnfInactive[s];
                into.vnf(e.getKey(), h, perVnfPackets.getOrDefault(s, 0L) / secs,
                         perVnfReplicas.getOrDefault(s, Map.of()));
                h.reset();
            }
            for (Map.Entry<Integer, Integer> e : chainSlots.entrySet()) {
                int s = e.getValue();
                Histogram h = chainInactive[s];
                long total = chainPackets.get(s);
                long d = total - rolledChainPackets[s];
                rolledChainPackets[s] = total;
                into.chain(e.getKey(), h, d / secs);
                h.reset();
            }
        } finally {
            phaser.readerUnlock();
        }
        for (int w = 0; w < DEVICES / 64; w++) {
            long bits = devicesSeen.get(w);
            while (bits != 0) {
                int dev = w * 64 + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                into.queue(dev, queueLast.get(dev), queueMax.getAndSet(dev, 0));
            }
        }
        windowStart = now;
    }

    /**
     * Returns the counters since start (racy but monotonic reads of the receiver's counters).
     *
     * @return counters
     */
    public CollectorCounters counters() {
        Reporters r;
        long lost;
        long late;
        long dups;
        long resyncs;
        synchronized (this) {
            r = reporters;
            lost = retired[0];
            late = retired[1];
            dups = retired[2];
            resyncs = retired[3];
        }
        for (SequenceTracker t : r.trackers) {
            lost += t.lost();
            late += t.late();
            dups += t.duplicates();
            resyncs += t.resyncs();
        }
        Map<DecodeStatus, Long> errors = report.errors().snapshot();
        return new CollectorCounters(counters[C_DATAGRAMS], counters[C_ACCEPTED], counters[C_FORGED_SOURCE],
                                     counters[C_FORGED_DEVICE], counters[C_MALFORMED], lost, late, dups, resyncs,
                                     counters[C_UNMAPPED], counters[C_STALE], counters[C_UNKNOWN_CHAIN],
                                     counters[C_BINDINGS_REFUSED], counters[C_NOT_MASTER], errors);
    }
}
