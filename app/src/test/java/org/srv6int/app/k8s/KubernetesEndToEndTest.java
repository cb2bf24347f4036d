// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.k8s;

import org.srv6int.app.testing.KubernetesTestEnv;
import org.srv6int.app.testing.KubernetesTestEnv.LeaderHere;
import org.srv6int.app.testing.KubernetesTestEnv.WindowClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.assembly.LoopAssembly;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.testing.TestReports;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.TelemetryWindows;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.WindowFeed;
import org.srv6int.app.testing.FakeConfigService;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.Rules;
import org.srv6int.k8s.bridge.ReplicaNames;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The global loop across every joint it has outside the twin: the app's real managers (chains,
 * inventory, paths, flow programming, loop; ONOS services as in-memory stand-ins) and the real
 * Kubernetes platform component with the real bridge against the real kube-apiserver + KWOK
 * (tools/k8s-testenv, started by tests/ci.d/30-k8s.sh). A vNF driven over its bound past t-hat
 * gets replica pods on attached nodes carrying their identity; the switch gets each replica's SID
 * entry and the chain's group includes it; low latency then drains one, takes it out of the group
 * and deletes its workload; deleting the chain leaves nothing of ours in the cluster.
 * Runs when {@code srv6int.kubeconfig} names the bridge's kubeconfig; skipped (printing why)
 * otherwise, and 30-k8s counts a skip as a failure.
 */
public class KubernetesEndToEndTest {

    private static final long SEC = 1_000_000_000L;
    private static final String NS = "srv6int-sfc";
    private static final VnfKey SNORT = VnfKey.of(PaperTestbed.SFC2, 0);
    private static final String CHAIN = PaperTestbed.SFC2.toString();

    /** The bucket table as the switches held it when the loop asked the platform to delete each replica. */
    private final Map<String, String> bucketsAtDelete = new ConcurrentHashMap<>();

