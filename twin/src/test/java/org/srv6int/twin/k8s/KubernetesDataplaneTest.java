// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.k8s;

import org.srv6int.app.testing.KubernetesTestEnv.LeaderHere;
import org.srv6int.app.testing.KubernetesTestEnv.WindowClock;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.config.NetworkConfigServiceAdapter;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.k8s.KubernetesReplicaPlatformManager;
import org.srv6int.app.assembly.LoopAssembly;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.telemetry.CollectorBindings;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.telemetry.TelemetryShards;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.FakeConfigService;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.Rules;
import org.srv6int.app.testing.WindowFeed;
import org.srv6int.codec.DecodeStatus;
import org.srv6int.codec.IntReportView;
import org.srv6int.k8s.bridge.ReplicaNames;
import org.srv6int.testkit.InMemoryStorageService;
import org.srv6int.twin.control.PathTracer;
import org.srv6int.twin.dataplane.Dataplane;
import org.srv6int.twin.dataplane.EmulatedDataplane;

/**
 * The test that crosses every joint (issue 15): the app's real chain, inventory, path,
 * programming and loop managers (ONOS services as the testkit's in-memory adapters), the real
 * Kubernetes platform component with the real bridge against the real kube-apiserver + KWOK
 * (tools/k8s-testenv), and emulated switches that execute the flow rules the app installs.
 *
 * <p>SFC 2's flows enter SW1; a frame leaving a switch at a server port is handed to the vNF
 * endpoint wired there for its IPv6 destination, which plays Snort and sends it back after a
 * latency that grows with the packets it got in the window (over {@value #CAPACITY} it is
 * overloaded); the switches' INT reports go to the app's collector, whose windows drive the
 * loop. The wiring of a replica (switch, port, SID) is read from its pod's annotations on the
 * API server, not from the app's inventory: the identity on the pod is what gets it traffic.
 * Only the initial Snort (r0, a process of the fixture, no pod) is wired from the fixture.
 *
 * <p>Worker 1 is nearly full with another tenant's pod, so the new replica goes to Worker 2,
 * behind SW3, where its INT entries are its own (replicas of one vNF behind one switch share INT
 * counts, docs/collector.md).
 */
public class KubernetesDataplaneTest {
    private static final String T = "KubernetesDataplaneTest: ";
    private static final String NS = "srv6int-sfc";
    private static final long SEC = 1_000_000_000L;
    private static final Duration DELAY = Duration.ofSeconds(1);
    private static final VnfKey SNORT = VnfKey.of(PaperTestbed.SFC2, 0);
    private static final String CHAIN = PaperTestbed.SFC2.toString();
    private static final PortNumber COLLECTOR_PORT = PortNumber.portNumber(10);
    /**
     * SFC 2's flows, their packets interleaved; prime, so that sampling one packet in ten (the
     * chain's INT rate) reaches every flow each window when each sends at least ten: the
     * collector's rate (Port_Counter deltas per flow) then sees all of them.
     */
    private static final int FLOWS = 23;
    /** Packets per flow and window: within r0's capacity, over it, and low enough to scale in. */
    private static final int HEALTHY = 22;
    private static final int OVERLOAD = 40;
    private static final int LOW = 11;
    /** Packets one Snort serves in a window within its bound; more and it is overloaded. */
    private static final int CAPACITY = 600;
    /** Another tenant's pod that leaves Worker 1 less CPU than a Snort replica requests. */
    private static final String TENANT = "other-tenant";
    private static final int ETH = 14;
    private static RealKubernetes k8s;

    /** What one window of traffic did. */
    private static final class Window {
        final Map<String, Integer> served = new TreeMap<>();
        final Map<Integer, Integer> reportsByHop1Device = new TreeMap<>();
        int sent;
        int delivered;
        int unwired;
        int stray;
        TelemetrySnapshot snapshot;

        int served(String endpoint) {
            return served.getOrDefault(endpoint, 0);
        }

        @Override
        public String toString() {
            return "sent " + sent + ", delivered " + delivered + ", served " + served + ", unwired " + unwired
                    + ", stray " + stray + ", INT reports by hop-1 Device_ID " + reportsByHop1Device;
        }
    }

    /** A frame handed to a vNF endpoint, to be sent back. */
    private static final class Departure {
        final String endpoint;
        final ConnectPoint at;
        final byte[] frame;
        final long sentNanos;

