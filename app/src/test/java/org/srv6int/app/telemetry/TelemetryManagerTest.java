// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import com.codahale.metrics.Gauge;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.metrics.MetricsManager;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.srv6int.testkit.InMemoryStorageService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfTelemetry;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.testing.FakeInventory;
import org.srv6int.app.testing.TestReports;
import org.srv6int.app.store.TestStores;

import java.net.InetAddress;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.fail;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The collector component from netcfg to metrics: it listens where the app config says, accepts
 * only the configured report addresses, binds INT entries to replicas through the chain's
 * segment lists and the inventory, and shows its counters as ONOS metrics and through
 * {@link TelemetryService}.
 */
public class TelemetryManagerTest {

    private static final SfcId SFC = SfcId.of(7);
    private static final VnfKey VNF = VnfKey.of(SFC, 0);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final MetricsManager metrics = new MetricsManager();
    private TelemetryManager manager;
    private Srv6IntConfigService config;
    private SfcPathService pathService;
    private volatile Map<SfcId, SfcPaths> allPaths;
    private final FakeInventory inventory = new FakeInventory();
    private DatagramChannel switchS4;
    private DatagramChannel stranger;
    private int port;

    private final VnfReplica r0 = new VnfReplica(VnfReplicaId.of(VNF, "r0"), "worker-1",
                                                 DeviceId.deviceId("device:s2"), PortNumber.portNumber(3),
                                                 Ip6Address.valueOf("2001:db8:2::10"),
                                                 MacAddress.valueOf("00:00:00:00:02:10"), ReplicaState.ACTIVE, 1);

    private static Srv6DeviceConfig device(String id, String json) throws Exception {
        Srv6DeviceConfig c = new Srv6DeviceConfig();
        c.init(DeviceId.deviceId(id), "srv6", MAPPER.readTree(json), MAPPER, null);
        return c;
    }

