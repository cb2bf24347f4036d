// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.srv6int.twin.Policy;
import org.srv6int.twin.RunResult;

/**
 * {@code --repeat N}: one scenario's runs under N seeds, summarised as mean and 95 % interval per
 * chain and policy (repeat.json) and plotted as mean p95 with its interval over time
 * (&lt;scenario&gt;-repeat.png, the p95 averaged per seed over bins of about 1 % of the run; Fig. 11:
 * its bars with interval whiskers).
 */
public final class Repeats {
    /** Per-chain metrics summarised across seeds, in this order. */
    static final List<String> METRICS = List.of("first_violation_s", "recovery_s", "violated_s", "max_p95_us",
            "final_replicas", "max_throughput_gbps");
    private static final Color[] PALETTE = {new Color(31, 119, 180), new Color(255, 127, 14),
        new Color(44, 160, 44), new Color(214, 39, 40), new Color(148, 103, 189), new Color(140, 86, 75),
        new Color(227, 119, 194), new Color(127, 127, 127)};

    private final String scenario;
    private final List<Long> seeds = new ArrayList<>();
    /** policy -&gt; chain -&gt; metric -&gt; one value per seed. */
    private final Map<Policy, Map<String, Map<String, List<Double>>>> values = new LinkedHashMap<>();
    /** policy -&gt; chain -&gt; bucket end time -&gt; p95 in ms per seed (NaN: no packet). */
    private final Map<Policy, Map<String, TreeMap<Double, List<Double>>>> p95 = new LinkedHashMap<>();

    /** Collects the repeats of one scenario. */
    public Repeats(String scenario) {
        this.scenario = scenario;
    }

    /** Adds the runs of one seed. */
    public void add(long seed, Map<Policy, List<RunResult>> byPolicy) {
        seeds.add(seed);
        for (Map.Entry<Policy, List<RunResult>> e : byPolicy.entrySet()) {
            Map<String, Map<String, List<Double>>> chains = values.computeIfAbsent(e.getKey(),
                    k -> new LinkedHashMap<>());
            Map<String, TreeMap<Double, List<Double>>> lines = p95.computeIfAbsent(e.getKey(),
                    k -> new LinkedHashMap<>());
            for (RunResult r : e.getValue()) {
                for (RunResult.ChainSummary s : r.chains().values()) {
                    Map<String, List<Double>> m = chains.computeIfAbsent(s.sfc, k -> new LinkedHashMap<>());
                    double violated = 0;
                    for (double[] v : s.violations) {
                        violated += v[1] - v[0];
                    }
                    double[] row = {s.firstViolationS, s.recoveryS, violated, s.maxP95Us, s.finalReplicas,
                        s.maxThroughputGbps};
                    for (int i = 0; i < row.length; i++) {
                        m.computeIfAbsent(METRICS.get(i), k -> new ArrayList<>()).add(row[i]);
                    }
                }
                for (RunResult.Row row : r.rows()) {
                    lines.computeIfAbsent(row.sfc, k -> new TreeMap<>())
                            .computeIfAbsent(Math.round(row.t * 10) / 10.0, k -> new ArrayList<>())
                            .add(row.p95Us / 1000.0);
                }
            }
        }
    }

