// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.related;

import org.srv6int.twin.report.Plots;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.srv6int.twin.numa.NumaExperiment;
import org.srv6int.twin.report.Json;

/**
 * The experiments of the related systems folded into the loops (issue 21): {@code pushaside}
 * (CoCo) and {@code interference} (vnf-interference). Each writes CSV, JSON and a PNG under
 * out/&lt;name&gt;/ and prints ours against each baseline as a ratio.
 */
public final class RelatedExperiments {

    /** Experiment names, in the order {@code all} runs them. */
    public static final List<String> NAMES = List.of("numasfp", "pushaside", "interference");

    private RelatedExperiments() {
    }

    /**
     * Runs one experiment.
     *
     * @param name  one of {@link #NAMES}
     * @param root  output root
     * @param plots whether to write the PNG
     * @param seed  random seed (the interference experiment's arrivals; pushaside has no random input)
     * @param out   where the ratio line goes
     * @throws IOException if an output cannot be written
     */
    public static void run(String name, Path root, boolean plots, long seed, PrintStream out) throws IOException {
        switch (name) {
            case "numasfp":
                numasfp(root.resolve(name), plots, seed, out);
                break;
            case "pushaside":
                pushAside(root.resolve(name), plots, out);
                break;
            case "interference":
                InterferenceExperiment.write(root.resolve(name), plots, seed, out);
                break;
            default:
                throw new IllegalArgumentException("unknown experiment " + name);
        }
    }

    private static void pushAside(Path dir, boolean plots, PrintStream out) throws IOException {
        PushAsideExperiment.Result ours = PushAsideExperiment.run(true);
        PushAsideExperiment.Result base = PushAsideExperiment.run(false);
        Files.createDirectories(dir);
        try (Writer w = Files.newBufferedWriter(dir.resolve("timeline.csv"), StandardCharsets.UTF_8)) {
            w.write("t_s,policy,e2e_p95_us,spa_p95_us,spa_replicas,nodes_used,cpu_reserved_m\n");
            for (PushAsideExperiment.Result r : List.of(ours, base)) {
                for (double[] row : r.rows) {
                    w.write(String.format(Locale.ROOT, "%.1f,%s,%.1f,%.1f,%d,%d,%d%n", row[0], r.policy, row[1],
                                          row[2], (int) row[3], (int) row[4], (long) row[5]));
                }
            }
        }
        Map<String, Object> sum = new LinkedHashMap<>();
        sum.put("scenario", "pushaside");
        sum.put("title", "CoCo push-aside vs immediate scale-out, 100 -> 150 kpps at "
                + PushAsideExperiment.STEP_AT_S + " s (coco.txt V-B)");
        Map<String, Object> pol = new LinkedHashMap<>();
        for (PushAsideExperiment.Result r : List.of(ours, base)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("violation_s", round(r.violationS));
            m.put("recovered_at_s", Double.isNaN(r.recoveredAtS) ? null : round(r.recoveredAtS));
            m.put("cpu_reserved_m", r.cpuReservedMillis);
            m.put("nodes_used", r.nodesUsed);
            m.put("reserved_core_s_after_step", round(r.reservedCoreSeconds));
            m.put("converged_e2e_p95_us", round(r.convergedE2eUs));
            m.put("spa_replicas", r.spaReplicas);
            m.put("decisions", r.decisions);
            pol.put(r.policy, m);
        }
        sum.put("policies", pol);
        Map<String, Object> ratio = new LinkedHashMap<>();
        ratio.put("violation_s_scaleout_over_pushaside", round(base.violationS / ours.violationS));
        ratio.put("nodes_scaleout_over_pushaside", round((double) base.nodesUsed / ours.nodesUsed));
        ratio.put("cpu_reserved_scaleout_over_pushaside", round((double) base.cpuReservedMillis
                / ours.cpuReservedMillis));
        ratio.put("converged_e2e_scaleout_over_pushaside", round(base.convergedE2eUs / ours.convergedE2eUs));
        sum.put("ratios", ratio);
        Map<String, Object> paper = new LinkedHashMap<>();
        paper.put("vms_traditional_over_coco", 1.5);
        paper.put("converged_latency_ms_coco", 6);
        paper.put("converged_latency_ms_traditional", 11);
        paper.put("note", "traditional scale-out converges a little faster (coco.txt V-B)");
        sum.put("paper", paper);
        Files.writeString(dir.resolve("summary.json"), Json.write(sum), StandardCharsets.UTF_8);
        if (plots) {
            XYChart lat = chart("SPA 95% tail latency, 100 -> 150 kpps", "p95 (us)");
            lat.getStyler().setYAxisLogarithmic(true);
            XYChart res = chart("CPU requested by the chain's pods", "millicores");
            for (PushAsideExperiment.Result r : List.of(ours, base)) {
                double[] t = new double[r.rows.size()];
                double[] p = new double[t.length];
                double[] c = new double[t.length];
                for (int i = 0; i < t.length; i++) {
                    t[i] = r.rows.get(i)[0];
                    p[i] = Math.max(1, r.rows.get(i)[2]);
                    c[i] = r.rows.get(i)[5];
                }
                String label = "pushaside".equals(r.policy) ? "push-aside (CoCo)" : "immediate scale-out";
                lat.addSeries(label, t, p);
                res.addSeries(label, t, c);
            }
            lat.addSeries("bound", new double[] {0, PushAsideExperiment.DURATION_S}, new double[] {1000, 1000});
            writeStack(dir.resolve("pushaside.png"), lat, res);
        }
        out.println(String.format(Locale.ROOT, "twin: pushaside: violation %.2f s (push-aside) vs %.2f s (scale-out),"
                + " ratio %.2f; nodes %d vs %d (%.2fx, paper 1.5x); CPU requested %d m vs %d m (%.2fx);"
                + " converged e2e p95 %.0f us vs %.0f us -> %s", ours.violationS, base.violationS,
                base.violationS / ours.violationS, ours.nodesUsed, base.nodesUsed,
                (double) base.nodesUsed / ours.nodesUsed, ours.cpuReservedMillis, base.cpuReservedMillis,
                (double) base.cpuReservedMillis / ours.cpuReservedMillis, ours.convergedE2eUs, base.convergedE2eUs,
                dir));
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    static XYChart chart(String title, String y) {
        XYChart c = new XYChartBuilder().width(900).height(330).title(title).xAxisTitle("Time (s)").yAxisTitle(y)
                .build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        c.getStyler().setMarkerSize(0);
        return c;
    }

    static void writeStack(Path file, XYChart... charts) throws IOException {
        java.awt.image.BufferedImage[] imgs = new java.awt.image.BufferedImage[charts.length];
        for (int i = 0; i < charts.length; i++) {
            imgs[i] = BitmapEncoder.getBufferedImage(charts[i]);
        }
        writeStack(file, imgs);
    }

    static void writeStack(Path file, java.awt.image.BufferedImage... imgs) throws IOException {
        javax.imageio.ImageIO.write(Plots.stack(List.of(imgs)), "png", file.toFile());
    }

    /** NUMASFP Figs. 10-12: ours vs Octans, Node-balance, Node-first (its own model, no app or switches). */
    private static void numasfp(Path dir, boolean plots, long seed, PrintStream out) throws IOException {
        NumaExperiment.Result r = NumaExperiment.run(seed);
        NumaExperiment.write(r, dir, plots);
        for (String line : NumaExperiment.ratioLines(r)) {
            out.println(line);
        }
        out.println("twin: numasfp -> " + dir);
    }
}