        Departure(String endpoint, ConnectPoint at, byte[] frame, long sentNanos) {
            this.endpoint = endpoint;
            this.at = at;
            this.frame = frame;
            this.sentNanos = sentNanos;
        }
    }

    private final WindowClock clock = new WindowClock(100 * SEC);
    private final WindowFeed feed = new WindowFeed();
    private final TelemetryShards collector = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT,
                                                                  () -> clock.nanos);
    private final CollectorBindings bindings = new CollectorBindings();
    private final IntReportView report = new IntReportView();
    private AppHarness app;
    private KubernetesReplicaPlatformManager platform;
    private GlobalLoopManager loop;
    private LoopAssembly assembly;
    private LoopStateStore loopState;
    private KubernetesClient admin;
    private EmulatedDataplane switches;

    @BeforeClass
    public static void startControlPlane() throws Exception {
        k8s = TestControlPlane.start("KubernetesDataplaneTest", DELAY);
    }

    @AfterClass
    public static void stopControlPlane() {
        if (k8s != null) {
            k8s.close();
        }
    }

    @Before
    public void setUp() throws Exception {
        admin = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(k8s.adminKubeconfig().toFile()))
                .withHttpClientFactory(new VertxHttpClientFactory()).build();
        deleteChainObjects();
        deleteTenant();
        admin.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(TENANT)
                .endMetadata().withNewSpec().withNodeName("worker1")
                // srv6int-sfc enforces Pod Security restricted
                .withNewSecurityContext().withRunAsNonRoot(true).withNewSeccompProfile().withType("RuntimeDefault")
                .endSeccompProfile().endSecurityContext()
                .addNewContainer().withName("app").withImage("registry.local/other:1")
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withNewCapabilities().withDrop("ALL")
                .endCapabilities().endSecurityContext().withNewResources()
                .addToRequests("cpu", new Quantity((RealKubernetes.NODE_CPU_MILLIS - 500) + "m"))
                .endResources().endContainer().endSpec().build()).create();

        app = new AppHarness();
        app.deployFig5();
        app.settle();
        Srv6IntAppConfig cfg = appConfig("{\"kubernetes\": {\"kubeconfig\": \""
                + k8s.bridgeKubeconfig().toAbsolutePath() + "\", \"namespace\": \"" + NS + "\","
                + " \"readyTimeoutMs\": 60000, \"vnfTypes\": {\"snort\": {\"image\": \"registry.local/snort:2.9\","
                + " \"requests\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}, \"limits\": {\"cpu\": \"1\","
                + " \"memory\": \"1Gi\"}}}}}");
        app.config.app = cfg; // the loop and the platform read the harness's config
        FakeConfigService config = app.config;
        platform = new KubernetesReplicaPlatformManager(new NetworkConfigServiceAdapter(), config, app.sfcs,
                                                        new InMemoryStorageService(), app.inventory, null);
        platform.activate();
        loopState = app.app.loopState();
        assembly = LoopAssembly.over(app.app).cluster(new LeaderHere(), new ClusterServiceAdapter())
                .windows(feed).platform(platform).clock(clock).build();
        loop = assembly.loop();
        switches = new EmulatedDataplane(PaperTestbed.links());
    }

    @After
    public void tearDown() throws Exception {
        if (assembly != null) {
            assembly.stop();
        }
        if (platform != null) {
            platform.deactivate();
        }
        if (admin != null) {
            deleteChainObjects();
            deleteTenant();
            admin.close();
        }
    }

    /** The app's netcfg section from JSON, validated as netcfg validates it. */
    // the paper testbed's app config (the harness's) with the given sections over it
    private static Srv6IntAppConfig appConfig(String json) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode app = (ObjectNode) PaperTestbed.netcfg().path("apps").path(Srv6IntConfigService.APP_NAME)
                .path(Srv6IntAppConfig.KEY).deepCopy();
        app.setAll((ObjectNode) mapper.readTree(json));
        Srv6IntAppConfig c = new Srv6IntAppConfig();
        c.init(new DefaultApplicationId(1, Srv6IntConfigService.APP_NAME), Srv6IntAppConfig.KEY, app, mapper,
               x -> { });
        c.validate();
        return c;
    }

    private void deleteChainObjects() {
        admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).delete();
    }

    private void deleteTenant() throws InterruptedException {
        admin.pods().inNamespace(NS).withName(TENANT).withGracePeriod(0).delete();
        waitUntil("the other tenant's pod is gone", 60, ()
                -> admin.pods().inNamespace(NS).withName(TENANT).get() == null);
    }

    private static void waitUntil(String what, long seconds, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * SEC;
        while (!done.getAsBoolean()) {
            assertTrue("not within " + seconds + " s: " + what, System.nanoTime() < deadline);
            Thread.sleep(50);
        }
    }

    private List<Pod> ourPods() {
        return admin.pods().inNamespace(NS).withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER).list()
                .getItems();
    }

    private static boolean ready(Pod p) {
        return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /**
     * The hosts' wiring: at each switch port, which vNF endpoint gets a frame for which SID. A
     * replica pod is wired where its annotations on the API server say, once it is Ready; the
     * initial replicas (processes of the fixture, no pods) where the fixture says.
     */
    private Map<ConnectPoint, Map<Ip6Address, String>> wiring() {
        Map<ConnectPoint, Map<Ip6Address, String>> m = new HashMap<>();
        for (VnfReplica r : PaperTestbed.initialReplicas()) {
            m.computeIfAbsent(new ConnectPoint(r.deviceId(), r.port()), k -> new HashMap<>()).put(r.sid(),
                                                                                                  r.id().name());
        }
        for (Pod p : ourPods()) {
            Map<String, String> a = p.getMetadata().getAnnotations();
            if (!ready(p) || a == null || !a.containsKey(ReplicaNames.ANNOTATION_SID)) {
                continue;
            }
            ConnectPoint at = new ConnectPoint(DeviceId.deviceId(a.get(ReplicaNames.ANNOTATION_SWITCH_DEVICE)),
                    PortNumber.portNumber(Long.parseLong(a.get(ReplicaNames.ANNOTATION_SWITCH_PORT))));
            m.computeIfAbsent(at, k -> new HashMap<>()).put(Ip6Address.valueOf(a.get(ReplicaNames.ANNOTATION_SID)),
                                                            p.getMetadata().getName());
        }
        return m;
    }

    /** Installs the app's current rules and groups, gives them to the switches, binds the collector. */
    private void program() {
        app.settle();
        for (DeviceId d : PaperTestbed.SWITCHES) {
            List<FlowRule> rules = new ArrayList<>();
            app.flows.getFlowEntries(d).forEach(rules::add);
            List<Group> groups = new ArrayList<>();
            app.groups.getGroups(d).forEach(groups::add);
            switches.program(d, rules, groups);
        }
        // As the app's TelemetryManager binds: reporters from netcfg, hops from the segment lists.
        bindings.apply(collector, app.config.devices(), d -> false, app.pathManager.getAllPaths().values(),
                       app.inventory::getReplica);
    }

    /** A Snort's latency for the packets it got in a window: within the bound up to its capacity. */
    private static long latencyNanos(int packets) {
        return packets > CAPACITY ? 3 * PaperTestbed.LMAX : 100_000 + 500L * packets;
    }

    /**
     * One second of SFC 2's traffic: {@code perFlow} packets of each of its {@value #FLOWS} flows
     * (interleaved) through the switches and the wired vNF endpoints; INT reports into the
     * collector, whose window goes to the loop.
     */
    private Window window(int perFlow) {
        app.nowMs.addAndGet(1000);
        program();
        Map<ConnectPoint, Map<Ip6Address, String>> wiring = wiring();
        Sfc sfc = app.sfcs.getSfc(PaperTestbed.SFC2).orElseThrow();
        Window w = new Window();
        List<Departure> out = new ArrayList<>();
        long t0 = clock.nanos;
        for (int i = 0; i < perFlow * FLOWS; i++) {
            long t = t0 + 1000L * i;
            w.sent++;
            for (Dataplane.Frame fr : switches.inject(sfc.ingress().deviceId(), sfc.ingress().port(),
                                                      PathTracer.probe(sfc, app.config.devices(), i % FLOWS), t)) {
                route(sfc, fr, wiring, w, out, t);
            }
        }
        // Each endpoint serves what it got; its latency follows its load.
        for (Departure d : out) {
            w.served.merge(d.endpoint, 1, Integer::sum);
        }
        for (Departure d : out) {
            long back = d.sentNanos + latencyNanos(w.served(d.endpoint));
            for (Dataplane.Frame fr : switches.inject(d.at.deviceId(), d.at.port(), d.frame, back)) {
                route(sfc, fr, wiring, w, null, back);
            }
        }
        clock.nanos += SEC;
        w.snapshot = collector.roll();
        feed.push(w.snapshot);
        return w;
    }

    private void route(Sfc sfc, Dataplane.Frame fr, Map<ConnectPoint, Map<Ip6Address, String>> wiring, Window w,
                       List<Departure> toVnfs, long nowNanos) {
        ConnectPoint at = new ConnectPoint(fr.device(), fr.port());
        byte[] b = fr.bytes();
        if (at.equals(sfc.egress())) {
            w.delivered++;
        } else if (fr.device().equals(PaperTestbed.SW4) && fr.port().equals(COLLECTOR_PORT)) {
            collect(b, w);
        } else if (toVnfs != null && wiring.containsKey(at)) {
            String endpoint = b.length >= ETH + 40 && (b[12] & 0xFF) == 0x86 && (b[13] & 0xFF) == 0xDD
                    ? wiring.get(at).get(Ip6Address.valueOf(Arrays.copyOfRange(b, ETH + 24, ETH + 40))) : null;
            if (endpoint == null) {
                w.unwired++; // sent to a SID nothing is wired to on that port: lost
            } else {
                toVnfs.add(new Departure(endpoint, at, b, nowNanos));
            }
        } else {
            w.stray++;
        }
    }

    /** An INT report: to the app's collector as its UDP payload from the report's source address. */
    private void collect(byte[] frame, Window w) {
        assertEquals(DecodeStatus.OK, report.wrapFrame(frame, 0, frame.length));
        w.reportsByHop1Device.merge(report.packet().intDeviceId(1), 1, Integer::sum);
        int payload = report.headerOffset();
        collector.shard(0).onReport(frame, payload, frame.length - payload, (int) report.ipv4Src());
    }

    private List<String> rules() {
        app.settle();
        return app.flows.entries().stream().map(Rules::describe).collect(Collectors.toList());
    }

    /** SFC 2's bucket-table entries (srv6_encap entries of its chain id on SW1). */
    private List<String> sfc2Buckets() {
        return rules().stream().filter(l -> l.contains("encap.srv6_encap") && l.matches(".*chain_id=2[ ,].*"))
                .collect(Collectors.toList());
    }

    private static boolean names(String entry, Ip6Address sid) {
        return entry.contains("=" + sid + ",") || entry.contains("=" + sid + ")");
    }

    private VnfReplica replica(String name) {
        return app.inventory.getReplicas(SNORT).stream().filter(r -> r.id().name().equals(name)).findFirst()
                .orElse(null);
    }

    private static void say(String line) {
        System.out.println(T + line);
    }

    @Test
    public void trafficReachesANewReplicaThroughItsPodsIdentityAndNothingIsLeft() throws Exception {
        // Healthy: r0 serves 506 packets a second within its bound (the loop learns C*).
        Window w = null;
        for (int i = 0; i < 4; i++) {
            w = window(HEALTHY);
        }
        assertEquals(w.toString(), w.sent, w.delivered);
        assertEquals(w.toString(), Map.of("r0", w.sent), w.served);
        say("healthy: " + w);

        // Overloaded: 920 packets a second, r0 over its bound; past t-hat the loop scales out
        // through the platform component and the bridge; traffic goes on meanwhile.
        long deadline = System.nanoTime() + 120 * SEC;
        LoopDecision out = null;
        while (out == null) {
            assertTrue("no scale-out done within 120 s: " + loop.decisions(5), System.nanoTime() < deadline);
            w = window(OVERLOAD);
            assertEquals("every packet reaches the egress while the replica starts: " + w, w.sent, w.delivered);
            out = loop.decisions(10).stream().filter(d -> d.action() == LoopDecision.Action.SCALE_OUT
                    && d.outcome() != LoopDecision.Outcome.IN_PROGRESS).findFirst().orElse(null);
            Thread.sleep(100);
        }
        say(out.action() + " " + out.outcome() + ": " + out.detail());
        assertEquals(out.detail(), LoopDecision.Outcome.SUCCEEDED, out.outcome());
        List<VnfReplica> added = app.inventory.getReplicas(SNORT).stream()
                .filter(r -> r.id().name().startsWith("sfc-")).collect(Collectors.toList());
        assertEquals("one replica more (C_i / C* = 2): " + added, 1, added.size());
        VnfReplica r1 = added.get(0);
        assertEquals(ReplicaState.ACTIVE, r1.state());
        assertEquals(1, r1.weight());

        // Its pod, on an attached node with room (Worker 2), carries its identity.
        Pod pod = admin.pods().inNamespace(NS).withName(ReplicaNames.podName(r1.id().name())).get();
        assertNotNull("pod of " + r1.id(), pod);
        assertEquals("worker2", pod.getSpec().getNodeName());
        assertEquals(r1.node(), pod.getSpec().getNodeName());
        Map<String, String> labels = pod.getMetadata().getLabels();
        assertEquals(CHAIN, labels.get(ReplicaNames.LABEL_CHAIN));
        assertEquals("0", labels.get(ReplicaNames.LABEL_VNF));
        assertEquals("snort", labels.get(ReplicaNames.LABEL_VNF_TYPE));
        assertEquals(ReplicaNames.MANAGER, labels.get(ReplicaNames.LABEL_MANAGED_BY));
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        assertEquals(r1.sid().toString(), annotations.get(ReplicaNames.ANNOTATION_SID));
        assertEquals(PaperTestbed.SW3.toString(), annotations.get(ReplicaNames.ANNOTATION_SWITCH_DEVICE));
        assertEquals("3", annotations.get(ReplicaNames.ANNOTATION_SWITCH_PORT));
        say("pod " + pod.getMetadata().getName() + " on " + pod.getSpec().getNodeName() + ", labels "
                + new TreeMap<>(labels) + ", annotations " + new TreeMap<>(annotations));

        // SW3 has the my_sid entry of its SID; the bucket table maps buckets to it by weight.
        String sidRule = PaperTestbed.SW3 + " endpoint.my_sid ipv6_dst=" + r1.sid() + "/128";
        assertTrue(sidRule, rules().stream().anyMatch(l -> l.startsWith(sidRule)));
        List<String> buckets = sfc2Buckets();
        long toR1 = buckets.stream().filter(l -> names(l, r1.sid())).count();
        VnfReplica r0 = replica("r0");
        long toR0 = buckets.stream().filter(l -> names(l, r0.sid())).count();
        assertEquals("every bucket maps to r0 or r1:\n" + String.join("\n", buckets), buckets.size(), toR0 + toR1);
        assertEquals("buckets in proportion to the weights (" + r0.weight() + ":" + r1.weight() + ")",
                     buckets.size() * r1.weight() / (r0.weight() + r1.weight()), toR1);
        say("bucket table of SFC 2: " + toR0 + " buckets to r0 " + r0.sid() + ", " + toR1 + " to "
                + r1.id().name() + " " + r1.sid());

        // Traffic reaches the new replica through its pod's wiring, about in its buckets' share;
        // SW3 reports its INT hop and the collector counts its packets as the replica's.
        String podName = pod.getMetadata().getName();
        w = window(OVERLOAD);
        say("split: " + w);
        assertEquals(w.toString(), w.sent, w.delivered);
        assertEquals(w.toString(), 0, w.unwired + w.stray);
        // Each flow keeps one replica: its share is a binomial over the flows, within 3 sigma.
        double share = w.served(podName) / (double) w.sent;
        double p = toR1 / (double) buckets.size();
        assertTrue("share of the new replica " + share + " (buckets " + toR1 + "/" + buckets.size() + "): " + w,
                   Math.abs(share - p) <= 3 * Math.sqrt(p * (1 - p) / FLOWS));
        assertEquals(w.toString(), w.sent, w.served("r0") + w.served(podName));
        assertTrue("INT reports with SW3 (Device_ID 3) at the vNF hop: " + w,
                   w.reportsByHop1Device.getOrDefault(3, 0) > 0);
        // Port_Counter deltas need a first report of each flow at SW3: a few windows.
        Map<String, Long> counted = new TreeMap<>();
        long p95 = 0;
        for (int i = 0; i < 3; i++) {
            w = window(OVERLOAD);
            assertEquals(w.toString(), w.sent, w.delivered);
            VnfWindow snort = w.snapshot.vnfs().stream().filter(v -> v.vnf().equals(SNORT)).findFirst()
                    .orElseThrow();
            snort.replicaPackets().forEach((k, v) -> counted.merge(k, v, Long::sum));
            p95 = Math.max(p95, snort.p95Nanos());
        }
        assertTrue("the collector counts packets of " + r1.id().name() + ": " + counted,
                   counted.getOrDefault(r1.id().name(), 0L) > 0);
        assertTrue("Snort back within its bound: p95 " + p95 + " ns", p95 <= PaperTestbed.LMAX);
        say("collector, 3 windows of Snort: packets by replica (Port_Counter deltas) " + counted + ", p95 at most "
                + p95 / 1000 + " us");

        // Load falls: the loop drains the newest replica (out of the bucket table, no more traffic
        // reaches it), then deletes its workload once its Port_Counter is quiet.
        deadline = System.nanoTime() + 240 * SEC;
        boolean sawOutOfBuckets = false;
        while (replica(r1.id().name()) != null) {
            assertTrue("scale-in not done within 240 s: " + loop.decisions(5) + "; " + loop.status() + "; "
                    + loopState.records() + "; " + app.inventory.getReplicas(SNORT) + "; last window " + w,
                    System.nanoTime() < deadline);
            w = window(LOW);
            assertEquals(w.toString(), w.sent, w.delivered);
            assertEquals(w.toString(), 0, w.unwired + w.stray);
            VnfReplica now = replica(r1.id().name());
            if (now != null && now.state() == ReplicaState.DRAINING
                    && sfc2Buckets().stream().noneMatch(l -> names(l, r1.sid()))) {
                if (!sawOutOfBuckets) {
                    say("drained " + r1.id().name() + ": out of the bucket table (" + w + ")");
                }
                sawOutOfBuckets = true;
                // The switches got that table with the last window: nothing reaches the pod now.
                Window next = window(LOW);
                assertEquals("traffic to a replica out of the bucket table: " + next, 0, next.served(podName));
            }
            Thread.sleep(20);
        }
        assertTrue("the replica left the bucket table before it went", sawOutOfBuckets);
        loop.decisions(10).stream().filter(d -> d.action() == LoopDecision.Action.SCALE_IN).forEach(
                d -> say(d.action() + " " + d.outcome() + ": " + d.detail()));
        assertTrue(loop.decisions(10).stream().anyMatch(d -> d.action() == LoopDecision.Action.SCALE_IN
                && d.outcome() == LoopDecision.Outcome.SUCCEEDED && d.detail().contains(r1.id().name())));
        assertFalse(sfc2Buckets().stream().anyMatch(l -> names(l, r1.sid())));
        waitUntil("the drained replica's StatefulSet and pod are gone", 60, () ->
                admin.apps().statefulSets().inNamespace(NS).withName(r1.id().name()).get() == null
                        && admin.pods().inNamespace(NS).withName(podName).get() == null);
        w = window(LOW);
        assertEquals(w.toString(), Map.of("r0", w.sent), w.served);

        // Deleting the chain deletes every workload of it: nothing labelled ours is left.
        app.sfcs.removeSfc(PaperTestbed.SFC2);
        waitUntil("nothing labelled " + ReplicaNames.LABEL_MANAGED_BY + "=" + ReplicaNames.MANAGER
                + " left in the cluster", 60, () -> admin.apps().statefulSets().inAnyNamespace()
                .withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER).list().getItems().isEmpty()
                && admin.pods().inAnyNamespace().withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER)
                        .list().getItems().isEmpty()
                && admin.apps().controllerRevisions().inAnyNamespace().withLabel(ReplicaNames.LABEL_CHAIN, CHAIN)
                        .list().getItems().isEmpty());
        for (LoopDecision d : loop.decisions(50)) {
            say("decision " + d.action() + " " + d.outcome() + " replicas " + d.replicasBefore() + " -> "
                    + d.replicasAfter() + ": " + d.detail());
        }
        say(String.format(Locale.ROOT, "chain %s removed: no StatefulSet, pod or ControllerRevision of ours left",
                          CHAIN));
    }
}
