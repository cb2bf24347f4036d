package org.srv6int.app.telemetry;

import org.HdrHistogram.Histogram;
import org.srv6int.app.api.VnfKey;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Adds the closed windows of one or more engine shards into one {@link TelemetrySnapshot}:
 * histograms are added (so percentiles are exact over the union of samples, not averaged),
 * rates and packet counts summed, queue depths taken at their largest. Reused window after
 * window by the thread that rolls, so a roll allocates only what it hands out.
 */
final class WindowMerge {

    private final long highestNanos;
    private final Map<VnfKey, Histogram> vnfHist = new HashMap<>();
    private final Map<VnfKey, double[]> vnfRate = new TreeMap<>();
    private final Map<VnfKey, Map<String, Long>> replicaPackets = new HashMap<>();
    private final Map<Integer, Histogram> chainHist = new HashMap<>();
    private final Map<Integer, double[]> chainRate = new TreeMap<>();
    private final Map<Integer, int[]> queues = new TreeMap<>();
    private long start = Long.MAX_VALUE;
    private long end = Long.MIN_VALUE;

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
        return new TelemetrySnapshot(start, end, vnfs, chains, hops, counters);
    }
}
