// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.srv6int.twin.Policy;
import org.srv6int.twin.RunResult;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.scenario.Scenario;

/**
 * PNG plots in the style of the paper's figures (XChart 3.8.8): time on x, one line per chain or
 * vNF, one panel per policy stacked like the paper's (a)/(b)/(c) sub-figures, the 1 ms bound
 * dashed. Files: out/&lt;scenario&gt;/&lt;scenario&gt;.png and
 * out/&lt;scenario&gt;/&lt;policy&gt;/&lt;scenario&gt;.png,
 * plus resources.png (Fig. 13 style) per policy.
 */
public final class Plots {
    static final int W = 900;
    static final int H = 330;

    private Plots() {
    }

    /** Writes the scenario's figures under dir. */
    public static void write(Scenario s, Map<Policy, List<RunResult>> runs, Path dir) throws IOException {
        if ("fig11".equals(s.name())) {
            writeBars(s, runs, dir);
            return;
        }
        List<BufferedImage> panels = new ArrayList<>();
        char sub = 'a';
        boolean first = true;
        for (Map.Entry<Policy, List<RunResult>> e : runs.entrySet()) {
            List<BufferedImage> mine = new ArrayList<>();
            if (first && ("fig8".equals(s.name()) || "fig12".equals(s.name()))) {
                BufferedImage thr = image(throughput("(" + sub++ + ") Throughput of each SFC", e.getValue()));
                panels.add(thr);
                mine.add(thr);
            }
            first = false;
            BufferedImage lat = image(latency("(" + sub++ + ") 95% tail E2E latency, " + label(e.getKey()),
                    e.getValue()));
            panels.add(lat);
            mine.add(lat);
            Path pdir = dir.resolve(e.getKey().key());
            Files.createDirectories(pdir);
            ImageIO.write(stack(mine), "png", pdir.resolve(s.name() + ".png").toFile());
            ImageIO.write(stack(resourcePanels(e.getValue())), "png", pdir.resolve("resources.png").toFile());
        }
        ImageIO.write(stack(panels), "png", dir.resolve(s.name() + ".png").toFile());
    }

    static String label(Policy p) {
        switch (p) {
            case OURS:
                return "our proposal";
            case VPA:
                return "K8s-VPA";
            default:
                return "without vertical scaling";
        }
    }

    /** A blank XY chart in the figures' style (also the lab's, org.srv6int.twin.lab). */
    public static XYChart base(String title, String y) {
        XYChart c = new XYChartBuilder().width(W).height(H).title(title).xAxisTitle("Time (s)").yAxisTitle(y)
                .build();
        org.knowm.xchart.style.XYStyler st = c.getStyler();
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotBackgroundColor(Color.WHITE);
        st.setPlotGridLinesColor(new Color(220, 220, 220));
        st.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        c.getStyler().setMarkerSize(0);
        return c;
    }

