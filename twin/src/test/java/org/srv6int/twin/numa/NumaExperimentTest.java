// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.numa;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.twin.Main;
import org.srv6int.twin.numa.NumaExperiment.Mechanism;

/** The NUMASFP experiment: ours ahead of every baseline on the paper's scenario shape (Fig. 10). */
public class NumaExperimentTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static final Mechanism[] BASELINES = {Mechanism.OCTANS, Mechanism.NODE_BALANCE, Mechanism.NODE_FIRST};

    @Test
    public void oursAheadOfEveryBaselineOnTheReadmeSeed() {
        NumaExperiment.Result r = NumaExperiment.run(1);
        for (Mechanism b : BASELINES) {
            assertTrue("ours " + r.anat(Mechanism.OURS) + " vs " + b + " " + r.anat(b),
                    r.anat(Mechanism.OURS) > r.anat(b));
        }
        assertTrue("ours moved no chain", r.moves(Mechanism.OURS) > 0);
        for (Mechanism b : BASELINES) {
            assertEquals(b + " is static", 0, r.moves(b));
        }
    }

    @Test
    public void oursAheadOnAverageOverSeeds() {
        double[] sum = new double[Mechanism.values().length];
        for (long seed = 1; seed <= 5; seed++) {
            NumaExperiment.Result r = NumaExperiment.run(seed);
            for (Mechanism m : Mechanism.values()) {
                sum[m.ordinal()] += r.anat(m);
            }
        }
        for (Mechanism b : BASELINES) {
            assertTrue("mean ANAT ours vs " + b, sum[Mechanism.OURS.ordinal()] > sum[b.ordinal()]);
        }
        // Fig. 7: either resource alone is not enough
        assertTrue(sum[Mechanism.OURS.ordinal()] > sum[Mechanism.OURS_LLC_ONLY.ordinal()]);
        assertTrue(sum[Mechanism.OURS_LLC_ONLY.ordinal()] > sum[Mechanism.OURS_UNMANAGED.ordinal()]);
    }

    @Test
    public void anatIsDeliveredOverOffered() {
        NumaExperiment.Result r = NumaExperiment.run(3);
        for (Mechanism m : Mechanism.values()) {
            double a = r.anat(m);
            assertTrue(m + " ANAT " + a, a > 0 && a <= 1);
        }
    }

    @Test
    public void commandLineWritesFilesAndRatios() throws Exception {
        Path out = tmp.getRoot().toPath();
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"numasfp", "--out", out.toString(), "--quiet"},
                new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        assertEquals(e.toString(StandardCharsets.UTF_8), 0, rc);
        String text = o.toString(StandardCharsets.UTF_8);
        assertTrue(text, text.contains("ours vs Octans"));
        assertTrue(text, text.contains("(paper x1.25)"));
        Path dir = out.resolve("numasfp");
        for (String f : List.of("anat.csv", "throughput.csv", "summary.json", "numasfp.png")) {
            assertTrue(f, Files.size(dir.resolve(f)) > 0);
        }
        List<String> csv = Files.readAllLines(dir.resolve("throughput.csv"));
        assertEquals("t_s,server,mechanism,offered_gbps,delivered_gbps,nat", csv.get(0));
        assertEquals(1 + NumaExperiment.SERVERS * NumaExperiment.SECONDS * Mechanism.values().length, csv.size());
        String json = Files.readString(dir.resolve("summary.json"));
        assertTrue(json, json.contains("\"ours_over_baseline\""));
    }
}
