// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import java.util.ArrayList;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The paper's claims, checked on the twin's summary.json: fig8 (horizontal scaling) under ours
 * and none, fig9 (single vNF) under ours. One run of each, shared by the tests.
 */
public class ScenarioTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();
    private static JsonNode fig8;
    private static JsonNode fig9;
    private static Path out;

    @BeforeClass
    public static void runScenarios() throws Exception {
        out = TMP.newFolder("out").toPath();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"fig8", "--policy", "ours,none", "--seed", "1", "--out", out.toString(),
            "--no-plots", "--quiet"}, new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"),
                new PrintStream(err, true, "UTF-8"));
        assertEquals(err.toString(StandardCharsets.UTF_8), 0, rc);
        rc = Main.run(new String[] {"fig9", "--policy", "ours", "--out", out.toString(), "--no-plots", "--quiet"},
                new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
        assertEquals(err.toString(StandardCharsets.UTF_8), 0, rc);
        ObjectMapper m = new ObjectMapper();
        fig8 = m.readTree(out.resolve("fig8/summary.json").toFile());
        fig9 = m.readTree(out.resolve("fig9/summary.json").toFile());
    }

    private static double num(JsonNode n) {
        return n == null || n.isNull() ? Double.NaN : n.asDouble();
    }

    /** Total violation time of a chain inside [from, to). */
    private static double violatedWithin(JsonNode chain, double from, double to) {
        double sum = 0;
        for (JsonNode ep : chain.get("violations")) {
            double a = Math.max(from, ep.get(0).asDouble());
            double b = Math.min(to, ep.get(1).asDouble());
            sum += Math.max(0, b - a);
        }
        return sum;
    }

    @Test
    public void fig8OursLocalLoopAbsorbsFirstRise() {
        JsonNode sfc2 = fig8.at("/policies/ours/sfc2");
        // The rise at 10 s may cost a transient while the local loop adds resources, not more.
        assertTrue("violated " + violatedWithin(sfc2, 10, 25) + " s between the rises",
                violatedWithin(sfc2, 10, 25) < 1.0);
        assertTrue("no scaling before the second rise", num(sfc2.get("global_trigger_s")) > 25);
    }

    @Test
    public void fig8OursNoAgentEscalatesTheFirstRisesTransient() throws Exception {
        // the local loop absorbs it in 0.2 s, well inside the agents' 1 s escalation hold (before the
        // hold, Snort's agent escalated at 10.1 s, every type tried within 0.1 s)
        JsonNode events = new ObjectMapper().readTree(out.resolve("fig8/ours/summary.json").toFile()).get("events");
        for (JsonNode e : events) {
            String text = e.asText();
            double t = Double.parseDouble(text.substring(0, text.indexOf(' ')));
            assertTrue(text, t >= 25 || !text.contains(" escalates "));
        }
    }

    @Test
    public void fig8OursGlobalLoopAddsOneSnortReplicaOnWorker2() throws Exception {
        JsonNode sfc2 = fig8.at("/policies/ours/sfc2");
        double trigger = num(sfc2.get("global_trigger_s"));
        // Snort's agent escalates 1 s into the rise (26.0 s: every type tried, then its 1 s escalation
        // hold over the bound with nothing given): the loop acts at its next 500 ms window (26.5 s, the
        // violation two windows old) instead of waiting out t-hat = 4 s (30 s) (docs/global-loop.md,
        // "Escalations"; docs/node-agent.md, the hold; the paper's system had no escalation).
        assertTrue("trigger at " + trigger, trigger >= 26.4 && trigger <= 26.6);
        assertEquals(2, sfc2.get("final_replicas").asInt());
        JsonNode events = new ObjectMapper().readTree(out.resolve("fig8/ours/summary.json").toFile()).get("events");
        int started = 0;
        for (JsonNode e : events) {
            if (e.asText().contains(": start ")) {
                started++;
                assertTrue(e.asText(), e.asText().contains("start vnf3@worker2 on worker2"));
            }
        }
        assertEquals("exactly one replica started in the whole run", 1, started);
        for (String other : List.of("sfc1", "sfc3", "sfc4")) {
            assertEquals(other, 1, fig8.at("/policies/ours/" + other + "/final_replicas").asInt());
        }
    }

    @Test
    public void fig8OursSfc2RecoversAboutFourSecondsAfterTheRise() {
        JsonNode sfc2 = fig8.at("/policies/ours/sfc2");
        double rec = num(sfc2.get("recovery_s"));
        // the replica is Ready 3 s after the trigger at 26.5 s (the paper: about 8 s, t-hat 4 s + start-up)
        assertTrue("recovery at " + rec, rec > 29 && rec < 30);
        assertTrue("overload above 7 ms", sfc2.get("max_p95_us").asDouble() > 7000);
    }

    @Test
    public void fig8OursCoLocatedSfcsAreNotUpsetByTheLocalLoop() {
        // the node agent's loop must not squeeze SFC 2's neighbours over their bounds (only short blips)
        for (String other : List.of("sfc1", "sfc3", "sfc4")) {
            JsonNode c = fig8.at("/policies/ours/" + other);
            double total = violatedWithin(c, 0, 50);
            assertTrue(other + " violated " + total + " s in all", total <= 0.5);
        }
    }

    @Test
    public void fig8OursAgentEscalationsReachTheGlobalLoop() throws Exception {
        JsonNode events = new ObjectMapper().readTree(out.resolve("fig8/ours/summary.json").toFile()).get("events");
        double trigger = num(fig8.at("/policies/ours/sfc2/global_trigger_s"));
        boolean snortAfterSecondRise = false;
        boolean recorded = false;
        for (JsonNode e : events) {
            String text = e.asText();
            double t = Double.parseDouble(text.substring(0, text.indexOf(' ')));
            if (text.contains("agent on worker1 escalates vnf3@worker1") && text.contains("accepted (202)")) {
                snortAfterSecondRise |= t >= 25 && t < trigger;
            }
            recorded |= text.contains("loop ESCALATION 2/0 (vnf3 chain sfc2)") && t >= 25 && t < trigger;
        }
        assertTrue("Snort's agent escalates between the second rise and the global trigger: " + events,
                snortAfterSecondRise);
        assertTrue("the app's loop records it before it scales out: " + events, recorded);
    }

    @Test
    public void fig8NoneNeverRecovers() {
        JsonNode sfc2 = fig8.at("/policies/none/sfc2");
        assertTrue(Double.isNaN(num(sfc2.get("recovery_s"))));
        assertTrue(Double.isNaN(num(sfc2.get("global_trigger_s"))));
        assertEquals(1, sfc2.get("final_replicas").asInt());
        assertTrue("still violating at the end", violatedWithin(sfc2, 45, 50) > 4.9);
    }

    @Test
    public void fig9OursEveryVnfBelowOneMsWithinTwoSeconds() {
        JsonNode chains = fig9.at("/policies/ours");
        assertEquals(4, chains.size());
        chains.fields().forEachRemaining(e -> {
            JsonNode c = e.getValue();
            assertTrue(e.getKey() + " started abnormal", c.get("max_p95_us").asDouble() > 1000);
            assertTrue(e.getKey() + " recovered by " + num(c.get("recovery_s")), num(c.get("recovery_s")) <= 2.0);
        });
    }

    @Test
    public void outputsHaveTheExactHeadersAndOneRowPerChainPer100ms() throws Exception {
        List<String> tl = Files.readAllLines(out.resolve("fig8/ours/timeline.csv"));
        assertEquals("t_s,sfc,e2e_p95_us,throughput_gbps,replicas", tl.get(0));
        assertEquals(1 + 4 * 500, tl.size());
        List<String> rs = Files.readAllLines(out.resolve("fig8/ours/resources.csv"));
        assertEquals("t_s,vnf,cpu_quota,llc_ways,mem_bw_pct,cpu_freq_mhz", rs.get(0));
        assertFalse(new File(out.resolve("fig8/vpa").toString()).exists());
    }

    @Test
    public void sameSeedSameFiles() throws Exception {
        Path again = TMP.newFolder("again").toPath();
        int rc = Main.run(new String[] {"fig9", "--policy", "ours", "--out", again.toString(), "--no-plots",
            "--quiet"}, new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"),
                new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"));
        assertEquals(0, rc);
        for (String f : List.of("timeline.csv", "resources.csv", "summary.json")) {
            assertEquals(f, Files.readString(out.resolve("fig9/ours/" + f)), Files.readString(again.resolve("fig9/ours/"
                    + f)));
        }
    }

    @Test
    public void fig8OursSameSeedSameSummaryWithEveryReportCounted() throws Exception {
        Path again = TMP.newFolder("again8").toPath();
        int rc = Main.run(new String[] {"fig8", "--policy", "ours", "--seed", "1", "--out", again.toString(),
            "--no-plots", "--quiet"}, new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"),
                new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"));
        assertEquals(0, rc);
        String first = Files.readString(out.resolve("fig8/ours/summary.json"));
        assertEquals(first, Files.readString(again.resolve("fig8/ours/summary.json")));
        JsonNode c = new ObjectMapper().readTree(first).at("/collector/all");
        assertTrue("reports sent " + c, c.get("reports_sent").asLong() > 1_000_000);
        assertEquals(c.get("reports_sent").asLong(), c.get("reports_accepted").asLong());
        assertEquals(0, c.get("reports_lost_on_socket").asLong());
        assertEquals(0, c.get("int_entries_unmapped").asLong());
    }

    @Test
    public void fig8OursOnThreeOnosInstancesIsTheRunOfOne() throws Exception {
        Path three = TMP.newFolder("three").toPath();
        int rc = Main.run(new String[] {"fig8", "--policy", "ours", "--seed", "1", "--out", three.toString(),
            "--no-plots", "--quiet", "--onos-instances", "3"}, new PrintStream(new ByteArrayOutputStream(), true,
                "UTF-8"), new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"));
        assertEquals(0, rc);
        // Mastership of the reporting switch and leadership of the loop moved several times; the
        // leader's windows were the cluster's and the loop resumed from the store each time: the
        // run is the single instance's, packet for packet.
        assertEquals(Files.readString(out.resolve("fig8/ours/timeline.csv")),
                     Files.readString(three.resolve("fig8/ours/timeline.csv")));
        ObjectMapper m = new ObjectMapper();
        JsonNode one = m.readTree(out.resolve("fig8/ours/summary.json").toFile());
        JsonNode s = m.readTree(three.resolve("fig8/ours/summary.json").toFile());
        List<String> loop1 = new ArrayList<>();
        one.get("events").forEach(e -> loop1.add(e.asText()));
        List<String> loop3 = new ArrayList<>();
        List<String> moves = new ArrayList<>();
        s.get("events").forEach(e -> (e.asText().contains(": cluster: ") ? moves : loop3).add(e.asText()));
        assertEquals(loop1, loop3);
        assertTrue(moves.toString(), moves.stream().anyMatch(e -> e.contains("leadership moves to onos-3")));
        JsonNode c = s.at("/collector/all");
        long accepted = 0;
        for (JsonNode i : c.get("instances")) {
            assertTrue(i.toString(), i.get("reports_accepted").asLong() > 0);
            accepted += i.get("reports_accepted").asLong();
        }
        assertEquals(c.get("reports_sent").asLong(), accepted);
        assertEquals(0, c.get("loop_store_failures").asLong());
    }

    @Test
    public void badArgumentsGetAClearErrorAndStatus2() throws Exception {
        for (String[] args : List.of(new String[] {"fig99"}, new String[] {"fig8", "--seed"},
                new String[] {"fig8", "--policy", "hpa"}, new String[] {}, new String[] {"fig8", "--k8s", "x"},
                new String[] {"fig8", "--local-loop", "twin"}, new String[] {"fig8", "--onos-instances", "0"},
                new String[] {"fig8", "--onos-instances", "three"})) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = Main.run(args, new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"),
                    new PrintStream(err, true, "UTF-8"));
            assertEquals(String.join(" ", args), 2, rc);
            assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("twin: "));
        }
    }
}
