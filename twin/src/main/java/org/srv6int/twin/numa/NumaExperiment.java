// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.numa;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.srv6int.agent.numa.NumaDecision;
import org.srv6int.agent.numa.NumaNeed;
import org.srv6int.agent.numa.NumaProfile;
import org.srv6int.agent.numa.NumaSfp;
import org.srv6int.twin.model.VnfModels;
import org.srv6int.twin.numa.NumaServerModel.Isolation;
import org.srv6int.twin.report.Json;
import org.srv6int.twin.report.Outputs;
import org.srv6int.twin.report.Plots;

/**
 * {@code tools/twin numasfp}: the paper's §VI-A simulation (numasfp.txt Figs. 10-12). Four
 * servers of two NUMA nodes each, five chains of three vNFs per server, 120 s of time-varying
 * traffic; ANAT (the mean over the seconds of delivered over offered throughput) for NUMASFP
 * as the node agent runs it ({@link NumaSfp}, with migration) against Node-first, Node-balance
 * and Octans (static placements; every mechanism gets the same LLC/MB allocation, as in the
 * paper). Two more rows run ours without the joint LLC+MB partitioning (Fig. 7's point).
 */
public final class NumaExperiment {

    /** Servers (§VI-A). */
    public static final int SERVERS = 4;
    /** Chains per server (§VI-A: five of the 20 on each). */
    public static final int CHAINS_PER_SERVER = 5;
    /** vNFs per chain (§VI-A). */
    public static final int LENGTH = 3;
    /** Seconds of traffic (§VI-A). */
    public static final int SECONDS = 120;
    /** ANAT gains the paper reports for NUMASFP (Fig. 10). */
    static final Map<Mechanism, Double> PAPER_GAIN = Map.of(Mechanism.OCTANS, 1.16, Mechanism.NODE_BALANCE, 1.25,
            Mechanism.NODE_FIRST, 1.23);

    /** The mechanisms compared. */
    public enum Mechanism {
        /** NUMASFP: Algorithm 1 placement, resource adjustment, migration (Algorithm 2). */
        OURS("ours", "NUMASFP (ours)", true, Isolation.JOINT),
        /** Octans [8]: highest-rate chains on the NIC's node first; static. */
        OCTANS("octans", "Octans", false, Isolation.JOINT),
        /** Whole chains spread to balance the nodes' core use; static. */
        NODE_BALANCE("node-balance", "Node-balance", false, Isolation.JOINT),
        /** Chains in arrival order on the NIC's node until it is full, then the other; static. */
        NODE_FIRST("node-first", "Node-first", false, Isolation.JOINT),
        /** Ours with LLC ways partitioned but memory bandwidth not (ablation, Fig. 7). */
        OURS_LLC_ONLY("ours-llc-only", "ours, LLC only", true, Isolation.LLC_ONLY),
        /** Ours with neither partitioned (ablation, Fig. 7). */
        OURS_UNMANAGED("ours-unmanaged", "ours, unmanaged", true, Isolation.NONE);

        final String key;
        final String label;
        final boolean migrate;
        final Isolation isolation;

        Mechanism(String key, String label, boolean migrate, Isolation isolation) {
            this.key = key;
            this.label = label;
            this.migrate = migrate;
            this.isolation = isolation;
        }

        /**
         * Name in files.
         *
         * @return key
         */
        public String key() {
            return key;
        }
    }

    /** What one run of every mechanism produced. */
    public static final class Result {
        final long seed;
        final Map<Mechanism, double[][]> delivered = new EnumMap<>(Mechanism.class);
        final double[][] offered = new double[SERVERS][SECONDS];
        final Map<Mechanism, Integer> migrations = new EnumMap<>(Mechanism.class);
        final Map<Mechanism, Integer> swaps = new EnumMap<>(Mechanism.class);
        final List<String> moves = new ArrayList<>();

        Result(long seed) {
            this.seed = seed;
        }

        /**
         * ANAT of a mechanism over all four servers.
         *
         * @param m mechanism
         * @return mean of Σ delivered / Σ offered over the seconds
         */
        public double anat(Mechanism m) {
            double sum = 0;
            for (int t = 0; t < SECONDS; t++) {
                double d = 0;
                double o = 0;
                for (int s = 0; s < SERVERS; s++) {
                    d += delivered.get(m)[s][t];
                    o += offered[s][t];
                }
                sum += d / o;
            }
            return sum / SECONDS;
        }

