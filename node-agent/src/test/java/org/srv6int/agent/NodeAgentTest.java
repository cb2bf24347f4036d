// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.agent.actuate.HostFiles;
import org.srv6int.agent.loop.Decision.Action;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.obs.AgentMetrics.Packet;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The agent end to end against the fake worker tree and a pcap replay read
 * through libpcap with the real BPF filter.
 */
public class NodeAgentTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void replayDrivesTheAllocationsTheAlgorithmPrescribes() throws Exception {
        Path dir = tmp.getRoot().toPath();
        Path config = ReplayFixture.build(dir, "127.0.0.1:0");
        Path root = dir.resolve("host");
        try (NodeAgent agent = new NodeAgent(AgentConfig.load(config))) {
            agent.run(dir.resolve("replay.pcap"));
            // counted, never fatal; IPv4 and non-routing IPv6 never pass the BPF filter
            assertEquals(2L * ReplayFixture.N * ReplayFixture.ROUNDS, agent.metrics().packets(Packet.MATCHED));
            assertEquals(ReplayFixture.UNKNOWN, agent.metrics().packets(Packet.UNKNOWN_VNF));
            assertEquals(ReplayFixture.NOT_SFC, agent.metrics().packets(Packet.NOT_SFC));
            assertEquals(ReplayFixture.NO_MEASUREMENT, agent.metrics().packets(Packet.NO_MEASUREMENT));
            assertEquals(ReplayFixture.MALFORMED, agent.metrics().packets(Packet.MALFORMED));
            // fwd got +100 millicores per round from the free pool, snort gave 300 and had 1 free reverted
            assertEquals("180000 100000", ReplayFixture.cpuMax(root, true, FakeHost.UID_A, FakeHost.ID_A));
            assertEquals("70000 100000", ReplayFixture.cpuMax(root, false, FakeHost.UID_B, FakeHost.ID_B));
            assertEquals(ResourceType.CPU_QUOTA, agent.loop().resourceType(0));
            assertEquals(ResourceType.LLC, agent.loop().resourceType(1));
            assertEquals(8, agent.metrics().decisions(0, Action.ADD));
            assertEquals(4, agent.metrics().decisions(1, Action.FREE));
            assertEquals(3, agent.metrics().decisions(1, Action.FREE_KEPT));
            assertEquals(1, agent.metrics().decisions(1, Action.REVERT));

            String metrics = get("http://127.0.0.1:" + agent.metricsPort() + "/metrics");
            // the app's naming scheme (docs/metrics.md): seconds, units in names, chain/vnf/replica labels
            assertTrue(metrics, metrics.contains(
                    "srv6int_replica_cpu_quota_millicores{chain=\"1\",vnf=\"1\",replica=\"fwd\"} 1800\n"));
            assertTrue(metrics.contains("srv6int_replica_latency_p95_seconds{chain=\"1\",vnf=\"1\",replica=\"fwd\"} "
                    + "0.00192\n"));
            assertTrue(metrics.contains(
                    "srv6int_replica_latency_slack_seconds{chain=\"2\",vnf=\"1\",replica=\"snort\"} -5.0E-4\n"));
            assertTrue(metrics.contains(
                    "srv6int_vnf_latency_bound_seconds{chain=\"2\",vnf=\"1\",replica=\"snort\"} 0.001\n"));
            assertTrue(metrics.contains(
                    "srv6int_local_loop_decisions_total{chain=\"2\",vnf=\"1\",replica=\"snort\","
                            + "action=\"revert\"} 1\n"));
            assertTrue(metrics.contains("srv6int_node_resource_available{resource=\"llc\"} 1\n"));
            assertTrue(metrics.contains("srv6int_node_capture_packets_total{result=\"malformed\"} 7\n"));
            assertTrue(metrics.contains(
                    "srv6int_node_capture_decode_errors_total{reason=\"srh_length_past_buffer\"} 7\n"));
            assertTrue(metrics.contains("# TYPE srv6int_replica_cpu_frequency_hertz gauge\n"));
        }
        List<JsonNode> log = new ArrayList<>();
        ObjectMapper m = new ObjectMapper();
        for (String line : Files.readAllLines(dir.resolve("decisions.jsonl"))) {
            log.add(m.readTree(line));
        }
        JsonNode revert = log.stream().filter(j -> "REVERT".equals(j.get("action").asText())).findFirst()
                .orElseThrow();
        assertEquals("snort", revert.get("vnf").asText());
        assertEquals("CPU_QUOTA", revert.get("resource").asText());
        assertEquals(600, revert.get("from").asLong());
        assertEquals(700, revert.get("to").asLong());
        assertEquals(1_500_000, revert.get("l95Ns").asLong());
        assertEquals("worker1", revert.get("node").asText());
    }

    @Test
    public void vnfStillOverAfterEveryOfferedTypeIsEscalatedToTheOnosApp() throws Exception {
        HttpServer onos = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        BlockingQueue<String> posts = new LinkedBlockingQueue<>();
        BlockingQueue<String> auth = new LinkedBlockingQueue<>();
        onos.createContext("/onos/srv6int/loop/escalations", ex -> {
            posts.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            auth.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        onos.start();
        try {
            Path dir = tmp.getRoot().toPath();
            AgentConfig c = cpuOnlyFwd(dir, onos.getAddress().getPort());
            c.validate();
            List<byte[]> frames = new ArrayList<>();
            for (int k = 0; k < 14 * ReplayFixture.N; k++) {
                frames.add(ReplayFixture.frame(ReplayFixture.FWD_SID, 1, true, 3_000_000 - k / 100));
            }
            ReplayFixture.writePcap(dir.resolve("over.pcap"), frames);
            try (NodeAgent agent = new NodeAgent(c)) {
                agent.run(dir.resolve("over.pcap"));
                assertEquals(ResourceType.CPU_QUOTA.bit(), agent.loop().availableMask());
                assertEquals(2000, agent.loop().pool(ResourceType.CPU_QUOTA).allocation(0)); // ceiling: 2 cpus
                String body = posts.poll(10, TimeUnit.SECONDS);
                // sent when the window after reaching the ceiling found no step (window 11 of 14)
                assertTrue(body, body.matches("\\{\"chainId\":1,\"vnfIndex\":3,"
                        + "\"node\":\"worker1\",\"l95Ns\":2999\\d{3},"
                        + "\"lmaxNs\":1000000,\"triedResources\":\\[\"CPU_QUOTA\"\\]\\}"));
                assertTrue(new ObjectMapper().readTree(body).get("l95Ns").asLong() > 1_000_000);
                assertEquals(1, agent.metrics().decisions(0, Action.ESCALATE));
                assertEquals("Bearer agent-token", auth.poll(1, TimeUnit.SECONDS));
            }
        } finally {
            onos.stop(0);
        }
    }

    @Test
    public void aMissingOrEmptyCredentialStopsTheAgentAtStart() throws Exception {
        Path dir = tmp.getRoot().toPath();
        AgentConfig c = cpuOnlyFwd(dir, 9);
        c.validate();
        c.tokenFile = dir.resolve("no-such-token").toString();
        assertStartFails(c, "tokenFile " + c.tokenFile + " cannot be read");
        c.tokenFile = null;
        assertStartFails(c, "escalationUrl is set but tokenFile is not");
        Files.writeString(dir.resolve("empty"), "\n");
        c.tokenFile = dir.resolve("empty").toString();
        assertStartFails(c, "is empty");
        c.tokenFile = dir.resolve("token").toString();
        Files.writeString(dir.resolve("ca.crt"), "not a certificate\n");
        c.caFile = dir.resolve("ca.crt").toString();
        assertStartFails(c, "caFile " + c.caFile);
    }

    private static void assertStartFails(AgentConfig c, String message) {
        try (NodeAgent agent = new NodeAgent(c)) {
            throw new AssertionError("started without a usable credential: " + agent);
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(message));
        }
    }

    /**
     * One vNF, fwd (chain 1, vNF 3, 1 cpu of its 2), on a host without resctrl and cpufreq: CPU quota
     * is the only type the loop can use; escalations (and pool reports) go to the app on that port.
     */
    static AgentConfig cpuOnlyFwd(Path dir, int onosPort) {
        new FakeHost(dir.resolve("host")).numa("eth1").container(FakeHost.SYSTEMD, FakeHost.UID_A, FakeHost.ID_A);
        AgentConfig c = new AgentConfig();
        c.node = "worker1";
        c.iface = "eth1";
        c.hostRoot = dir.resolve("host").toString();
        c.metricsAddress = "127.0.0.1:0";
        c.decisionLog = "";
        c.escalationUrl = "http://127.0.0.1:" + onosPort + "/onos/srv6int/loop/escalations";
        c.tokenFile = dir.resolve("token").toString(); // the agent's projected ServiceAccount token
        try {
            Files.writeString(dir.resolve("token"), "agent-token\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        c.vnfs.add(HostSetupTest.vnf("fwd", "fc00:2::10", 1, 3, FakeHost.UID_A, FakeHost.ID_A, "2-3"));
        c.vnfs.get(0).initial.put(ResourceType.CPU_QUOTA, 1000L);
        // the replay takes milliseconds of the agent's clock: no hold here (LocalLoopTest covers it)
        c.escalationHoldMs = 0;
        return c;
    }

    static String get(String url) throws IOException {
        try (InputStream in = new URL(url).openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Map<Path, String> snapshot(Path root) throws IOException {
        Map<Path, String> m = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                m.put(root.relativize(f), Files.isRegularFile(f)
                        ? new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1) : "<dir>");
            }
        }
        return m;
    }

    @Test
    public void recommendModeTakesTheSameDecisionsAndWritesNothing() throws Exception {
        Path dir = tmp.getRoot().toPath();
        Path config = ReplayFixture.build(dir, "127.0.0.1:0");
        Path root = dir.resolve("host");
        Map<Path, String> before = snapshot(root);
        AgentConfig c = AgentConfig.load(config);
        c.mode = AgentConfig.Mode.RECOMMEND;
        try (NodeAgent agent = new NodeAgent(c)) {
            agent.run(dir.resolve("replay.pcap"));
            // what enforce mode writes (replayDrivesTheAllocationsTheAlgorithmPrescribes), only believed
            assertEquals(1800, agent.loop().pool(ResourceType.CPU_QUOTA).allocation(0));
            assertEquals(700, agent.loop().pool(ResourceType.CPU_QUOTA).allocation(1));
            assertEquals(8, agent.metrics().decisions(0, Action.ADD));
            assertEquals(1, agent.metrics().decisions(1, Action.REVERT));
            assertTrue(agent.podMetrics().recommendations(ResourceType.CPU_QUOTA) >= 8);
            String metrics = get("http://127.0.0.1:" + agent.metricsPort() + "/metrics");
            assertTrue(metrics.contains("srv6int_local_loop_mode{mode=\"recommend\"} 1"));
        }
        assertEquals("not one file of the host changed, none created", before, snapshot(root));
    }

    private static void tickPastCheck(NodeAgent agent) throws InterruptedException {
        Thread.sleep(3);
        agent.tick();
    }

    @Test
    public void anOverwrittenCpuMaxIsReappliedOrYieldedAndCounted() throws Exception {
        Path dir = tmp.getRoot().toPath();
        Path config = ReplayFixture.build(dir, "127.0.0.1:0");
        Path root = dir.resolve("host");
        Path fwd = root.resolve("sys/fs/cgroup/" + FakeHost.containerCgroup(true, FakeHost.UID_A, FakeHost.ID_A)
                + "/cpu.max");
        AgentConfig c = AgentConfig.load(config);
        c.overwriteCheckMs = 1;
        try (NodeAgent agent = new NodeAgent(c)) {
            assertEquals("100000 100000", HostFiles.read(fwd));
            Files.write(fwd, "150000 100000\n".getBytes(StandardCharsets.US_ASCII));
            tickPastCheck(agent);
            assertEquals("seen once: may be a write in flight", "150000 100000", HostFiles.read(fwd));
            tickPastCheck(agent);
            assertEquals("100000 100000", HostFiles.read(fwd));
            assertEquals(1, agent.podMetrics().overwrites(ResourceType.CPU_QUOTA,
                    org.srv6int.agent.pods.PodMetrics.Overwrite.REAPPLIED));
        }
        c = AgentConfig.load(config);
        c.overwriteCheckMs = 1;
        c.onOverwrite = AgentConfig.OverwritePolicy.YIELD;
        try (NodeAgent agent = new NodeAgent(c)) {
            Files.write(fwd, "150000 100000\n".getBytes(StandardCharsets.US_ASCII));
            tickPastCheck(agent);
            tickPastCheck(agent);
            assertEquals("150000 100000", HostFiles.read(fwd));
            assertEquals(1500, agent.loop().pool(ResourceType.CPU_QUOTA).allocation(0));
            assertEquals(1, agent.podMetrics().overwrites(ResourceType.CPU_QUOTA,
                    org.srv6int.agent.pods.PodMetrics.Overwrite.YIELDED));
            // beyond the vNF's ceiling (its 2 cpus): taken as far as the ceiling, and that written
            Files.write(fwd, "300000 100000\n".getBytes(StandardCharsets.US_ASCII));
            tickPastCheck(agent);
            tickPastCheck(agent);
            assertEquals("200000 100000", HostFiles.read(fwd));
            assertEquals(2000, agent.loop().pool(ResourceType.CPU_QUOTA).allocation(0));
            // no limit at all is not a value to yield to: the agent's is applied again
            Files.write(fwd, "max 100000\n".getBytes(StandardCharsets.US_ASCII));
            tickPastCheck(agent);
            tickPastCheck(agent);
            assertEquals("200000 100000", HostFiles.read(fwd));
            assertEquals(2, agent.podMetrics().overwrites(ResourceType.CPU_QUOTA,
                    org.srv6int.agent.pods.PodMetrics.Overwrite.YIELDED));
            assertEquals(1, agent.podMetrics().overwrites(ResourceType.CPU_QUOTA,
                    org.srv6int.agent.pods.PodMetrics.Overwrite.REAPPLIED));
        }
    }
}
