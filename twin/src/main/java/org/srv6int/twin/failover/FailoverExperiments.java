// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.failover;

import org.srv6int.twin.report.Plots;
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
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.srv6int.twin.Policy;
import org.srv6int.twin.report.Json;

/**
 * {@code tools/twin kill-replica} and {@code tools/twin rescale} (issue 18 item 6): every
 * policy's run of {@link FailoverExperiment}, written to out/&lt;name&gt;/ as
 * {@code <experiment>-<policy>.csv} (timeline every 0.5 s), {@code summary.json}, a PNG, and
 * the figures printed.
 */
public final class FailoverExperiments {

    /** Names, in the order {@code all} runs them. */
    public static final List<String> NAMES = FailoverExperiment.NAMES;

    private FailoverExperiments() {
    }

    /** Sub-experiments of a name. */
    static List<String> parts(String name) {
        switch (name) {
            case "kill-replica":
                return List.of("kill-replica/crash", "kill-replica/hang");
            case "rescale":
                return List.of("rescale");
            default:
                throw new IllegalArgumentException("unknown experiment " + name);
        }
    }

    /**
     * Runs one name under the given policies and writes its files.
     *
     * @param name     one of {@link #NAMES}
     * @param root     output root
     * @param plots    whether to write the PNG
     * @param seed     random seed (flow arrivals, durations, 5-tuples)
     * @param policies policies
     * @param out      where the figures go
     * @return the results, per sub-experiment and policy
     * @throws IOException if an output cannot be written
     */
    public static List<FailoverExperiment.Result> run(String name, Path root, boolean plots, long seed,
                                                      List<Policy> policies, PrintStream out) throws IOException {
        Path dir = root.resolve(name);
        Files.createDirectories(dir);
        List<FailoverExperiment.Result> all = new ArrayList<>();
        Map<String, Object> sum = new LinkedHashMap<>();
        sum.put("scenario", name);
        sum.put("seed", seed);
        Map<String, Object> exps = new LinkedHashMap<>();
        for (String part : parts(name)) {
            Map<String, Object> pol = new LinkedHashMap<>();
            for (Policy p : policies) {
                FailoverExperiment.Result r = FailoverExperiment.run(part, p, seed);
                all.add(r);
                pol.put(p.key(), r.summary);
                writeCsv(dir.resolve(file(part) + "-" + p.key() + ".csv"), r);
                Files.write(dir.resolve(file(part) + "-" + p.key() + "-events.txt"), r.events, StandardCharsets.UTF_8);
                out.println(line(r));
            }
            exps.put(part, pol);
        }
        sum.put("experiments", exps);
        Files.writeString(dir.resolve("summary.json"), Json.write(sum), StandardCharsets.UTF_8);
        if (plots) {
            plot(dir.resolve(name + ".png"), all);
        }
        out.println("twin: " + name + " -> " + dir);
        return all;
    }

    private static String file(String part) {
        return part.replace('/', '-');
    }

    private static void writeCsv(Path f, FailoverExperiment.Result r) throws IOException {
        try (Writer w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
            w.write("t_s,active_flows,flows_moved,live_replicas,packets_lost,packets_sent,buckets\n");
            for (Object[] row : r.rows) {
                w.write(String.format(Locale.ROOT, "%s,%s,%s,%s,%s,%s,%s%n", row));
            }
        }
    }

    /** The figures of one run, one line. */
    static String line(FailoverExperiment.Result r) {
        Map<String, Object> m = r.summary;
        if (r.name.startsWith("kill-replica")) {
            if (m.get("detection_s") == null) {
                return String.format(Locale.ROOT, "twin: %s %s: %s died at %.1f s, never detected: %s buckets stay on "
                        + "it, %s packets lost", r.name, r.policy.key(), m.get("killed"), FailoverExperiment.KILL_AT_S,
                        m.get("buckets_left_on_dead_replica"), m.get("packets_lost_after_death"));
            }
            return String.format(Locale.ROOT, "twin: %s %s: %s died at %.1f s, detected %s s later, buckets moved "
                    + "%s s after detection (%s s after the death); packets lost until then %s, in all %s",
                    r.name, r.policy.key(), m.get("killed"), FailoverExperiment.KILL_AT_S, m.get("detection_s"),
                    m.get("detection_to_buckets_moved_s"), m.get("death_to_buckets_moved_s"),
                    m.get("packets_lost_until_buckets_moved"), m.get("packets_lost_after_death"));
        }
        StringBuilder b = new StringBuilder("twin: rescale " + r.policy.key() + ":");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> changes = (List<Map<String, Object>>) m.get("changes");
        for (Map<String, Object> c : changes) {
            b.append(String.format(Locale.ROOT, " %s->%s moved %s %% of %s flows (hash %% n %s %%, goal <= %s %%);",
                    c.get("from"), c.get("to"), c.get("moved_pct"), c.get("flows_seen_after"),
                    c.get("hash_mod_n_would_move_pct"), c.get("goal_pct")));
        }
        b.append(String.format(Locale.ROOT, " scale-in moved %s flows by drains before the deadline, %s at it, %s at "
                + "once", m.get("moved_by_drain_before_deadline"), m.get("moved_by_drain_at_deadline"),
                m.get("moved_at_scale_in")));
        return b.toString();
    }

    private static void plot(Path file, List<FailoverExperiment.Result> all) throws IOException {
        XYChart lost = chart("Packets lost (cumulative)", "packets");
        XYChart moved = chart("Flows that changed replica (cumulative)", "flows");
        XYChart live = chart("Live replicas in the bucket table", "replicas");
        for (FailoverExperiment.Result r : all) {
            int n = r.rows.size();
            double[] t = new double[n];
            double[] l = new double[n];
            double[] mv = new double[n];
            double[] lv = new double[n];
            for (int i = 0; i < n; i++) {
                Object[] row = r.rows.get(i);
                t[i] = ((Number) row[0]).doubleValue();
                mv[i] = ((Number) row[2]).doubleValue();
                lv[i] = ((Number) row[3]).doubleValue();
                l[i] = ((Number) row[4]).doubleValue();
            }
            String label = r.name + " " + r.policy.key();
            lost.addSeries(label, t, l);
            moved.addSeries(label, t, mv);
            live.addSeries(label, t, lv);
        }
        java.awt.image.BufferedImage[] imgs = {BitmapEncoder.getBufferedImage(lost),
            BitmapEncoder.getBufferedImage(moved), BitmapEncoder.getBufferedImage(live)};
        javax.imageio.ImageIO.write(Plots.stack(List.of(imgs)), "png", file.toFile());
    }

    private static XYChart chart(String title, String y) {
        XYChart c = new XYChartBuilder().width(900).height(330).title(title).xAxisTitle("Time (s)").yAxisTitle(y)
                .build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        c.getStyler().setMarkerSize(0);
        return c;
    }
}
