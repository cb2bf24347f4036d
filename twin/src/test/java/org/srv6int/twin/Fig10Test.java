// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Fig. 10 (paper section V): SFC 1 with its two vNFs on Workers 1 and 2, the six type pairs,
 * starting with abnormally long E2E latency. "Our proposal can reduce the 95% tail E2E latencies
 * of all the SFCs below 1 ms within 4 seconds and maintain the latency at the low level
 * thereafter, outperforming the two benchmarks significantly." Checked on fig10/summary.json of
 * one run of all three policies.
 */
public class Fig10Test {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();
    private static JsonNode fig10;

    @BeforeClass
    public static void runFig10() throws Exception {
        Path out = TMP.newFolder("out").toPath();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"fig10", "--seed", "1", "--out", out.toString(), "--no-plots", "--quiet"},
                new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
        assertEquals(err.toString(StandardCharsets.UTF_8), 0, rc);
        fig10 = new ObjectMapper().readTree(out.resolve("fig10/summary.json").toFile());
    }

    static double num(JsonNode n) {
        return n == null || n.isNull() ? Double.NaN : n.asDouble();
    }

    /** Total violation time of a chain inside [from, to). */
    static double violatedWithin(JsonNode chain, double from, double to) {
        double sum = 0;
        for (JsonNode ep : chain.get("violations")) {
            double a = Math.max(from, ep.get(0).asDouble());
            double b = Math.min(to, ep.get(1).asDouble());
            sum += Math.max(0, b - a);
        }
        return sum;
    }

    private static List<String> pairs(String policy) {
        List<String> out = new ArrayList<>();
        fig10.at("/policies/" + policy).fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    public void everyTypePairRunsUnderEveryPolicy() {
        List<String> six = List.of("Fwd+Snort", "Fwd+nDPI", "Fwd+ntopng", "Snort+nDPI", "Snort+ntopng", "nDPI+ntopng");
        for (String p : List.of("ours", "none", "vpa")) {
            assertEquals(p, six, pairs(p));
        }
    }

    @Test
    public void oursEveryPairBelowOneMsWithinFourSecondsAndStaysThere() {
        for (String pair : pairs("ours")) {
            JsonNode c = fig10.at("/policies/ours/" + pair);
            assertTrue(pair + " started abnormal: " + c, c.get("max_p95_us").asDouble() > 1000);
            assertTrue(pair + " below bound by " + num(c.get("recovery_s")), num(c.get("recovery_s")) <= 4.0);
            assertEquals(pair + " above bound after 4 s: " + c.get("violations"), 0, violatedWithin(c, 4, 20), 0);
            assertEquals(pair + " needs no replica", 1, c.get("final_replicas").asInt());
        }
    }

    @Test
    public void baselinesStayAboveTheBoundLong() {
        // "outperforming the two benchmarks significantly": without the local loop the starved
        // allocation stays; VPA's recommender needs far longer than the run to resize.
        for (String policy : List.of("none", "vpa")) {
            for (String pair : pairs(policy)) {
                JsonNode c = fig10.at("/policies/" + policy + "/" + pair);
                assertTrue(policy + " " + pair + " violated only " + violatedWithin(c, 4, 20) + " s of the last 16",
                        violatedWithin(c, 4, 20) >= 12);
            }
        }
    }
}
