// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.srv6int.twin.RunResult;
import org.srv6int.twin.model.Resource;

/**
 * The scale scenario's own files under out/scale: per chain violation time and replicas
 * ({@code chains.csv}), the fabric's replicas and allocated resources over time
 * ({@code totals.csv}, {@code scale-totals.png}, {@code scale-violations.png}), and the twin's
 * speed: one {@code speed-w<N>.json} per worker count run (wall time of the runs, simulated
 * seconds per wall second, the process's peak resident memory and peak heap), gathered into
 * {@code speed.csv}, {@code speed.json} and {@code speed.png} after every run. Run each worker
 * count in its own JVM (as {@code tools/twin scale --workers N} does) so the peaks are its own.
 */
public final class ScaleReport {
    private ScaleReport() {
    }

    /** What one run of the scale scenario cost. */
    public static final class Speed {
        /** Workers. */
        public final int workers;
        /** Chains. */
        public final int chains;
        /** vNF pods at the start. */
        public final int vnfs;
        /** Simulated seconds run (every policy). */
        public final double simulatedS;
        /** Wall seconds of those runs. */
        public final double wallS;
        /** CPU seconds of the process (every thread, GC and JIT too) during those runs. */
        public final double cpuS;

        /**
         * Creates a record.
         *
         * @param workers    workers
         * @param chains     chains
         * @param vnfs       vNF pods at the start
         * @param simulatedS simulated seconds (every policy)
         * @param wallS      wall seconds of those runs
         * @param cpuS       CPU seconds of the process during those runs
         */
        public Speed(int workers, int chains, int vnfs, double simulatedS, double wallS, double cpuS) {
            this.cpuS = cpuS;
            this.workers = workers;
            this.chains = chains;
            this.vnfs = vnfs;
            this.simulatedS = simulatedS;
            this.wallS = wallS;
        }

        /** Simulated seconds per wall second (above 1: faster than real time). */
        public double simPerWall() {
            return simulatedS / wallS;
        }

        /** Simulated seconds per CPU second (what the twin would do on an idle core). */
        public double simPerCpu() {
            return simulatedS / cpuS;
        }
    }

