// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.numa;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;
import org.srv6int.agent.AgentConfig;
import org.srv6int.agent.FakeHost;
import org.srv6int.agent.HostSetup;
import org.srv6int.agent.actuate.CgroupVersion;
import org.srv6int.agent.actuate.HostFiles;
import org.srv6int.agent.actuate.Resctrl;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * NUMASFP on the fake host tree: cpusets and per-chain resctrl groups as the kernel has them,
 * on cgroup v2 and v1.
 */
@RunWith(Parameterized.class)
public class NumaHostTest {

    /**
     * The hierarchies.
     *
     * @return v2, v1
     */
    @Parameters(name = "cgroup {0}")
    public static List<CgroupVersion> versions() {
        return List.of(CgroupVersion.V2, CgroupVersion.V1);
    }

    private final CgroupVersion version;

    public NumaHostTest(CgroupVersion version) {
        this.version = version;
    }

    private static final String FWD = FakeHost.containerCgroup(FakeHost.SYSTEMD, FakeHost.UID_A, FakeHost.ID_A);
    private static final String SNORT = FakeHost.containerCgroup(FakeHost.CGROUPFS, FakeHost.UID_B, FakeHost.ID_B);

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private final List<NumaDecision> seen = new ArrayList<>();

    /** The paper's worker: fwd (chain 1, router) and snort (chain 2, monitor); groups as a previous run left them. */
    private FakeHost host() {
        return FakeHost.worker(tmp.getRoot().toPath(), version).group("srv6int-chain-1").group("srv6int-chain-2");
    }

    private NumaHost numa(FakeHost h) throws IOException {
        List<NumaHost.Member> m = List.of(new NumaHost.Member("fwd", 1, "router", h.cgroup(FWD), -1),
                new NumaHost.Member("snort", 2, "monitor", h.cgroup(SNORT), -1));
        return new NumaHost(new HostFiles(h.root()), 0, m, new NumaConfig(), seen::add);
    }

    private static long l3(FakeHost h, String group, int domain) throws IOException {
        Map<Integer, String> line = Resctrl.readLine(h.path("/sys/fs/resctrl/" + group + "/schemata"), "L3");
        return Long.parseLong(line.get(domain), 16);
    }

    private static String mb(FakeHost h, String group, int domain) throws IOException {
        return Resctrl.readLine(h.path("/sys/fs/resctrl/" + group + "/schemata"), "MB").get(domain);
    }

    @Test
    public void newChainsGoToTheNicsNodeWithDisjointMasks() throws IOException {
        FakeHost h = host();
        numa(h);
        assertEquals("0", h.cpuset(FWD, "mems"));
        assertEquals("0-9,20-29", h.cpuset(FWD, "cpus"));
        assertEquals("0", h.cpuset(SNORT, "mems"));
        long a = l3(h, "srv6int-chain-1", 0);
        long b = l3(h, "srv6int-chain-2", 0);
        assertEquals("Table I, lowest level: 2 ways", 2, Long.bitCount(a));
        assertEquals(0, a & b);
        assertEquals("10", mb(h, "srv6int-chain-1", 0));
        assertEquals("least in the other domain", 1, Long.bitCount(l3(h, "srv6int-chain-1", 1)));
        assertEquals("5151", h.read("/sys/fs/resctrl/srv6int-chain-2/tasks"));
        assertEquals(2, seen.stream().filter(d -> d.kind() == NumaDecision.Kind.PLACE).count());
    }

    @Test
    public void theNodeItsPodsAskForIsHonoured() throws IOException {
        FakeHost h = host();
        List<NumaHost.Member> m = List.of(new NumaHost.Member("fwd", 1, "router", h.cgroup(FWD), 1),
                new NumaHost.Member("snort", 2, "monitor", h.cgroup(SNORT), -1));
        NumaHost n = new NumaHost(new HostFiles(h.root()), 0, m, new NumaConfig(), seen::add);
        assertEquals(1, n.engine().node("1"));
        assertEquals(0, n.engine().node("2"));
        assertEquals("1", h.cpuset(FWD, "mems"));
        assertTrue(seen.get(0).reason(), seen.get(0).reason().contains("ask for NUMA node 1"));
    }

    @Test
    public void aRemoteChainInViolationSwapsNodesLive() throws IOException {
        FakeHost h = host();
        h.cpuset(SNORT, "mems", "1"); // found on node 1 at start (a restart)
        NumaHost n = numa(h);
        assertEquals(1, n.engine().node("2"));
        assertEquals("1", h.cpuset(SNORT, "mems"));
        assertEquals("10-19,30-39", h.cpuset(SNORT, "cpus"));
        assertEquals(3, Long.bitCount(l3(h, "srv6int-chain-2", 1))); // monitor remote, lowest level: (3,20)
        Map<String, Double> rates = Map.of("1", 3.0, "2", 9.0);
        for (int i = 0; i < 3; i++) {
            n.interval(rates, Set.of("2"));
            assertEquals("1", h.cpuset(SNORT, "mems"));
        }
        List<NumaDecision> d = n.interval(rates, Set.of("2"));
        assertEquals(NumaDecision.Kind.SWAP, d.get(0).kind());
        assertEquals("0", h.cpuset(SNORT, "mems"));
        assertEquals("0-9,20-29", h.cpuset(SNORT, "cpus"));
        assertEquals("1", h.cpuset(FWD, "mems"));
        assertEquals("10-19,30-39", h.cpuset(FWD, "cpus"));
        // 9 Gbps monitor on the NIC's node: (4,30); 3 Gbps router remote: (3,20)
        assertEquals(4, Long.bitCount(l3(h, "srv6int-chain-2", 0)));
        assertEquals("30", mb(h, "srv6int-chain-2", 0));
        assertEquals(3, Long.bitCount(l3(h, "srv6int-chain-1", 1)));
        assertEquals("20", mb(h, "srv6int-chain-1", 1));
        assertEquals(1, n.decisions(NumaDecision.Kind.SWAP));
        StringBuilder sb = new StringBuilder();
        n.render(sb);
        assertTrue(sb.toString(), sb.toString().contains("srv6int_node_numa_decisions_total{kind=\"swap\"} 1"));
        assertTrue(sb.toString(), sb.toString().contains("srv6int_chain_numa_node{chain=\"2\"} 0"));
        assertTrue(sb.toString(), sb.toString().contains("srv6int_node_numa_available{reason=\"\"} 1"));
    }

