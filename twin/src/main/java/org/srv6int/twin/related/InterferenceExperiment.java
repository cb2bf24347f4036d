// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.related;

import java.util.stream.Collectors;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfClass;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.loop.ChainRouting;
import org.srv6int.app.loop.Colocation;
import org.srv6int.app.loop.InterferenceAwareRouting;
import org.srv6int.app.loop.InterferenceLearner;
import org.srv6int.app.loop.NodeResidents;
import org.srv6int.app.loop.VnfObservation;
import org.srv6int.app.placement.InterferenceMatrix;
import org.srv6int.twin.report.Json;

/**
 * Interference-aware co-location (vnf-interference.txt): chains of two vNFs of random classes
 * arrive one vNF at a time on twelve workers of two vNF slots (every worker ends with a pair,
 * the paper's measurement); each vNF is placed by the app's
 * placement step under three policies and the chains' throughput loss is measured.
 *
 * <ul>
 *   <li>{@code mostfree}: the node with the most free CPU (Algorithm 4 line 10 as written);</li>
 *   <li>{@code seeded}: the app's {@link InterferenceAwareRouting} in front of it, with the
 *       paper's matrix and no learning;</li>
 *   <li>{@code ours}: the same step with the app's {@link InterferenceLearner} moving the matrix
 *       from the telemetry windows after each arrival, kept across trials.</li>
 * </ul>
 *
 * <p>The "hardware" (what a vNF really loses next to another) is the paper's matrix with every
 * cell moved by a fixed seeded amount in [-12, +12] points: the testbed is not the paper's, so
 * the seed is close but not right. A vNF's capacity is its alone capacity times its normalized
 * throughput next to each co-resident; a chain's is that of its slower vNF. Telemetry windows
 * are synthesised from that (M/M/1 tail at the offered rate) and fed to the learner as the
 * loop's observations. Loss = 1 - mean normalized chain capacity.
 */
public final class InterferenceExperiment {

    /** Trials (arrival sequences) per policy. */
    public static final int TRIALS = 40;
    static final int NODES = 12;
    static final long NODE_MILLIS = 2000;
    static final long VNF_MILLIS = 1000;
    static final int CHAINS = 12;
    static final double ALONE_PPS = 100_000;
    static final double[] CLASS_WEIGHTS = {0.30, 0.20, 0.20, 0.15, 0.15};
    static final List<String> POLICIES = List.of("mostfree", "seeded", "ours");

    private InterferenceExperiment() {
    }

    /** The outcome of one policy over all trials. */
    public static final class Result {
        /** Policy key. */
        public final String policy;
        /** Loss per trial, 0..1. */
        public final List<Double> lossPerTrial = new ArrayList<>();
        /** Rows: trial, chain, vNF index, class, node, normalized throughput. */
        public final List<String> rows = new ArrayList<>();
        /** Mean absolute error of the matrix against the hardware at the end, points. */
        public double matrixErrorPts;
        /** Observations the learner made. */
        public long learned;

        Result(String policy) {
            this.policy = policy;
        }

        /** @return mean loss over the trials, 0..1 */
        public double meanLoss() {
            double s = 0;
            for (double l : lossPerTrial) {
                s += l;
            }
            return s / lossPerTrial.size();
        }

        /** @return mean loss over the last half of the trials, 0..1 */
        public double lateLoss() {
            double s = 0;
            int n = 0;
            for (int i = lossPerTrial.size() / 2; i < lossPerTrial.size(); i++) {
                s += lossPerTrial.get(i);
                n++;
            }
            return s / n;
        }
    }

    /** The testbed's real interference: the paper's matrix moved by a seeded amount per cell. */
    static double[][] hardware(long seed) {
        Random r = new Random(seed * 7919 + 17);
        VnfClass[] cs = VnfClass.values();
        double[][] h = new double[cs.length][cs.length];
        for (VnfClass t : cs) {
            for (VnfClass c : cs) {
                double v = InterferenceMatrix.paper(t, c) + (r.nextDouble() * 0.24 - 0.12);
                h[t.ordinal()][c.ordinal()] = Math.max(0.3, Math.min(0.98, v));
            }
        }
        return h;
    }

    /** One trial's world: placed vNFs by node; routing, co-location and residents over it. */
    private static final class World implements ChainRouting, Colocation, NodeResidents {
        final Map<VnfKey, VnfClass> cls = new LinkedHashMap<>();
        final Map<VnfKey, String> node = new LinkedHashMap<>();

        long free(String n) {
            long used = 0;
            for (String at : node.values()) {
                used += at.equals(n) ? VNF_MILLIS : 0;
            }
            return NODE_MILLIS - used;
        }

        List<NodeResources> candidates() {
            List<NodeResources> out = new ArrayList<>();
            for (int i = 1; i <= NODES; i++) {
                String n = "w" + i;
                if (free(n) >= VNF_MILLIS) {
                    out.add(new NodeResources(n, free(n), 1L << 32));
                }
            }
            return out;
        }

