// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.cluster;

import org.srv6int.pipeconf.Srv6IntConstants;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.cluster.NodeId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.srv6int.app.assembly.LoopAssembly;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.testing.TestReports;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.HopBindings;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.telemetry.TelemetryManager;
import org.srv6int.app.telemetry.TelemetryShards;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.FakeReplicaPlatform;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.testkit.InMemoryStorageService;
import org.srv6int.testkit.InMemoryCluster;
import org.srv6int.testkit.InMemoryClusterService;
import org.srv6int.testkit.InMemoryLeadershipService;
import org.srv6int.testkit.InMemoryMastershipService;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Three ONOS instances of the app in one JVM (programming, collector and global loop managers
 * each, one shared in-memory distributed store, one {@link InMemoryCluster} membership, one replica
 * platform standing for the Kubernetes cluster): every instance collects the switches it masters
 * on its own collector port; reports for a switch it does not master are counted and dropped;
 * the leader's window is the union of the cluster's reports (compared with one collector fed
 * every report); when a switch's mastership moves, the new master re-points the switch's report
 * configuration and the reports follow; when the leader fails in the middle of a scale-out, the
 * new leader finishes it exactly once.
 *
 * <p>Collector ports: {@code SRV6INT_CLUSTER_TEST_PORTS} ("p1,p2,p3"), else free ports.
 */
public class ThreeInstanceClusterTest {

    private static final long T_HAT_MS = 50;
    private static final List<NodeId> NODES = List.of(NodeId.nodeId("onos-1"), NodeId.nodeId("onos-2"),
                                                      NodeId.nodeId("onos-3"));

    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryStorageService storage = new InMemoryStorageService();
    private final InMemoryFlowRuleService flows = new InMemoryFlowRuleService();
    private final InMemoryGroupService groups = new InMemoryGroupService();
    private final Map<NodeId, AppHarness> apps = new LinkedHashMap<>();
    private final Map<NodeId, TelemetryManager> collectors = new LinkedHashMap<>();
    private final Map<NodeId, GlobalLoopManager> loops = new LinkedHashMap<>();
    private final Map<NodeId, LoopAssembly> assemblies = new LinkedHashMap<>();
    private final FakeReplicaPlatform platform = FakeReplicaPlatform.held(
            new NodeResources("worker1", 4000, 8L << 30), new NodeResources("worker2", 2000, 8L << 30));
    private final Map<DeviceId, DatagramChannel> switches = new HashMap<>();
    private final Map<DeviceId, Long> seqs = new HashMap<>();
    private final List<byte[]> sentPayloads = new ArrayList<>();
    private final List<Integer> sentSources = new ArrayList<>();
    private Srv6Devices devices;
    private JsonNode appJson;