    /**
     * The real platform, passed through; it notes the switches' bucket table (read as it is, no
     * reconcile pass) at the moment the loop asks for a replica's deletion.
     */
    private org.srv6int.app.api.ReplicaPlatform deleteWitness(org.srv6int.app.api.ReplicaPlatform real) {
        return (org.srv6int.app.api.ReplicaPlatform) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {org.srv6int.app.api.ReplicaPlatform.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("deleteReplica")) {
                        bucketsAtDelete.put((String) args[1], installedBuckets());
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private final WindowClock clock = new WindowClock(0);
    private final WindowFeed feed = new WindowFeed();
    private final TestReports reports = new TestReports(2, 4, 3);
    private AppHarness app;
    private TelemetryEngine engine;
    private KubernetesReplicaPlatformManager platform;
    private GlobalLoopManager loop;
    private LoopAssembly assembly;
    private KubernetesClient admin;
    private long seq;
    private int counter;

    @Before
    public void setUp() throws Exception {
        File bridgeKubeconfig = KubernetesTestEnv.bridgeKubeconfigOrSkip("KubernetesEndToEndTest");
        admin = KubernetesTestEnv.admin(bridgeKubeconfig);
        KubernetesTestEnv.apply(admin, "../k8s-bridge/deploy/bridge-rbac.yaml");
        deleteChainObjects(); // leftovers of an interrupted run or of another test's chain 2

        app = new AppHarness();
        app.deployFig5();
        app.settle();
        // INT reaches the loop through r0's hop only (no emulated data plane splits the traffic over
        // the replicas), so the INT-silence rule for replicas is off here; pod readiness still applies.
        Srv6IntAppConfig cfg = KubernetesMock.testbedAppConfig("{\"loop\": {\"demandLatency\": \"measured\","
                + " \"replicaSilenceMs\": 0},"
                + " \"kubernetes\": {\"kubeconfig\": \"" + bridgeKubeconfig + "\", \"namespace\": \"" + NS + "\","
                + " \"readyTimeoutMs\": 60000, \"vnfTypes\": {\"snort\": {\"image\": \"registry.local/snort:2.9\","
                + " \"requests\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}, \"limits\": {\"cpu\": \"1\","
                + " \"memory\": \"1Gi\"}}}}}");
        app.config.app = cfg; // the loop, the platform and the chains read the harness's config
        FakeConfigService config = app.config;
        platform = KubernetesMock.platform(app.sfcs, config, new KubernetesMock.Netcfg(), app.inventory, app.flows);

        engine = new TelemetryEngine(TelemetryEngine.Limits.DEFAULT, () -> clock.nanos);
        engine.setReporters(Map.of(0x7F000001, 4));
        engine.setBindings(List.of(new HopBinding(2, 1, 2, SNORT, "r0")));
        TelemetryWindows windows = feed;
        assembly = LoopAssembly.over(app.app).cluster(new LeaderHere(), new ClusterServiceAdapter())
                .windows(windows).platform(deleteWitness(platform)).clock(clock).build();
        loop = assembly.loop();
    }

    @After
    public void tearDown() {
        if (assembly != null) {
            assembly.stop();
        }
        if (platform != null) {
            KubernetesMock.stop(platform);
        }
        if (admin != null) {
            deleteChainObjects();
            admin.close();
        }
    }

    private void deleteChainObjects() {
        admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).delete();
    }

    /** One telemetry window of 100 reports at the given Snort latency, then the window closes. */
    private void window(long latency) {
        for (int i = 0; i < 100; i++) {
            counter = (counter + 10) & 0xFFFF;
            byte[] p = reports.payload(seq++, new TestReports.Hop(1, 0, 0, 0, counter),
                                       new TestReports.Hop(2, 0, 1000 + latency, latency, counter),
                                       new TestReports.Hop(4, 0, 9000 + latency, 0, counter));
            assertTrue(engine.onReport(p, 0, p.length, 0x7F000001));
        }
        clock.nanos += SEC;
        TelemetrySnapshot s = engine.roll();
        feed.push(s);
    }

    private static void waitUntil(String what, long seconds, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * SEC;
        while (!done.getAsBoolean()) {
            assertTrue("not within " + seconds + " s: " + what, System.nanoTime() < deadline);
            Thread.sleep(50);
        }
    }

    private LoopDecision latest() {
        return loop.decisions(1).get(0);
    }

    private List<VnfReplica> bridgeReplicas() {
        return app.inventory.getReplicas(SNORT).stream().filter(r -> r.id().name().startsWith("sfc-"))
                .collect(Collectors.toList());
    }

    private List<Pod> pods() {
        return admin.pods().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).list().getItems();
    }

    private List<String> rules() {
        app.settle();
        return app.flows.entries().stream().map(Rules::describe).collect(Collectors.toList());
    }

    /** Whether a segment of some bucket entry is this SID (a whole parameter, not a prefix). */
    private boolean inBuckets(String sid) {
        return holds(bucketEntries(), sid);
    }

    private static boolean holds(String buckets, String sid) {
        return buckets.contains("=" + sid + ",") || buckets.contains("=" + sid + ")");
    }

    /** The chains' bucket tables (encap entries) after the programming caught up, one line per entry. */
    private String bucketEntries() {
        app.settle();
        return installedBuckets();
    }

    /** The chains' bucket tables as the switches hold them now, one line per entry. */
    private String installedBuckets() {
        return app.flows.entries().stream().map(Rules::describe).filter(l -> l.contains("encap.srv6_encap"))
                .collect(Collectors.joining("\n"));
    }

    /**
     * Windows of low Snort latency until {@code done}: the loop drains {@code victim} after its
     * scale-in hold; the programming runs after each window on the window's clock (as ONOS runs it
     * on the inventory's events and every second while buckets wait); the victim's buckets count
     * packets (as the switch counts them) in the first {@code busy} windows of its drain, then stop.
     *
     * @return windows of the drain its buckets were busy
     */
    private int lowLoadUntil(VnfReplica victim, int busy, BooleanSupplier done) throws InterruptedException {
        String sid = victim.sid().toString();
        long deadline = System.nanoTime() + 120 * SEC;
        int busyWindows = 0;
        while (!done.getAsBoolean()) {
            assertTrue("not done within 120 s: " + loop.decisions(3), System.nanoTime() < deadline);
            window(200_000);
            boolean draining = app.inventory.getReplica(victim.id())
                    .map(r -> r.state() == ReplicaState.DRAINING).orElse(false);
            if (draining && busyWindows < busy) {
                long packets = 100L * ++busyWindows;
                assertTrue(app.flows.setPackets(e -> {
                    String d = Rules.describe(e);
                    return d.contains("encap.srv6_encap") && holds(d, sid);
                }, packets) > 0);
            }
            app.nowMs.addAndGet(1000);
            app.settle();
            Thread.sleep(20);
        }
        return busyWindows;
    }

