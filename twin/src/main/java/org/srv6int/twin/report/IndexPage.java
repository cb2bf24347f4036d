// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * out/index.html: one static page (no server, no script) with every scenario found under the
 * output root: its figure, what the paper reports beside our numbers under each policy (ours and
 * the two baselines), and the settings the scenario ran with. Rewritten after every run from the
 * summary.json files on disk, so scenarios run one at a time accumulate.
 */
public final class IndexPage {
    /** What the paper reports per scenario (section V; docs/twin.md section 7 has the comparison). */
    static final Map<String, String> PAPER = Map.of(
            "fig8", "SFC 2's latency unchanged after +1 Gbps at 10 s (local loop); above 7 ms after the second "
                    + "+1 Gbps at 25 s; the global loop scales out after t&#770; = 4 s with one Snort replica on "
                    + "Worker 2; SFC 2 recovers about 8 s after the rise.",
            "fig9", "Our proposal brings every vNF's 95 % tail latency below 1 ms within 2 s; without vertical "
                    + "scaling it stays long, with K8s-VPA it is long or unstable.",
            "fig10", "Our proposal brings every SFC's 95 % tail E2E latency below 1 ms within 4 s and keeps it "
                    + "there, outperforming the two benchmarks significantly.",
            "fig11", "(a) Our proposal gives the largest throughput for every vNF except Snort, where K8s-VPA is "
                    + "slightly higher; (b) our proposal gives SFC 1 the largest E2E throughput for every pair.",
            "fig12", "Without vertical scaling all vNFs' tail latencies rise in [42, 57] s and [70, 90] s; with "
                    + "K8s-VPA those of nDPI and Fwd in the two periods; our proposal keeps all four low all the "
                    + "time (Fig. 13: more CPU quota and LLC to the vNF whose traffic rises).");
    private static final List<String> POLICIES = List.of("ours", "none", "vpa");
    private static final Map<String, String> POLICY_LABEL = Map.of("ours", "our proposal", "none",
            "without vertical scaling", "vpa", "K8s-VPA");

    private IndexPage() {
    }

    /**
     * Writes root/index.html from root/&lt;scenario&gt;/summary.json for the given scenario names
     * (those without a summary are left out).
     *
     * @param root output root
     * @param names scenario names in page order
     * @return the page
     * @throws IOException when a summary cannot be read or the page written
     */
    public static Path write(Path root, List<String> names) throws IOException {
        ObjectMapper m = new ObjectMapper();
        StringBuilder body = new StringBuilder();
        StringBuilder toc = new StringBuilder();
        for (String name : names) {
            Path sum = root.resolve(name).resolve("summary.json");
            if (!Files.isRegularFile(sum)) {
                continue;
            }
            JsonNode s = m.readTree(sum.toFile());
            toc.append("<li><a href=\"#").append(esc(name)).append("\">").append(esc(name)).append("</a> ")
                    .append(esc(s.path("title").asText())).append("</li>\n");
            section(body, root, name, s);
        }
        String html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                + "<title>SRv6-INT SFC testbed twin: results</title>\n<style>\n"
                + "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}\n"
                + "table{border-collapse:collapse;margin:.5em 0;font-size:90%}\n"
                + "td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}\n"
                + "th{background:#eee}td.l,th.l{text-align:left}\n"
                + "img{max-width:100%;border:1px solid #ddd;margin:.3em 0}\n"
                + ".paper{background:#f5f5e8;border-left:4px solid #cc9;padding:.4em .8em}\n"
                + "code{background:#f2f2f2}\n</style></head><body>\n"
                + "<h1>SRv6-INT SFC testbed twin: results</h1>\n"
                + "<p>Each scenario reproduces one figure of the paper's section V in simulated time with the "
                + "app's collector, global loop, placement and flow programming and the node agent on every "
                + "worker. <em>Violated</em>: seconds with the 100 ms bucket's E2E p95 above the chain's bound "
                + "(or no packet); <em>below from</em>: end of the last violation (&ldquo;never&rdquo;: still "
                + "violated at the end; &ldquo;&ndash;&rdquo;: never violated). Baselines: without vertical "
                + "scaling (<code>none</code>) and K8s-VPA (<code>vpa</code>). docs/twin.md explains the model "
                + "and where it differs from the testbed.</p>\n<ul>\n" + toc + "</ul>\n" + body
                + "</body></html>\n";
        Path page = root.resolve("index.html");
        Files.createDirectories(root);
        Files.writeString(page, html, StandardCharsets.UTF_8);
        return page;
    }