    private static int[] ports() throws Exception {
        String env = System.getenv("SRV6INT_CLUSTER_TEST_PORTS");
        int[] p = new int[NODES.size()];
        if (env != null && !env.isBlank()) {
            String[] f = env.split(",");
            for (int i = 0; i < p.length; i++) {
                p[i] = Integer.parseInt(f[i].trim());
            }
            return p;
        }
        for (int i = 0; i < p.length; i++) {
            try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
                p[i] = s.getLocalPort();
            }
        }
        return p;
    }

    private static String reportAddress(DeviceId d) {
        return "127.0.0." + (10 + PaperTestbed.SWITCHES.indexOf(d) + 1);
    }

    @Before
    public void setUp() throws Exception {
        int[] ports = ports();
        JsonNode net = PaperTestbed.netcfg().deepCopy();
        ObjectNode app = (ObjectNode) net.get("apps").get("org.srv6int.app").get("srv6int");
        ObjectNode collector = (ObjectNode) app.get("collector");
        collector.put("address", "127.0.0.1");
        collector.put("threads", 2);
        ObjectNode instances = collector.putObject("instances");
        for (int i = 0; i < NODES.size(); i++) {
            instances.putObject(NODES.get(i).toString()).put("port", ports[i]);
        }
        // Windows close when the test says so (the scheduled one comes only every minute); a
        // violation must last 50 ms before the loop scales out.
        ((ObjectNode) app.get("loop")).put("evaluationPeriodMs", 60_000).put("tHatMs", T_HAT_MS);
        Map<DeviceId, Srv6DeviceConfig> devs = new HashMap<>();
        for (DeviceId d : PaperTestbed.SWITCHES) {
            ObjectNode c = (ObjectNode) net.get("devices").get(d.toString()).get("srv6int");
            c.put("reportAddress", reportAddress(d));
            c.put("collectorPort", 10);
            devs.put(d, PaperTestbed.deviceConfig(d, c));
        }
        devices = new Srv6Devices(devs);
        appJson = app;

        cluster.moveMastership(PaperTestbed.SW1, NODES.get(2));
        cluster.moveMastership(PaperTestbed.SW2, NODES.get(2));
        cluster.moveMastership(PaperTestbed.SW3, NODES.get(1));
        cluster.moveMastership(PaperTestbed.SW4, NODES.get(0));
        for (NodeId n : NODES) {
            AppHarness h = new AppHarness(storage, flows, groups, n, new InMemoryMastershipService(cluster, n));
            h.config.devices = devices;
            h.config.app = PaperTestbed.appConfig(appJson);
            apps.put(n, h);
        }
        apps.get(NODES.get(0)).deployFig5();
        settleAll();
        for (NodeId n : NODES) {
            AppHarness h = apps.get(n);
            // onos-1 runs for leadership first: it leads.
            LoopAssembly a = LoopAssembly.over(h.app)
                    .cluster(new InMemoryLeadershipService(cluster, n), new InMemoryClusterService(cluster, n))
                    .platform(platform).build();
            assemblies.put(n, a);
            collectors.put(n, a.telemetry());
            a.telemetry().windowNow(); // the collector binds its socket on the window thread
            loops.put(n, a.loop());
        }
        for (DeviceId d : PaperTestbed.SWITCHES) {
            DatagramChannel ch = DatagramChannel.open().bind(new InetSocketAddress(reportAddress(d), 0));
            switches.put(d, ch);
        }
    }

    @After
    public void tearDown() throws Exception {
        assemblies.values().forEach(LoopAssembly::stop);
        for (DatagramChannel c : switches.values()) {
            c.close();
        }
    }

    private void settleAll() {
        for (int pass = 0; pass < 3; pass++) {
            apps.values().forEach(AppHarness::settle);
        }
    }

    /** Where a switch's report configuration (as programmed) sends its reports. */
    private InetSocketAddress reportTarget(DeviceId d) throws Exception {
        List<InetSocketAddress> out = new ArrayList<>();
        for (FlowEntry e : flows.entries()) {
            if (e.deviceId().equals(d) && e.table().equals(Srv6IntConstants.SRV6_INT_EGRESS_REPORT_REPORT_CONFIG)) {
                PiAction a = e.treatment().allInstructions().stream().filter(i -> i instanceof PiInstruction)
                        .map(i -> (PiAction) ((PiInstruction) i).action()).findFirst().orElseThrow();
                Map<String, byte[]> params = new HashMap<>();
                for (PiActionParam p : a.parameters()) {
                    params.put(p.id().toString(), p.value().asArray());
                }
                byte[] port = params.get(Srv6IntConstants.UDP_DPORT.toString());
                int dport = 0;
                for (byte b : port) {
                    dport = (dport << 8) | (b & 0xFF);
                }
                out.add(new InetSocketAddress(InetAddress.getByAddress(params.get(Srv6IntConstants.DST_IP.toString())),
                        dport));
            }
        }
        assertEquals("one report configuration on " + d, 1, out.size());
        return out.get(0);
    }

    private int intId(DeviceId d) {
        return devices.get(d).map(Srv6DeviceConfig::intDeviceId).orElseThrow();
    }

    private List<HopBinding> bindings() {
        AppHarness h = apps.get(NODES.get(0));
        return HopBindings.of(h.pathManager.getAllPaths().values(), h.inventory::getReplica,
                              d -> devices.get(d).map(Srv6DeviceConfig::intDeviceId));
    }

    /**
     * Switch {@code d} sends {@code n} reports of chain {@code tag} to the collector its report
     * configuration names, and (a switch re-pointed late, a misdirected copy) the same to
     * {@code alsoTo}.
     */
    private long send(DeviceId d, int tag, int n, int counterBase, List<InetSocketAddress> alsoTo) throws Exception {
        return send(d, tag, n, counterBase, alsoTo, -1);
    }

    /** As above; a latency of -1 spreads the vNF latencies over 30..730 us, else every one is that. */
    private long send(DeviceId d, int tag, int n, int counterBase, List<InetSocketAddress> alsoTo, long latency)
            throws Exception {
        Map<Integer, HopBinding> byHop = new TreeMap<>();
        for (HopBinding b : bindings()) {
            if (b.chainTag() == tag) {
                byHop.putIfAbsent(b.hop(), b);
            }
        }
        int hops = ((TreeMap<Integer, HopBinding>) byHop).lastKey() + 2;
        TestReports enc = new TestReports(tag, intId(d), hops);
        InetSocketAddress to = reportTarget(d);
        DatagramChannel ch = switches.get(d);
        int source = ByteBuffer.wrap(InetAddress.getByName(reportAddress(d)).getAddress()).getInt();
        long seq = seqs.getOrDefault(d, 0L);
        for (int i = 0; i < n; i++) {
            int counter = (counterBase + i * 10) & 0xFFFF;
            TestReports.Hop[] h = new TestReports.Hop[hops];
            for (int k = 0; k < hops; k++) {
                HopBinding b = byHop.get(k);
                long lat = b == null ? 0 : latency >= 0 ? latency : 30_000 + ((seq * 7919 + k * 104729) % 700_000);
                int dev = k == 0 ? intId(PaperTestbed.SW1) : b == null ? intId(PaperTestbed.SW4) : b.deviceId();
                h[k] = new TestReports.Hop(dev, (int) (seq % 9), 1_000L * k + lat, lat, counter);
            }
            byte[] p = enc.payload(seq++, h);
            ch.send(ByteBuffer.wrap(p), to);
            for (InetSocketAddress other : alsoTo) {
                ch.send(ByteBuffer.wrap(p), other);
            }
            sentPayloads.add(p);
            sentSources.add(source);
        }
        seqs.put(d, seq);
        return n;
    }

    private InetSocketAddress collectorOf(NodeId n) {
        return collectors.get(n).collectorAddress().orElseThrow();
    }

    private void awaitDatagrams(long total) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            long got = collectors.values().stream().mapToLong(t -> t.counters().get("reportsReceived")).sum();
            if (got >= total) {
                return;
            }
            Thread.sleep(2);
        }
        throw new AssertionError("collectors did not receive " + total + " datagrams");
    }

    private static VnfWindow vnf(TelemetrySnapshot s, VnfWindow like) {
        return s.vnfs().stream().filter(w -> w.vnf().equals(like.vnf())).findFirst().orElseThrow();
    }

    @Test
    public void theLeadersWindowIsTheUnionAndReportsFollowMastership() throws Exception {
        NodeId one = NODES.get(0);
        NodeId two = NODES.get(1);
        NodeId three = NODES.get(2);
        // Each switch reports to its master's collector: SW4 -> onos-1, SW3 -> onos-2, SW2 -> onos-3.
        assertEquals(collectorOf(one).getPort(), reportTarget(PaperTestbed.SW4).getPort());
        assertEquals(collectorOf(two).getPort(), reportTarget(PaperTestbed.SW3).getPort());
        assertEquals(collectorOf(three).getPort(), reportTarget(PaperTestbed.SW2).getPort());

        // Every report also reaches the other two instances: they count it and drop it.
        long sent = 0;
        sent += send(PaperTestbed.SW4, 1, 300, 0, List.of(collectorOf(two), collectorOf(three)));
        sent += send(PaperTestbed.SW3, 2, 200, 0, List.of(collectorOf(one), collectorOf(three)));
        sent += send(PaperTestbed.SW2, 2, 100, 2000, List.of(collectorOf(one), collectorOf(two)));
        awaitDatagrams(3 * sent);
        assertEquals(300, (long) collectors.get(one).counters().get("reportsAccepted"));
        assertEquals(200, (long) collectors.get(two).counters().get("reportsAccepted"));
        assertEquals(100, (long) collectors.get(three).counters().get("reportsAccepted"));
        assertEquals(300, (long) collectors.get(one).counters().get("reportsNotMaster"));
        assertEquals(400, (long) collectors.get(two).counters().get("reportsNotMaster"));
        assertEquals(500, (long) collectors.get(three).counters().get("reportsNotMaster"));

        // The reference: one collector fed every report once.
        TelemetryShards reference = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, System::nanoTime);
        Map<Integer, Integer> allow = new HashMap<>();
        for (DeviceId d : PaperTestbed.SWITCHES) {
            allow.put(ByteBuffer.wrap(InetAddress.getByName(reportAddress(d)).getAddress()).getInt(), intId(d));
        }
        reference.setReporters(allow, Set.of());
        reference.setBindings(bindings());
        for (int i = 0; i < sentPayloads.size(); i++) {
            byte[] p = sentPayloads.get(i);
            assertTrue(reference.shard(0).onReport(p, 0, p.length, sentSources.get(i)));
        }
        TelemetrySnapshot single = reference.roll();

        // onos-1 leads the loop: it closes its window last and holds everyone's.
        collectors.get(two).windowNow();
        collectors.get(three).windowNow();
        collectors.get(one).windowNow();
        TelemetrySnapshot leader = collectors.get(one).latest().orElseThrow();
        System.out.println("cluster window peers: " + leader.peers());
        assertEquals(3, leader.peers().size());
        assertTrue(leader.peers().toString(), leader.peers().stream().allMatch(p -> p.used()));
        assertEquals(3, single.vnfs().size());
        for (VnfWindow r : single.vnfs()) {
            VnfWindow u = vnf(leader, r);
            assertEquals(r.vnf().toString(), r.samples(), u.samples());
            assertEquals(r.vnf().toString(), r.p50Nanos(), u.p50Nanos());
            assertEquals(r.vnf().toString(), r.p95Nanos(), u.p95Nanos());
            assertEquals(r.vnf().toString(), r.p99Nanos(), u.p99Nanos());
            assertEquals(r.vnf().toString(), r.maxNanos(), u.maxNanos());
        }
        assertTrue(single.vnfs().stream().allMatch(w -> w.samples() > 0));
        // Queue depth: the window's largest per switch is exact; the "latest" of several instances
        // has no order between them, the union keeps the largest.
        assertEquals(single.hops().stream().map(h -> h.deviceId() + ":" + h.maxDepth()).collect(Collectors.toList()),
                     leader.hops().stream().map(h -> h.deviceId() + ":" + h.maxDepth()).collect(Collectors.toList()));
        // Port_Counter packets: SW2's reports continue SW3's counter (base 2000 = 200 x 10), the
        // single collector sees one sequence, the cluster two: one step of 10 is the baseline.
        for (VnfWindow r : single.vnfs()) {
            long a = r.replicaPackets().values().stream().mapToLong(Long::longValue).sum();
            long b = vnf(leader, r).replicaPackets().values().stream().mapToLong(Long::longValue).sum();
            assertEquals(r.vnf().toString(), r.vnf().sfcId().tag() == 2 ? a - 10 : a, b);
        }

        // SW3's mastership moves to onos-3: onos-3 re-points it, its reports follow.
        cluster.moveMastership(PaperTestbed.SW3, three);
        settleAll();
        assertEquals(collectorOf(three).getPort(), reportTarget(PaperTestbed.SW3).getPort());
        long before2 = collectors.get(two).counters().get("reportsReceived");
        send(PaperTestbed.SW3, 2, 50, 4000, List.of());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (collectors.get(three).counters().get("reportsAccepted") < 150 && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertEquals(150, (long) collectors.get(three).counters().get("reportsAccepted"));
        assertEquals(before2, (long) collectors.get(two).counters().get("reportsReceived"));
        // A late report of SW3 at its old master is counted there and dropped.
        switches.get(PaperTestbed.SW3).send(ByteBuffer.wrap(sentPayloads.get(sentPayloads.size() - 1)),
                                            collectorOf(two));
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (collectors.get(two).counters().get("reportsNotMaster") < 401 && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertEquals(401, (long) collectors.get(two).counters().get("reportsNotMaster"));
        assertEquals(200, (long) collectors.get(two).counters().get("reportsAccepted"));
    }

    /** Closes every live instance's window, the leader's last (it then holds everyone's). */
    private void windows(NodeId leader) throws Exception {
        for (NodeId n : collectors.keySet()) {
            if (!n.equals(leader)) {
                collectors.get(n).windowNow();
            }
        }
        collectors.get(leader).windowNow();
    }

    private static void say(String line) {
        System.out.println("failover: " + line);
    }

    @Test
    public void theNewLeaderFinishesAScaleOutTheFailedLeaderStartedExactlyOnce() throws Exception {
        NodeId one = NODES.get(0);
        NodeId two = NODES.get(1);
        VnfKey snort = VnfKey.of(PaperTestbed.SFC2, 0);
        AppHarness app2 = apps.get(two);
        int before = app2.inventory.getReplicas(snort).size();
        assertTrue(loops.get(one).status().leader());
        // SFC 2's reports come from SW3, mastered by onos-2: the leader onos-1 sees them only
        // through onos-2's summaries. Healthy first (p95 0.3 ms < Lmax 1 ms), then 2 ms.
        send(PaperTestbed.SW3, 2, 100, 0, List.of(), 300_000);
        awaitAccepted(two, 100);
        windows(one);
        send(PaperTestbed.SW3, 2, 100, 1000, List.of(), 2_000_000);
        awaitAccepted(two, 200);
        windows(one);
        Thread.sleep(2 * T_HAT_MS);
        send(PaperTestbed.SW3, 2, 100, 2000, List.of(), 2_000_000);
        awaitAccepted(two, 300);
        windows(one);
        List<LoopDecision> d1 = loops.get(one).decisions(10);
        assertEquals(d1.toString(), 1, d1.size());
        assertEquals(LoopDecision.Action.SCALE_OUT, d1.get(0).action());
        assertEquals(LoopDecision.Outcome.IN_PROGRESS, d1.get(0).outcome());
        int add = d1.get(0).replicasAfter() - d1.get(0).replicasBefore();
        assertTrue(add >= 1);
        assertEquals(add, platform.requests());
        say("onos-1 (leader) decided " + d1.get(0).action() + " of " + snort + " " + d1.get(0).replicasBefore()
                + " -> " + d1.get(0).replicasAfter() + " from onos-2's summary; requests " + platform.calls);

        // onos-1 fails with the pods still starting: onos-2 leads, masters SW4, onos-1 is gone.
        cluster.fail(one, two);
        assemblies.remove(one).stop();
        loops.remove(one);
        collectors.remove(one);
        assertTrue(loops.get(two).status().leader());
        say("onos-1 failed; leader now " + loops.get(two).status().leaderNode());

        // onos-2's first window as leader: it reads the loop state and repeats the same requests.
        windows(two);
        assertEquals(add, platform.requests());
        assertEquals(platform.calls.toString(), add, platform.calls.stream().filter(c -> c.contains(" again")).count());
        say("onos-2 resumed: requests " + platform.creates().subList(add, platform.creates().size()));
        platform.ready();
        List<LoopDecision> d2 = loops.get(two).decisions(10);
        assertEquals(d2.toString(), 1, d2.size());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, d2.get(0).outcome());
        assertEquals(d1.get(0).timeMillis(), d2.get(0).timeMillis());
        assertEquals(before + add, app2.inventory.getReplicas(snort).size());
        say("onos-2 finished: " + d2.get(0).outcome() + " " + d2.get(0).detail() + "; inventory "
                + app2.inventory.getReplicas(snort).stream().map(r -> r.id().name()).collect(Collectors.toList()));

        // The same violation does not scale again (cool-down from the store), nothing is repeated.
        send(PaperTestbed.SW3, 2, 100, 3000, List.of(), 2_000_000);
        awaitAccepted(two, 400);
        Thread.sleep(2 * T_HAT_MS);
        windows(two);
        assertEquals(add, platform.requests());
        assertEquals(1, loops.get(two).decisions(10).size());
    }

    @Test
    public void aReplacementOwedWhenTheLeaderFailsIsRequestedOnceByTheNewLeader() throws Exception {
        NodeId one = NODES.get(0);
        NodeId two = NODES.get(1);
        VnfKey snort = VnfKey.of(PaperTestbed.SFC2, 0);
        send(PaperTestbed.SW3, 2, 100, 0, List.of(), 300_000);
        awaitAccepted(two, 100);
        windows(one);
        send(PaperTestbed.SW3, 2, 100, 1000, List.of(), 2_000_000);
        awaitAccepted(two, 200);
        windows(one);
        Thread.sleep(2 * T_HAT_MS);
        send(PaperTestbed.SW3, 2, 100, 2000, List.of(), 2_000_000);
        awaitAccepted(two, 300);
        windows(one);
        int add = platform.requests();
        assertTrue(add >= 1);
        assertEquals(LoopDecision.Action.SCALE_OUT, loops.get(one).decisions(10).get(0).action());

        // While the new pods start, Snort's r0 pod goes away: onos-1 (polling readiness every
        // second) takes r0 out at its next window and owes a replacement behind the scale-out.
        platform.readiness.put(snort, Map.of("r0", false));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (loops.get(one).decisions(10).stream().noneMatch(d -> d.action() == LoopDecision.Action.REPLICA_DEAD)
                && System.nanoTime() < deadline) {
            Thread.sleep(300);
            windows(one);
        }
        List<LoopDecision> d1 = loops.get(one).decisions(10);
        assertTrue(d1.toString(), d1.stream().anyMatch(d -> d.action() == LoopDecision.Action.REPLICA_DEAD));
        assertTrue(d1.toString(), d1.stream().noneMatch(d -> d.action() == LoopDecision.Action.REPLACE));
        assertEquals(add, platform.requests());
        say("onos-1 took r0 out with a replacement owed: " + d1.get(d1.size() - 1).detail());

        cluster.fail(one, two);
        assemblies.remove(one).stop();
        loops.remove(one);
        collectors.remove(one);
        assertTrue(loops.get(two).status().leader());

        // onos-2 repeats the scale-out's requests, the pods become Ready, and the next window
        // requests the owed replacement: one new request, and no more in later windows.
        windows(two);
        assertEquals(add, platform.requests());
        platform.ready();
        windows(two);
        windows(two);
        windows(two);
        assertEquals(platform.calls.toString(), add + 1, platform.requests());
        assertEquals(platform.calls.toString(), add, platform.calls.stream().filter(c -> c.contains(" again")).count());
        List<LoopDecision> d2 = loops.get(two).decisions(20);
        assertEquals(d2.toString(), 1, d2.stream().filter(d -> d.action() == LoopDecision.Action.REPLACE).count());
        assertTrue(d2.toString(), d2.stream().noneMatch(d -> d.action() == LoopDecision.Action.REPLICA_DEAD));
        say("onos-2 requested the replacement once: " + platform.creates().subList(add, platform.creates().size()));
    }

    private void awaitAccepted(NodeId n, long count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (collectors.get(n).counters().get("reportsAccepted") < count && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertEquals(count, (long) collectors.get(n).counters().get("reportsAccepted"));
    }
}
