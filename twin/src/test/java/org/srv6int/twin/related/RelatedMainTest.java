// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.related;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;
import org.srv6int.twin.Main;

/** {@code tools/twin pushaside interference}: the files each writes and the line each prints. */
public class RelatedMainTest {

    @Test
    public void bothExperimentsWriteTheirFilesAndPrintTheirRatios() throws Exception {
        Path out = Files.createTempDirectory("twin-related");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"pushaside", "interference", "--out", out.toString(), "--quiet"},
                          new PrintStream(text, true, "UTF-8"), new PrintStream(new ByteArrayOutputStream(), true,
                                                                                  "UTF-8"));
        assertEquals(0, rc);
        for (String f : new String[] {"pushaside/timeline.csv", "pushaside/summary.json", "pushaside/pushaside.png",
                                      "interference/placements.csv", "interference/summary.json",
                                      "interference/interference.png"}) {
            assertTrue(f, Files.size(out.resolve(f)) > 0);
        }
        String s = text.toString(StandardCharsets.UTF_8);
        assertTrue(s, s.contains("twin: pushaside: violation") && s.contains("paper 1.5x"));
        assertTrue(s, s.contains("twin: interference: mean chain throughput loss"));
        assertTrue(Files.readString(out.resolve("pushaside/timeline.csv"))
                           .startsWith("t_s,policy,e2e_p95_us,spa_p95_us,spa_replicas,nodes_used,cpu_reserved_m\n"));
    }

    @Test
    public void aBadOptionAfterAnExperimentIsStatus2() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"pushaside", "--seed"}, new PrintStream(new ByteArrayOutputStream(), true,
                "UTF-8"), new PrintStream(err, true, "UTF-8"));
        assertEquals(2, rc);
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("twin: --seed needs a value"));
    }
}
