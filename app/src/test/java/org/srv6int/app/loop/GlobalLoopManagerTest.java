// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.FakeInventory;

import org.srv6int.app.testing.TestReports;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.Set;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.k8s.KubernetesMock;
import org.srv6int.app.k8s.KubernetesReplicaPlatformManager;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipServiceAdapter;
import org.onosproject.cluster.NodeId;
import org.onosproject.net.ConnectPoint;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.PlacementService;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.testing.FakeConfigService;
import org.srv6int.app.testing.InMemorySfcService;
import org.srv6int.app.testing.WindowFeed;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The ONOS wiring of the loop: leader only, one tick per telemetry window, replicas through the
 * inventory. ONOS services are adapters/fakes (onos-api test adapters for leadership and
 * cluster); the telemetry windows come from a real {@link TelemetryEngine} fed with reports.
 */
public class GlobalLoopManagerTest {

    private static final long SEC = 1_000_000_000L;
    private static final NodeId ME = new NodeId("local");
    private static final SfcId SFC = SfcId.of(7);
    private static final VnfKey VNF = VnfKey.of(SFC, 0);

    private final FakePorts.Clock clock = new FakePorts.Clock();
    private final FakeLeadership leadership = new FakeLeadership();
    private final FakeInventory inventory = new FakeInventory();
    private final FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
    private final WindowFeed feed = new WindowFeed();
    private final TestReports reports = new TestReports(7, 4, 3);
    private TelemetryEngine engine;
    private GlobalLoopManager manager;
    // The services the component is wired with (a test swaps one, then reactivates).
    private PlacementService placement;
    private ReplicaPlatform replicas;
    private SfcService sfcs;
    private Srv6IntConfigService config;
    private LoopStateStore loopState;
    private NodePoolService pools;
    private long seq;
    /** The app's netcfg as the manager reads it at every window. */
    private volatile String appJson = "{\"loop\": {\"demandLatency\": \"measured\"}}";
    private int counter;

    /** Leadership of one topic, changed by the test, with listeners like the real service. */
    private static final class FakeLeadership extends LeadershipServiceAdapter {
        final List<LeadershipEventListener> listeners = new ArrayList<>();
        NodeId leader = new NodeId("other");
        final List<String> ran = new ArrayList<>();

        @Override
        public Leadership runForLeadership(String topic) {
            ran.add(topic);
            return getLeadership(topic);
        }

        @Override
        public Leadership getLeadership(String topic) {
            return new Leadership(topic, new Leader(leader, 1, 0), List.of(leader, ME));
        }

        @Override
        public NodeId getLeader(String topic) {
            return leader;
        }

        @Override
        public void addListener(LeadershipEventListener l) {
            listeners.add(l);
        }

        @Override
        public void removeListener(LeadershipEventListener l) {
            listeners.remove(l);
        }

        void elect(NodeId n) {
            leader = n;
            LeadershipEvent e = new LeadershipEvent(LeadershipEvent.Type.LEADER_CHANGED,
                                                    getLeadership(GlobalLoopManager.TOPIC));
            listeners.forEach(l -> l.event(e));
        }
    }

