// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.After;
import org.junit.Test;
import org.onlab.metrics.MetricsManager;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.testing.FakeInventory;
import org.srv6int.app.store.TestStores;
import org.srv6int.testkit.InMemoryStorageService;

import java.net.DatagramSocket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The collector component takes its limits from netcfg: two chains are refused with
 * {@code collector.maxChains} 1 and bound once the knob is raised to 2, which rebuilds the engine
 * and re-binds the socket at the next window.
 */
public class TelemetryManagerLimitsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final VnfKey VNF7 = VnfKey.of(SfcId.of(7), 0);
    private static final VnfKey VNF8 = VnfKey.of(SfcId.of(8), 0);

    private TelemetryManager manager;
    private final AtomicReference<Srv6IntAppConfig> app = new AtomicReference<>();
    private int port;
    private boolean active;

    private static Srv6DeviceConfig device(String id, String json) throws Exception {
        Srv6DeviceConfig c = new Srv6DeviceConfig();
        c.init(DeviceId.deviceId(id), "srv6", MAPPER.readTree(json), MAPPER, null);
        return c;
    }

    private Srv6IntAppConfig config(int maxChains) throws Exception {
        Srv6IntAppConfig c = new Srv6IntAppConfig();
        c.init(new DefaultApplicationId(1, Srv6IntConfigService.APP_NAME), Srv6IntAppConfig.KEY, MAPPER.readTree(
                "{\"collector\":{\"address\":\"127.0.0.1\",\"mac\":\"00:00:00:00:00:fe\",\"port\":" + port
                        + ",\"threads\":1,\"maxChains\":"
                        + maxChains + "},\"loop\":{\"evaluationPeriodMs\":60000}}"), MAPPER, null);
        assertTrue(c.isValid());
        return c;
    }

    private static VnfReplica replica(VnfKey vnf, String id, int host) {
        return new VnfReplica(VnfReplicaId.of(vnf, id), "worker-1", DeviceId.deviceId("device:s2"),
                              PortNumber.portNumber(host), Ip6Address.valueOf("2001:db8:2::" + host),
                              MacAddress.valueOf("00:00:00:00:02:" + host), ReplicaState.ACTIVE, 1);
    }

    private static SfcPaths paths(SfcId sfc, VnfReplica r) {
        return new SfcPaths(sfc, List.of(new SegmentList(
                List.of(Ip6Address.valueOf("2001:db8:1::1"), r.sid(), Ip6Address.valueOf("2001:db8:4::d")),
                List.of(DeviceId.deviceId("device:s1"), DeviceId.deviceId("device:s2"),
                        DeviceId.deviceId("device:s4")),
                List.of(r.id()), 1)));
    }

    @After
    public void tearDown() {
        if (active) {
            manager.deactivate();
        }
    }

    @Test
    public void raisingMaxChainsRebuildsTheCollectorAndBindsWhatWasRefused() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0)) {
            port = s.getLocalPort();
        }
        app.set(config(1));
        Srv6Devices devices = new Srv6Devices(Map.of(
                DeviceId.deviceId("device:s1"), device("device:s1", "{\"intDeviceId\":1}"),
                DeviceId.deviceId("device:s2"), device("device:s2", "{\"intDeviceId\":2}"),
                DeviceId.deviceId("device:s4"), device("device:s4",
                                                       "{\"intDeviceId\":4,\"reportAddress\":\"127.0.0.1\"}")));
        VnfReplica r7 = replica(VNF7, "r7", 10);
        VnfReplica r8 = replica(VNF8, "r8", 11);
        FakeInventory inventory = new FakeInventory();
        inventory.registerReplica(r7);
        inventory.registerReplica(r8);
        Map<SfcId, SfcPaths> all = Map.of(SfcId.of(7), paths(SfcId.of(7), r7), SfcId.of(8), paths(SfcId.of(8), r8));
        Srv6IntConfigService config = new Srv6IntConfigService() {
            @Override
            public Srv6Devices devices() {
                return devices;
            }

            @Override
            public Optional<Srv6IntAppConfig> appConfig() {
                return Optional.of(app.get());
            }
        };
        SfcPathService paths = new SfcPathService() {
            @Override
            public Optional<SfcPaths> getPaths(SfcId sfcId) {
                return Optional.ofNullable(all.get(sfcId));
            }

            @Override
            public Map<SfcId, SfcPaths> getAllPaths() {
                return all;
            }
        };
        manager = new TelemetryManager(config, paths, inventory, new MetricsManager(), new MastershipServiceAdapter(),
                                       new ClusterServiceAdapter(), TestStores.summaries(new InMemoryStorageService()));
        manager.activate();
        active = true;

        manager.windowNow();
        // Two chains, one allowed: nothing is bound (the refusal changes nothing), windows go on.
        assertTrue(manager.collectorAddress().isPresent());
        assertFalse(manager.vnfTelemetry(VNF7).isPresent());
        assertFalse(manager.vnfTelemetry(VNF8).isPresent());

        app.set(config(2));
        manager.windowNow();
        assertTrue(manager.collectorAddress().isPresent());
        assertTrue(manager.collectorAddress().get().getPort() == port);
        assertTrue(manager.vnfTelemetry(VNF7).isPresent());
        assertTrue(manager.vnfTelemetry(VNF8).isPresent());
    }
}
