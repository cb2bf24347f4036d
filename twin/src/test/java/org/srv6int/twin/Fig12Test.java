// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.srv6int.twin.Fig10Test.violatedWithin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Figs. 12-13 (paper section V, dynamic traffic): four co-located vNFs, nDPI's traffic rising to
 * its peak held over [42, 57] s and ntopng's and Fwd's over [70, 90] s. The paper: without
 * vertical scaling, resource contention in both periods raises the tail latencies; with K8s-VPA
 * those of nDPI and Fwd in the two periods; ours keeps all four low all the time, giving nDPI,
 * then ntopng, more CPU quota and LLC as their traffic rises (Fig. 13). Checked on
 * fig12/summary.json and ours/resources.csv of one run of all three policies.
 *
 * <p>Where the twin differs (docs/twin.md section 7): under none only the vNF whose traffic
 * rises goes over the bound (the paper has all four), and the twin's VPA also loses ntopng from
 * 30 s; those parts are not asserted.
 */
public class Fig12Test {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();
    private static final List<String> VNFS = List.of("Fwd", "Snort", "nDPI", "ntopng");
    private static JsonNode fig12;
    private static Path out;

    @BeforeClass
    public static void runFig12() throws Exception {
        out = TMP.newFolder("out").toPath();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"fig12", "--seed", "1", "--out", out.toString(), "--no-plots", "--quiet"},
                new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
        assertEquals(err.toString(StandardCharsets.UTF_8), 0, rc);
        fig12 = new ObjectMapper().readTree(out.resolve("fig12/summary.json").toFile());
    }

    private static JsonNode chain(String policy, String vnf) {
        JsonNode c = fig12.at("/policies/" + policy + "/" + vnf);
        assertTrue(policy + "/" + vnf + " missing", c.isObject());
        return c;
    }

    @Test
    public void oursKeepsEveryVnfLowAllTheTime() {
        for (String v : VNFS) {
            JsonNode c = chain("ours", v);
            // at most blips of a 100 ms bucket or two (start-up, a step of the loop)
            assertTrue(v + " violated " + violatedWithin(c, 0, 100) + " s: " + c.get("violations"),
                    violatedWithin(c, 0, 100) <= 0.5);
            assertTrue(v + " in the contention periods", violatedWithin(c, 42, 57) + violatedWithin(c, 70, 90) <= 0.2);
            assertEquals(v + " stays on one replica", 1, c.get("final_replicas").asInt());
        }
    }

    @Test
    public void withoutVerticalScalingContentionRaisesTheRisingVnfs() {
        assertTrue("nDPI over [42, 57]", violatedWithin(chain("none", "nDPI"), 42, 57) >= 10);
        assertTrue("ntopng over [70, 90]", violatedWithin(chain("none", "ntopng"), 70, 90) >= 15);
    }

    @Test
    public void vpaLosesNdpiAndFwdInTheTwoPeriods() {
        assertTrue("nDPI over [42, 57]", violatedWithin(chain("vpa", "nDPI"), 42, 57) >= 10);
        assertTrue("Fwd over [70, 90]", violatedWithin(chain("vpa", "Fwd"), 70, 90) >= 15);
    }

    @Test
    public void oursBeatsBothBaselinesInEachPeriod() {
        for (double[] period : new double[][] {{42, 57}, {70, 90}}) {
            Map<String, Double> total = new HashMap<>();
            for (String p : List.of("ours", "none", "vpa")) {
                double sum = 0;
                for (String v : VNFS) {
                    sum += violatedWithin(chain(p, v), period[0], period[1]);
                }
                total.put(p, sum);
            }
            String what = "violation seconds in [" + period[0] + ", " + period[1] + "]: " + total;
            assertTrue(what, total.get("ours") + 5 < total.get("none"));
            assertTrue(what, total.get("ours") + 5 < total.get("vpa"));
        }
    }

    @Test
    public void oursGivesTheRisingVnfsMoreResourcesFig13() throws Exception {
        Map<String, double[]> at = new HashMap<>();
        for (String line : Files.readAllLines(out.resolve("fig12/ours/resources.csv"))) {
            String[] f = line.split(",");
            if (!"t_s".equals(f[0])) {
                double[] v = new double[f.length - 2];
                for (int i = 2; i < f.length; i++) {
                    v[i - 2] = Double.parseDouble(f[i]);
                }
                at.put(f[0] + "," + f[1], v);
            }
        }
        // cpu_quota (0) and llc_ways (1) before and after each rise
        assertTrue("nDPI CPU after its rise", cpu(at, "40", "ndpi") > cpu(at, "5", "ndpi"));
        assertTrue("ntopng CPU after its rise", cpu(at, "80", "ntopng") > cpu(at, "50", "ntopng"));
        assertTrue("ntopng LLC after its rise", at.get("80,ntopng@worker1")[1] > at.get("50,ntopng@worker1")[1]);
        assertTrue("Fwd CPU after its rise", cpu(at, "80", "fwd") > cpu(at, "60", "fwd"));
    }

    private static double cpu(Map<String, double[]> at, String t, String vnf) {
        double[] v = at.get(t + "," + vnf + "@worker1");
        assertTrue(vnf + " at " + t + " s missing", v != null);
        return v[0];
    }
}