    /**
     * A replica draining for a scale-in whose pod is deleted on the API server while its buckets
     * still carry flows: the drain by flows would hold those buckets until the flows end; the death
     * moves them at the next programming pass instead, the replica leaves the inventory and its
     * workload goes, and nothing replaces it.
     */
    @Test
    public void aDrainingReplicaWhosePodDiesLeavesTheBucketsAtOnce() throws Exception {
        scaleOut();
        List<VnfReplica> added = bridgeReplicas();
        VnfReplica victim = added.get(added.size() - 1);
        lowLoadUntil(victim, Integer.MAX_VALUE, () -> app.inventory.getReplica(victim.id())
                .map(r -> r.state() == ReplicaState.DRAINING).orElse(false));
        assertTrue("held for its flows:\n" + bucketEntries(), inBuckets(victim.sid().toString()));
        Pod pod = admin.pods().inNamespace(NS).withName(ReplicaNames.podName(victim.id().name())).get();
        long t0 = System.nanoTime();
        admin.pods().inNamespace(NS).resource(pod).withGracePeriod(0).delete();
        waitUntil("the loop judges the draining " + victim.id() + " dead", 30, () -> loop.decisions(100).stream()
                .anyMatch(d -> d.action() == LoopDecision.Action.REPLICA_DEAD && d.detail().contains(
                        victim.id().name() + " at ") && d.detail().contains("it was draining for a scale-in")));
        System.out.printf("KubernetesEndToEndTest: draining replica's pod deleted -> REPLICA_DEAD %.1f ms%n",
                          (System.nanoTime() - t0) / 1e6);
        assertFalse("out of the inventory at once", app.inventory.getReplica(victim.id()).isPresent());
        // The programming's clock stands still: only the death moves the buckets.
        assertFalse("a dead draining replica's buckets move at the next pass:\n" + bucketEntries(),
                    inBuckets(victim.sid().toString()));
        waitUntil("its workload is gone", 30, () -> admin.apps().statefulSets().inNamespace(NS)
                .withName(victim.id().name()).get() == null);
        assertTrue(loop.decisions(100).toString(), loop.decisions(100).stream().noneMatch(
                d -> d.action() == LoopDecision.Action.REPLACE));
        assertTrue(loop.decisions(100).toString(), loop.decisions(100).stream().anyMatch(
                d -> d.action() == LoopDecision.Action.SCALE_IN && d.outcome() == LoopDecision.Outcome.SUCCEEDED
                        && d.detail().contains("died while draining") && d.detail().contains(victim.id().name())));
    }

    /** Snort over its bound past t-hat: the loop scales out; returns its decision. */
    private LoopDecision scaleOut() throws InterruptedException {
        window(400_000);
        for (int i = 0; i < 6; i++) {
            window(3 * PaperTestbed.LMAX);
        }
        waitUntil("the scale-out decision is done", 120, () -> !loop.decisions(1).isEmpty()
                && latest().outcome() != LoopDecision.Outcome.IN_PROGRESS);
        LoopDecision out = latest();
        assertEquals(out.detail(), LoopDecision.Action.SCALE_OUT, out.action());
        assertEquals(out.detail(), LoopDecision.Outcome.SUCCEEDED, out.outcome());
        return out;
    }