    @Before
    public void setUp() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0)) {
            port = s.getLocalPort();
        }
        Srv6IntAppConfig app = new Srv6IntAppConfig();
        ApplicationId appId = new DefaultApplicationId(1, Srv6IntConfigService.APP_NAME);
        app.init(appId, Srv6IntAppConfig.KEY, MAPPER.readTree(
                "{\"collector\":{\"address\":\"127.0.0.1\",\"port\":" + port + "},"
                        + "\"loop\":{\"evaluationPeriodMs\":100}}"), MAPPER, null);
        Srv6Devices devices = new Srv6Devices(Map.of(
                DeviceId.deviceId("device:s1"), device("device:s1", "{\"intDeviceId\":1}"),
                DeviceId.deviceId("device:s2"), device("device:s2", "{\"intDeviceId\":2}"),
                DeviceId.deviceId("device:s4"), device("device:s4",
                                                       "{\"intDeviceId\":4,\"reportAddress\":\"127.0.0.1\"}")));
        SfcPaths paths = new SfcPaths(SFC, List.of(new SegmentList(
                List.of(Ip6Address.valueOf("2001:db8:1::1"), r0.sid(), Ip6Address.valueOf("2001:db8:4::d")),
                List.of(DeviceId.deviceId("device:s1"), DeviceId.deviceId("device:s2"),
                        DeviceId.deviceId("device:s4")),
                List.of(r0.id()), 1)));
        config = new Srv6IntConfigService() {
            @Override
            public Srv6Devices devices() {
                return devices;
            }

            @Override
            public Optional<Srv6IntAppConfig> appConfig() {
                return Optional.of(app);
            }
        };
        allPaths = Map.of(SFC, paths);
        pathService = new SfcPathService() {
            @Override
            public Optional<SfcPaths> getPaths(SfcId sfcId) {
                return Optional.ofNullable(allPaths.get(sfcId));
            }

            @Override
            public Map<SfcId, SfcPaths> getAllPaths() {
                return allPaths;
            }
        };
        inventory.registerReplica(r0);
        manager = new TelemetryManager(config, pathService, inventory, metrics, new MastershipServiceAdapter(),
                                       new ClusterServiceAdapter(),
                                       TestStores.summaries(new InMemoryStorageService()));
        manager.activate();
        switchS4 = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        stranger = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.3", 0));
    }

    @After
    public void tearDown() throws Exception {
        manager.deactivate();
        switchS4.close();
        stranger.close();
    }

    private long gauge(String name) {
        for (Map.Entry<String, Gauge> e : metrics.getGauges((n, m) -> n.endsWith(name)).entrySet()) {
            return ((Number) e.getValue().getValue()).longValue();
        }
        throw new AssertionError("no metric " + name + " in " + metrics.getMetrics().keySet());
    }

    @Test
    public void collectorListensOnTheNetcfgAddressOnly() throws Exception {
        // The socket is bound by the first window; then read its address from the socket: netcfg
        // says 127.0.0.1, so not the wildcard.
        long deadline = System.currentTimeMillis() + 10_000;
        while (manager.collectorAddress().isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        InetSocketAddress at = manager.collectorAddress().orElseThrow();
        assertEquals(InetAddress.getByName("127.0.0.1"), at.getAddress());
        assertEquals(port, at.getPort());
        try {
            new UdpCollector(new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, System::nanoTime), 1,
                             new InetSocketAddress("0.0.0.0", 0), 1 << 16).close();
            fail("bound the wildcard address");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("wildcard"));
        }
    }

    @Test
    public void withoutANetcfgAddressTheCollectorOpensNoSocket() throws Exception {
        int free;
        try (DatagramSocket s = new DatagramSocket(0)) {
            free = s.getLocalPort();
        }
        Srv6IntAppConfig noAddress = new Srv6IntAppConfig();
        noAddress.init(new DefaultApplicationId(1, Srv6IntConfigService.APP_NAME), Srv6IntAppConfig.KEY,
                       MAPPER.readTree("{\"collector\":{\"port\":" + free + ",\"maxVnfs\":64}}"), MAPPER, null);
        Srv6Devices devices = config.devices();
        Srv6IntConfigService noAddressConfig = new Srv6IntConfigService() {
            @Override
            public Srv6Devices devices() {
                return devices;
            }

            @Override
            public Optional<Srv6IntAppConfig> appConfig() {
                return Optional.of(noAddress);
            }
        };
        manager.deactivate();
        TelemetryManager other = new TelemetryManager(noAddressConfig, pathService, inventory, new MetricsManager(),
                                                      new MastershipServiceAdapter(), new ClusterServiceAdapter(),
                                                      TestStores.summaries(new InMemoryStorageService()));
        other.activate();
        try {
            other.windowNow();
            assertTrue(other.collectorAddress().isEmpty());
            // nothing listens on the port on any address: a plain bind of the wildcard succeeds
            try (DatagramSocket s = new DatagramSocket(free)) {
                assertEquals(free, s.getLocalPort());
            }
        } finally {
            other.deactivate();
            manager.activate();
        }
    }

    @Test
    public void reportsFromTheConfiguredSwitchBecomeVnfTelemetry() throws Exception {
        TestReports reports = new TestReports(7, 4, 3);
        InetSocketAddress collector = new InetSocketAddress("127.0.0.1", port);
        long deadline = System.currentTimeMillis() + 10_000;
        // The socket is bound by the first window; send until the collector has seen 50 reports.
        int seq = 0;
        while (manager.counters().get("reportsAccepted") < 50 && System.currentTimeMillis() < deadline) {
            byte[] p = reports.payload(seq++, new TestReports.Hop(1, 0, 0, 0, seq),
                                       new TestReports.Hop(2, 7, 300_000, 250_000, seq),
                                       new TestReports.Hop(4, 2, 400_000, 0, seq));
            switchS4.send(ByteBuffer.wrap(p), collector);
            stranger.send(ByteBuffer.wrap(p), collector);
            Thread.sleep(2);
        }
        assertTrue(manager.counters().toString(), manager.counters().get("reportsAccepted") >= 50);
        assertTrue(manager.counters().get("reportsForgedSource") >= 1);
        Optional<VnfTelemetry> t = Optional.empty();
        while (System.currentTimeMillis() < deadline) {
            t = manager.vnfTelemetry(VNF);
            if (t.isPresent() && t.get().samples() > 0) {
                break;
            }
            Thread.sleep(20);
        }
        assertTrue("no vNF telemetry", t.isPresent() && t.get().samples() > 0);
        assertTrue(t.get().p95LatencyNanos() >= 250_000 && t.get().p95LatencyNanos() < 252_000);
        assertEquals(7, t.get().queueDepth());
        assertTrue(manager.sfcTelemetry(SFC).isPresent());
        assertEquals((long) manager.counters().get(TelemetryService.REPORTS_RECEIVED),
                     gauge(TelemetryService.REPORTS_RECEIVED), 100.0);
        assertTrue(gauge("reportsForgedSource") >= 1);
        assertEquals(0, gauge(TelemetryService.REPORTS_MALFORMED));
    }

    @Test
    public void refusedBindingsOfOneChainStopNeitherTheWindowsNorTheOtherChains() throws Exception {
        // A second chain, and chain 7 misconfigured: a replica of another vNF with r0's SID on s2,
        // so two vNFs claim hop 1 of device 2.
        SfcId sfc8 = SfcId.of(8);
        VnfReplica bad = new VnfReplica(VnfReplicaId.of(VnfKey.of(SFC, 1), "x0"), "worker-1",
                                        DeviceId.deviceId("device:s2"), PortNumber.portNumber(4), r0.sid(),
                                        MacAddress.valueOf("00:00:00:00:02:11"), ReplicaState.ACTIVE, 1);
        VnfReplica e0 = new VnfReplica(VnfReplicaId.of(VnfKey.of(sfc8, 0), "e0"), "worker-1",
                                       DeviceId.deviceId("device:s2"), PortNumber.portNumber(5),
                                       Ip6Address.valueOf("2001:db8:2::20"),
                                       MacAddress.valueOf("00:00:00:00:02:20"), ReplicaState.ACTIVE, 1);
        // (the life cycle refuses a SID twice: shown as a corrupted store would hold it)
        inventory.showCorrupt(bad);
        inventory.registerReplica(e0);
        List<DeviceId> sw = List.of(DeviceId.deviceId("device:s1"), DeviceId.deviceId("device:s2"),
                                    DeviceId.deviceId("device:s4"));
        Ip6Address in = Ip6Address.valueOf("2001:db8:1::1");
        Ip6Address out = Ip6Address.valueOf("2001:db8:4::d");
        AtomicInteger windows = new AtomicInteger();
        manager.addWindowConsumer(w -> windows.incrementAndGet());
        long deadline = System.currentTimeMillis() + 10_000;
        while (windows.get() < 2 && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        allPaths = Map.of(SFC, new SfcPaths(SFC, List.of(new SegmentList(List.of(in, r0.sid(), out), sw,
                                                                          List.of(r0.id(), bad.id()), 1))),
                          sfc8, new SfcPaths(sfc8, List.of(new SegmentList(List.of(in, e0.sid(), out), sw,
                                                                            List.of(e0.id()), 1))));
        int seen = windows.get();
        InetSocketAddress collector = new InetSocketAddress("127.0.0.1", port);
        TestReports reports7 = new TestReports(7, 4, 3);
        TestReports reports8 = new TestReports(8, 4, 3);
        int seq = 0;
        Optional<VnfTelemetry> t7 = Optional.empty();
        Optional<VnfTelemetry> t8 = Optional.empty();
        while (System.currentTimeMillis() < deadline
                && !(windows.get() >= seen + 3 && t7.isPresent() && t7.get().samples() > 0
                && t8.isPresent() && t8.get().samples() > 0)) {
            for (TestReports r : List.of(reports7, reports8)) {
                byte[] p = r.payload(seq++, new TestReports.Hop(1, 0, 0, 0, seq),
                                     new TestReports.Hop(2, 1, 300_000, 250_000, seq),
                                     new TestReports.Hop(4, 2, 400_000, 0, seq));
                switchS4.send(ByteBuffer.wrap(p), collector);
            }
            Thread.sleep(2);
            t7 = manager.vnfTelemetry(VNF);
            t8 = manager.vnfTelemetry(VnfKey.of(sfc8, 0));
        }
        assertTrue("windows stopped: " + windows.get() + " after " + seen, windows.get() >= seen + 3);
        assertTrue("chain 7 lost its previous binding", t7.isPresent() && t7.get().samples() > 0);
        assertTrue("chain 8 was not bound", t8.isPresent() && t8.get().samples() > 0);
        assertTrue(manager.vnfTelemetry(VnfKey.of(SFC, 1)).isEmpty());
        // Tried once per change of the binding set, not once per window.
        assertEquals(1L, (long) manager.counters().get("bindingsRefused"));
        assertEquals(1, gauge("bindingsRefused"));
    }
}
