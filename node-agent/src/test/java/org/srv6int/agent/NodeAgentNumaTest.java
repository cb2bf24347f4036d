// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The agent with {@code numa.enabled} on the fake worker: metrics and decision log; one node: unavailable. */
public class NodeAgentNumaTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static String get(String url) throws Exception {
        try (InputStream in = new URL(url).openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private AgentConfig config(Path root, Path log) throws Exception {
        AgentConfig c = HostSetupTest.config(root);
        c.numa.enabled = true;
        c.decisionLog = log.toString();
        return c;
    }

    @Test
    public void placesChainsAndSaysWhy() throws Exception {
        Path root = tmp.getRoot().toPath().resolve("host");
        FakeHost.worker(root).group("srv6int-chain-1").group("srv6int-chain-2");
        Path log = tmp.getRoot().toPath().resolve("decisions.jsonl");
        try (NodeAgent agent = new NodeAgent(config(root, log))) {
            String metrics = get("http://127.0.0.1:" + agent.metricsPort() + "/metrics");
            assertTrue(metrics, metrics.contains("srv6int_node_numa_available{reason=\"\"} 1\n"));
            assertTrue(metrics, metrics.contains("srv6int_node_numa_decisions_total{kind=\"place\"} 2\n"));
            assertTrue(metrics, metrics.contains("srv6int_chain_numa_node{chain=\"2\"} 0\n"));
            assertTrue(metrics, metrics.contains("srv6int_node_resource_available{resource=\"llc\"} 0\n"));
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String l : Files.readAllLines(log)) {
            lines.add(new ObjectMapper().readTree(l));
        }
        JsonNode place = lines.stream().filter(j -> "NUMA_PLACE".equals(j.get("action").asText())).findFirst()
                .orElseThrow();
        assertEquals("worker1", place.get("node").asText());
        assertEquals(0, place.get("toNode").asInt());
        assertTrue(place.toString(), place.get("reason").asText().startsWith("NIC's node"));
    }

    @Test
    public void oneNumaNodeIsReportedAndTheLoopRuns() throws Exception {
        Path root = tmp.getRoot().toPath().resolve("host");
        FakeHost.worker(root).file("/sys/devices/system/node/online", "0");
        Path log = tmp.getRoot().toPath().resolve("decisions.jsonl");
        try (NodeAgent agent = new NodeAgent(config(root, log))) {
            String metrics = get("http://127.0.0.1:" + agent.metricsPort() + "/metrics");
            assertTrue(metrics, metrics.contains("srv6int_node_numa_available{reason=\"one NUMA node ([0]): nothing"
                    + " to place or migrate\"} 0\n"));
            assertTrue(metrics, metrics.contains("srv6int_node_resource_available{resource=\"llc\"} 1\n"));
            assertTrue(agent.loop().availableMask() != 0);
        }
    }
}
