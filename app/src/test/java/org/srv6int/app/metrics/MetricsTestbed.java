// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.assembly.LoopAssembly;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.testing.TestReports;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.HopBindings;
import org.srv6int.app.telemetry.TelemetryManager;
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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One app instance on the paper's testbed in real time, as ONOS would wire it: chains, inventory
 * and programming ({@link AppHarness}, Fig. 5 deployed), the INT collector on a real UDP port with
 * windows every evaluation period, the global loop over a replica platform whose pods are ready
 * at once, and the exporter. {@link #send} encodes INT reports with the codec and sends them from
 * the egress switch's report address, as the switch would.
 */
final class MetricsTestbed implements AutoCloseable {

    private static final NodeId NODE = NodeId.nodeId("onos-1");
    private static final DeviceId REPORTER = PaperTestbed.SW4;

    final InMemoryCluster cluster = new InMemoryCluster();
    final InMemoryStorageService storage = new InMemoryStorageService();
    final AppHarness app;
    final TelemetryManager collector;
    final GlobalLoopManager loop;
    private final LoopAssembly assembly;
    final AppMetricsManager metrics;
    final FakeReplicaPlatform platform = FakeReplicaPlatform.immediate(
            new NodeResources("worker1", 8000, 16L << 30), new NodeResources("worker2", 8000, 16L << 30));
    private final Srv6Devices devices;
    private volatile VnfInventoryService metricsInventory;
    private final DatagramChannel sender;
    private long seq; // one sequence per reporter (the egress switch), over all chains
    private int counter;

    /**
     * Starts the instance.
     *
     * @param evaluationPeriodMs telemetry window
     * @param tHatMs             t-hat of the loop
     * @throws Exception if a socket cannot be opened
     */
    MetricsTestbed(long evaluationPeriodMs, long tHatMs) throws Exception {
        JsonNode net = PaperTestbed.netcfg().deepCopy();
        ObjectNode a = (ObjectNode) net.get("apps").get("org.srv6int.app").get("srv6int");
        ObjectNode c = (ObjectNode) a.get("collector");
        c.put("address", "127.0.0.1");
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            c.put("port", s.getLocalPort());
        }
        ((ObjectNode) a.get("loop")).put("evaluationPeriodMs", evaluationPeriodMs).put("tHatMs", tHatMs);
        Map<DeviceId, Srv6DeviceConfig> devs = new HashMap<>();
        for (DeviceId d : PaperTestbed.SWITCHES) {
            ObjectNode dc = (ObjectNode) net.get("devices").get(d.toString()).get("srv6int");
            dc.put("reportAddress", reportAddress(d));
            devs.put(d, PaperTestbed.deviceConfig(d, dc));
        }
        devices = new Srv6Devices(devs);
        app = new AppHarness(storage, new InMemoryFlowRuleService(), new InMemoryGroupService(), NODE,
                             new InMemoryMastershipService(cluster, NODE));
        app.config.devices = devices;
        app.config.app = PaperTestbed.appConfig(a);
        for (DeviceId d : PaperTestbed.SWITCHES) {
            cluster.moveMastership(d, NODE);
        }
        app.deployFig5();
        app.settle();
        metricsInventory = app.inventory;
        assembly = LoopAssembly.over(app.app)
                .cluster(new InMemoryLeadershipService(cluster, NODE), new InMemoryClusterService(cluster, NODE))
                .platform(platform).build();
        collector = assembly.telemetry();
        loop = assembly.loop();
        collector.windowNow(); // the collector binds its socket on the window thread
        if (collector.collectorAddress().isEmpty()) {
            throw new IllegalStateException("the collector did not bind its port");
        }
        VnfInventoryService readInventory = (VnfInventoryService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {VnfInventoryService.class}, (proxy, m, args) -> {
                    try {
                        return m.invoke(metricsInventory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        metrics = new AppMetricsManager(app.sfcs, readInventory, collector, collector, loop,
                                        new NetworkConfigRegistryAdapter(), new CoreServiceAdapter());
        metrics.activate();
        sender = DatagramChannel.open().bind(new InetSocketAddress(reportAddress(REPORTER), 0));
    }

    /**
     * Points the metrics component's inventory reads at another inventory (a store that fails),
     * or back at the app's with {@code null}.
     *
     * @param inventory inventory the scrape reads, null for the app's
     */
    void metricsReadInventory(VnfInventoryService inventory) {
        metricsInventory = inventory == null ? app.inventory : inventory;
    }

    private static String reportAddress(DeviceId d) {
        return "127.0.0." + (20 + PaperTestbed.SWITCHES.indexOf(d) + 1);
    }

    private int intId(DeviceId d) {
        return devices.get(d).map(Srv6DeviceConfig::intDeviceId).orElseThrow();
    }

    /**
     * The egress switch sends {@code n} INT reports of a chain whose vNFs all took
     * {@code latencyNs} (spread by up to 10 %), {@code packetsPerReport} packets apart.
     *
     * @param tag              chain id
     * @param n                reports
     * @param latencyNs        vNF latency
     * @param packetsPerReport Port_Counter step
     * @throws Exception if the socket fails
     */
    void send(int tag, int n, long latencyNs, int packetsPerReport) throws Exception {
        Map<Integer, HopBinding> byHop = new TreeMap<>();
        for (HopBinding b : HopBindings.of(app.pathManager.getAllPaths().values(), app.inventory::getReplica,
                                           d -> devices.get(d).map(Srv6DeviceConfig::intDeviceId))) {
            if (b.chainTag() == tag) {
                byHop.putIfAbsent(b.hop(), b);
            }
        }
        if (byHop.isEmpty()) {
            throw new IllegalStateException("chain " + tag + " has no hop bindings");
        }
        int hops = ((TreeMap<Integer, HopBinding>) byHop).lastKey() + 2;
        TestReports enc = new TestReports(tag, intId(REPORTER), hops);
        InetSocketAddress to = collector.collectorAddress().orElseThrow();
        for (int i = 0; i < n; i++) {
            counter = (counter + packetsPerReport) & 0xFFFF;
            TestReports.Hop[] h = new TestReports.Hop[hops];
            long inTime = 0; // In_Time at each hop: 1 us per link plus the vNF latencies before it
            for (int k = 0; k < hops; k++) {
                HopBinding b = byHop.get(k);
                long lat = b == null ? 0 : latencyNs + (seq * 7919 + k * 104729) % Math.max(1, latencyNs / 10);
                int dev = k == 0 ? intId(PaperTestbed.SW1) : b == null ? intId(REPORTER) : b.deviceId();
                inTime += 1_000L + lat;
                h[k] = new TestReports.Hop(dev, (int) (seq % 9), inTime, lat, counter);
            }
            sender.send(ByteBuffer.wrap(enc.payload(seq++, h)), to);
        }
    }

    @Override
    public void close() throws Exception {
        metrics.deactivate();
        assembly.stop();
        sender.close();
    }
}
