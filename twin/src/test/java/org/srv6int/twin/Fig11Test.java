// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import java.util.ArrayList;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.twin.model.VnfType;
import org.srv6int.twin.scenario.Scenarios;

/**
 * Fig. 11 (co-location throughput): the fig11 scenario gives both panels, (a) one vNF among three
 * co-located ones and (b) SFC 1 (the six type pairs) among SFCs 2-4, as numbers in summary.json and
 * as the two bar charts of fig11.png.
 */
public class Fig11Test {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static Path out;

    /** One fig11 run (all three policies) for both tests. */
    private static synchronized Path fig11() throws Exception {
        if (out == null) {
            Path dir = TMP.newFolder("out").toPath();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = Main.run(new String[] {"fig11", "--out", dir.toString(), "--quiet"},
                    new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
            assertEquals(err.toString(StandardCharsets.UTF_8), 0, rc);
            out = dir;
        }
        return out;
    }

    private static JsonNode bars() throws Exception {
        return new ObjectMapper().readTree(fig11().resolve("fig11/summary.json").toFile()).get("max_throughput_gbps");
    }

    @Test
    public void fig11GivesPanelsAAndBInThePapersOrderWithANonzeroVpaBaseline() throws Exception {
        Path out = fig11();
        JsonNode t = bars();
        assertEquals(List.of("Fwd", "Snort", "nDPI", "ntopng"), names(t.get("a")));
        assertEquals(List.of("Fwd+Snort", "Fwd+nDPI", "Fwd+ntopng", "Snort+nDPI", "Snort+ntopng", "nDPI+ntopng"),
                names(t.get("b")));
        // (a): ours is the largest for every vNF. The paper has K8s-VPA slightly above ours for
        // Snort; the twin's VPA (modelled on VPA's recommender and updater) sizes Snort from usage
        // its own quota caps and evicts it for each change (docs/twin.md section 8, "Where the twin
        // differs"; the test below shows why no honest VPA model gives that bar alone): for Snort
        // only ours above none is checked, and VPA passing a step.
        for (String vnf : names(t.get("a"))) {
            JsonNode bar = t.get("a").get(vnf);
            double ours = bar.get("ours").asDouble();
            assertTrue(vnf + ": VPA passes a step " + bar, bar.get("vpa").asDouble() >= 0.5);
            assertTrue(vnf + ": ours above none " + bar, ours > bar.get("none").asDouble());
            if (!"Snort".equals(vnf)) {
                assertTrue(vnf + ": ours above VPA " + bar, ours > bar.get("vpa").asDouble());
            }
        }
        // (b): SFC 1's ours is above both baselines for all six pairs, as in the paper.
        for (String pair : names(t.get("b"))) {
            JsonNode bar = t.get("b").get(pair);
            double ours = bar.get("ours").asDouble();
            double none = bar.get("none").asDouble();
            double vpa = bar.get("vpa").asDouble();
            assertTrue(pair + ": VPA passes a step " + bar, vpa >= 0.5);
            assertTrue(pair + ": ours above both baselines " + bar, ours > none && ours > vpa);
        }
        // the same numbers per chain in the policy's summary
        JsonNode chain = new ObjectMapper().readTree(out.resolve("fig11/ours/summary.json").toFile())
                .at("/chains/SFC1 Fwd+nDPI");
        assertEquals(t.at("/b/Fwd+nDPI/ours").asDouble(), chain.get("max_throughput_gbps").asDouble(), 0);
        BufferedImage png = ImageIO.read(out.resolve("fig11/fig11.png").toFile());
        assertEquals("panels (a) and (b) stacked", 2 * 420, png.getHeight());
    }

    /**
     * Why (a)'s Snort bar is not reproduced (docs/twin.md section 8): in the twin, the CPU quota a
     * target gets decides every (a) bar. A target handed the NIC node's free cores at start, with
     * no controller at all, passes more than under ours for nDPI and ntopng, so a VPA made as
     * aggressive with CPU quota as the paper says would win those bars too, against the paper.
     */
    @Test
    public void givenTheNodesFreeCoresAtStartNdpiAndNtopngPassMoreThanUnderOurs() throws Exception {
        JsonNode a = bars().get("a");
        for (VnfType target : List.of(VnfType.NDPI, VnfType.NTOPNG)) {
            Experiment exp = Scenarios.fig11a(target, true);
            RunResult r = Runner.run(exp, Policy.NONE, 1, null);
            double given = r.chains().get(r.chainKey(exp.label())).maxThroughputGbps;
            double ours = a.get(target.label()).get("ours").asDouble();
            assertTrue(target.label() + ": the node's free cores at start " + given + " above ours " + ours,
                    given > ours);
        }
    }

    private static List<String> names(JsonNode obj) {
        List<String> out = new ArrayList<>();
        obj.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
