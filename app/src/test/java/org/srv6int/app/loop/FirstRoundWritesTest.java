// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.assembly.AppAssembly;
import org.srv6int.app.store.DistributedEscalationStore;
import org.srv6int.testkit.CountingStorageService;
import org.srv6int.testkit.InMemoryCoreService;
import org.srv6int.testkit.InMemoryEventDeliveryService;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.testkit.InMemoryMastershipService;
import org.srv6int.testkit.InMemoryNetworkConfigRegistry;
import org.srv6int.testkit.InMemoryTopologyService;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * A leader's first round writes only what differs from the store (issue 33 item 4): the first
 * leader over new chains writes each vNF's first loop record and each replica's health record
 * once (all at once: more than {@code ParallelPuts.SEQUENTIAL_BELOW}, so concurrently), a steady
 * round writes nothing, and a new leader resuming that store writes nothing in its first round and
 * leaves the store as it was. Every ConsistentMap call of the app's stores is counted.
 */
public class FirstRoundWritesTest {

    private static final int CHAINS = 12;
    private static final int VNFS = 4;
    private static final long LMAX = 1_000_000;
    private static final Set<String> WRITES = Set.of("put", "putAndGet", "putIfAbsent", "remove", "replace",
                                                     "compute", "computeIf", "computeIfAbsent", "computeIfPresent",
                                                     "clear");

    /** Writes between two snapshots of the storage's calls, by "map.method". */
    private static Map<String, Long> writesSince(CountingStorageService storage, Map<String, Long> before) {
        Map<String, Long> d = CountingStorageService.diff(storage.snapshot(), before);
        d.keySet().removeIf(k -> !WRITES.contains(k.substring(k.lastIndexOf('.') + 1)));
        return d;
    }

    /** A loop clock: one wall clock, each leader its own monotonic origin. */
    private static final class Clock implements LoopClock {
        static volatile long wallMillis = 1_700_000_000_000L;
        final long origin;

        Clock(long origin) {
            this.origin = origin;
        }

        @Override
        public long nanoTime() {
            return origin + wallMillis * 1_000_000;
        }

        @Override
        public long currentTimeMillis() {
            return wallMillis;
        }
    }

    private static final ReplicaPlatform NO_PODS = new ReplicaPlatform() {
        @Override
        public List<NodeResources> nodeFreeResources() {
            return List.of(new NodeResources("w0", 64_000, 1L << 36));
        }

        @Override
        public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
            return CompletableFuture.failedFuture(new IllegalStateException("test: no pods"));
        }

        @Override
        public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
            return CompletableFuture.completedFuture(null);
        }
    };

    @Test
    public void newLeaderOverAnUnchangedStoreWritesNothing() {
        CountingStorageService storage = new CountingStorageService();
        InMemoryCoreService core = new InMemoryCoreService();
        InMemoryTopologyService topology = new InMemoryTopologyService();
        AppAssembly app = AppAssembly.builder().storage(storage).events(new InMemoryEventDeliveryService())
                .flowRules(new InMemoryFlowRuleService()).groups(new InMemoryGroupService())
                .mastership(new InMemoryMastershipService()).topology(topology, topology)
                .netcfg(new InMemoryNetworkConfigRegistry().withCoreService(core), core).build();
        List<VnfWindow> vnfWindows = new ArrayList<>();
        List<ChainWindow> chainWindows = new ArrayList<>();
        for (int c = 0; c < CHAINS; c++) {
            int tag = 100 + c;
            List<VnfSpec> specs = new ArrayList<>();
            for (int i = 0; i < VNFS; i++) {
                specs.add(new VnfSpec("snort", LMAX));
            }
            Sfc sfc = Sfc.builder().id(SfcId.of(tag)).name("sfc" + tag)
                    .ingress(ConnectPoint.deviceConnectPoint("device:leaf" + c + "/1"))
                    .egress(ConnectPoint.deviceConnectPoint("device:leaf" + (c + 1) + "/1"))
                    .classifier(new FlowClassifier(IpPrefix.valueOf("10.1.0.0/16"), IpPrefix.valueOf("10.2.0.0/16"),
                                                   17, 0, tag))
                    .vnfs(specs).build();
            app.sfcStore().createSfc(sfc);
            for (int i = 0; i < VNFS; i++) {
                VnfKey k = VnfKey.of(sfc.id(), i);
                String name = "r" + i;
                app.replicaStore().createReplica(new VnfReplica(
                        VnfReplicaId.of(k, name), "w0", DeviceId.deviceId("device:leaf" + c),
                        PortNumber.portNumber(2 + i), Ip6Address.valueOf(String.format("2001:db8:%x:%x::1", tag, i)),
                        MacAddress.valueOf(String.format("00:00:00:%02x:%02x:01", tag, i)), ReplicaState.ACTIVE, 1));
                vnfWindows.add(new VnfWindow(k, 100, 300_000, 400_000, 450_000, 500_000, 1000, Map.of(name, 100L)));
            }
            chainWindows.add(new ChainWindow(tag, 100, 2_000_000, 3_000_000, 1000));
        }
        // every chain and vNF reports under its bound: nothing to decide
        TelemetrySnapshot window = new TelemetrySnapshot(0, 500_000_000L, vnfWindows, chainWindows, List.of(),
                                                         new CollectorCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                                               0, Map.of()), List.of());
        DistributedEscalationStore escalations = new DistributedEscalationStore(storage);
        escalations.activate();

        LoopCore first = leader(app, escalations, new Clock(5_000_000_000L), "m1");
        Map<String, Long> before = storage.snapshot();
        round(first, window);
        int n = CHAINS * VNFS;
        assertEquals("the first leader writes each vNF's and replica's first record once",
                     Map.of("srv6int-loop-state.put", (long) n, "srv6int-loop-health.put", (long) n),
                     writesSince(storage, before));
        assertEquals(n, app.loopState().records().size());
        assertEquals(n, app.loopState().replicaHealth().size());
        before = storage.snapshot();
        round(first, window);
        round(first, window);
        assertEquals("a steady round writes nothing", Map.of(), writesSince(storage, before));
        first.setLeader(false);

        var records = app.loopState().records();
        var health = app.loopState().replicaHealth();
        // The new leader: its own monotonic clock, the same wall clock.
        LoopCore second = leader(app, escalations, new Clock(-77_000_000_123L), "m2");
        before = storage.snapshot();
        round(second, window);
        assertEquals("a new leader over an unchanged store writes nothing", Map.of(), writesSince(storage, before));
        assertTrue("the new leader read the records", storage.snapshot().get("srv6int-loop-state.entrySet") >= 2);
        assertEquals(records, app.loopState().records());
        assertEquals(health, app.loopState().replicaHealth());
        round(second, window);
        assertEquals("nor in its next round", Map.of(), writesSince(storage, before));
        second.setLeader(false);
    }

    private static LoopCore leader(AppAssembly app, DistributedEscalationStore escalations, Clock clock, String id) {
        return LoopCore.builder().clock(clock).platform(NO_PODS)
                .routing(new InventoryRouting(app.inventory(), app.paths())).store(app.loopState())
                .services(app.sfcs(), app.inventory()).detection(new DetectionInputs(app.inventory()))
                .escalations(escalations, id).leading(true).build();
    }

    private static void round(LoopCore loop, TelemetrySnapshot window) {
        Clock.wallMillis += 500;
        loop.period(window);
    }
}