    /**
     * A replica's pod turned not Ready on the API server (its status written as the kubelet does):
     * the bridge's watch pushes it and the loop takes the replica out of the group at once, with no
     * telemetry window in between (before session 8: at the next readiness poll, up to 1 s); the
     * next programming pass moves its buckets without a drain wait.
     */
    @Test
    public void aPodTurningNotReadyOnTheApiServerIsAReplicaDeathWithoutWaitingForAWindow() throws Exception {
        diesWithoutAWindow("pod status not Ready written", pod -> {
            pod.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType()))
                    .forEach(c -> c.setStatus("False"));
            admin.pods().inNamespace(NS).resource(pod).updateStatus();
        });
    }

    /**
     * A replica's pod deleted on the API server (by hand, an eviction): the same, the replica's SID
     * leaves the bucket table at the next programming pass, with no window and no drain wait.
     */
    @Test
    public void aPodDeletedOnTheApiServerIsAReplicaDeathAndItsSidLeavesTheBucketsAtOnce() throws Exception {
        diesWithoutAWindow("pod deleted", pod -> admin.pods().inNamespace(NS).resource(pod).withGracePeriod(0)
                .delete());
    }

    private void diesWithoutAWindow(String what, Consumer<Pod> kill) throws Exception {
        scaleOut();
        VnfReplica victim = bridgeReplicas().get(0);
        assertTrue(victim.carriesTraffic());
        assertTrue(victim.sid() + " in the bucket table:\n" + bucketEntries(), inBuckets(victim.sid().toString()));
        Pod pod = admin.pods().inNamespace(NS).withName(ReplicaNames.podName(victim.id().name())).get();
        int before = loop.decisions(100).size();
        long t0 = System.nanoTime();
        kill.accept(pod);
        waitUntil("the loop judges " + victim.id() + " dead", 30, () -> loop.decisions(100).stream()
                .anyMatch(d -> d.action() == LoopDecision.Action.REPLICA_DEAD && d.detail().contains(
                        victim.id().name() + " at ") && d.detail().contains("pod gone or not Ready")));
        long nanos = System.nanoTime() - t0;
        System.out.printf("KubernetesEndToEndTest: %s -> REPLICA_DEAD %.1f ms (no window closed meanwhile)%n",
                          what, nanos / 1e6);
        assertTrue(loop.decisions(100).size() > before);
        VnfReplica after = app.inventory.getReplica(victim.id()).orElseThrow();
        assertFalse("out of the group at once", after.carriesTraffic());
        // The programming's clock stands still here: a drain by flows would keep the buckets.
        assertFalse("a dead replica's buckets move at the next programming pass:\n" + bucketEntries(),
                    inBuckets(victim.sid().toString()));
    }

    @Test
    public void scaleOutAndInOnARealApiServerThenNothingIsLeft() throws Exception {
        LoopDecision out = scaleOut();

        System.out.println("KubernetesEndToEndTest: " + out.action() + " " + out.outcome() + ": " + out.detail());
        List<VnfReplica> added = bridgeReplicas();
        assertFalse("no replica joined the inventory: " + out.detail(), added.isEmpty());
        List<Pod> pods = pods();
        assertEquals(added.size(), pods.size());
        // Reserved on the platform's threads at once, each holds a SID of its own.
        assertEquals(added.toString(), added.size(), added.stream().map(VnfReplica::sid).distinct().count());
        for (VnfReplica r : added) {
            assertEquals(ReplicaState.ACTIVE, r.state());
            assertEquals(1, r.weight());
            // An attached node (PaperTestbed: worker1 on SW2, worker2 on SW3), and the pod says so.
            assertTrue(r.node(), r.node().equals("worker1") || r.node().equals("worker2"));
            Pod pod = pods.stream().filter(p -> p.getMetadata().getName().equals(ReplicaNames.podName(
                    r.id().name()))).findFirst().orElseThrow(() -> new AssertionError("no pod of " + r.id()));
            assertEquals(r.node(), pod.getSpec().getNodeName());
            System.out.println("KubernetesEndToEndTest: pod " + pod.getMetadata().getName() + " on "
                    + pod.getSpec().getNodeName() + " annotations " + new TreeMap<>(
                    pod.getMetadata().getAnnotations()));
            Map<String, String> labels = pod.getMetadata().getLabels();
            assertEquals(CHAIN, labels.get(ReplicaNames.LABEL_CHAIN));
            assertEquals("0", labels.get(ReplicaNames.LABEL_VNF));
            assertEquals("snort", labels.get(ReplicaNames.LABEL_VNF_TYPE));
            assertEquals(ReplicaNames.MANAGER, labels.get(ReplicaNames.LABEL_MANAGED_BY));
            Map<String, String> annotations = pod.getMetadata().getAnnotations();
            assertEquals(r.sid().toString(), annotations.get(ReplicaNames.ANNOTATION_SID));
            assertEquals(r.deviceId().toString(), annotations.get(ReplicaNames.ANNOTATION_SWITCH_DEVICE));
            assertEquals(Long.toString(r.port().toLong()), annotations.get(ReplicaNames.ANNOTATION_SWITCH_PORT));
            // The switch the node hangs off has the replica's SID entry; the chain's buckets use it.
            String sidRule = r.deviceId() + " endpoint.my_sid ipv6_dst=" + r.sid() + "/128";
            assertTrue(sidRule + " in " + rules(), rules().stream().anyMatch(l -> l.startsWith(sidRule)));
            assertTrue(r.sid() + " in the bucket table:\n" + bucketEntries(),
                    inBuckets(r.sid().toString()));
        }

        // Low latency: the loop drains the last replica; the programming (run here after each window,
        // on the window's clock, as ONOS runs it on the inventory's events and every second while
        // buckets wait) moves its buckets once their counters stood still for drainIdleMs (10 s);
        // only then may its workload go.
        // Its flows go on for 5 windows after the drain began (its buckets' counters move, as the switch
        // counts them), then end; INT reaches the loop through r0 only, so its Port_Counter looks still.
        VnfReplica victim = added.get(added.size() - 1);
        int busyWindows = lowLoadUntil(victim, 5, () -> app.inventory.getReplica(victim.id()).isEmpty());
        // The pod was asked to go only once no switch held the SID: the table as it was at that call.
        String atDelete = bucketsAtDelete.get(victim.id().name());
        assertTrue("the loop never asked to delete " + victim.id(), atDelete != null);
        assertFalse("the switches still steered to " + victim.sid() + " when its pod was deleted:\n" + atDelete,
                    holds(atDelete, victim.sid().toString()));
        assertTrue(atDelete, atDelete.contains("encap.srv6_encap"));
        assertEquals(5, busyWindows);
        assertTrue("the victim's buckets moved once their flows ended",
                   app.programmer.bucketCounters()[0] > 0);
        assertTrue(loop.decisions(5).toString(), loop.decisions(5).stream().anyMatch(
                d -> d.action() == LoopDecision.Action.SCALE_IN && d.outcome() == LoopDecision.Outcome.SUCCEEDED
                        && d.detail().contains(victim.id().name())
                        && d.detail().contains("no switch steers to it (confirmed)")));
        loop.decisions(5).stream().filter(d -> d.action() == LoopDecision.Action.SCALE_IN).forEach(
                d -> System.out.println("KubernetesEndToEndTest: " + d.action() + " " + d.outcome() + ": "
                        + d.detail()));
        assertFalse("a removed replica's SID is out of the bucket table", inBuckets(victim.sid().toString()));
        waitUntil("the drained replica's pod is gone", 60, () -> pods().stream().noneMatch(
                p -> p.getMetadata().getName().equals(ReplicaNames.podName(victim.id().name()))));
        assertFalse("the removed replica's SID came back into the bucket table",
                    inBuckets(victim.sid().toString()));

        // Deleting the chain deletes every workload of it, once no switch sends packets into the chain:
        // here the programming has not run since the removal, so its classifier and buckets are still
        // installed and the workloads stay (checked a second later); the next pass removes the entries.
        int left = added.size() - 1;
        app.sfcs.removeSfc(PaperTestbed.SFC2);
        Thread.sleep(1000);
        assertTrue(installedBuckets(), installedBuckets().contains("chain_id=" + CHAIN));
        assertEquals("no workload deleted while the switches still send packets into the chain", left,
                     admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).list()
                             .getItems().stream().filter(st
                                     -> st.getMetadata().getDeletionTimestamp() == null).count());
        app.settle();
        assertFalse(installedBuckets().contains("chain_id=" + CHAIN));
        waitUntil("nothing of chain " + CHAIN + " left in the cluster", 20, () ->
                admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).list()
                        .getItems().isEmpty() && pods().isEmpty());
    }
}
