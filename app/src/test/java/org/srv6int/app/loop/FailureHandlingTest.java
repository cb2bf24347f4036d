// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.TestReports;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;

import org.srv6int.app.switchstate.FlowEntries;
import org.onlab.packet.IpAddress;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.LeadershipServiceAdapter;
import org.onosproject.cluster.NodeId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultPort;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Port;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.link.LinkService;
import org.onosproject.net.flow.FlowEntry;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.switchstate.SwitchCounters;
import org.srv6int.app.store.TestStores;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.HopBindings;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.WindowFeed;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Failure handling at manager level on the paper's testbed (docs/failures.md): the app's real
 * chain, inventory, placement and flow programming (AppHarness) with its fake flow rule and group
 * services standing for the switches (their direct counters set by the test as a switch's would
 * count), a real {@link TelemetryEngine} fed with INT reports, the loop component, a recording
 * Kubernetes platform and a device service whose ports the test takes down. Windows are 500 ms of
 * simulated time; netcfg sets silenceMs 2000 and returnHoldMs 2000.
 */
public class FailureHandlingTest {

    private static final long MS = 1_000_000L;
    private static final NodeId ME = new NodeId("local");
    static final VnfKey SNORT = VnfKey.of(PaperTestbed.SFC2, 0);
    private static final VnfKey FWD = VnfKey.of(PaperTestbed.SFC1, 0);
    private static final VnfKey NDPI = VnfKey.of(PaperTestbed.SFC1, 1);

    private final FakePorts.Clock clock = new FakePorts.Clock();
    final FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
    private final WindowFeed feed = new WindowFeed();
    private final org.onlab.metrics.MetricsManager metrics = new org.onlab.metrics.MetricsManager();
    private final List<org.onosproject.net.device.DeviceListener> deviceListeners = new ArrayList<>();
    private final List<org.onosproject.net.link.LinkListener> linkListeners = new ArrayList<>();
    final Set<ConnectPoint> portsDown = new HashSet<>();
    private AppHarness h;
    /** The cluster's loop state store. */
    private final org.srv6int.app.store.LoopStateStore store = TestStores.loopState(new InMemoryStorageService());
    private TelemetryEngine engine;
    GlobalLoopManager manager;
    LeadershipService leadership;
    private long seq;
    private final Map<String, Integer> hopCounters = new HashMap<>();
    private final Map<SfcId, Long> classified = new HashMap<>();
    private final Map<String, Long> sidCounters = new HashMap<>();

    @Before
    public void setUp() throws Exception {
        h = new AppHarness();
        h.config.app = PaperTestbed.appConfig(new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                "{\"loop\": {\"silenceMs\": 2000, \"returnHoldMs\": 2000}}"));
        h.deployFig5();
        // Snort's second replica on Worker 2 (Fig. 8 after the loop's scale-out).
        h.inventory.registerReplica(PaperTestbed.replica(SNORT, "w2", "worker2", 2));
        h.settle();
        platform.nodes.add(new NodeResources("worker1", 8000, 1L << 34));
        platform.nodes.add(new NodeResources("worker2", 4000, 1L << 34));
        platform.startNamesAfter(10);
        engine = new TelemetryEngine(TelemetryEngine.Limits.DEFAULT, () -> clock.nanos);
        engine.setReporters(Map.of(0x0A000004, 4));
        rebind();