    private static Map<String, double[][]> series(List<RunResult> runs, boolean latency) {
        Map<String, List<double[]>> pts = new LinkedHashMap<>();
        for (RunResult r : runs) {
            for (RunResult.Row row : r.rows()) {
                double v = latency ? row.p95Us / 1000.0 : row.gbps;
                if (!Double.isNaN(v)) {
                    pts.computeIfAbsent(row.sfc, k -> new ArrayList<>()).add(new double[] {row.t, v});
                }
            }
        }
        Map<String, double[][]> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<double[]>> e : pts.entrySet()) {
            double[] x = new double[e.getValue().size()];
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = e.getValue().get(i)[0];
                y[i] = e.getValue().get(i)[1];
            }
            out.put(e.getKey(), new double[][] {x, y});
        }
        return out;
    }

    static XYChart latency(String title, List<RunResult> runs) {
        XYChart c = base(title, "p95 latency (ms, log)");
        c.getStyler().setYAxisLogarithmic(true);
        double maxT = 1;
        for (Map.Entry<String, double[][]> e : series(runs, true).entrySet()) {
            double[] y = e.getValue()[1].clone();
            for (int i = 0; i < y.length; i++) {
                y[i] = Math.max(0.01, y[i]);
            }
            c.addSeries(e.getKey(), e.getValue()[0], y).setMarker(SeriesMarkers.NONE);
            double[] x = e.getValue()[0];
            maxT = Math.max(maxT, x.length > 0 ? x[x.length - 1] : 0);
        }
        boundLine(c, maxT);
        return c;
    }

    /** The dashed 1 ms bound across [0, maxT]. */
    static void boundLine(XYChart c, double maxT) {
        XYSeries bound = c.addSeries("1 ms bound", new double[] {0, maxT}, new double[] {1, 1});
        bound.setMarker(SeriesMarkers.NONE);
        bound.setLineColor(Color.GRAY);
        bound.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT,
                java.awt.BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
    }

    static XYChart throughput(String title, List<RunResult> runs) {
        XYChart c = base(title, "Throughput (Gbps)");
        for (Map.Entry<String, double[][]> e : series(runs, false).entrySet()) {
            c.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]).setMarker(SeriesMarkers.NONE);
        }
        return c;
    }

    private static List<BufferedImage> resourcePanels(List<RunResult> runs) {
        List<BufferedImage> out = new ArrayList<>();
        String[] names = {"CPU quota (cores)", "LLC (ways)", "Memory bandwidth (%)", "CPU frequency (MHz)"};
        for (Resource r : Resource.values()) {
            XYChart c = base(names[r.ordinal()], names[r.ordinal()]);
            Map<String, List<double[]>> pts = new LinkedHashMap<>();
            for (RunResult run : runs) {
                String p = runs.size() > 1 ? run.label() + ":" : "";
                for (RunResult.ResourceRow row : run.resources()) {
                    pts.computeIfAbsent(p + row.vnf, k -> new ArrayList<>())
                            .add(new double[] {row.t, row.values[r.ordinal()]});
                }
            }
            for (Map.Entry<String, List<double[]>> e : pts.entrySet()) {
                double[] x = new double[e.getValue().size()];
                double[] y = new double[x.length];
                for (int i = 0; i < x.length; i++) {
                    x[i] = e.getValue().get(i)[0];
                    y[i] = e.getValue().get(i)[1];
                }
                c.addSeries(e.getKey(), x, y).setMarker(SeriesMarkers.NONE);
            }
            out.add(image(c));
        }
        return out;
    }

    private static void writeBars(Scenario s, Map<Policy, List<RunResult>> runs, Path dir) throws IOException {
        CategoryChart a = bars("(a) Throughput of a vNF when co-locating with three other vNFs", "vNF");
        CategoryChart b = bars("(b) E2E throughput of an SFC when co-locating with other SFCs", "vNFs of SFC 1");
        Map<String, Map<String, Map<String, Double>>> table = Outputs.fig11Table(runs);
        for (Map.Entry<Policy, List<RunResult>> e : runs.entrySet()) {
            String policy = e.getKey().key();
            for (String panel : List.of("a", "b")) {
                List<String> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                for (Map.Entry<String, Map<String, Double>> row : table.get(panel).entrySet()) {
                    xs.add(row.getKey());
                    ys.add(row.getValue().getOrDefault(policy, 0.0));
                }
                if (!xs.isEmpty()) {
                    ("a".equals(panel) ? a : b).addSeries(label(e.getKey()), xs, ys);
                }
            }
            Path pdir = dir.resolve(policy);
            Files.createDirectories(pdir);
            List<BufferedImage> mine = new ArrayList<>();
            mine.add(image(latency("95% tail latency of the ramped vNF or SFC, " + label(e.getKey()), e.getValue())));
            mine.add(image(throughput("Throughput of the ramped vNF or SFC", e.getValue())));
            ImageIO.write(stack(mine), "png", pdir.resolve(s.name() + ".png").toFile());
        }
        List<BufferedImage> panels = new ArrayList<>();
        for (CategoryChart c : List.of(a, b)) {
            if (!c.getSeriesMap().isEmpty()) {
                panels.add(image(c));
            }
        }
        ImageIO.write(stack(panels), "png", dir.resolve(s.name() + ".png").toFile());
    }

    static CategoryChart bars(String title, String x) {
        CategoryChart c = new CategoryChartBuilder().width(W).height(420).title(title)
                .xAxisTitle(x).yAxisTitle("Throughput (Gbps)").build();
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotBackgroundColor(Color.WHITE);
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        return c;
    }

    private static BufferedImage image(org.knowm.xchart.internal.chartpart.Chart<?, ?> c) {
        return BitmapEncoder.getBufferedImage(c);
    }

    /**
     * Stacks panels vertically on white.
     *
     * @param imgs panels, top first
     * @return one image
     */
    public static BufferedImage stack(List<BufferedImage> imgs) {
        int w = 0;
        int h = 0;
        for (BufferedImage i : imgs) {
            w = Math.max(w, i.getWidth());
            h += i.getHeight();
        }
        BufferedImage out = new BufferedImage(Math.max(1, w), Math.max(1, h), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, out.getWidth(), out.getHeight());
        int y = 0;
        for (BufferedImage i : imgs) {
            g.drawImage(i, 0, y, null);
            y += i.getHeight();
        }
        g.dispose();
        return out;
    }
}
