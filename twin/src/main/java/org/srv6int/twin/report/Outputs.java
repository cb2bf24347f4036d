// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.srv6int.twin.Policy;
import org.srv6int.twin.RunResult;
import org.srv6int.twin.scenario.Scenarios;

/** Writes timeline.csv, resources.csv and the summary objects of a scenario's runs. */
public final class Outputs {
    /** timeline.csv header (exact). */
    public static final String TIMELINE_HEADER = "t_s,sfc,e2e_p95_us,throughput_gbps,replicas";
    /** resources.csv header (exact). */
    public static final String RESOURCES_HEADER = "t_s,vnf,cpu_quota,llc_ways,mem_bw_pct,cpu_freq_mhz";

    private Outputs() {
    }

    /** Writes one policy's CSVs for all experiments of a scenario into dir. */
    public static void writeCsv(Path dir, List<RunResult> runs, boolean prefix) throws IOException {
        Files.createDirectories(dir);
        try (Writer w = Files.newBufferedWriter(dir.resolve("timeline.csv"), StandardCharsets.UTF_8)) {
            w.write(TIMELINE_HEADER + "\n");
            for (RunResult r : runs) {
                for (RunResult.Row row : r.rows()) {
                    w.write(Json.num(row.t) + "," + row.sfc + ","
                            + (Double.isNaN(row.p95Us) ? "" : Json.num(row.p95Us)) + ","
                            + Json.num(row.gbps) + "," + row.replicas + "\n");
                }
            }
        }
        try (Writer w = Files.newBufferedWriter(dir.resolve("resources.csv"), StandardCharsets.UTF_8)) {
            w.write(RESOURCES_HEADER + "\n");
            for (RunResult r : runs) {
                String p = prefix ? r.label() + ":" : "";
                for (RunResult.ResourceRow row : r.resources()) {
                    w.write(Json.num(row.t) + "," + p + row.vnf);
                    for (double v : row.values) {
                        w.write("," + Json.num(v));
                    }
                    w.write("\n");
                }
            }
        }
    }

    /** Summary of one policy: per chain of each experiment. */
    public static Map<String, Object> policySummary(List<RunResult> runs) {
        Map<String, Object> chains = new LinkedHashMap<>();
        List<String> events = new ArrayList<>();
        Map<String, Object> collector = new LinkedHashMap<>();
        for (RunResult r : runs) {
            if (!r.collector().isEmpty()) {
                collector.put(r.label().isEmpty() ? "all" : r.label(), r.collector());
            }
            for (RunResult.ChainSummary s : r.chains().values()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("bound_us", s.boundUs);
                m.put("first_violation_s", s.firstViolationS);
                m.put("global_trigger_s", s.globalTriggerS);
                m.put("recovery_s", s.recoveryS);
                m.put("max_p95_us", s.maxP95Us);
                m.put("final_replicas", s.finalReplicas);
                List<Object> eps = new ArrayList<>();
                for (double[] v : s.violations) {
                    eps.add(List.of(v[0], v[1]));
                }
                m.put("violations", eps);
                if (!Double.isNaN(s.maxThroughputGbps)) {
                    m.put("max_throughput_gbps", s.maxThroughputGbps);
                }
                chains.put(s.sfc, m);
            }
            for (String e : r.events()) {
                events.add(r.label().isEmpty() ? e : r.label() + ": " + e);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("chains", chains);
        out.put("events", events);
        if (!collector.isEmpty()) {
            out.put("collector", collector);
        }
        return out;
    }

    /**
     * Fig. 11's numbers: per panel ("a": one vNF ramped among three co-located at 1 Gbps; "b":
     * SFC 1 ramped among SFCs 2-4), per experiment (vNF type, or SFC 1's type pair), per
     * policy, the largest throughput within bound with under 1 % loss, Gbit/s.
     *
     * @param runs fig11 runs by policy
     * @return panel -&gt; experiment -&gt; policy -&gt; Gbit/s
     */
    public static Map<String, Map<String, Map<String, Double>>> fig11Table(Map<Policy, List<RunResult>> runs) {
        Map<String, Map<String, Map<String, Double>>> out = new LinkedHashMap<>();
        out.put("a", new LinkedHashMap<>());
        out.put("b", new LinkedHashMap<>());
        for (Map.Entry<Policy, List<RunResult>> e : runs.entrySet()) {
            for (RunResult r : e.getValue()) {
                RunResult.ChainSummary cs = r.chains().get(r.chainKey(r.label()));
                if (cs == null || Double.isNaN(cs.maxThroughputGbps)) {
                    continue;
                }
                boolean b = r.label().startsWith(Scenarios.FIG11B);
                String name = b ? r.label().substring(Scenarios.FIG11B.length()) : r.label();
                out.get(b ? "b" : "a").computeIfAbsent(name, k -> new LinkedHashMap<>())
                        .put(e.getKey().key(), cs.maxThroughputGbps);
            }
        }
        return out;
    }

    /** Writes a JSON value to a file. */
    public static void writeJson(Path file, Object value) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, Json.write(value), StandardCharsets.UTF_8);
    }

    /** Formats seconds for log lines. */
    public static String secs(double s) {
        return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.1f s", s);
    }
}