    @Test
    public void aFailedWriteIsCountedAndRetried() throws IOException {
        FakeHost h = host();
        NumaHost n = numa(h);
        Path schemata = h.path("/sys/fs/resctrl/srv6int-chain-1/schemata");
        Files.delete(schemata);
        Files.createDirectory(schemata); // the kernel refusing the file
        n.interval(Map.of("1", 5.0, "2", 5.0), Set.of());
        assertTrue(n.writeErrors() > 0);
        assertNotNull(n.lastError());
        assertEquals("the other chain is still served", 2,
                Long.bitCount(l3(h, "srv6int-chain-2", 0)));
        Files.delete(schemata);
        h.group("srv6int-chain-1");
        long before = n.writeErrors();
        n.interval(Map.of("1", 5.0, "2", 5.0), Set.of());
        assertEquals(before, n.writeErrors());
        assertEquals("20", mb(h, "srv6int-chain-1", 0)); // router 5 Gbps local: (2,20)
    }

    @Test
    public void oneNumaNodeMakesItUnavailable() {
        FakeHost h = host();
        h.file("/sys/devices/system/node/online", "0");
        String why = NumaHost.unavailableReason(new HostFiles(h.root()), 0);
        assertNotNull(why);
        assertTrue(why, why.contains("one NUMA node"));
        try {
            numa(h);
            fail("built on one node");
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("one NUMA node"));
        }
    }

    @Test
    public void noResctrlMakesItUnavailable() {
        FakeHost h = new FakeHost(tmp.getRoot().toPath(), version).numa("eth1");
        String why = NumaHost.unavailableReason(new HostFiles(h.root()), 0);
        assertNotNull(why);
        assertTrue(why, why.contains("resctrl"));
        assertNull(NumaHost.unavailableReason(new HostFiles(host().root()), 0));
    }

    private AgentConfig config(FakeHost h) throws IOException {
        AgentConfig c = new AgentConfig();
        c.node = "worker1";
        c.iface = "eth1";
        c.hostRoot = h.root().toString();
        c.decisionLog = "";
        c.metricsAddress = "127.0.0.1:0";
        c.numa.enabled = true;
        AgentConfig.Vnf v = new AgentConfig.Vnf();
        v.name = "fwd";
        v.sid = "fc00:2::10";
        v.chainId = 1;
        v.vnfIndex = 1;
        v.lmaxNs = 1_000_000;
        v.podUid = FakeHost.UID_A;
        v.containerId = FakeHost.ID_A;
        c.vnfs.add(v);
        c.validate();
        return c;
    }

    @Test
    public void hostSetupLeavesLlcAndBandwidthToNumasfp() throws IOException {
        FakeHost h = host();
        HostSetup s = new HostSetup(config(h)).run();
        assertNull(s.numaUnavailable());
        assertNull(s.pools()[ResourceType.LLC.ordinal()]);
        assertNull(s.pools()[ResourceType.MEMORY_BANDWIDTH.ordinal()]);
        assertNotNull(s.pools()[ResourceType.CPU_QUOTA.ordinal()]);
        assertEquals("allocated per chain by NUMASFP", s.unavailable().get(ResourceType.LLC));
    }

    @Test
    public void onOneNodeTheRestOfTheLoopRuns() throws IOException {
        FakeHost h = host();
        h.file("/sys/devices/system/node/online", "0");
        HostSetup s = new HostSetup(config(h)).run();
        assertTrue(s.numaUnavailable(), s.numaUnavailable().contains("one NUMA node"));
        assertNotNull("LLC stays with the local loop", s.pools()[ResourceType.LLC.ordinal()]);
        assertNotNull(s.pools()[ResourceType.MEMORY_BANDWIDTH.ordinal()]);
        assertNotNull(s.pools()[ResourceType.CPU_QUOTA.ordinal()]);
        assertEquals("start-up pinning as without NUMASFP", "0", h.cpuset(FWD, "mems"));
        StringBuilder sb = new StringBuilder();
        NumaHost.renderAvailable(sb, s.numaUnavailable());
        assertTrue(sb.toString(), sb.toString().contains("srv6int_node_numa_available{reason=\"one NUMA node"));
        assertTrue(sb.toString(), sb.toString().trim().endsWith(" 0"));
    }
}