        /**
         * ANAT of a mechanism on one server (Fig. 12).
         *
         * @param m mechanism
         * @param server 0..3
         * @return ANAT
         */
        public double anat(Mechanism m, int server) {
            double sum = 0;
            for (int t = 0; t < SECONDS; t++) {
                sum += delivered.get(m)[server][t] / offered[server][t];
            }
            return sum / SECONDS;
        }

        /**
         * Chain moves (migrations + swaps) a mechanism made.
         *
         * @param m mechanism
         * @return count
         */
        public int moves(Mechanism m) {
            return migrations.getOrDefault(m, 0) + swaps.getOrDefault(m, 0);
        }
    }

    private NumaExperiment() {
    }

    /**
     * Runs every mechanism on the same chains and traffic.
     *
     * @param seed random seed (chains' vNF types and traffic)
     * @return result
     */
    public static Result run(long seed) {
        NumaProfile profile = NumaProfile.paperTableOne();
        Random rnd = new Random(seed);
        int n = SERVERS * CHAINS_PER_SERVER;
        List<List<String>> types = NumaTraffic.chainTypes(rnd, n, LENGTH, profile.types());
        double[][] rates = NumaTraffic.traces(rnd, n, SECONDS);
        Result r = new Result(seed);
        for (int s = 0; s < SERVERS; s++) {
            for (int t = 0; t < SECONDS; t++) {
                for (int i = 0; i < CHAINS_PER_SERVER; i++) {
                    r.offered[s][t] += rates[s * CHAINS_PER_SERVER + i][t];
                }
            }
        }
        NumaServerModel model = new NumaServerModel(profile);
        for (Mechanism m : Mechanism.values()) {
            double[][] out = new double[SERVERS][SECONDS];
            for (int s = 0; s < SERVERS; s++) {
                runServer(r, m, s, profile, model, types, rates, out[s]);
            }
            r.delivered.put(m, out);
        }
        return r;
    }

    private static void runServer(Result r, Mechanism m, int s, NumaProfile profile, NumaServerModel model,
                                  List<List<String>> types, double[][] rates, double[] out) {
        NumaSfp.Settings settings = new NumaSfp.Settings();
        settings.migrate = m.migrate;
        NumaSfp engine = new NumaSfp(profile, NumaServerModel.NIC_NODE, NumaServerModel.nodes(), settings);
        Map<String, List<String>> chainTypes = new LinkedHashMap<>();
        Map<String, Integer> row = new LinkedHashMap<>();
        for (int i = 0; i < CHAINS_PER_SERVER; i++) {
            String id = "s" + (s + 1) + "-sfc" + (i + 1);
            chainTypes.put(id, types.get(s * CHAINS_PER_SERVER + i));
            row.put(id, s * CHAINS_PER_SERVER + i);
        }
        initialPlacement(m, engine, chainTypes, rates(row, rates, 0));
        Map<String, Double> measured = null; // cores per Gbps of each chain with the measured vNF models
        if (VnfModels.selected() == VnfModels.MEASURED) {
            measured = new LinkedHashMap<>();
            for (Map.Entry<String, List<String>> e : chainTypes.entrySet()) {
                measured.put(e.getKey(), NumaServerModel.measuredCoresPerGbps(e.getValue()));
            }
        }
        Set<String> violated = new HashSet<>();
        for (int t = 0; t < SECONDS; t++) {
            Map<String, Double> now = rates(row, rates, t);
            Map<String, Integer> nodeBefore = new LinkedHashMap<>();
            Map<String, NumaNeed> allocBefore = new LinkedHashMap<>();
            for (String id : chainTypes.keySet()) {
                nodeBefore.put(id, engine.node(id));
                allocBefore.put(id, engine.allocation(id));
            }
            for (NumaDecision d : engine.interval(now, violated)) {
                if (d.kind() == NumaDecision.Kind.MIGRATE || d.kind() == NumaDecision.Kind.SWAP) {
                    (d.kind() == NumaDecision.Kind.SWAP ? r.swaps : r.migrations).merge(m, 1, Integer::sum);
                    if (m == Mechanism.OURS) {
                        r.moves.add(String.format(Locale.ROOT, "t=%d s %s", t, d));
                    }
                }
            }
            violated = new HashSet<>();
            Map<String, Double> delivered = new LinkedHashMap<>();
            Map<String, Integer> nodes = new LinkedHashMap<>();
            for (String id : chainTypes.keySet()) {
                List<String> ty = chainTypes.get(id);
                int node = engine.node(id);
                nodes.put(id, node);
                double phi = model.throughput(ty, node, engine.allocation(id), now.get(id), m.isolation,
                        shares(engine, chainTypes.keySet(), id, node));
                if (node != nodeBefore.get(id)) {
                    // the second of a move: no better than where it came from (Fig. 4, moved by cpuset)
                    phi = Math.min(phi, model.throughput(ty, nodeBefore.get(id), allocBefore.get(id), now.get(id),
                            m.isolation, true));
                }
                delivered.put(id, phi);
            }
            if (measured != null) {
                NumaServerModel.capByCores(delivered, nodes, measured);
            }
            double sum = 0;
            for (Map.Entry<String, Double> e : delivered.entrySet()) {
                if (e.getValue() < now.get(e.getKey()) - 1e-6) {
                    violated.add(e.getKey());
                }
                sum += e.getValue();
            }
            out[t] = sum;
        }
    }

