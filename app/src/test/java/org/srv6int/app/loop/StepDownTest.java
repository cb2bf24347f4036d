// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.LearnedInterference;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaHealthRecord;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.assembly.AppAssembly;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.testing.FakeReplicaPlatform;
import org.srv6int.testkit.InMemoryCoreService;
import org.srv6int.testkit.InMemoryEventDeliveryService;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.testkit.InMemoryMastershipService;
import org.srv6int.testkit.InMemoryNetworkConfigRegistry;
import org.srv6int.testkit.InMemoryStorageService;
import org.srv6int.testkit.InMemoryTopologyService;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * A leader that loses its leadership stops at once, even while its round is blocked on the store
 * (a member cut off from the majority waits out Atomix's request timeouts there): the step-down
 * does not wait for the round, and the round writes nothing once it resumes. Seen on real
 * processes (ClusterPartitionTest c1): the cut-off leader kept its loop for 6.6 s after its view
 * went leaderless and ended a scale-out meanwhile.
 */
public class StepDownTest {

    /** The app's loop state store, whose reads block while {@link #gate} is shut, counting writes. */
    private static final class BlockingStore implements LoopStateStore {
        private final LoopStateStore real;
        volatile CountDownLatch gate = new CountDownLatch(0);
        final CountDownLatch blocked = new CountDownLatch(1);
        final AtomicInteger writes = new AtomicInteger();

        BlockingStore(LoopStateStore real) {
            this.real = real;
        }

        private void await() {
            blocked.countDown();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public Map<VnfKey, VnfLoopRecord> records() {
            await();
            return real.records();
        }

        @Override
        public void put(VnfKey vnf, VnfLoopRecord record) {
            writes.incrementAndGet();
            real.put(vnf, record);
        }

        @Override
        public void remove(VnfKey vnf) {
            writes.incrementAndGet();
            real.remove(vnf);
        }

        @Override
        public long nextDecisionId() {
            return real.nextDecisionId();
        }

        @Override
        public Set<SfcId> pausedChains() {
            return real.pausedChains();
        }

        @Override
        public void setPaused(SfcId sfc, boolean paused) {
            real.setPaused(sfc, paused);
        }

        @Override
        public Map<VnfReplicaId, ReplicaHealthRecord> replicaHealth() {
            return real.replicaHealth();
        }

        @Override
        public void putReplicaHealth(VnfReplicaId replica, ReplicaHealthRecord record) {
            writes.incrementAndGet();
            real.putReplicaHealth(replica, record);
        }

        @Override
        public void removeReplicaHealth(VnfReplicaId replica) {
            writes.incrementAndGet();
            real.removeReplicaHealth(replica);
        }

        @Override
        public Map<SfcId, ChainState> downChains() {
            return real.downChains();
        }

        @Override
        public void putDownChain(ChainState state) {
            writes.incrementAndGet();
            real.putDownChain(state);
        }

        @Override
        public void removeDownChain(SfcId sfc) {
            writes.incrementAndGet();
            real.removeDownChain(sfc);
        }

        @Override
        public Optional<LearnedInterference> learnedInterference() {
            return real.learnedInterference();
        }

        @Override
        public void putLearnedInterference(LearnedInterference learned) {
            writes.incrementAndGet();
            real.putLearnedInterference(learned);
        }
    }

    private static final VnfKey VNF = VnfKey.of(SfcId.of(100), 0);
    // one chain of one vNF under its bound: a leader's first round writes the vNF's first record
    private static final TelemetrySnapshot WINDOW = new TelemetrySnapshot(
            0, 500_000_000L, List.of(new VnfWindow(VNF, 100, 300_000, 400_000, 450_000, 500_000, 1000,
                                                   Map.of("r0", 100L))),
            List.of(new ChainWindow(100, 100, 2_000_000, 3_000_000, 1000)), List.of(),
            new CollectorCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Map.of()), List.of());

    private static void addChain(AppAssembly app) {
        Sfc sfc = Sfc.builder().id(VNF.sfcId()).name("sfc100")
                .ingress(ConnectPoint.deviceConnectPoint("device:leaf0/1"))
                .egress(ConnectPoint.deviceConnectPoint("device:leaf1/1"))
                .classifier(new FlowClassifier(IpPrefix.valueOf("10.1.0.0/16"), IpPrefix.valueOf("10.2.0.0/16"),
                                               17, 0, 100))
                .vnfs(List.of(new VnfSpec("snort", 1_000_000))).build();
        app.sfcStore().createSfc(sfc);
        app.replicaStore().createReplica(new VnfReplica(
                VnfReplicaId.of(VNF, "r0"), "w0", DeviceId.deviceId("device:leaf0"), PortNumber.portNumber(2),
                Ip6Address.valueOf("2001:db8:100::1"), MacAddress.valueOf("00:00:00:01:00:01"), ReplicaState.ACTIVE,
                1));
    }

    @Test
    public void aLeaderStepsDownAtOnceWhileItsRoundIsBlockedOnTheStoreAndTheRoundWritesNothing() throws Exception {
        InMemoryCoreService core = new InMemoryCoreService();
        InMemoryTopologyService topology = new InMemoryTopologyService();
        AppAssembly app = AppAssembly.builder().storage(new InMemoryStorageService())
                .events(new InMemoryEventDeliveryService()).flowRules(new InMemoryFlowRuleService())
                .groups(new InMemoryGroupService()).mastership(new InMemoryMastershipService())
                .topology(topology, topology).netcfg(new InMemoryNetworkConfigRegistry().withCoreService(core), core)
                .build();
        addChain(app);
        BlockingStore store = new BlockingStore(app.loopState());
        LoopCore loop = LoopCore.builder()
                .platform(FakeReplicaPlatform.held(new NodeResources("w0", 64_000, 1L << 36)))
                .routing(new InventoryRouting(app.inventory(), app.paths())).store(store)
                .services(app.sfcs(), app.inventory()).detection(new DetectionInputs(app.inventory()))
                .leading(true).build();
        store.gate = new CountDownLatch(1);
        Thread round = new Thread(() -> loop.period(WINDOW), "round");
        round.start();
        int writesBefore = -1;
        try {
            assertTrue("the round reads the store", store.blocked.await(10, TimeUnit.SECONDS));
            GlobalLoop blockedLoop = loop.currentLoop();
            writesBefore = store.writes.get();
            Thread stepDown = new Thread(() -> loop.setLeader(false), "step-down");
            stepDown.start();
            stepDown.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse("the step-down did not wait for the round blocked on the store", stepDown.isAlive());
            assertFalse("stepped down", loop.leading());
            assertTrue("the blocked round's loop is closed", blockedLoop.closed);
            assertNull("no loop left to act with", loop.currentLoop());
        } finally {
            store.gate.countDown();
        }
        round.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(round.isAlive());
        assertEquals("the resumed round wrote nothing", writesBefore, store.writes.get());
        assertTrue("its vNF record was never written", app.loopState().records().isEmpty());
        loop.period(WINDOW);
        assertNull("a round after the step-down builds no loop", loop.currentLoop());
    }
}
