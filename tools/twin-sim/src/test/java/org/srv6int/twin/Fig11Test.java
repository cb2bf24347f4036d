package org.srv6int.twin;

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

/**
 * Fig. 11 (co-location throughput): the fig11 scenario gives both panels, (a) one vNF among three
 * co-located ones and (b) SFC 1 (the six type pairs) among SFCs 2-4, as numbers in summary.json and
 * as the two bar charts of fig11.png.
 */
public class Fig11Test {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Test
    public void fig11GivesPanelsAAndBWithOursAtLeastNoneAndAboveItForMostPairs() throws Exception {
        Path out = TMP.newFolder("out").toPath();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"fig11", "--policy", "ours,none", "--out", out.toString(), "--quiet"},
                new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
        assertEquals(err.toString(StandardCharsets.UTF_8), 0, rc);
        JsonNode t = new ObjectMapper().readTree(out.resolve("fig11/summary.json").toFile()).get("max_throughput_gbps");
        assertEquals(List.of("Fwd", "Snort", "nDPI", "ntopng"), names(t.get("a")));
        assertEquals(List.of("Fwd+Snort", "Fwd+nDPI", "Fwd+ntopng", "Snort+nDPI", "Snort+ntopng", "nDPI+ntopng"),
                names(t.get("b")));
        int higher = 0;
        for (JsonNode pair : t.get("b")) {
            double ours = pair.get("ours").asDouble();
            double none = pair.get("none").asDouble();
            assertTrue(pair + ": ramp starts at 0.5 Gbps", none >= 0 && ours >= 0.5);
            assertTrue(pair + ": ours below none", ours >= none);
            if (ours > none) {
                higher++;
            }
        }
        // 4, not all 6: with Snort as vNF 1 Worker 1 is full (Snort+nDPI, Snort+ntopng), and a
        // replica of vNF 1 that the global loop places next to vNF 2 on Worker 2 loses its flows:
        // the P4 program cannot send a packet to a second vNF behind the same switch in one pass
        // (docs/p4-tables.md, "Consecutive vNFs behind one switch"). Measured with seed 1: 4 of 6.
        assertTrue("ours above none for " + higher + " of 6 pairs", higher >= 4);
        // the same numbers per chain in the policy's summary
        JsonNode chain = new ObjectMapper().readTree(out.resolve("fig11/ours/summary.json").toFile())
                .at("/chains/SFC1 Fwd+nDPI");
        assertEquals(t.at("/b/Fwd+nDPI/ours").asDouble(), chain.get("max_throughput_gbps").asDouble(), 0);
        BufferedImage png = ImageIO.read(out.resolve("fig11/fig11.png").toFile());
        assertEquals("panels (a) and (b) stacked", 2 * 420, png.getHeight());
    }

    private static List<String> names(JsonNode obj) {
        List<String> out = new java.util.ArrayList<>();
        obj.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
