// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A two-vNF chain whose vNFs share one worker (the shared-worker scenario), under the three
 * policies: the switch in front of the worker serves both vNF SIDs, so the chain carries its
 * traffic and no probe flow is lost (before, every packet was dropped as NO_ROUTE after vNF 1).
 */
public class SharedWorkerTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Test
    public void chainOnOneWorkerCarriesTrafficUnderAllThreePolicies() throws Exception {
        Path out = TMP.newFolder("out").toPath();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"shared-worker", "--policy", "ours,none,vpa", "--seed", "1", "--out",
            out.toString(), "--no-plots", "--quiet"}, new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"),
                new PrintStream(err, true, "UTF-8"));
        assertEquals(err.toString(StandardCharsets.UTF_8), 0, rc);
        ObjectMapper m = new ObjectMapper();
        JsonNode sum = m.readTree(out.resolve("shared-worker/summary.json").toFile());
        double[] gbps = new double[3];
        String[] policies = {"ours", "none", "vpa"};
        for (int i = 0; i < 3; i++) {
            JsonNode chain = sum.at("/policies/" + policies[i] + "/sfc1");
            assertFalse(policies[i] + ": " + sum, chain.isMissingNode());
            gbps[i] = chain.path("max_throughput_gbps").asDouble(0);
            // The ramp's first step (0.5 Gbps) passes: the chain is served end to end.
            assertTrue(policies[i] + ": " + chain, gbps[i] >= 0.5);
            JsonNode events = m.readTree(out.resolve("shared-worker/" + policies[i] + "/summary.json").toFile())
                    .get("events");
            for (JsonNode e : events) {
                assertFalse(policies[i] + ": " + e.asText(), e.asText().contains("switches lose"));
            }
        }
        // The loops act on a chain that carries traffic: ours scales past the fixed requests.
        assertTrue("ours " + gbps[0] + " vs none " + gbps[1], gbps[0] > gbps[1]);
    }
}