    /** repeat.json: seeds, and per policy, chain and metric the mean, ci95, n and missing. */
    public Map<String, Object> summary() {
        Map<String, Object> pol = new LinkedHashMap<>();
        for (Map.Entry<Policy, Map<String, Map<String, List<Double>>>> e : values.entrySet()) {
            Map<String, Object> chains = new LinkedHashMap<>();
            for (Map.Entry<String, Map<String, List<Double>>> c : e.getValue().entrySet()) {
                Map<String, Object> metrics = new LinkedHashMap<>();
                for (String m : METRICS) {
                    Interval i = Interval.of(c.getValue().get(m));
                    if (i.n > 0 || !"max_throughput_gbps".equals(m)) {
                        metrics.put(m, i.toMap());
                    }
                }
                chains.put(c.getKey(), metrics);
            }
            pol.put(e.getKey().key(), chains);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("scenario", scenario);
        out.put("seeds", List.copyOf(seeds));
        out.put("interval", "mean and half-width of the two-sided 95 % Student-t interval over the seeds; "
                + "missing = seeds without a value (e.g. never recovered)");
        out.put("policies", pol);
        return out;
    }

    /** Writes repeat.json and (when plots) the interval figure into the scenario's directory. */
    public void write(Path dir, boolean plots) throws IOException {
        Outputs.writeJson(dir.resolve("repeat.json"), summary());
        if (plots) {
            Files.createDirectories(dir);
            ImageIO.write(image(), "png", dir.resolve(scenario + "-repeat.png").toFile());
        }
    }

    /**
     * Per-seed means over bins of about a hundredth of the run (at least one 100 ms bucket), so
     * that the interval is across seeds, not across the noise of single buckets. Key: bin end.
     */
    static TreeMap<Double, List<Double>> binned(TreeMap<Double, List<Double>> buckets) {
        TreeMap<Double, List<Double>> out = new TreeMap<>();
        if (buckets.isEmpty()) {
            return out;
        }
        long per = Math.max(1, Math.round(buckets.lastKey() / 100 / 0.1));
        int k = 0;
        double[] sum = null;
        int[] cnt = null;
        for (Map.Entry<Double, List<Double>> b : buckets.entrySet()) {
            List<Double> v = b.getValue();
            if (sum == null) {
                sum = new double[v.size()];
                cnt = new int[v.size()];
            }
            for (int j = 0; j < Math.min(v.size(), sum.length); j++) {
                if (!Double.isNaN(v.get(j))) {
                    sum[j] += v.get(j);
                    cnt[j]++;
                }
            }
            if (++k % per == 0 || b.getKey().equals(buckets.lastKey())) {
                List<Double> means = new ArrayList<>();
                for (int j = 0; j < sum.length; j++) {
                    means.add(cnt[j] > 0 ? sum[j] / cnt[j] : Double.NaN);
                }
                out.put(b.getKey(), means);
                sum = null;
            }
        }
        return out;
    }

    private BufferedImage image() {
        List<BufferedImage> panels = new ArrayList<>();
        String n = " (mean and 95 % interval of " + seeds.size() + " seeds)";
        if (values.values().stream().flatMap(c -> c.values().stream())
                .anyMatch(m -> Interval.of(m.get("max_throughput_gbps")).n > 0)) {
            CategoryChart c = Plots.bars("Largest throughput within bound" + n, "vNF or SFC");
            for (Map.Entry<Policy, Map<String, Map<String, List<Double>>>> e : values.entrySet()) {
                List<String> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                List<Double> err = new ArrayList<>();
                for (Map.Entry<String, Map<String, List<Double>>> ch : e.getValue().entrySet()) {
                    Interval i = Interval.of(ch.getValue().get("max_throughput_gbps"));
                    if (i.n > 0) {
                        xs.add(ch.getKey());
                        ys.add(i.mean);
                        err.add(Double.isNaN(i.halfWidth) ? 0 : i.halfWidth);
                    }
                }
                c.addSeries(Plots.label(e.getKey()), xs, ys, err);
            }
            c.getStyler().setXAxisLabelRotation(30);
            panels.add(BitmapEncoder.getBufferedImage(c));
        }
        for (Map.Entry<Policy, Map<String, TreeMap<Double, List<Double>>>> e : p95.entrySet()) {
            XYChart c = Plots.base("95% tail E2E latency, " + Plots.label(e.getKey()) + n, "p95 latency (ms, log)");
            c.getStyler().setYAxisLogarithmic(true);
            int k = 0;
            double maxT = 1;
            for (Map.Entry<String, TreeMap<Double, List<Double>>> ch : e.getValue().entrySet()) {
                List<double[]> pts = new ArrayList<>();
                for (Map.Entry<Double, List<Double>> b : binned(ch.getValue()).entrySet()) {
                    Interval i = Interval.of(b.getValue());
                    if (i.n > 0) {
                        // the log axis' floor (as in the single-seed plots) clips a lower bound at or below 0
                        double h = Double.isNaN(i.halfWidth) ? 0 : i.halfWidth;
                        pts.add(new double[] {b.getKey(), Math.max(0.01, i.mean), Math.max(0.01, i.mean - h),
                            Math.max(0.01, i.mean + h)});
                        maxT = Math.max(maxT, b.getKey());
                    }
                }
                if (pts.isEmpty()) {
                    continue;
                }
                Color col = PALETTE[k++ % PALETTE.length];
                String[] names = {ch.getKey(), ch.getKey() + " 95% low", ch.getKey() + " 95% high"};
                for (int s = 0; s < 3; s++) {
                    double[] x = new double[pts.size()];
                    double[] y = new double[pts.size()];
                    for (int j = 0; j < x.length; j++) {
                        x[j] = pts.get(j)[0];
                        y[j] = pts.get(j)[1 + s];
                    }
                    XYSeries ser = c.addSeries(names[s], x, y);
                    ser.setMarker(SeriesMarkers.NONE);
                    ser.setLineColor(s == 0 ? col : new Color(col.getRed(), col.getGreen(), col.getBlue(), 110));
                    if (s > 0) {
                        ser.setLineStyle(new BasicStroke(0.8f));
                        ser.setShowInLegend(false);
                    }
                }
            }
            Plots.boundLine(c, maxT);
            panels.add(BitmapEncoder.getBufferedImage(c));
        }
        return Plots.stack(panels);
    }
}