    @Before
    public void setUp() throws Exception {
        engine = new TelemetryEngine(TelemetryEngine.Limits.DEFAULT, () -> clock.nanos);
        engine.setReporters(Map.of(0x7F000001, 4));
        engine.setBindings(List.of(new HopBinding(7, 1, 2, VNF, "r0")));
        inventory.registerReplica(inventory.make(VNF, "r0", "worker1"));
        platform.nodes.add(new NodeResources("worker2", 8000, 1L << 34));
        Sfc sfc = Sfc.builder().id(SFC).ingress(ConnectPoint.deviceConnectPoint("device:s1/1"))
                .egress(ConnectPoint.deviceConnectPoint("device:s4/1"))
                .classifier(FlowClassifier.between(IpPrefix.valueOf("10.0.0.0/24"), IpPrefix.valueOf("10.0.1.0/24")))
                .vnfs(List.of(new VnfSpec("snort", 600_000))).build();
        // Placement proper is InventoryRoutingTest's; here: the most free candidate, ties by name.
        placement = (vnf, free) -> free.entrySet().stream().filter(e -> e.getValue() > 0)
                .max(Map.Entry.<String, Double>comparingByValue()
                             .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                .map(Map.Entry::getKey);
        replicas = platform;
        sfcs = new InMemorySfcService(sfc);
        config = new Srv6IntConfigService() {
            @Override
            public Srv6Devices devices() {
                return PaperTestbed.devices();
            }

            @Override
            public Optional<Srv6IntAppConfig> appConfig() {
                // the expected replica counts are the paper's formula as written
                try {
                    return Optional.of(KubernetesMock.appConfig(appJson));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        loopState = org.srv6int.app.store.TestStores.loopState(new InMemoryStorageService());
        start();
    }

    /** Wires the component through its public constructor, as a host without OSGi does, and activates it. */
    private void start() {
        manager = new GlobalLoopManager(leadership, new ClusterServiceAdapter(), feed, sfcs, inventory, config,
                                        replicas, loopState, placement, pools, null, null, null, null, null);
        manager.setClock(clock);
        manager.activate();
    }

    /** Services are bound at activation, as OSGi binds them: a test that swaps one starts a new component. */
    private void reactivate() {
        manager.deactivate();
        start();
    }

    /** One telemetry window of 100 reports at the given vNF latency, then the window closes. */
    private void window(long latency, int packetsPerReport) {
        for (int i = 0; i < 100; i++) {
            counter = (counter + packetsPerReport) & 0xFFFF;
            byte[] p = reports.payload(seq++, new TestReports.Hop(1, 0, 0, 0, counter),
                                       new TestReports.Hop(2, 0, 1000 + latency, latency, counter),
                                       new TestReports.Hop(4, 0, 9000 + latency, 0, counter));
            assertTrue(engine.onReport(p, 0, p.length, 0x7F000001));
        }
        clock.nanos += SEC;
        TelemetrySnapshot s = engine.roll();
        feed.push(s);
    }

    @Test
    public void onlyTheLeaderActs() {
        assertEquals(List.of(GlobalLoopManager.TOPIC), leadership.ran);
        assertEquals(1, feed.consumers.size());
        window(400_000, 10);
        for (int i = 0; i < 8; i++) {
            window(900_000, 20);
        }
        assertTrue("a follower must not act: " + platform.calls, platform.calls.isEmpty());
        assertFalse(manager.status().leader());
        assertTrue(manager.decisions(10).isEmpty());

        leadership.elect(ME);
        assertTrue(manager.status().leader());
        window(400_000, 10);
        for (int i = 0; i < 6; i++) {
            window(900_000, 20);
        }
        // 2000 pps * ~0.9 ms / (990 pps * ~0.4 ms) = 4.5 -> n = 5 -> +4 on the only node
        assertEquals(List.of("nodeFreeResources", "create 7/0 on worker2", "create 7/0 on worker2",
                             "create 7/0 on worker2", "create 7/0 on worker2"), platform.calls);
        assertEquals(List.of("addReplica 7/0 worker2 -> r1", "addReplica 7/0 worker2 -> r2",
                             "addReplica 7/0 worker2 -> r3", "addReplica 7/0 worker2 -> r4"), inventory.calls);
        List<LoopDecision> d = manager.decisions(10);
        assertEquals(1, d.size());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, d.get(0).outcome());
        assertEquals(5.0, d.get(0).inputs().get(GlobalLoop.IN_N), 0);
        LoopStatus st = manager.status();
        assertEquals("local", st.leaderNode());
        assertEquals(5, st.vnfs().get(0).replicas());

        // Leadership moves away: the loop stops acting.
        leadership.elect(new NodeId("other"));
        int before = platform.calls.size();
        for (int i = 0; i < 30; i++) {
            window(900_000, 20);
        }
        assertEquals(before, platform.calls.size());
        manager.deactivate();
        assertTrue(feed.consumers.isEmpty());
    }

    /** A chain without any replica yet (just declared) is judged like any other, not an error of the round. */
    @Test
    public void aChainWithoutReplicasDoesNotStopTheRound() {
        sfcs.addSfc(Sfc.builder().id(SfcId.of(8)).ingress(ConnectPoint.deviceConnectPoint("device:s1/1"))
                .egress(ConnectPoint.deviceConnectPoint("device:s4/1"))
                .classifier(FlowClassifier.between(IpPrefix.valueOf("10.0.2.0/24"), IpPrefix.valueOf("10.0.3.0/24")))
                .vnfs(List.of(new VnfSpec("snort", 600_000))).build());
        leadership.elect(ME);
        window(400_000, 10);
        for (int i = 0; i < 6; i++) {
            window(900_000, 20);
        }
        // the replica-less chain did not stop the round: chain 7's violation still scaled out
        assertEquals(1, manager.decisions(10).size());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, manager.decisions(10).get(0).outcome());
    }

    @Test
    public void anEscalationIsAHintOnTheLeaderOnly() {
        try {
            manager.escalate(VNF, "worker1", 900_000, 600_000, List.of("CPU"));
            fail("a follower must refuse an escalation");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("leader is other"));
        }
        leadership.elect(ME);
        try {
            manager.escalate(VnfKey.of(SFC, 3), "worker1", 900_000, 600_000, List.of("CPU"));
            fail("a vNF the chain does not have");
        } catch (org.srv6int.app.api.SfcException e) {
            assertEquals(org.srv6int.app.api.SfcException.Reason.NOT_FOUND, e.reason());
        }
        window(400_000, 10);
        window(900_000, 20);
        assertTrue(platform.calls.isEmpty());
        LoopDecision e = manager.escalate(VNF, "worker1", 900_000, 600_000, List.of("CPU", "LLC", "MEMBW", "FREQ"));
        assertEquals(LoopDecision.Action.ESCALATION, e.action());
        // One more violating window (2 s into t-hat = 4 s) and the loop scales out.
        window(900_000, 20);
        assertEquals("create 7/0 on worker2", platform.calls.get(1));
        List<LoopDecision> d = manager.decisions(10);
        assertEquals(LoopDecision.Action.ESCALATION, d.get(0).action());
        assertEquals(LoopDecision.Action.SCALE_OUT, d.get(1).action());
    }

    /** netcfg loop.enabled=false: the leader watches but takes no action until it is true again. */
    @Test
    public void aDisabledLoopTakesNoActionUntilEnabled() {
        appJson = "{\"loop\": {\"enabled\": false, \"demandLatency\": \"measured\"}}";
        leadership.elect(ME);
        window(400_000, 10);
        for (int i = 0; i < 8; i++) {
            window(900_000, 20);
        }
        assertTrue(platform.calls.toString(), platform.calls.isEmpty());
        assertTrue(manager.decisions(10).isEmpty());
        appJson = "{\"loop\": {\"enabled\": true, \"demandLatency\": \"measured\"}}";
        for (int i = 0; i < 8 && platform.calls.isEmpty(); i++) {
            window(900_000, 20);
        }
        assertEquals("nodeFreeResources", platform.calls.get(0));
    }

    @Test
    public void aPausedChainGetsNoActionUntilResumed() {
        leadership.elect(ME);
        manager.setPaused(SFC, true);
        assertEquals(Set.of(SFC), manager.pausedChains());
        window(400_000, 10);
        for (int i = 0; i < 8; i++) {
            window(900_000, 20);
        }
        assertTrue(platform.calls.toString(), platform.calls.isEmpty());
        try {
            manager.setPaused(SfcId.of(99), true);
            fail("unknown chain");
        } catch (org.srv6int.app.api.SfcException e) {
            assertEquals(org.srv6int.app.api.SfcException.Reason.NOT_FOUND, e.reason());
        }
        manager.setPaused(SFC, false);
        window(400_000, 10);
        for (int i = 0; i < 6; i++) {
            window(900_000, 20);
        }
        assertEquals("create 7/0 on worker2", platform.calls.get(1));
    }

    /**
     * Netcfg to a Kubernetes platform on fabric8's mock API server: the scale-out creates the
     * bridge's StatefulSets and the replicas join the inventory under the workloads' names; then a
     * fresh platform (a new leader's, no memory of the first) deletes one by its inventory name.
     */
    @Test
    public void scaleOutThroughNetcfgCreatesStatefulSetsAndAnotherPlatformDeletesThem() throws Exception {
        try (KubernetesMock k8s = new KubernetesMock()) {
            k8s.addNode("worker2", "20", "64Gi");
            FakeConfigService cfg = KubernetesMock.configOf(
                    KubernetesMock.appConfig("{\"loop\": {\"demandLatency\": \"measured\"}, \"kubernetes\":"
                            + k8s.kubernetesJson() + "}"));
            KubernetesReplicaPlatformManager first =
                    KubernetesMock.platform(sfcs, cfg, new KubernetesMock.Netcfg(), inventory);
            replicas = first;
            reactivate();
            leadership.elect(ME);
            window(400_000, 10);
            for (int i = 0; i < 6; i++) {
                window(900_000, 20);
            }
            long deadline = System.nanoTime() + 20 * SEC;
            while (manager.decisions(1).get(0).outcome() == LoopDecision.Outcome.IN_PROGRESS
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            LoopDecision d = manager.decisions(1).get(0);
            assertEquals(d.detail(), LoopDecision.Outcome.SUCCEEDED, d.outcome());
            List<String> names = List.of("sfc-7-vnf0-r0", "sfc-7-vnf0-r1", "sfc-7-vnf0-r2", "sfc-7-vnf0-r3");
            assertEquals(names, k8s.statefulSetNames());
            StatefulSet sts = k8s.statefulSet("sfc-7-vnf0-r2");
            assertEquals("worker2", sts.getSpec().getTemplate().getSpec().getNodeSelector()
                    .get("kubernetes.io/hostname"));
            assertEquals("registry.local/snort:2.9",
                         sts.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
            assertEquals("4Gi", sts.getSpec().getTemplate().getSpec().getContainers().get(0).getResources()
                    .getRequests().get("memory").toString());
            List<String> inInventory = inventory.getReplicas(VNF).stream().map(r -> r.id().name())
                    .filter(n -> n.startsWith("sfc-")).sorted().collect(Collectors.toList());
            assertEquals(names, inInventory);
            // Each pod carries the SID and attachment its inventory replica holds; Ready made it ACTIVE.
            for (String n : names) {
                org.srv6int.app.api.model.VnfReplica r =
                        inventory.getReplica(org.srv6int.app.api.model.VnfReplicaId.of(VNF, n)).orElseThrow();
                assertEquals(org.srv6int.app.api.model.ReplicaState.ACTIVE, r.state());
                Map<String, String> a = k8s.statefulSet(n).getSpec().getTemplate().getMetadata().getAnnotations();
                assertEquals(r.sid().toString(), a.get("srv6int.org/sid"));
                assertEquals(r.deviceId().toString(), a.get("srv6int.org/switch-device"));
                assertEquals(Long.toString(r.port().toLong()), a.get("srv6int.org/switch-port"));
            }
            KubernetesMock.stop(first);

            KubernetesReplicaPlatformManager fresh =
                    KubernetesMock.platform(sfcs, cfg, new KubernetesMock.Netcfg());
            try {
                fresh.deleteReplica(VNF, "sfc-7-vnf0-r3").toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertEquals(names.subList(0, 3), k8s.statefulSetNames());
                try {
                    fresh.deleteReplica(VNF, "r0").toCompletableFuture().get(10, TimeUnit.SECONDS);
                    fail("an operator replica (no workload) must not map to a bridge replica");
                } catch (ExecutionException e) {
                    assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("not a bridge replica"));
                }
                assertEquals(names.subList(0, 3), k8s.statefulSetNames());
            } finally {
                KubernetesMock.stop(fresh);
            }
        }
    }
    /**
     * The operator's whole netcfg (the paper testbed's, with a {@code kubernetes} section whose Snort
     * type has the given extra fields) posted to the testkit's netcfg registry subject by subject, each
     * subject made from its key by the registry's subject factory, as ONOS's
     * {@code POST /onos/v1/network/configuration} does, and read back by the app's config
     * manager; the loop reads it from there, the node agents' pool reports from the app's pool store.
     */
    private Srv6IntConfigService postNetcfg(String snortExtra) throws IOException {
        org.srv6int.testkit.InMemoryCoreService core = new org.srv6int.testkit.InMemoryCoreService();
        registry = new org.srv6int.testkit.InMemoryNetworkConfigRegistry().withCoreService(core);
        org.srv6int.app.config.Srv6IntConfigManager config =
                new org.srv6int.app.config.Srv6IntConfigManager(registry, core);
        config.activate();
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode netcfg =
                (com.fasterxml.jackson.databind.node.ObjectNode) PaperTestbed.netcfg().deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) netcfg.get("apps").get(Srv6IntConfigService.APP_NAME)
                .get(Srv6IntAppConfig.KEY)).set("kubernetes", mapper.readTree(
                "{\"apiServer\": \"https://10.0.0.1:6443\", \"tokenFile\": \"/var/run/secrets/token\","
                        + " \"vnfTypes\": {\"snort\": {\"image\": \"registry.local/snort:2.9\","
                        + " \"requests\": {\"cpu\": \"1500m\", \"memory\": \"1Gi\"}" + snortExtra + "}}}"));
        netcfg.fields().forEachRemaining(subjects -> subjects.getValue().fields().forEachRemaining(
                subject -> subject.getValue().fields().forEachRemaining(
                        c -> registry.applyConfig(subjects.getKey(), registry.getSubjectFactory(subjects.getKey())
                                .createSubject(subject.getKey()), c.getKey(), c.getValue()))));
        assertTrue("netcfg refused", config.appConfig().isPresent());
        return config;
    }

