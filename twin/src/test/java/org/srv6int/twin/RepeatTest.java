// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code --repeat N}: seeds seed..seed+N-1, the usual files of the first seed, and repeat.json
 * whose means and intervals are those of the single-seed runs.
 */
public class RepeatTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static void twin(String... args) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(args, new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"),
                new PrintStream(err, true, "UTF-8"));
        assertEquals(err.toString(StandardCharsets.UTF_8), 0, rc);
    }

    @Test
    public void threeSeedsGiveTheMeanAndIntervalOfTheThreeRuns() throws Exception {
        Path rep = TMP.newFolder("rep").toPath();
        // fig9 under vpa: short runs whose recommender sees seed-dependent usage
        twin("fig9", "--policy", "vpa", "--seed", "5", "--repeat", "3", "--out", rep.toString(), "--quiet");
        ObjectMapper m = new ObjectMapper();
        JsonNode r = m.readTree(rep.resolve("fig9/repeat.json").toFile());
        assertEquals("[5,6,7]", r.get("seeds").toString());
        List<JsonNode> single = new ArrayList<>();
        for (int seed = 5; seed <= 7; seed++) {
            Path one = TMP.newFolder("seed" + seed).toPath();
            twin("fig9", "--policy", "vpa", "--seed", String.valueOf(seed), "--out", one.toString(), "--no-plots",
                    "--quiet");
            single.add(m.readTree(one.resolve("fig9/summary.json").toFile()));
            if (seed == 5) {
                assertEquals("the scenario's own files are the first seed's",
                        Files.readString(one.resolve("fig9/vpa/timeline.csv")),
                        Files.readString(rep.resolve("fig9/vpa/timeline.csv")));
            }
        }
        boolean anySpread = false;
        for (String vnf : List.of("Fwd", "Snort", "nDPI", "ntopng")) {
            double[] v = new double[3];
            for (int i = 0; i < 3; i++) {
                v[i] = single.get(i).at("/policies/vpa/" + vnf + "/max_p95_us").asDouble();
            }
            double mean = (v[0] + v[1] + v[2]) / 3;
            double ss = 0;
            for (double x : v) {
                ss += (x - mean) * (x - mean);
            }
            double half = 4.303 * Math.sqrt(ss / 2) / Math.sqrt(3);
            JsonNode got = r.at("/policies/vpa/" + vnf + "/max_p95_us");
            assertEquals(vnf, mean, got.get("mean").asDouble(), 1e-6 * mean);
            assertEquals(vnf, half, got.get("ci95").asDouble(), 1e-6 * mean + 1e-9);
            assertEquals(3, got.get("n").asInt());
            anySpread |= half > 0;
            // never recovered under vpa in 20 s: recovery is missing in every seed, not averaged as 0
            JsonNode rec = r.at("/policies/vpa/" + vnf + "/recovery_s");
            assertEquals(rec.toString(), 3, rec.get("n").asInt() + rec.get("missing").asInt());
        }
        assertTrue("seeds differ somewhere", anySpread);
        BufferedImage png = ImageIO.read(rep.resolve("fig9/fig9-repeat.png").toFile());
        assertEquals("one latency panel for the one policy", 330, png.getHeight());
    }
}