        leadership = new LeadershipServiceAdapter() {
            @Override
            public NodeId getLeader(String topic) {
                return ME;
            }

            @Override
            public Leadership runForLeadership(String topic) {
                return new Leadership(topic, new Leader(ME, 1, 0), List.of(ME));
            }
        };
        DeviceService devices = new DeviceServiceAdapter() {
            @Override
            public Port getPort(DeviceId d, PortNumber n) {
                return new DefaultPort(null, n, !portsDown.contains(new ConnectPoint(d, n)));
            }

            @Override
            public void addListener(org.onosproject.net.device.DeviceListener l) {
                deviceListeners.add(l);
            }

            @Override
            public void removeListener(org.onosproject.net.device.DeviceListener l) {
                deviceListeners.remove(l);
            }
        };
        LinkService links = new org.onosproject.net.link.LinkServiceAdapter() {
            @Override
            public void addListener(org.onosproject.net.link.LinkListener l) {
                linkListeners.add(l);
            }

            @Override
            public void removeListener(org.onosproject.net.link.LinkListener l) {
                linkListeners.remove(l);
            }
        };
        manager = new GlobalLoopManager(leadership, new ClusterServiceAdapter(), feed, h.sfcs, h.inventory, h.config,
                                        platform, store, h.pathManager, null, h.flows, devices, links, h.pathManager,
                                        metrics);
        manager.setClock(clock);
        manager.activate();
        manager.runEventsInline();
    }

    @After
    public void tearDown() {
        manager.deactivate();
    }

    /** Collector bindings from the current segment lists, as TelemetryManager computes them each window. */
    private void rebind() {
        List<HopBinding> b = HopBindings.of(h.pathManager.getAllPaths().values(), h.inventory::getReplica,
                                            d -> PaperTestbed.devices().get(d).map(Srv6DeviceConfig::intDeviceId));
        engine.setBindings(b);
    }

    private static int intId(DeviceId d) {
        return PaperTestbed.devices().get(d).map(Srv6DeviceConfig::intDeviceId).orElseThrow();
    }

    /** n reports of a chain whose packets crossed the given replicas (one per vNF, in order). */
    private void reports(Sfc sfc, int n, VnfReplica... path) {
        TestReports enc = new TestReports(sfc.id().tag(), 4, path.length + 2);
        for (int i = 0; i < n; i++) {
            List<TestReports.Hop> hops = new ArrayList<>();
            hops.add(new TestReports.Hop(1, 0, 0, 0, bump("in" + sfc.id())));
            for (VnfReplica r : path) {
                hops.add(new TestReports.Hop(intId(r.deviceId()), 0, 1000, 200_000, bump(r.id().toString())));
            }
            hops.add(new TestReports.Hop(4, 0, 9000, 0, bump("out" + sfc.id())));
            byte[] p = enc.payload(seq++, hops.toArray(new TestReports.Hop[0]));
            assertTrue(engine.onReport(p, 0, p.length, 0x0A000004));
        }
    }

    private int bump(String hop) {
        return hopCounters.merge(hop, 10, (a, b) -> (a + b) & 0xFFFF);
    }

    /** The ingress classified packets of a chain (its classifier entry's direct counter). */
    private void classify(Sfc sfc, long packets) {
        long v = classified.merge(sfc.id(), packets, Long::sum);
        assertEquals(1, h.flows.setPackets(e -> SwitchCounters.isClassifierOf(e, sfc), v));
    }

    /** Packets reached a replica's switch for its SID (its my_sid entry's direct counter). */
    private void reachSid(VnfReplica r, long packets) {
        long v = sidCounters.merge(r.id().toString(), packets, Long::sum);
        assertEquals(1, h.flows.setPackets(e -> SwitchCounters.isSidEntryOf(e, r), v));
    }

    private VnfReplica replica(VnfKey vnf, String name) {
        return h.inventory.getReplica(VnfReplicaId.of(vnf, name)).orElseThrow();
    }

    /** Closes a 500 ms window and hands it to the loop. */
    private void window() {
        clock.nanos += 500 * MS;
        TelemetrySnapshot s = engine.roll();
        feed.push(s);
        rebind();
    }

    /** Both chains healthy for one window: every replica that carries traffic passes some. */
    void healthyWindow() {
        classify(PaperTestbed.sfc1(), 100);
        classify(PaperTestbed.sfc2(), 100);
        for (VnfReplica r : h.inventory.getReplicas()) {
            if (r.carriesTraffic()) {
                reachSid(r, 50);
            }
        }
        reports(PaperTestbed.sfc1(), 5, replica(FWD, "r0"), replica(NDPI, "r0"));
        for (VnfReplica r : h.inventory.getReplicas(SNORT)) {
            if (r.carriesTraffic()) {
                reports(PaperTestbed.sfc2(), 5, r);
            }
        }
        window();
    }

    /** An ONOS metric of the failure counters. */
    private long gauge(String name) {
        for (Map.Entry<String, com.codahale.metrics.Gauge> e
                : metrics.getGauges((n, m) -> n.contains("failures") && n.endsWith(name)).entrySet()) {
            return ((Number) e.getValue().getValue()).longValue();
        }
        throw new AssertionError("no metric " + name + " in " + metrics.getMetrics().keySet());
    }

    private ChainState state(SfcId sfc) {
        return manager.chainStates().stream().filter(c -> c.sfc().equals(sfc)).findFirst().orElseThrow();
    }

    private List<LoopDecision> decisions(LoopDecision.Action a) {
        return manager.decisions(100).stream().filter(d -> d.action() == a).collect(Collectors.toList());
    }

    /** Replica SIDs the chain's bucket table on its ingress sends to. */
    Set<Ip6Address> groupSids(Sfc sfc) {
        Set<Ip6Address> sids = new HashSet<>();
        for (FlowEntry e : h.flows.entries()) {
            if (!e.deviceId().equals(sfc.ingress().deviceId())
                    || FlowEntries.chainAndBucket(e).filter(tb -> tb[0] == sfc.id().tag()).isEmpty()) {
                continue;
            }
            for (Ip6Address a : FlowEntries.travel(e)) {
                // vNF SIDs only (not the egress's End.DT.INT SID)
                if (h.inventory.getReplicas().stream().anyMatch(r -> r.sid().equals(a))) {
                    sids.add(a);
                }
            }
        }
        return sids;
    }

    /** Make-before-break: every vNF SID the ingress group sends to has its my_sid entry installed. */
    private void assertGroupOnlyUsesInstalledSids(Sfc sfc) {
        Set<Ip6Address> installed = new HashSet<>();
        for (FlowEntry e : h.flows.entries()) {
            if (e.state() == FlowEntry.FlowEntryState.ADDED) {
                for (VnfReplica r : h.inventory.getReplicas()) {
                    if (SwitchCounters.isSidEntryOf(e, r)) {
                        installed.add(r.sid());
                    }
                }
            }
        }
        Set<Ip6Address> replicaSids = h.inventory.getReplicas().stream().map(VnfReplica::sid)
                .collect(Collectors.toSet());
        for (Ip6Address sid : groupSids(sfc)) {
            assertTrue("group of " + sfc.id() + " uses " + sid + " before its my_sid entry is in",
                       installed.contains(sid) || !replicaSids.contains(sid));
        }
    }

    /** Reconciles pass by pass, checking make-before-break after each. */
    int settleCheckingEachPass() {
        for (int pass = 0; pass < 20; pass++) {
            int ops = h.programmer.reconcile();
            assertGroupOnlyUsesInstalledSids(PaperTestbed.sfc1());
            assertGroupOnlyUsesInstalledSids(PaperTestbed.sfc2());
            assertFalse("a chain with segment lists lost its whole group",
                        !h.pathManager.getPaths(PaperTestbed.SFC2).orElseThrow().segmentLists().isEmpty()
                                && groupSids(PaperTestbed.sfc2()).isEmpty());
            if (ops == 0) {
                return pass;
            }
        }
        throw new AssertionError("programming did not converge");
    }

    @Test
    public void aBlackHoledChainIsDownWithTheLastHopSeenWithinTheSilenceAndClearsWhenReportsReturn() {
        healthyWindow();
        healthyWindow();
        assertEquals(ChainState.Liveness.UP, state(PaperTestbed.SFC1).liveness());
        // A wrong rule between SW2 and SW3: SFC 1's packets reach Fwd's SID on SW2, never nDPI's on SW3.
        int windows = 0;
        while (state(PaperTestbed.SFC1).liveness() != ChainState.Liveness.DOWN && windows < 20) {
            classify(PaperTestbed.sfc1(), 100);
            reachSid(replica(FWD, "r0"), 100);
            classify(PaperTestbed.sfc2(), 100);
            for (VnfReplica r : h.inventory.getReplicas(SNORT)) {
                reports(PaperTestbed.sfc2(), 5, r);
            }
            window();
            windows++;
        }
        // silenceMs 2000: the first silent window plus four more.
        assertEquals(5, windows);
        ChainState s = state(PaperTestbed.SFC1);
        assertEquals("vNF 0 (r0 at of:0000000000000002/3)", s.lastHopSeen());
        assertTrue(s.reason(), s.reason().contains("no INT report arrived for 2000 ms"));
        assertEquals(ChainState.Liveness.UP, state(PaperTestbed.SFC2).liveness());
        LoopDecision down = decisions(LoopDecision.Action.CHAIN_DOWN).get(0);
        assertEquals(NDPI, down.vnf());
        assertEquals(LoopDecision.Outcome.FAILED, down.outcome());
        assertTrue(down.detail(), down.detail().contains("last hop seen: vNF 0 (r0 at of:0000000000000002/3)"));
        // The chain is silent as a whole: no replica of it is judged dead by INT.
        assertTrue(decisions(LoopDecision.Action.REPLICA_DEAD).isEmpty());
        assertEquals(1L, (long) manager.failureCounters().get("chainsDownNow"));
        assertEquals(1L, gauge("chainsDownNow"));
        healthyWindow();
        assertEquals(ChainState.Liveness.UP, state(PaperTestbed.SFC1).liveness());
        assertEquals(1, decisions(LoopDecision.Action.CHAIN_UP).size());
        assertEquals(0L, (long) manager.failureCounters().get("chainsDownNow"));
        assertEquals(1L, (long) manager.failureCounters().get("chainDowns"));
        assertEquals(0L, gauge("chainsDownNow"));
        assertEquals(1L, gauge("chainDowns"));
    }

    @Test
    public void aReplicaWhosePodIsNotReadyLeavesTheGroupAtOnceIsReplacedAndReturnsOnProbation() {
        healthyWindow();
        healthyWindow();
        assertEquals(2, groupSids(PaperTestbed.sfc2()).size());
        long t0 = System.nanoTime();
        platform.setReadiness(SNORT, Map.of("w2", false));
        // Pushed by the platform: judged at once, not at the next window.
        assertEquals(1, decisions(LoopDecision.Action.REPLICA_DEAD).size());
        int passes = settleCheckingEachPass();
        long movedNanos = System.nanoTime() - t0;
        VnfReplica w2 = replica(SNORT, "w2");
        assertEquals(ReplicaState.DEAD, w2.state());
        assertEquals(0, w2.weight());
        LoopDecision dead = decisions(LoopDecision.Action.REPLICA_DEAD).get(0);
        assertEquals(SNORT, dead.vnf());
        assertTrue(dead.detail(), dead.detail().contains("w2 at of:0000000000000003/3: pod gone or not Ready"));
        // A replacement where the app's placement puts it (worker1), through the loop's platform port.
        assertTrue(platform.calls.toString(), platform.calls.contains("create " + SNORT + " on worker1"));
        LoopDecision replace = decisions(LoopDecision.Action.REPLACE).get(0);
        assertEquals(LoopDecision.Outcome.SUCCEEDED, replace.outcome());
        VnfReplica r11 = replica(SNORT, "r11");
        assertTrue(r11.carriesTraffic());
        // The ingress group now sends Snort's traffic to r0 and the replacement only.
        assertEquals(Set.of(replica(SNORT, "r0").sid(), r11.sid()), groupSids(PaperTestbed.sfc2()));
        System.out.printf("replica death (pod not Ready, pushed) -> buckets moved: %.2f ms wall (%d reconcile"
                          + " passes, fakes for switches)%n", movedNanos / 1e6, passes);
        // The pod is Ready again: it returns only after the 2 s hold, on probation.
        platform.setReadiness(SNORT, Map.of("w2", true));
        int windows = 0;
        while (decisions(LoopDecision.Action.REPLICA_RETURNED).isEmpty() && windows < 20) {
            healthyWindow();
            windows++;
        }
        // Windows are 500 ms: the fourth after the death is 2 s later.
        assertEquals(4, windows);
        assertTrue(replica(SNORT, "w2").carriesTraffic());
        assertEquals(1L, (long) manager.failureCounters().get("replicaReturns"));
    }

    @Test
    public void aReplicaToldNotReadyWhileItsCreateIsInFlightIsNotDeadOnceItJoins() {
        platform.readyAtOnce(false);
        healthyWindow();
        healthyWindow();
        platform.setReadiness(SNORT, Map.of("w2", false));
        healthyWindow();
        assertEquals(LoopDecision.Outcome.IN_PROGRESS, decisions(LoopDecision.Action.REPLACE).get(0).outcome());
        // The platform sees the replacement's pod, not Ready yet, while its create is in flight: told, not judged.
        String name = "r" + platform.created();
        platform.setReadiness(SNORT, Map.of("w2", false, name, false));
        assertEquals(1, decisions(LoopDecision.Action.REPLICA_DEAD).size());
        // Ready: told first, then the create (which waits on the same watch) ends and the replica joins.
        platform.setReadiness(SNORT, Map.of("w2", false, name, true));
        platform.pendingCreates.forEach(f -> f.complete(new ReplicaInfo(name, "worker1", "10.0.0.9")));
        settleCheckingEachPass();
        assertTrue(replica(SNORT, name).carriesTraffic());
        healthyWindow();
        healthyWindow();
        assertEquals(decisions(LoopDecision.Action.REPLICA_DEAD).toString(), 1,
                     decisions(LoopDecision.Action.REPLICA_DEAD).size());
        assertTrue(replica(SNORT, name).carriesTraffic());
        // Its pod goes not Ready: pushed, and it leaves the group at once.
        platform.setReadiness(SNORT, Map.of("w2", false, name, false));
        assertEquals(2, decisions(LoopDecision.Action.REPLICA_DEAD).size());
        assertFalse(replica(SNORT, name).carriesTraffic());
    }

    @Test
    public void losingTheLastReplicaIsChainDownWithAClearReasonUntilTheReplacementIsReady() {
        platform.readyAtOnce(false);
        healthyWindow();
        healthyWindow();
        platform.setReadiness(NDPI, Map.of("r0", false));
        // Pushed: the death and the chain without a segment list are judged at once, before any window.
        ChainState s = state(PaperTestbed.SFC1);
        assertEquals(ChainState.Liveness.DOWN, s.liveness());
        assertEquals("no segment list left: no live replica of vNF 1", s.reason());
        LoopDecision dead = decisions(LoopDecision.Action.REPLICA_DEAD).get(0);
        assertTrue(dead.detail(), dead.detail().contains("it was the last live replica of vNF 1"));
        assertEquals(0, dead.replicasAfter());
        assertEquals(LoopDecision.Outcome.IN_PROGRESS, decisions(LoopDecision.Action.REPLACE).get(0).outcome());
        // The app's Prometheus metrics say the same.
        List<String> text = List.of(prometheus().split("\n"));
        assertTrue(text.contains("srv6int_chain_down{chain=\"1\"} 1"));
        assertTrue(text.contains("srv6int_chain_down{chain=\"2\"} 0"));
        assertTrue(text.contains("srv6int_chain_dead_replicas{chain=\"1\"} 1"));
        assertTrue(text.contains("srv6int_chain_dead_replicas{chain=\"2\"} 0"));
        assertTrue(text.contains("srv6int_global_loop_failures_total{event=\"chain_down\"} 1"));
        assertTrue(text.contains("srv6int_global_loop_failures_total{event=\"replica_death\"} 1"));
        // the reservation sweep's counters too (none to sweep here)
        assertTrue(text.contains("srv6int_global_loop_failures_total{event=\"reservation_given_back\"} 0"));
        // Another instance (not the leader) answers from the store: SFC 1 DOWN, nDPI's r0 dead.
        GlobalLoopManager other = otherInstance();
        try {
            List<ChainState> there = other.chainStates();
            assertEquals(2, there.size());
            assertEquals(ChainState.Liveness.DOWN, there.get(0).liveness());
            assertEquals(s.sinceMillis(), there.get(0).sinceMillis());
            assertEquals(s.reason(), there.get(0).reason());
            assertEquals(s.lastHopSeen(), there.get(0).lastHopSeen());
            assertEquals(List.of("1/1/r0"), there.get(0).deadReplicas());
            assertEquals(ChainState.Liveness.UNKNOWN, there.get(1).liveness());
            assertEquals(List.of(), there.get(1).deadReplicas());
        } finally {
            other.deactivate();
        }
        // The replacement becomes Ready: the chain has a segment list again; reports bring it up.
        platform.pendingCreates.get(0).complete(new ReplicaInfo("r11", "worker2", "10.0.0.11"));
        h.settle();
        assertEquals(1, h.pathManager.getPaths(PaperTestbed.SFC1).orElseThrow().segmentLists().size());
        rebind();
        classify(PaperTestbed.sfc1(), 100);
        reports(PaperTestbed.sfc1(), 5, replica(FWD, "r0"), replica(NDPI, "r11"));
        window();
        assertEquals(ChainState.Liveness.UP, state(PaperTestbed.SFC1).liveness());
        assertTrue(List.of(prometheus().split("\n")).contains("srv6int_chain_down{chain=\"1\"} 0"));
    }

    /** A second ONOS instance of the same cluster (same stores), which does not lead the loop. */
    private GlobalLoopManager otherInstance() {
        ClusterServiceAdapter cluster = new ClusterServiceAdapter() {
            @Override
            public org.onosproject.cluster.ControllerNode getLocalNode() {
                return new org.onosproject.cluster.DefaultControllerNode(new NodeId("other"),
                                                                         IpAddress.valueOf("127.0.0.2"));
            }
        };
        // the leader is ME
        GlobalLoopManager m = new GlobalLoopManager(leadership, cluster, new WindowFeed(), h.sfcs, h.inventory,
                                                    h.config, platform, store, h.pathManager, null, null, null, null,
                                                    null, null);
        m.setClock(clock);
        m.activate();
        return m;
    }

    /** One scrape of the app's Prometheus metrics over this testbed's services and loop. */
    private String prometheus() {
        org.srv6int.app.metrics.AppMetricsManager m =
                new org.srv6int.app.metrics.AppMetricsManager(h.sfcs, h.inventory, manager);
        return m.scrape();
    }

    @Test
    public void aServerPortDownReroutesOverTheRemainingReplicaMakeBeforeBreak() {
        healthyWindow();
        healthyWindow();
        // Worker 1's port on SW2 goes down: Fwd's only replica and Snort's r0 hang off it.
        portsDown.add(new ConnectPoint(PaperTestbed.SW2, PortNumber.portNumber(3)));
        long t0 = System.nanoTime();
        manager.topologyChanged("port of:0000000000000002/3 down");
        int passes = settleCheckingEachPass();
        long rerouteNanos = System.nanoTime() - t0;
        List<String> dead = decisions(LoopDecision.Action.REPLICA_DEAD).stream()
                .map(d -> d.vnf() + " " + d.detail().substring(0, d.detail().indexOf(": ")))
                .collect(Collectors.toList());
        assertTrue(dead.toString(), dead.contains(SNORT + " r0 at of:0000000000000002/3"));
        assertTrue(dead.toString(), dead.contains(FWD + " r0 at of:0000000000000002/3"));
        assertEquals(dead.toString(), 2, dead.size());
        // Worker 1 has more free CPU, but its port is down: both replacements go to Worker 2.
        assertTrue(platform.calls.toString(), platform.calls.contains("create " + FWD + " on worker2"));
        assertTrue(platform.calls.toString(), platform.calls.contains("create " + SNORT + " on worker2"));
        // Snort's traffic now goes to w2 and its replacement, both on Worker 2.
        assertEquals(Set.of(replica(SNORT, "w2").sid(), replica(SNORT, "r12").sid()),
                     groupSids(PaperTestbed.sfc2()));
        LoopDecision reroute = decisions(LoopDecision.Action.REROUTE).stream()
                .filter(d -> d.vnf().sfcId().equals(PaperTestbed.SFC2)).findFirst().orElseThrow();
        assertTrue(reroute.detail(), reroute.detail().startsWith("port of:0000000000000002/3 down: 2 -> 2"));
        System.out.printf("port down -> chain re-routed: %.2f ms wall (%d reconcile passes, fakes for switches)%n",
                          rerouteNanos / 1e6, passes);
        // The port comes back: after the hold, r0 returns on probation and the group uses it again.
        portsDown.clear();
        for (int i = 0; i < 4; i++) {
            healthyWindow();
        }
        settleCheckingEachPass();
        assertTrue(replica(SNORT, "r0").carriesTraffic());
        assertEquals(3, groupSids(PaperTestbed.sfc2()).size());
    }

    @Test
    public void aLinkDownWithABypassReroutesOverTheRemainingPathWithRoutesModifiedInPlace() {
        // The paper's row plus one cable SW1 port 5 - SW3 port 5 (not in the paper: the row has no
        // alternative path).
        h.connect(new ConnectPoint(PaperTestbed.SW1, PortNumber.portNumber(5)),
                  new ConnectPoint(PaperTestbed.SW3, PortNumber.portNumber(5)));
        h.pathManager.invalidate();
        settleCheckingEachPass();
        healthyWindow();
        healthyWindow();
        List<String> before = h.pathManager.getPaths(PaperTestbed.SFC1).orElseThrow().segmentLists().stream()
                .map(l -> l.switchPath().toString()).collect(Collectors.toList());
        h.flowLog.drain();
        // SW1-SW2 goes down: SW2 is still reachable through SW3.
        h.cut(PaperTestbed.SW1, PaperTestbed.SW2);
        h.pathManager.invalidate();
        long t0 = System.nanoTime();
        manager.topologyChanged("link of:0000000000000001/2->of:0000000000000002/1 down");
        int passes = settleCheckingEachPass();
        long rerouteNanos = System.nanoTime() - t0;
        List<String> after = h.pathManager.getPaths(PaperTestbed.SFC1).orElseThrow().segmentLists().stream()
                .map(l -> l.switchPath().toString()).collect(Collectors.toList());
        assertEquals(List.of("[of:0000000000000001, of:0000000000000002, of:0000000000000003, of:0000000000000004]"),
                     before);
        assertEquals(List.of("[of:0000000000000001, of:0000000000000003, of:0000000000000002, of:0000000000000003,"
                             + " of:0000000000000004]"), after);
        List<LoopDecision> reroutes = decisions(LoopDecision.Action.REROUTE);
        assertEquals(reroutes.toString(), 2, reroutes.size());
        assertTrue(reroutes.get(0).detail(), reroutes.get(0).detail()
                .startsWith("link of:0000000000000001/2->of:0000000000000002/1 down: 1 -> 1 segment list(s)"));
        assertTrue(decisions(LoopDecision.Action.CHAIN_DOWN).isEmpty());
        assertTrue(decisions(LoopDecision.Action.REPLICA_DEAD).isEmpty());
        // SW1's routes towards SW2 now leave on port 5, changed in place (a modify): none removed first.
        List<String> log = h.flowLog.drain();
        assertTrue(log.toString(), log.stream().anyMatch(l -> l.startsWith("+ of:0000000000000001 routing.ipv6_routing")
                && l.contains("fc00:0:2:") && l.contains("port=5")));
        assertTrue(log.toString(), log.stream().noneMatch(l -> l.startsWith("- of:0000000000000001 routing.")));
        System.out.printf("link down (bypass left) -> chain re-routed: %.2f ms wall (%d reconcile passes, fakes for"
                          + " switches)%n", rerouteNanos / 1e6, passes);
        healthyWindow();
        assertEquals(ChainState.Liveness.UP, state(PaperTestbed.SFC1).liveness());
    }

    @Test
    public void onosPortAndLinkEventsReachTheDetection() {
        healthyWindow();
        healthyWindow();
        assertEquals(1, deviceListeners.size());
        assertEquals(1, linkListeners.size());
        org.onosproject.net.Device sw3 = new org.onosproject.net.DefaultDevice(
                new org.onosproject.net.provider.ProviderId("test", "srv6int"), PaperTestbed.SW3,
                org.onosproject.net.Device.Type.SWITCH, "bmv2", "1", "1", "1", new org.onlab.packet.ChassisId(3));
        portsDown.add(new ConnectPoint(PaperTestbed.SW3, PortNumber.portNumber(3)));
        org.onosproject.net.device.DeviceEvent e = new org.onosproject.net.device.DeviceEvent(
                org.onosproject.net.device.DeviceEvent.Type.PORT_UPDATED, sw3,
                new DefaultPort(sw3, PortNumber.portNumber(3), false));
        deviceListeners.forEach(l -> l.event(e));
        // Everything behind SW3 port 3 (Worker 2) is dead: nDPI's only replica and Snort's w2.
        List<String> dead = decisions(LoopDecision.Action.REPLICA_DEAD).stream()
                .map(d -> d.vnf() + " " + d.detail().substring(0, d.detail().indexOf(": ")))
                .collect(Collectors.toList());
        assertTrue(dead.toString(), dead.contains(NDPI + " r0 at of:0000000000000003/3"));
        assertTrue(dead.toString(), dead.contains(SNORT + " w2 at of:0000000000000003/3"));
        assertTrue(decisions(LoopDecision.Action.REROUTE).get(0).detail(),
                   decisions(LoopDecision.Action.REROUTE).get(0).detail()
                           .startsWith("port of:0000000000000003/3 down"));
        // A link event is handled the same way (here nothing changes: no REROUTE, no death).
        int before = manager.decisions(100).size();
        org.onosproject.net.Link l = org.onosproject.net.DefaultLink.builder()
                .providerId(new org.onosproject.net.provider.ProviderId("test", "srv6int"))
                .src(new ConnectPoint(PaperTestbed.SW1, PortNumber.portNumber(7)))
                .dst(new ConnectPoint(PaperTestbed.SW4, PortNumber.portNumber(7)))
                .type(org.onosproject.net.Link.Type.DIRECT).state(org.onosproject.net.Link.State.ACTIVE).build();
        linkListeners.forEach(x -> x.event(new org.onosproject.net.link.LinkEvent(
                org.onosproject.net.link.LinkEvent.Type.LINK_REMOVED, l)));
        assertEquals(before, manager.decisions(100).size());
    }

    @Test
    public void aLinkDownOnThePaperTestbedLeavesNoPathAndTheChainsAreDownAtOnce() {
        healthyWindow();
        healthyWindow();
        // SW1-SW4 is a row: without SW2-SW3 no replica combination reaches the egress.
        h.cut(PaperTestbed.SW2, PaperTestbed.SW3);
        h.pathManager.invalidate();
        manager.topologyChanged("link of:0000000000000002/2->of:0000000000000003/1 down");
        for (SfcId c : List.of(PaperTestbed.SFC1, PaperTestbed.SFC2)) {
            ChainState s = state(c);
            assertEquals(ChainState.Liveness.DOWN, s.liveness());
            assertEquals("no segment list left: no replica combination reaches the egress (a link down?)",
                         s.reason());
        }
        List<LoopDecision> reroutes = decisions(LoopDecision.Action.REROUTE);
        assertEquals(2, reroutes.size());
        assertTrue(reroutes.get(0).detail(), reroutes.get(0).detail()
                .startsWith("link of:0000000000000002/2->of:0000000000000003/1 down: 1 -> 0 segment list(s)"));
        // No replica is blamed for a link.
        assertTrue(decisions(LoopDecision.Action.REPLICA_DEAD).isEmpty());
    }
}