    /**
     * CPU time of this process so far (all threads), seconds; NaN where the JVM does not say.
     *
     * @return seconds
     */
    public static double processCpuS() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() / 1e9;
        }
        return Double.NaN;
    }

    /**
     * Peak resident set of this process (VmHWM of /proc/self/status), MiB; NaN where there is none.
     *
     * @return MiB
     */
    public static double peakRssMib() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }

    /** Sum of the heap pools' peak usage since the JVM started, MiB. */
    public static double peakHeapMib() {
        long b = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                b += p.getPeakUsage().getUsed();
            }
        }
        return b / (1024.0 * 1024.0);
    }

    /**
     * Writes the per-run files of one policy's run and the speed record of this worker count,
     * then gathers every speed record under dir into the table and its plot.
     *
     * @param dir    out/scale
     * @param run    the run under the first policy (its per-chain and resource files)
     * @param flash  ids of the chains with a flash crowd
     * @param speed  this worker count's cost
     * @param plots  whether to write PNGs
     * @throws IOException if a file cannot be written
     */
    public static void write(Path dir, RunResult run, List<String> flash, Speed speed, boolean plots)
            throws IOException {
        Files.createDirectories(dir);
        writeChains(dir, run, flash, plots);
        writeTotals(dir, run, plots);
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("workers", speed.workers);
        rec.put("chains", speed.chains);
        rec.put("vnfs", speed.vnfs);
        rec.put("simulated_s", speed.simulatedS);
        rec.put("wall_s", round(speed.wallS, 1));
        rec.put("sim_s_per_wall_s", round(speed.simPerWall(), 3));
        rec.put("cpu_s", round(speed.cpuS, 1));
        rec.put("sim_s_per_cpu_s", round(speed.simPerCpu(), 3));
        rec.put("load_average", round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), 1));
        rec.put("peak_rss_mib", round(peakRssMib(), 0));
        rec.put("peak_heap_mib", round(peakHeapMib(), 0));
        rec.put("cpus", Runtime.getRuntime().availableProcessors());
        Outputs.writeJson(dir.resolve("speed-w" + speed.workers + ".json"), rec);
        gatherSpeed(dir, plots);
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Double.isNaN(v) ? v : Math.round(v * f) / f;
    }

    private static void writeChains(Path dir, RunResult run, List<String> flash, boolean plots) throws IOException {
        Map<String, Integer> maxReplicas = new LinkedHashMap<>();
        for (RunResult.Row r : run.rows()) {
            maxReplicas.merge(r.sfc, r.replicas, Math::max);
        }
        StringBuilder csv = new StringBuilder("sfc,flash_crowd,violated_s,first_violation_s,recovery_s,max_p95_us,"
                + "max_replicas,final_replicas\n");
        List<String> names = new ArrayList<>();
        List<Double> violated = new ArrayList<>();
        for (RunResult.ChainSummary s : run.chains().values()) {
            double v = 0;
            for (double[] e : s.violations) {
                v += e[1] - e[0];
            }
            csv.append(String.format(Locale.ROOT, "%s,%b,%.1f,%s,%s,%.0f,%d,%d%n", s.sfc, flash.contains(s.sfc), v,
                    num(s.firstViolationS), num(s.recoveryS), s.maxP95Us, maxReplicas.getOrDefault(s.sfc, 0),
                    s.finalReplicas));
            names.add(s.sfc.replace("sfc", ""));
            violated.add(v);
        }
        Files.writeString(dir.resolve("chains.csv"), csv.toString(), StandardCharsets.UTF_8);
        if (plots && !names.isEmpty()) {
            CategoryChart c = new CategoryChartBuilder().width(Plots.W).height(Plots.H)
                    .title("Violation time per chain (E2E p95 over 1 ms), ours").xAxisTitle("chain")
                    .yAxisTitle("seconds").build();
            c.getStyler().setLegendVisible(false);
            c.getStyler().setXAxisLabelRotation(90);
            c.addSeries("violated", names, violated);
            BitmapEncoder.saveBitmap(c, dir.resolve("scale-violations.png").toString(),
                    BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
    }

    /** Per second: replicas (pods) and the allocated cores, LLC ways, MBA % and MHz over the fabric. */
    private static void writeTotals(Path dir, RunResult run, boolean plots) throws IOException {
        TreeMap<Long, double[]> byT = new TreeMap<>();
        for (RunResult.ResourceRow r : run.resources()) {
            long t = Math.round(r.t * 10);
            if (t % 10 != 0) {
                continue;
            }
            double[] a = byT.computeIfAbsent(t / 10, k -> new double[1 + Resource.values().length]);
            a[0]++;
            for (int i = 0; i < r.values.length; i++) {
                a[1 + i] += r.values[i];
            }
        }
        StringBuilder csv = new StringBuilder("t_s,pods,cpu_cores,llc_ways,mem_bw_pct,cpu_freq_mhz\n");
        List<Double> ts = new ArrayList<>();
        List<Double> pods = new ArrayList<>();
        List<Double> cores = new ArrayList<>();
        for (Map.Entry<Long, double[]> e : byT.entrySet()) {
            double[] a = e.getValue();
            csv.append(String.format(Locale.ROOT, "%d,%.0f,%.2f,%.0f,%.0f,%.0f%n", e.getKey(), a[0], a[1], a[2], a[3],
                    a[4]));
            ts.add((double) e.getKey());
            pods.add(a[0]);
            cores.add(a[1]);
        }
        Files.writeString(dir.resolve("totals.csv"), csv.toString(), StandardCharsets.UTF_8);
        if (plots && !ts.isEmpty()) {
            XYChart c = new XYChartBuilder().width(Plots.W).height(Plots.H)
                    .title("Replicas (pods) and allocated CPU over the fabric, ours").xAxisTitle("time (s)")
                    .yAxisTitle("pods / cores").build();
            c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
            c.getStyler().setMarkerSize(0);
            c.addSeries("pods", ts, pods);
            c.addSeries("CPU cores allocated", ts, cores);
            BitmapEncoder.saveBitmap(c, dir.resolve("scale-totals.png").toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    /** speed.csv / speed.json / speed.png from every speed-w*.json under dir, by worker count. */
    static void gatherSpeed(Path dir, boolean plots) throws IOException {
        TreeMap<Integer, JsonNode> rows = new TreeMap<>();
        ObjectMapper m = new ObjectMapper();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "speed-w*.json")) {
            for (Path p : ds) {
                JsonNode n = m.readTree(p.toFile());
                rows.put(n.path("workers").asInt(), n);
            }
        }
        StringBuilder csv = new StringBuilder("workers,chains,vnfs,simulated_s,wall_s,sim_s_per_wall_s,cpu_s,"
                + "sim_s_per_cpu_s,peak_rss_mib,peak_heap_mib,load_average\n");
        List<Object> all = new ArrayList<>();
        List<Double> w = new ArrayList<>();
        List<Double> wall = new ArrayList<>();
        List<Double> ratio = new ArrayList<>();
        List<Double> cpuRatio = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        for (JsonNode n : rows.values()) {
            csv.append(String.format(Locale.ROOT, "%d,%d,%d,%.0f,%.1f,%.3f,%.1f,%.3f,%.0f,%.0f,%.1f%n",
                    n.path("workers").asInt(), n.path("chains").asInt(), n.path("vnfs").asInt(),
                    n.path("simulated_s").asDouble(), n.path("wall_s").asDouble(),
                    n.path("sim_s_per_wall_s").asDouble(),
                    n.path("cpu_s").asDouble(), n.path("sim_s_per_cpu_s").asDouble(), n.path("peak_rss_mib").asDouble(),
                    n.path("peak_heap_mib").asDouble(), n.path("load_average").asDouble()));
            all.add(m.convertValue(n, Map.class));
            w.add(n.path("workers").asDouble());
            wall.add(n.path("wall_s").asDouble());
            ratio.add(n.path("sim_s_per_wall_s").asDouble());
            cpuRatio.add(n.path("sim_s_per_cpu_s").asDouble());
            rss.add(n.path("peak_rss_mib").asDouble());
        }
        Files.writeString(dir.resolve("speed.csv"), csv.toString(), StandardCharsets.UTF_8);
        Outputs.writeJson(dir.resolve("speed.json"), Map.of("runs", all));
        if (plots && !w.isEmpty()) {
            XYChart c = new XYChartBuilder().width(Plots.W).height(Plots.H)
                    .title("Cost of tools/twin scale by workers")
                    .xAxisTitle("workers").yAxisTitle("value").build();
            c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
            c.addSeries("wall s", w, wall);
            c.addSeries("simulated s per wall s", w, ratio);
            c.addSeries("simulated s per CPU s", w, cpuRatio);
            List<Double> gib = new ArrayList<>();
            rss.forEach(x -> gib.add(x / 1024));
            c.addSeries("peak RSS GiB", w, gib);
            BitmapEncoder.saveBitmap(c, dir.resolve("speed.png").toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
