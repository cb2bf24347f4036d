// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.model.HopQueue;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.PeerWindow;
import org.HdrHistogram.Histogram;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Adds the closed windows of one or more engine shards into one {@link TelemetrySnapshot}:
 * histograms are added (so percentiles are exact over the union of samples, not averaged),
 * rates and packet counts summed, queue depths taken at their largest (both the window's
 * largest and the "latest", which has no order across instances). Reused window after
 * window by the thread that rolls, so a roll allocates only what it hands out.
 *
 * <p>The same merge serialises a window as a cluster summary ({@link #encode}) and adds other
 * instances' summaries ({@link #add}): histograms travel in HdrHistogram's compact encoding, so
 * the union's percentiles are exact too.
 */
final class WindowMerge {

    private final long highestNanos;
    private final Map<VnfKey, Histogram> vnfHist = new HashMap<>();
    private final Map<VnfKey, double[]> vnfRate = new TreeMap<>();
    private final Map<VnfKey, Map<String, Long>> replicaPackets = new HashMap<>();
    private final Map<Integer, Histogram> chainHist = new HashMap<>();
    private final Map<Integer, double[]> chainRate = new TreeMap<>();
    private final Map<Integer, int[]> queues = new TreeMap<>();
    private final List<PeerWindow> peers = new ArrayList<>();
    private long start = Long.MAX_VALUE;
    private long end = Long.MIN_VALUE;
    private ByteBuffer scratch;

    WindowMerge(long highestNanos) {
        this.highestNanos = highestNanos;
    }

    /** Forgets the previous window's figures (histograms kept for reuse). */
    void clear() {
        // Histograms of keys gone from the last window go too: memory follows the bound chains.
        vnfHist.keySet().retainAll(vnfRate.keySet());
        chainHist.keySet().retainAll(chainRate.keySet());
        vnfHist.values().forEach(Histogram::reset);
        chainHist.values().forEach(Histogram::reset);
        vnfRate.clear();
        replicaPackets.clear();
        chainRate.clear();
        queues.clear();
        peers.clear();
        start = Long.MAX_VALUE;
        end = Long.MIN_VALUE;
    }

    void window(long startNanos, long endNanos) {
        start = Math.min(start, startNanos);
        end = Math.max(end, endNanos);
    }

    void vnf(VnfKey vnf, Histogram samples, double ratePps, Map<String, Long> replicas) {
        vnfHist.computeIfAbsent(vnf, k -> new Histogram(1, highestNanos, 2)).add(samples);
        vnfRate.computeIfAbsent(vnf, k -> new double[1])[0] += ratePps;
        Map<String, Long> m = replicaPackets.computeIfAbsent(vnf, k -> new LinkedHashMap<>());
        replicas.forEach((id, n) -> m.merge(id, n, Long::sum));
    }

    void chain(int tag, Histogram e2e, double ratePps) {
        chainHist.computeIfAbsent(tag, k -> new Histogram(1, highestNanos, 2)).add(e2e);
        chainRate.computeIfAbsent(tag, k -> new double[1])[0] += ratePps;
    }

    void queue(int device, int last, int max) {
        int[] q = queues.computeIfAbsent(device, k -> new int[] {last, max});
        q[0] = Math.max(q[0], last);
        q[1] = Math.max(q[1], max);
    }

    void peer(PeerWindow p) {
        peers.add(p);
    }

    private static final short MAGIC = 0x5331;
    private static final byte VERSION = 1;
    private static final int MAX_STRING = 1024;

    /**
     * Serialises what the merge holds (this instance's window) as a cluster summary.
     *
     * @param node       this instance's node id
     * @param wallMillis the window's end, wall clock
     * @param lost       reports this instance counted lost since start
     * @return bytes
     */
    byte[] encode(String node, long wallMillis, long lost) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeShort(MAGIC);
            out.writeByte(VERSION);
            string(out, node);
            out.writeLong(wallMillis);
            out.writeLong(lost);
            out.writeInt(vnfRate.size());
            for (Map.Entry<VnfKey, double[]> e : vnfRate.entrySet()) {
                out.writeInt(e.getKey().sfcId().tag());
                out.writeInt(e.getKey().index());
                out.writeDouble(e.getValue()[0]);
                Map<String, Long> reps = replicaPackets.getOrDefault(e.getKey(), Map.of());
                out.writeInt(reps.size());
                for (Map.Entry<String, Long> r : reps.entrySet()) {
                    string(out, r.getKey());
                    out.writeLong(r.getValue());
                }
                histogram(out, vnfHist.get(e.getKey()));
            }
            out.writeInt(chainRate.size());
            for (Map.Entry<Integer, double[]> e : chainRate.entrySet()) {
                out.writeInt(e.getKey());
                out.writeDouble(e.getValue()[0]);
                histogram(out, chainHist.get(e.getKey()));
            }
            out.writeInt(queues.size());
            for (Map.Entry<Integer, int[]> e : queues.entrySet()) {
                out.writeInt(e.getKey());
                out.writeInt(e.getValue()[0]);
                out.writeInt(e.getValue()[1]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(b.length);
        out.write(b);
    }

    private void histogram(DataOutputStream out, Histogram h) throws IOException {
        if (scratch == null || scratch.capacity() < h.getNeededByteBufferCapacity()) {
            scratch = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        }
        scratch.clear();
        int n = h.encodeIntoByteBuffer(scratch);
        out.writeInt(n);
        out.write(scratch.array(), 0, n);
    }

    /** The header of a summary: whose, when, its loss count. */
    static final class SummaryHeader {
        final String node;
        final long wallMillis;
        final long lost;

        SummaryHeader(String node, long wallMillis, long lost) {
            this.node = node;
            this.wallMillis = wallMillis;
            this.lost = lost;
        }
    }

    /**
     * Reads a summary's header.
     *
     * @param summary bytes
     * @return header
     * @throws IllegalArgumentException if the bytes are no summary of this version
     */
    static SummaryHeader header(byte[] summary) {
        try {
            ByteBuffer in = ByteBuffer.wrap(summary);
            if (in.getShort() != MAGIC || in.get() != VERSION) {
                throw new IllegalArgumentException("not a telemetry summary of version " + VERSION);
            }
            return new SummaryHeader(string(in), in.getLong(), in.getLong());
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("telemetry summary truncated");
        }
    }

    /**
     * Adds another instance's summary. Decoded completely before anything is added, so a bad
     * summary changes nothing.
     *
     * @param summary bytes
     * @throws IllegalArgumentException if the bytes are no valid summary
     */
    void add(byte[] summary) {
        ByteBuffer in = ByteBuffer.wrap(summary);
        List<Runnable> apply = new ArrayList<>();
        try {
            header(summary);
            in.position(3);
            string(in);
            in.getLong();
            in.getLong();
            int nv = count(in);
            for (int i = 0; i < nv; i++) {
                VnfKey k = VnfKey.of(SfcId.of(in.getInt()), in.getInt());
                double rate = in.getDouble();
                int nr = count(in);
                Map<String, Long> reps = new LinkedHashMap<>();
                for (int j = 0; j < nr; j++) {
                    reps.put(string(in), in.getLong());
                }
                Histogram h = histogram(in);
                apply.add(() -> vnf(k, h, rate, reps));
            }
            int nc = count(in);
            for (int i = 0; i < nc; i++) {
                int tag = in.getInt();
                double rate = in.getDouble();
                Histogram h = histogram(in);
                apply.add(() -> chain(tag, h, rate));
            }
            int nq = count(in);
            for (int i = 0; i < nq; i++) {
                int dev = in.getInt();
                int last = in.getInt();
                int max = in.getInt();
                apply.add(() -> queue(dev, last, max));
            }
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("telemetry summary truncated");
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad telemetry summary: " + e.getMessage(), e);
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException("telemetry summary has " + in.remaining() + " trailing bytes");
        }
        apply.forEach(Runnable::run);
    }

    private static int count(ByteBuffer in) {
        int n = in.getInt();
        // Each entry takes at least 4 bytes: a larger count cannot be honest.
        if (n < 0 || n > in.remaining() / 4) {
            throw new IllegalArgumentException("bad entry count " + n);
        }
        return n;
    }

    private static String string(ByteBuffer in) {
        int n = in.getShort() & 0xFFFF;
        if (n > MAX_STRING || n > in.remaining()) {
            throw new IllegalArgumentException("bad string length " + n);
        }
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private Histogram histogram(ByteBuffer in) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("bad histogram length " + n);
        }
        ByteBuffer slice = in.slice();
        slice.limit(n);
        in.position(in.position() + n);
        // HdrHistogram's header (digits at 12, lowest at 16, highest at 24) is checked before
        // decoding: decoding sizes its arrays from it.
        if (n < 40 || slice.getInt(12) < 0 || slice.getInt(12) > 5 || slice.getLong(16) != 1
                || slice.getLong(24) < 2 || slice.getLong(24) > highestNanos) {
            throw new IllegalArgumentException("histogram header is not this collector's");
        }
        Histogram h = Histogram.decodeFromByteBuffer(slice, 1);
        if (h.getHighestTrackableValue() > highestNanos || h.getLowestDiscernibleValue() != 1) {
            throw new IllegalArgumentException("histogram range " + h.getLowestDiscernibleValue() + ".."
                                                       + h.getHighestTrackableValue() + " is not this collector's");
        }
        return h;
    }

    TelemetrySnapshot snapshot(CollectorCounters counters) {
        List<VnfWindow> vnfs = new ArrayList<>();
        for (Map.Entry<VnfKey, double[]> e : vnfRate.entrySet()) {
            Histogram h = vnfHist.get(e.getKey());
            long n = h.getTotalCount();
            vnfs.add(new VnfWindow(e.getKey(), n, n == 0 ? 0 : h.getValueAtPercentile(50),
                                   n == 0 ? 0 : h.getValueAtPercentile(95), n == 0 ? 0 : h.getValueAtPercentile(99),
                                   n == 0 ? 0 : h.getMaxValue(), e.getValue()[0],
                                   replicaPackets.getOrDefault(e.getKey(), Map.of())));
        }
        List<ChainWindow> chains = new ArrayList<>();
        for (Map.Entry<Integer, double[]> e : chainRate.entrySet()) {
            Histogram h = chainHist.get(e.getKey());
            long n = h.getTotalCount();
            chains.add(new ChainWindow(e.getKey(), n, n == 0 ? 0 : h.getValueAtPercentile(95),
                                       n == 0 ? 0 : h.getMaxValue(), e.getValue()[0]));
        }
        List<HopQueue> hops = new ArrayList<>();
        queues.forEach((d, q) -> hops.add(new HopQueue(d, q[0], q[1])));
        return new TelemetrySnapshot(start, end, vnfs, chains, hops, counters, peers);
    }
}
