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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.srv6int.twin.control.AppCore;
import org.srv6int.twin.control.Topology;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.scenario.Scale;

/**
 * {@code tools/twin scale} on a small instance (4 workers, 60 s): the generated fabric's
 * structure (leaf-spine links, one netcfg device per switch with the testbed's SID shape, every
 * NUMA node a server of its leaf) and sane behaviour of the app's loops on it: every chain
 * carries traffic all the time, the global loop adds replicas to a flash-crowd chain while the
 * crowd is on, and no chain is in violation at the end.
 * Not wall times (docs/twin.md section 14 has them).
 */
public class ScaleTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();
    private static final int WORKERS = 4;
    private static final double DURATION_S = 60;
    private static Path out;
    private static Experiment exp;
    private static Map<String, List<double[]>> timeline;

    @BeforeClass
    public static void runScale() throws Exception {
        out = TMP.newFolder("out").toPath();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"scale", "--workers", "" + WORKERS, "--duration", "" + DURATION_S, "--seed",
            "1", "--out", out.toString(), "--no-plots", "--quiet"},
                new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
        assertEquals(err.toString(StandardCharsets.UTF_8), 0, rc);
        exp = Scale.scenario(WORKERS, 1, DURATION_S).experiments().get(0).get();
        timeline = new HashMap<>();
        List<String> lines = Files.readAllLines(out.resolve("scale/ours/timeline.csv"));
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",", -1);
            double p95 = f[2].isEmpty() ? Double.NaN : Double.parseDouble(f[2]);
            timeline.computeIfAbsent(f[1], k -> new ArrayList<>()).add(new double[] {Double.parseDouble(f[0]), p95,
                Double.parseDouble(f[3]), Double.parseDouble(f[4])});
        }
    }

    @Test
    public void generatedFabricIsLeafSpineWithTheTestbedsNetcfgShape() {
        Topology t = exp.topology();
        assertEquals(Scale.SPINES + Scale.LEAVES, t.switches().size());
        assertEquals("every leaf to every spine, both directions", 2 * Scale.SPINES * Scale.LEAVES, t.links().size());
        List<DeviceId> spines = t.switches().subList(0, Scale.SPINES);
        for (Link l : t.links()) {
            assertTrue("a link between a leaf and a spine: " + l,
                    spines.contains(l.src().deviceId()) != spines.contains(l.dst().deviceId()));
        }
        JsonNode devices = t.netcfg().get("devices");
        Set<String> servers = new HashSet<>();
        for (int n = 1; n <= t.switches().size(); n++) {
            JsonNode c = devices.path(t.switches().get(n - 1).toString()).path("srv6int");
            assertEquals(n, c.path("intDeviceId").asInt());
            assertEquals(String.format("fc00:0:%x::1", n), c.path("mySid").asText());
            c.path("servers").forEach(s -> servers.add(s.path("node").asText()));
        }
        Set<String> hosts = new HashSet<>();
        exp.fabric().hosts().forEach(h -> hosts.add(h.name()));
        assertEquals("every NUMA node of every worker is a server", 2 * WORKERS, hosts.size());
        assertEquals(hosts, servers);
        assertEquals(Scale.chains(WORKERS), exp.fabric().chains().size());
        for (Chain c : exp.fabric().chains()) {
            assertTrue(c.id() + " has 2-4 vNFs", c.vnfs().size() >= 2 && c.vnfs().size() <= 4);
        }
        assertTrue("some chain has a flash crowd",
                exp.fabric().chains().stream().anyMatch(c -> c.id().endsWith(Scale.FLASH_SUFFIX)));
        // the app reads it: every server of the netcfg is a node of a leaf with a vNF SID prefix
        assertEquals(2 * WORKERS, AppCore.readNetcfg(t.netcfg()).devices().all().values().stream()
                .mapToInt(d -> d.servers().size()).sum());
        for (Host h : exp.fabric().hosts()) {
            assertFalse(h.name() + " is not on a border leaf", h.attachedSwitch().equals("leaf1")
                    || h.attachedSwitch().equals("leaf" + Scale.LEAVES));
        }
    }

    @Test
    public void everyChainCarriesTrafficAllTheTime() {
        for (Chain c : exp.fabric().chains()) {
            List<double[]> rows = timeline.get(c.id());
            assertTrue(c.id() + " in timeline.csv", rows != null && rows.size() == (int) Math.round(DURATION_S
                    / Runner.BUCKET_S));
            double got = 0;
            double offered = 0;
            for (double[] r : rows) {
                assertTrue(c.id() + " delivers nothing at " + r[0] + " s", r[2] > 0);
                got += r[2];
                offered += c.gbps(r[0] - Runner.BUCKET_S / 2);
            }
            assertTrue(c.id() + " delivered " + got + " of " + offered, got >= 0.5 * offered);
        }
    }

    @Test
    public void loopAddsReplicasToAFlashCrowdChainWhileTheCrowdIsOn() {
        boolean scaled = false;
        for (Chain c : exp.fabric().chains()) {
            if (!c.id().endsWith(Scale.FLASH_SUFFIX)) {
                continue;
            }
            for (double[] r : timeline.get(c.id())) {
                scaled |= r[0] < Scale.FLASH_TO * DURATION_S && r[3] > 1;
            }
        }
        assertTrue("a flash-crowd chain has a second ready replica before the crowd ends", scaled);
    }

    /**
     * No chain is in violation at the end. A new replica starts with the CPU it was scheduled
     * with: the node agent holds the request of a pod bound to its node but not yet Ready out of
     * its CPU pool (docs/node-agent.md section 3a), so it does not hand those cores to its pods in
     * the 3 s before the pod is Ready (issue 22; before, such a replica started at the 0.1-core
     * floor and its chain stayed in violation).
     */
    @Test
    public void noChainIsInViolationAtTheEnd() throws Exception {
        JsonNode chains = new ObjectMapper().readTree(out.resolve("scale/ours/summary.json").toFile()).get("chains");
        assertEquals(Scale.chains(WORKERS), chains.size());
        List<String> violating = new ArrayList<>();
        for (Chain c : exp.fabric().chains()) {
            // in violation at the end: summary.json's last episode is still open (recovery_s null)
            JsonNode v = chains.get(c.id()).get("violations");
            if (v.size() > 0 && v.get(v.size() - 1).get(1).asDouble() >= DURATION_S - 1e-6) {
                violating.add(c.id() + " " + v);
            }
        }
        assertTrue("chains in violation at the end: " + violating, violating.isEmpty());
        String chainsCsv = Files.readString(out.resolve("scale/chains.csv"));
        assertEquals("chains.csv has a row per chain", Scale.chains(WORKERS) + 1, chainsCsv.split("\n").length);
        JsonNode speed = new ObjectMapper().readTree(out.resolve("scale/speed-w" + WORKERS + ".json").toFile());
        assertEquals(DURATION_S, speed.get("simulated_s").asDouble(), 1e-9);
        assertTrue("speed record has the run's cost", speed.get("wall_s").asDouble() > 0
                && speed.get("peak_rss_mib").asDouble() > 0);
    }
}