        /** Most free CPU first, then the name: the placement the baseline uses alone. */
        @Override
        public List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count) {
            NodeResources best = null;
            for (NodeResources n : candidates) {
                if (n.freeCpuMillis() >= VNF_MILLIS && (best == null || n.freeCpuMillis() > best.freeCpuMillis()
                        || n.freeCpuMillis() == best.freeCpuMillis() && n.node().compareTo(best.node()) < 0)) {
                    best = n;
                }
            }
            if (best == null) {
                throw new IllegalStateException("no candidate has " + VNF_MILLIS + "m free");
            }
            List<String> out = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                out.add(best.node());
            }
            return out;
        }

        @Override
        public void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas) {
            // Placement only: no multipath group in this experiment.
        }

        @Override
        public void drainReplica(VnfKey vnf, String replicaId) {
            // Placement only.
        }

        @Override
        public void removeReplica(VnfKey vnf, String replicaId) {
            // Placement only.
        }

        @Override
        public Map<String, String> replicaNodes(VnfKey vnf) {
            String n = node.get(vnf);
            return n == null ? Map.of() : Map.of("r0", n);
        }

        @Override
        public long cpuRequestMillis(VnfKey vnf) {
            return VNF_MILLIS;
        }

        @Override
        public Map<String, List<VnfClass>> classesByNode() {
            Map<String, List<VnfClass>> out = new TreeMap<>();
            node.forEach((k, n) -> out.computeIfAbsent(n, x -> new ArrayList<>()).add(cls.get(k)));
            return out;
        }

        @Override
        public Optional<VnfClass> classOf(VnfKey vnf) {
            return Optional.ofNullable(cls.get(vnf));
        }

        /** A vNF's normalized capacity next to its co-residents, by the hardware. */
        double normalized(VnfKey k, double[][] hw) {
            double f = 1;
            for (Map.Entry<VnfKey, String> e : node.entrySet()) {
                if (!e.getKey().equals(k) && e.getValue().equals(node.get(k))) {
                    f *= hw[cls.get(k).ordinal()][cls.get(e.getKey()).ordinal()];
                }
            }
            return f;
        }

        /** One telemetry window of every placed vNF, as the loop would see it. */
        List<VnfObservation> window(double[][] hw) {
            List<VnfObservation> out = new ArrayList<>();
            for (VnfKey k : node.keySet()) {
                double mu = ALONE_PPS * normalized(k, hw);
                double lambda = Math.min(0.2 * ALONE_PPS, 0.8 * mu);
                long p95 = Math.round(Math.log(20) / (mu - lambda) * 1e9);
                out.add(new VnfObservation(k, 1_000_000, lambda, p95, 100, List.of("r0"),
                                           Map.of("r0", Math.round(lambda * 0.5))));
            }
            return out;
        }
    }

    /**
     * Runs one policy over all trials.
     *
     * @param policy one of mostfree, seeded, ours
     * @param seed   seed of the arrivals and the hardware
     * @return the policy's figures
     */
    public static Result run(String policy, long seed) {
        double[][] hw = hardware(seed);
        Result res = new Result(policy);
        InterferenceMatrix matrix = new InterferenceMatrix();
        InterferenceLearner learner = new InterferenceLearner(matrix);
        VnfClass[] cs = VnfClass.values();
        for (int trial = 0; trial < TRIALS; trial++) {
            Random r = new Random(seed * 1_000_003 + trial);
            World w = new World();
            ChainRouting place = "mostfree".equals(policy) ? w : new InterferenceAwareRouting(w, matrix, w);
            for (int c = 0; c < CHAINS; c++) {
                for (int i = 0; i < 2; i++) {
                    VnfKey k = VnfKey.of(SfcId.of(c + 1), i);
                    w.cls.put(k, pick(r, cs));
                    if ("ours".equals(policy)) {
                        learner.observe(w.window(hw), w, w);
                    }
                    w.node.put(k, place.placeReplicas(k, w.candidates(), 1).get(0));
                    if ("ours".equals(policy)) {
                        for (int s = 0; s <= InterferenceLearner.SETTLE_WINDOWS; s++) {
                            learner.observe(w.window(hw), w, w);
                        }
                    }
                }
            }
            double sum = 0;
            for (int c = 0; c < CHAINS; c++) {
                double chain = 1;
                for (int i = 0; i < 2; i++) {
                    VnfKey k = VnfKey.of(SfcId.of(c + 1), i);
                    double n = w.normalized(k, hw);
                    chain = Math.min(chain, n);
                    res.rows.add(String.format(Locale.ROOT, "%d,%s,%d,%d,%s,%s,%.4f", trial, policy, c + 1, i,
                                               w.cls.get(k).roman(), w.node.get(k), n));
                }
                sum += chain;
            }
            res.lossPerTrial.add(1 - sum / CHAINS);
        }
        double err = 0;
        for (VnfClass t : cs) {
            for (VnfClass c : cs) {
                err += Math.abs(matrix.normalized(t, c) - hw[t.ordinal()][c.ordinal()]);
            }
        }
        res.matrixErrorPts = err / (cs.length * cs.length) * 100;
        res.learned = learner.learned();
        return res;
    }

    private static VnfClass pick(Random r, VnfClass[] cs) {
        double x = r.nextDouble();
        for (int i = 0; i < cs.length; i++) {
            x -= CLASS_WEIGHTS[i];
            if (x < 0) {
                return cs[i];
            }
        }
        return cs[cs.length - 1];
    }

    /**
     * Runs every policy and writes placements.csv, summary.json and interference.png.
     *
     * @param dir   output directory
     * @param plots whether to write the PNG
     * @param seed  seed of the arrivals and the hardware
     * @param out   where the ratio line goes
     * @throws IOException if an output cannot be written
     */
    public static void write(Path dir, boolean plots, long seed, PrintStream out) throws IOException {
        Map<String, Result> rs = new LinkedHashMap<>();
        for (String p : POLICIES) {
            rs.put(p, run(p, seed));
        }
        Files.createDirectories(dir);
        try (Writer w = Files.newBufferedWriter(dir.resolve("placements.csv"), StandardCharsets.UTF_8)) {
            w.write("trial,policy,chain,vnf,class,node,normalized_throughput\n");
            for (Result r : rs.values()) {
                for (String row : r.rows) {
                    w.write(row + "\n");
                }
            }
        }
        Map<String, Object> sum = new LinkedHashMap<>();
        sum.put("scenario", "interference");
        sum.put("title", "Throughput loss of co-located chains: interference-aware vs most-free placement"
                + " (vnf-interference.txt)");
        sum.put("seed", seed);
        sum.put("trials", TRIALS);
        Map<String, Object> pol = new LinkedHashMap<>();
        for (Result r : rs.values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("mean_loss_pct", RelatedExperiments.round(100 * r.meanLoss()));
            m.put("late_half_loss_pct", RelatedExperiments.round(100 * r.lateLoss()));
            m.put("matrix_error_vs_hardware_pts", RelatedExperiments.round(r.matrixErrorPts));
            m.put("learner_observations", r.learned);
            m.put("loss_per_trial_pct", r.lossPerTrial.stream().map(x -> RelatedExperiments.round(100 * x))
                    .collect(Collectors.toList()));
            pol.put(r.policy, m);
        }
        sum.put("policies", pol);
        Result ours = rs.get("ours");
        Map<String, Object> ratio = new LinkedHashMap<>();
        ratio.put("loss_mostfree_over_ours", RelatedExperiments.round(rs.get("mostfree").meanLoss() / ours.meanLoss()));
        ratio.put("loss_seeded_over_ours", RelatedExperiments.round(rs.get("seeded").meanLoss() / ours.meanLoss()));
        sum.put("ratios", ratio);
        sum.put("paper", Map.of("throughput_degradation_pct_range", List.of(12.36, 50.3),
                                "note", "per target type, mean over competitors (Table III); a model of the"
                                        + " testbed, not the paper's servers"));
        Files.writeString(dir.resolve("summary.json"), Json.write(sum), StandardCharsets.UTF_8);
        if (plots) {
            CategoryChart bars = new CategoryChartBuilder().width(900).height(330)
                    .title("Mean throughput loss of co-located chains").xAxisTitle("placement")
                    .yAxisTitle("loss (%)").build();
            List<String> names = new ArrayList<>();
            List<Double> vals = new ArrayList<>();
            for (Result r : rs.values()) {
                names.add(r.policy);
                vals.add(100 * r.meanLoss());
            }
            bars.addSeries("loss", names, vals);
            XYChart trials = RelatedExperiments.chart("Loss per trial (ours learns across trials)", "loss (%)");
            trials.setXAxisTitle("trial");
            for (Result r : rs.values()) {
                double[] x = new double[TRIALS];
                double[] y = new double[TRIALS];
                for (int i = 0; i < TRIALS; i++) {
                    x[i] = i;
                    y[i] = 100 * r.lossPerTrial.get(i);
                }
                trials.addSeries(r.policy, x, y);
            }
            RelatedExperiments.writeStack(dir.resolve("interference.png"),
                    org.knowm.xchart.BitmapEncoder.getBufferedImage(bars),
                    org.knowm.xchart.BitmapEncoder.getBufferedImage(trials));
        }
        out.println(String.format(Locale.ROOT, "twin: interference: mean chain throughput loss %.1f %% (ours, learning)"
                + " vs %.1f %% (most-free, ratio %.2f) and %.1f %% (paper seed only, ratio %.2f); paper: 12.4-50.3 %%"
                + " from co-location -> %s", 100 * ours.meanLoss(), 100 * rs.get("mostfree").meanLoss(),
                rs.get("mostfree").meanLoss() / ours.meanLoss(), 100 * rs.get("seeded").meanLoss(),
                rs.get("seeded").meanLoss() / ours.meanLoss(), dir));
    }
}