    private static void section(StringBuilder b, Path root, String name, JsonNode s) {
        b.append("<h2 id=\"").append(esc(name)).append("\">").append(esc(name)).append(": ")
                .append(esc(s.path("title").asText())).append("</h2>\n");
        String paper = PAPER.get(name);
        b.append("<p class=\"paper\"><b>Paper:</b> ").append(paper == null ? "&ndash; (not a figure of the paper)"
                : paper).append("</p>\n");
        JsonNode pol = s.path("policies");
        List<String> present = new ArrayList<>();
        for (String p : POLICIES) {
            if (pol.has(p)) {
                present.add(p);
            }
        }
        if (s.has("max_throughput_gbps")) {
            throughput(b, s.get("max_throughput_gbps"), present);
        }
        b.append("<table><tr><th class=\"l\" rowspan=\"2\">chain</th>");
        for (String p : present) {
            b.append("<th colspan=\"5\">").append(esc(POLICY_LABEL.get(p))).append("</th>");
        }
        b.append("</tr>\n<tr>");
        for (int i = 0; i < present.size(); i++) {
            b.append("<th>violated (s)</th><th>below from (s)</th><th>max p95 (ms)</th><th>replicas</th>"
                    + "<th>scale-out (s)</th>");
        }
        b.append("</tr>\n");
        JsonNode first = present.isEmpty() ? null : pol.get(present.get(0));
        for (Iterator<String> it = first == null ? List.<String>of().iterator() : first.fieldNames(); it.hasNext();) {
            String chain = it.next();
            b.append("<tr><td class=\"l\">").append(esc(chain)).append("</td>");
            for (String p : present) {
                JsonNode c = pol.get(p).path(chain);
                double violated = 0;
                for (JsonNode v : c.path("violations")) {
                    violated += v.get(1).asDouble() - v.get(0).asDouble();
                }
                String below = c.path("violations").size() == 0 ? "&ndash;"
                        : c.path("recovery_s").isNumber() ? num(c.get("recovery_s").asDouble()) : "never";
                b.append("<td>").append(num(violated)).append("</td><td>").append(below).append("</td><td>")
                        .append(num(c.path("max_p95_us").asDouble() / 1000)).append("</td><td>")
                        .append(c.path("final_replicas").asInt()).append("</td><td>")
                        .append(c.path("global_trigger_s").isNumber() ? num(c.get("global_trigger_s").asDouble())
                                : "&ndash;").append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
        // Fig. 13 is fig12's resources under ours; scale adds its totals and the twin's cost
        List<String> images = "fig12".equals(name) ? List.of(name + ".png", name + "-repeat.png", "ours/resources.png")
                : "scale".equals(name) ? List.of(name + ".png", "scale-violations.png", "scale-totals.png", "speed.png")
                : List.of(name + ".png", name + "-repeat.png");
        for (String img : images) {
            if (Files.isRegularFile(root.resolve(name).resolve(img))) {
                b.append("<img src=\"").append(esc(name + "/" + img)).append("\" alt=\"").append(esc(name + " "
                        + img)).append("\">\n");
            }
        }
        settings(b, s.path("settings"), s.path("seed"));
        b.append("<p>Files: <a href=\"").append(esc(name)).append("/summary.json\">summary.json</a>");
        for (String p : present) {
            b.append(", ").append(esc(p)).append(": <a href=\"").append(esc(name + "/" + p))
                    .append("/timeline.csv\">timeline.csv</a> <a href=\"").append(esc(name + "/" + p))
                    .append("/resources.csv\">resources.csv</a>");
        }
        for (String f : List.of("chains.csv", "totals.csv", "speed.csv")) {
            if (Files.isRegularFile(root.resolve(name).resolve(f))) {
                b.append(", <a href=\"").append(esc(name + "/" + f)).append("\">").append(esc(f)).append("</a>");
            }
        }
        if (Files.isRegularFile(root.resolve(name).resolve("repeat.json"))) {
            b.append(", <a href=\"").append(esc(name)).append("/repeat.json\">repeat.json</a>");
        }
        b.append("</p>\n");
    }

    private static void throughput(StringBuilder b, JsonNode t, List<String> present) {
        for (Iterator<Map.Entry<String, JsonNode>> panels = t.fields(); panels.hasNext();) {
            Map.Entry<String, JsonNode> panel = panels.next();
            if (panel.getValue().size() == 0) {
                continue;
            }
            b.append("<table><tr><th class=\"l\">(").append(esc(panel.getKey()))
                    .append(") largest throughput within bound, Gbit/s</th>");
            for (String p : present) {
                b.append("<th>").append(esc(POLICY_LABEL.get(p))).append("</th>");
            }
            b.append("</tr>\n");
            for (Iterator<Map.Entry<String, JsonNode>> rows = panel.getValue().fields(); rows.hasNext();) {
                Map.Entry<String, JsonNode> row = rows.next();
                b.append("<tr><td class=\"l\">").append(esc(row.getKey())).append("</td>");
                for (String p : present) {
                    b.append("<td>").append(row.getValue().has(p) ? num(row.getValue().get(p).asDouble())
                            : "&ndash;").append("</td>");
                }
                b.append("</tr>\n");
            }
            b.append("</table>\n");
        }
    }

    private static void settings(StringBuilder b, JsonNode settings, JsonNode seed) {
        b.append("<p><b>Settings:</b> seed ").append(esc(seed.asText()));
        for (Iterator<Map.Entry<String, JsonNode>> it = settings.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String v = e.getValue().isContainerNode() ? e.getValue().toString() : e.getValue().asText();
            b.append(", ").append(esc(e.getKey().replace('_', ' '))).append(" ").append(esc(v));
        }
        b.append("</p>\n");
    }

    private static String num(double v) {
        if (Double.isNaN(v)) {
            return "&ndash;";
        }
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Escapes text for HTML. */
    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