    /**
     * Snort over its bound with two attached nodes: Kubernetes shows worker2 with more free CPU,
     * the node agents' reports show worker2 with 1 free LLC way and 10 % memory bandwidth and
     * worker1 with 6 ways and 50 %. Returns the platform's creates of the scale-out.
     */
    private List<String> scaleOutWithPoolReports(String snortExtra) throws Exception {
        Srv6IntConfigService cfg = postNetcfg(snortExtra);
        config = cfg;
        org.srv6int.app.pools.NodePoolManager pools = new org.srv6int.app.pools.NodePoolManager(
                new InMemoryStorageService(), n -> cfg.devices().locate(n).isPresent(), clock::currentTimeMillis,
                org.srv6int.app.pools.NodePoolManager.DEFAULT_MAX_AGE_MS);
        this.pools = pools;
        reactivate();
        platform.nodes.add(new NodeResources("worker1", 4000, 1L << 34));
        pools.report("worker1", List.of(new org.srv6int.app.api.model.NodePools.Pool(
                org.srv6int.app.api.model.NodePools.WHOLE_NODE, 4000, 16_000, 6, 11, 50, 100)));
        pools.report("worker2", List.of(new org.srv6int.app.api.model.NodePools.Pool(
                org.srv6int.app.api.model.NodePools.WHOLE_NODE, 8000, 16_000, 1, 11, 10, 100)));
        leadership.elect(ME);
        window(400_000, 10);
        for (int i = 0; i < 6; i++) {
            window(900_000, 20);
        }
        LoopDecision d = manager.decisions(1).get(0);
        assertEquals(d.detail(), LoopDecision.Action.SCALE_OUT, d.action());
        assertEquals(d.detail(), LoopDecision.Outcome.SUCCEEDED, d.outcome());
        lastDetail = d.detail();
        return platform.calls.stream().filter(c -> c.startsWith("create")).collect(Collectors.toList());
    }

