package org.srv6int.twin.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.srv6int.twin.host.SimulatedWorker;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;

/**
 * Kubernetes-VPA-like baseline: CPU (and memory) requests from usage history only, applied by
 * evicting the pod (Kubernetes 1.23, the paper's version, has no in-place resize). Time scale
 * shrunk so it acts within an experiment: recommender every {@link #RECOMMEND_S} s (VPA: 1 min),
 * usage histogram half-life {@link #HALF_LIFE_S} s (VPA: 24 h), updater every {@link #UPDATE_S} s
 * (VPA: 1 min), pod restart {@link #RESTART_S} s, at most one eviction per pod per
 * {@link #EVICTION_GAP_S} s. Target = 1.15 x P90 of CPU usage; the pod is
 * evicted when its quota is outside [1.15 x P50 x 0.95, 1.15 x P95 x 1.5]. It only uses free
 * cores, never takes them from another pod, and never touches LLC, MBA or frequency. Memory
 * requests do not change any modelled resource (the vNFs never run short of memory capacity).
 */
public final class Vpa {
    /** Recommender period. */
    public static final double RECOMMEND_S = 1.0;
    /** Usage histogram half-life. */
    public static final double HALF_LIFE_S = 10.0;
    /** Updater period. */
    public static final double UPDATE_S = 2.0;
    /** Pod restart after an eviction. */
    public static final double RESTART_S = 1.0;
    /** At most one eviction per pod per this many seconds (VPA's eviction rate limit, scaled). */
    public static final double EVICTION_GAP_S = 10.0;
    static final double MARGIN = 1.15;

    private final List<Host> hosts;
    private final Map<Host, SimulatedWorker> workers = new java.util.IdentityHashMap<>();
    private final Map<String, List<double[]>> usage = new LinkedHashMap<>();
    private final Map<String, Double> lastEviction = new LinkedHashMap<>();
    private double nextRecommend;
    private double nextUpdate = UPDATE_S;
    private long evictions;

    /**
     * Watches the pods of these workers; an eviction's new CPU limit reaches the model through
     * the worker's {@code cpu.max}, written as the kubelet re-creates the container.
     *
     * @param workers the simulated workers
     */
    public Vpa(List<SimulatedWorker> workers) {
        List<Host> hs = new ArrayList<>();
        for (SimulatedWorker w : workers) {
            hs.add(w.host());
            this.workers.put(w.host(), w);
        }
        this.hosts = List.copyOf(hs);
    }

    /** Evictions so far. */
    public long evictions() {
        return evictions;
    }

    /** Called every tick. */
    public void tick(double nowS) {
        if (nowS + 1e-9 >= nextRecommend) {
            nextRecommend += RECOMMEND_S;
            for (Host h : hosts) {
                for (VnfInstance i : h.instances()) {
                    if (i.ready(nowS) && !i.down(nowS)) {
                        usage.computeIfAbsent(i.id(), k -> new ArrayList<>())
                                .add(new double[] {nowS, i.busyCores()});
                    }
                }
            }
        }
        if (nowS + 1e-9 >= nextUpdate) {
            nextUpdate += UPDATE_S;
            for (Host h : hosts) {
                for (VnfInstance i : h.instances()) {
                    update(h, i, nowS);
                }
            }
        }
    }

    private void update(Host h, VnfInstance i, double nowS) {
        List<double[]> hist = usage.get(i.id());
        if (hist == null || hist.size() < 2 || i.down(nowS)
                || nowS - lastEviction.getOrDefault(i.id(), -EVICTION_GAP_S) < EVICTION_GAP_S) {
            return;
        }
        double target = MARGIN * weighted(hist, nowS, 0.90);
        double lower = MARGIN * weighted(hist, nowS, 0.50) * 0.95;
        double upper = MARGIN * weighted(hist, nowS, 0.95) * 1.5;
        double q = i.allocation().get(Resource.CPU_QUOTA);
        if (q >= lower && q <= upper) {
            return;
        }
        double want = Math.max(Resource.CPU_QUOTA.min(), Math.min(target, q + h.free(Resource.CPU_QUOTA)));
        want = Math.round(want * 100) / 100.0;
        if (Math.abs(want - q) < 0.01) {
            return;
        }
        workers.get(h).setCpuLimit(i, want);
        i.restart(nowS + RESTART_S);
        lastEviction.put(i.id(), nowS);
        evictions++;
    }

    private static double weighted(List<double[]> hist, double nowS, double p) {
        List<double[]> sorted = new ArrayList<>(hist);
        sorted.sort(Comparator.comparingDouble(a -> a[1]));
        double total = 0;
        for (double[] s : sorted) {
            total += Math.pow(0.5, (nowS - s[0]) / HALF_LIFE_S);
        }
        double acc = 0;
        for (double[] s : sorted) {
            acc += Math.pow(0.5, (nowS - s[0]) / HALF_LIFE_S);
            if (acc >= p * total) {
                return s[1];
            }
        }
        return sorted.get(sorted.size() - 1)[1];
    }
}
