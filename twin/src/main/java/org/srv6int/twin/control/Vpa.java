// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import java.util.IdentityHashMap;
import java.util.TreeMap;
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
 * Kubernetes-VPA baseline, CPU only (docs/twin.md section 3), modelled on the VPA recommender and
 * updater of kubernetes/autoscaler: the recommender feeds each container's CPU usage into a
 * decaying histogram and recommends target = P90, lower bound = P50 and upper bound = P95, each
 * plus the 15 % margin, the bounds widened by VPA's confidence multipliers while the history is
 * short; the updater evicts a pod whose request is outside [lower bound, upper bound] (or, once
 * the pod is older than the in-bounds lifetime threshold, differs from the target by 10 % or
 * more), one pod of a single-replica workload at a time, and the pod comes back with the target
 * as its request and limit (Kubernetes 1.23, the paper's version, has no in-place resize).
 *
 * <p>VPA's flags are set so that it acts within an experiment: its minute-long cadences become
 * seconds ({@link #RECOMMEND_S}, {@link #UPDATE_S}) and its day-long history scales
 * (histogram half-life and confidence interval, 24 h each; in-bounds lifetime threshold, 12 h)
 * become {@link #DAY_S} and half of it. Usage is what the cgroup shows, averaged over the
 * recommender period: it cannot exceed the pod's quota, so a throttled vNF grows by the margin per
 * eviction, as with real VPA. It only uses free cores, never takes them from another pod, and
 * never touches LLC, MBA or frequency; memory requests change nothing we model.
 */
public final class Vpa {
    /** Recommender period (VPA's --recommender-interval, 1 min by default). */
    public static final double RECOMMEND_S = 1.0;
    /** Updater period (VPA's --updater-interval, 1 min by default). */
    public static final double UPDATE_S = 1.0;
    /**
     * What VPA's day becomes: the CPU histogram's half-life and the confidence interval
     * (--cpu-histogram-decay-half-life and --confidence-interval-cpu, 24 h each by default).
     */
    public static final double DAY_S = 60.0;
    /** In-bounds eviction lifetime threshold (VPA: 12 h, half its day). */
    public static final double LIFETIME_S = DAY_S / 2;
    /** Eviction until the re-created pod serves again (the vNF drops its traffic meanwhile). */
    public static final double RESTART_S = 1.0;
    /** Safety margin (--recommendation-margin-fraction). */
    static final double MARGIN = 0.15;
    /** Target, lower and upper bound percentiles of CPU usage (VPA's defaults). */
    static final double TARGET_P = 0.90;
    static final double LOWER_P = 0.50;
    static final double UPPER_P = 0.95;
    /** Ignore an in-bounds change smaller than this (--pod-update-threshold). */
    static final double MIN_CHANGE = 0.10;
    /** Minimum CPU recommendation, cores (--pod-recommendation-min-cpu-millicores 25). */
    static final double MIN_CPU = 0.025;

    private final List<Host> hosts;
    private final Map<Host, SimulatedWorker> workers = new IdentityHashMap<>();
    private final Map<String, CpuHistogram> history = new LinkedHashMap<>();
    private final Map<String, double[]> usageSum = new LinkedHashMap<>();
    private final Map<String, Double> startedAt = new LinkedHashMap<>();
    private double nextRecommend = RECOMMEND_S;
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

    /** Called after every tick of {@code dtS} seconds that ended at {@code nowS}. */
    public void tick(double nowS, double dtS) {
        for (Host h : hosts) {
            for (VnfInstance i : h.instances()) {
                if (i.ready(nowS) && !i.down(nowS)) {
                    double[] s = usageSum.computeIfAbsent(i.id(), k -> new double[2]);
                    s[0] += i.busyCores() * dtS;
                    s[1] += dtS;
                    startedAt.putIfAbsent(i.id(), nowS - dtS);
                }
            }
        }
        if (nowS + 1e-9 >= nextRecommend) {
            nextRecommend += RECOMMEND_S;
            recommend(nowS);
        }
        if (nowS + 1e-9 >= nextUpdate) {
            nextUpdate += UPDATE_S;
            for (Host h : hosts) {
                update(h, nowS);
            }
        }
    }

    /** One usage sample per running container: its mean cgroup usage since the last one. */
    private void recommend(double nowS) {
        for (Host h : hosts) {
            for (VnfInstance i : h.instances()) {
                double[] s = usageSum.remove(i.id());
                if (s == null || s[1] < RECOMMEND_S / 2) {
                    continue; // not running for most of the period (starting, restarting)
                }
                // VPA keeps one history per container of the workload, across its pods
                history.computeIfAbsent(i.vnf(), k -> new CpuHistogram())
                        .add(s[0] / s[1], i.allocation().get(Resource.CPU_QUOTA), nowS);
            }
        }
    }

    /** The updater's pass over one node: pods in VPA's priority order, larger change first. */
    private void update(Host h, double nowS) {
        List<Object[]> candidates = new ArrayList<>();
        for (VnfInstance i : h.instances()) {
            CpuHistogram hist = history.get(i.vnf());
            if (hist == null || !i.ready(nowS) || i.down(nowS)) {
                continue; // no recommendation yet, or the pod is not running
            }
            double q = i.allocation().get(Resource.CPU_QUOTA);
            double target = hist.estimate(TARGET_P, 0, 0);
            double lower = hist.estimate(LOWER_P, 0.001, -2.0);
            double upper = hist.estimate(UPPER_P, 1.0, 1.0);
            boolean outside = q < lower || q > upper;
            double change = Math.abs(target - q) / q;
            boolean longLived = nowS - startedAt.getOrDefault(i.id(), nowS) >= LIFETIME_S;
            if (outside || longLived && change >= MIN_CHANGE) {
                candidates.add(new Object[] {i, target, change});
            }
        }
        candidates.sort(Comparator.comparingDouble(c -> -(double) c[2]));
        for (Object[] c : candidates) {
            evict(h, (VnfInstance) c[0], (double) c[1], nowS);
        }
    }

    private void evict(Host h, VnfInstance i, double target, double nowS) {
        double q = i.allocation().get(Resource.CPU_QUOTA);
        // the re-created pod must fit the node: its request is capped at what is free
        double want = Math.max(Math.max(Resource.CPU_QUOTA.min(), MIN_CPU),
                Math.min(target, q + h.free(Resource.CPU_QUOTA)));
        want = Math.round(want * 1000) / 1000.0;
        if (Math.abs(want - q) < 0.001) {
            return;
        }
        workers.get(h).setCpuLimit(i, want);
        i.restart(nowS + RESTART_S);
        startedAt.put(i.id(), nowS + RESTART_S);
        usageSum.remove(i.id());
        evictions++;
    }

    /**
     * VPA's decaying CPU usage histogram: exponential buckets (first 0.01 core, ratio 1.05),
     * each sample weighted by the container's request (at least 0.1 core) and by
     * 2^(t / half-life); a percentile is the end of its bucket.
     */
    static final class CpuHistogram {
        static final double FIRST_BUCKET = 0.01;
        static final double RATIO = 1.05;
        static final double MIN_WEIGHT = 0.1;
        private final Map<Integer, Double> weights = new TreeMap<>();
        private double total;
        private double first = Double.NaN;
        private double last;
        private long samples;

        void add(double cores, double request, double nowS) {
            int b = bucket(cores);
            double w = Math.max(request, MIN_WEIGHT) * Math.pow(2, nowS / DAY_S);
            weights.merge(b, w, Double::sum);
            total += w;
            if (Double.isNaN(first)) {
                first = nowS;
            }
            last = nowS;
            samples++;
        }

        static int bucket(double cores) {
            if (cores < FIRST_BUCKET) {
                return 0;
            }
            return (int) Math.floor(Math.log(cores * (RATIO - 1) / FIRST_BUCKET + 1) / Math.log(RATIO));
        }

        static double bucketStart(int b) {
            return FIRST_BUCKET * (Math.pow(RATIO, b) - 1) / (RATIO - 1);
        }

        double percentile(double p) {
            double acc = 0;
            int b = 0;
            for (Map.Entry<Integer, Double> e : weights.entrySet()) {
                acc += e.getValue();
                b = e.getKey();
                if (acc >= p * total) {
                    break;
                }
            }
            return bucketStart(b + 1);
        }

        /** History length in VPA days: the shorter of the sampled span and the sample count. */
        double confidence() {
            return Math.min((last - first) / DAY_S, samples * RECOMMEND_S / DAY_S);
        }

        /**
         * Percentile plus margin, times VPA's confidence multiplier (1 + m / confidence)^e
         * (m = 0 for the target), at least the minimum recommendation.
         */
        double estimate(double p, double m, double e) {
            double v = percentile(p) * (1 + MARGIN);
            if (m != 0) {
                v *= Math.pow(1 + m / confidence(), e);
            }
            return Math.max(MIN_CPU, v);
        }
    }
}