    private static boolean shares(NumaSfp engine, Iterable<String> ids, String id, int node) {
        for (String o : ids) {
            if (!o.equals(id) && engine.node(o) == node) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, Double> rates(Map<String, Integer> row, double[][] rates, int t) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : row.entrySet()) {
            m.put(e.getKey(), rates[e.getValue()][t]);
        }
        return m;
    }

    private static void initialPlacement(Mechanism m, NumaSfp engine, Map<String, List<String>> types,
                                         Map<String, Double> rates) {
        switch (m) {
            case NODE_FIRST:
                // arrival order, NIC's node while its resources last
                for (Map.Entry<String, List<String>> e : types.entrySet()) {
                    engine.place(e.getKey(), e.getValue(), rates.get(e.getKey()));
                }
                break;
            case NODE_BALANCE: {
                int[] cores = new int[2];
                for (Map.Entry<String, List<String>> e : types.entrySet()) {
                    int node = cores[1] < cores[0] ? 1 : 0;
                    engine.pin(e.getKey(), e.getValue(), node, rates.get(e.getKey()));
                    cores[node] += e.getValue().size();
                }
                break;
            }
            default:
                // NUMASFP and Octans: Algorithm 1 lines 3-7, highest rate first
                engine.placeAll(types, rates);
        }
    }

    /**
     * Writes anat.csv, throughput.csv, summary.json and numasfp.png under dir.
     *
     * @param r result
     * @param dir out/numasfp
     * @param plots whether to write the PNG
     * @throws IOException if a file cannot be written
     */
    public static void write(Result r, Path dir, boolean plots) throws IOException {
        Files.createDirectories(dir);
        try (Writer w = Files.newBufferedWriter(dir.resolve("anat.csv"), StandardCharsets.UTF_8)) {
            w.write("mechanism,server,anat,moves\n");
            for (Mechanism m : Mechanism.values()) {
                w.write(m.key + ",all," + Json.num(round(r.anat(m))) + "," + r.moves(m) + "\n");
                for (int s = 0; s < SERVERS; s++) {
                    w.write(m.key + "," + (s + 1) + "," + Json.num(round(r.anat(m, s))) + ",\n");
                }
            }
        }
        try (Writer w = Files.newBufferedWriter(dir.resolve("throughput.csv"), StandardCharsets.UTF_8)) {
            w.write("t_s,server,mechanism,offered_gbps,delivered_gbps,nat\n");
            for (int s = 0; s < SERVERS; s++) {
                for (int t = 0; t < SECONDS; t++) {
                    for (Mechanism m : Mechanism.values()) {
                        double d = r.delivered.get(m)[s][t];
                        w.write(t + "," + (s + 1) + "," + m.key + "," + Json.num(round(r.offered[s][t])) + ","
                                + Json.num(round(d)) + "," + Json.num(round(d / r.offered[s][t])) + "\n");
                    }
                }
            }
        }
        Outputs.writeJson(dir.resolve("summary.json"), summary(r));
        if (plots) {
            List<BufferedImage> panels = new ArrayList<>();
            panels.add(BitmapEncoder.getBufferedImage(bars("Fig. 10: ANAT of four servers", r, -1)));
            panels.add(BitmapEncoder.getBufferedImage(timeline(r, 0)));
            panels.add(BitmapEncoder.getBufferedImage(bars("Fig. 12: ANAT of server 1", r, 0)));
            ImageIO.write(Plots.stack(panels), "png", dir.resolve("numasfp.png").toFile());
        }
    }