    private String lastDetail;
    private org.srv6int.testkit.InMemoryNetworkConfigRegistry registry;

    @Test
    public void aBadProfileIsRefusedByItsPathAndTheConfigInForceStays() throws Exception {
        Srv6IntConfigService config = postNetcfg(", \"profile\": {\"llcWays\": 3}");
        com.fasterxml.jackson.databind.JsonNode section = PaperTestbed.netcfg().get("apps")
                .get(Srv6IntConfigService.APP_NAME).get(Srv6IntAppConfig.KEY).deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) section).set("kubernetes",
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(config.appConfig().orElseThrow()
                        .node().get("kubernetes").toString().replace("\"llcWays\":3", "\"llcWays\":65")));
        try {
            registry.applyConfig("apps",
                    registry.getSubjectFactory("apps").createSubject(Srv6IntConfigService.APP_NAME),
                                 Srv6IntAppConfig.KEY, section);
            fail("65 LLC ways accepted");
        } catch (RuntimeException e) {
            String why = e.getMessage() + (e.getCause() == null ? "" : " " + e.getCause().getMessage());
            assertTrue(why, why.contains("llcWays"));
        }
        assertEquals(3, config.appConfig().orElseThrow().kubernetes().orElseThrow().need("snort").llcWays());
    }

    @Test
    public void aVnfTypeProfilePostedInNetcfgPlacesTheReplicaWhereTheAgentsPoolsHoldIt() throws Exception {
        // n = 3: both new replicas where the pools hold 3 ways and 25 % each (worker1 holds two)
        assertEquals(List.of("create 7/0 on worker1", "create 7/0 on worker1"), scaleOutWithPoolReports(
                ", \"profile\": {\"llcWays\": 3, \"memoryBandwidthPercent\": 25}"));
        assertTrue(lastDetail, lastDetail.contains("pools too small on worker2 (cpu 8000m, llc 1 ways, mb 10 %)"));
    }

    @Test
    public void withoutAProfileTheSameReportsPlaceByCpu() throws Exception {
        // the CPU request alone: worker2's pools hold five, worker1's two; the most room first
        assertEquals(List.of("create 7/0 on worker2", "create 7/0 on worker1"), scaleOutWithPoolReports(""));
        assertFalse(lastDetail, lastDetail.contains("too small"));
    }
}
