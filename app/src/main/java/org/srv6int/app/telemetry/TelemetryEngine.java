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
import java.util.Arrays;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 *
 * <p>This class holds the receive path (decoding, accounting into slots) and the window roll;
 * the allow-list and its sequence trackers are {@link ReporterTable}'s, what a new set of
 * bindings means (refusals, limits, groups) {@link BindingPlan}'s, the switches' queue depths
 * {@link QueueDepths}' and the export's sampling {@link ReportSampling}'s.
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

    private final ReporterTable reporterTable;
    private volatile ReporterTable.Snapshot reporters;
    // The per-report export's sampling; null (one volatile read per report) while it is off.
    private volatile ReportSampling sampling;
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
    private final QueueDepths queues = new QueueDepths();

    private final Map<VnfKey, Integer> vnfSlots = new HashMap<>();
    private final Map<String, Integer> replicaSlots = new HashMap<>();
    private final Map<Integer, Integer> chainSlots = new HashMap<>();
    private final ArrayDeque<Integer> freeVnf = new ArrayDeque<>();
    private final ArrayDeque<Integer> freeReplica = new ArrayDeque<>();
    private final ArrayDeque<Integer> freeChain = new ArrayDeque<>();
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
        reporterTable = new ReporterTable(limits.maxReporters);
        reporters = ReporterTable.EMPTY;
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
        ReporterTable.Snapshot next = reporterTable.replace(reportSources, masteredElsewhere);
        if (reporterTable.switchCameBack()) {
            // Its Port_Counters went elsewhere meanwhile: the next delta from here would count them again.
            Arrays.fill(lastReplicaCounter, null);
            Arrays.fill(lastChainCounter, null);
        }
        reporters = next;
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
        BindingPlan plan = new BindingPlan(all, applied, limits);
        Map<Integer, List<HopBinding>> use = plan.use;
        Map<VnfKey, Boolean> vnfs = plan.vnfs;
        Map<String, VnfKey> replicas = plan.replicas;
        Map<Long, List<HopBinding>> byKey = plan.byKey;
        List<String> refused = plan.refused;
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
        regroup(plan);
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
            replicaByHop.put(e.getKey(), groupOf[replicaSlots.get(BindingPlan.replicaKey(e.getValue().get(0)))]);
        }
        bindings = new Bindings(replicaByHop, chainByTag, vnfOfReplica);
        return refused;
    }

    /**
     * Points each replica slot at its group's slot (docs above); a slot that starts counting for
     * itself again restarts its Port_Counter baseline.
     */
    private void regroup(BindingPlan plan) {
        for (Map.Entry<String, Integer> e : replicaSlots.entrySet()) {
            int s = e.getValue();
            int g = replicaSlots.get(plan.representative(e.getKey()));
            if (g == s && groupOf[s] != s) {
                lastReplicaCounter[s] = null;
                rolledReplicaPackets[s] = replicaPackets.get(s);
            }
            groupOf[s] = g;
        }
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
        ReporterTable.Snapshot r = reporters;
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
        ReporterTable.Snapshot r = reporters;
        int slot = allowedSource(r, sourceIpv4);
        return slot >= 0 && decoded(report.wrapPayload(buf, off, len)) && account(r, slot);
    }

    // Counts the datagram; the reporter's slot, or -1 (counted as forged) if its source is not allowed.
    private int allowedSource(ReporterTable.Snapshot r, int sourceIpv4) {
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

    private boolean account(ReporterTable.Snapshot r, int slot) {
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
        ReportSampling s = sampling;
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
        sampling = tap == null ? null : new ReportSampling(tap, perSecond);
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
            queues.record(deviceId, queueLength);
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
        queues.rollInto(into);
        windowStart = now;
    }

    /**
     * Returns the counters since start (racy but monotonic reads of the receiver's counters).
     *
     * @return counters
     */
    public CollectorCounters counters() {
        ReporterTable.Snapshot r;
        long[] retired;
        synchronized (this) {
            r = reporters;
            retired = reporterTable.retired();
        }
        long lost = retired[0];
        long late = retired[1];
        long dups = retired[2];
        long resyncs = retired[3];
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