    /**
     * The summary object (summary.json).
     *
     * @param r result
     * @return ordered map
     */
    public static Map<String, Object> summary(Result r) {
        Map<String, Object> sum = new LinkedHashMap<>();
        sum.put("scenario", "numasfp");
        sum.put("title", "NUMASFP Figs. 10-12: ANAT of " + SERVERS + " servers, " + CHAINS_PER_SERVER
                + " chains of " + LENGTH + " vNFs each, " + SECONDS + " s");
        sum.put("seed", r.seed);
        Map<String, Object> mech = new LinkedHashMap<>();
        for (Mechanism m : Mechanism.values()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("anat", round(r.anat(m)));
            List<Double> per = new ArrayList<>();
            for (int s = 0; s < SERVERS; s++) {
                per.add(round(r.anat(m, s)));
            }
            one.put("anat_per_server", per);
            one.put("migrations", r.migrations.getOrDefault(m, 0));
            one.put("swaps", r.swaps.getOrDefault(m, 0));
            mech.put(m.key, one);
        }
        sum.put("mechanisms", mech);
        Map<String, Object> ratios = new LinkedHashMap<>();
        for (Mechanism b : PAPER_GAIN.keySet().stream().sorted().toArray(Mechanism[]::new)) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("ours_over_baseline", round(r.anat(Mechanism.OURS) / r.anat(b)));
            one.put("paper", PAPER_GAIN.get(b));
            ratios.put(b.key, one);
        }
        sum.put("ratios", ratios);
        sum.put("moves_of_ours", r.moves);
        return sum;
    }

    /**
     * One line per baseline: ours vs it as a ratio, beside the paper's.
     *
     * @param r result
     * @return lines
     */
    public static List<String> ratioLines(Result r) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "numasfp: ANAT of %d servers: ours %.3f (%d moves)", SERVERS,
                r.anat(Mechanism.OURS), r.moves(Mechanism.OURS)));
        for (Mechanism b : new Mechanism[] {Mechanism.OCTANS, Mechanism.NODE_BALANCE, Mechanism.NODE_FIRST}) {
            out.add(String.format(Locale.ROOT, "numasfp: ours vs %-12s %.3f / %.3f = x%.2f (paper x%.2f)", b.label,
                    r.anat(Mechanism.OURS), r.anat(b), r.anat(Mechanism.OURS) / r.anat(b), PAPER_GAIN.get(b)));
        }
        for (Mechanism a : new Mechanism[] {Mechanism.OURS_LLC_ONLY, Mechanism.OURS_UNMANAGED}) {
            out.add(String.format(Locale.ROOT, "numasfp: ablation %-16s ANAT %.3f (Fig. 7: joint LLC+MB needed)",
                    a.label, r.anat(a)));
        }
        return out;
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }

    private static CategoryChart bars(String title, NumaExperiment.Result r, int server) {
        CategoryChart c = new CategoryChartBuilder().width(900).height(330).title(title)
                .xAxisTitle("mechanism").yAxisTitle("ANAT").build();
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotBackgroundColor(Color.WHITE);
        c.getStyler().setLegendVisible(false);
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(1.0);
        List<String> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (Mechanism m : Mechanism.values()) {
            x.add(m.label);
            y.add(server < 0 ? r.anat(m) : r.anat(m, server));
        }
        c.addSeries("ANAT", x, y);
        return c;
    }

    private static XYChart timeline(NumaExperiment.Result r, int server) {
        XYChart c = new XYChartBuilder().width(900).height(330)
                .title("Fig. 11: aggregate throughput over time, server " + (server + 1))
                .xAxisTitle("Time (s)").yAxisTitle("Aggregate throughput (Gbps)").build();
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotBackgroundColor(Color.WHITE);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        double[] t = new double[SECONDS];
        for (int i = 0; i < SECONDS; i++) {
            t[i] = i;
        }
        c.addSeries("offered", t, r.offered[server].clone()).setMarker(SeriesMarkers.NONE);
        for (Mechanism m : new Mechanism[] {Mechanism.OURS, Mechanism.OCTANS, Mechanism.NODE_BALANCE,
                Mechanism.NODE_FIRST}) {
            c.addSeries(m.label, t, r.delivered.get(m)[server].clone()).setMarker(SeriesMarkers.NONE);
        }
        return c;
    }
}
