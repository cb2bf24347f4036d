// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Test;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The bridge against a real control plane (kube-apiserver, controller-manager,
 * scheduler, etcd; kwok fake nodes worker1/worker2), started by
 * tools/k8s-testenv/start. Runs only when {@code srv6int.kubeconfig} (or
 * SRV6INT_KUBECONFIG) names the bridge's kubeconfig; otherwise skipped with the
 * reason. The bridge runs as its ServiceAccount with only the rights of
 * k8s-bridge/deploy/bridge-rbac.yaml, which the admin applies first.
 */
public class RealApiServerTest {
    private static final String NS = "srv6int-sfc";
    private static final Duration READY = Duration.ofSeconds(90);
    private static final BridgeConfig CONFIG = new BridgeConfig(NS, 40, Duration.ofMillis(100),
            Duration.ofSeconds(2), Duration.ofSeconds(120), Duration.ofSeconds(10));

    private static KubernetesClient admin;
    private static Fabric8VnfReplicaManager bridge;
    private static File bridgeKubeconfig;
    private static File testenv;

    private static String setting(String property, String env) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            v = System.getenv(env);
        }
        return v == null || v.isBlank() ? null : v;
    }

    static KubernetesClient client(File kubeconfig) {
        return new KubernetesClientBuilder().withConfig(Fabric8VnfReplicaManager.tune(
                Config.fromKubeconfig(kubeconfig), CONFIG)).withHttpClientFactory(new VertxHttpClientFactory()).build();
    }

    @BeforeClass
    public static void connect() throws Exception {
        String kc = setting("srv6int.kubeconfig", "SRV6INT_KUBECONFIG");
        if (kc == null) {
            String reason = "RealApiServerTest skipped: no control plane "
                    + "(set -Dsrv6int.kubeconfig=<bridge kubeconfig>; tools/k8s-testenv/start makes one)";
            System.out.println(reason);
            Assume.assumeTrue(reason, false);
        }
        bridgeKubeconfig = new File(kc);
        String adminKc = setting("srv6int.admin.kubeconfig", "SRV6INT_ADMIN_KUBECONFIG");
        File adminFile = adminKc != null ? new File(adminKc)
                : new File(bridgeKubeconfig.getParentFile(), "admin.kubeconfig");
        String env = setting("srv6int.k8s.testenv", "SRV6INT_K8S_TESTENV");
        testenv = new File(env != null ? env : "../../tools/k8s-testenv");
        admin = client(adminFile);
        try (InputStream in = Files.newInputStream(new File("../deploy/bridge-rbac.yaml").toPath())) {
            admin.load(in).forceConflicts().serverSideApply();
        }
        // Pods are admitted once the namespace's default ServiceAccount exists.
        waitUntil("default ServiceAccount in " + NS, Duration.ofSeconds(60), () ->
                admin.serviceAccounts().inNamespace(NS).withName("default").get() != null);
        bridge = Fabric8VnfReplicaManager.fromKubeconfig(bridgeKubeconfig, CONFIG);
    }

    @AfterClass
    public static void disconnect() {
        if (bridge != null) {
            bridge.close();
        }
        if (admin != null) {
            admin.close();
        }
    }

    private static ReplicaRequest request(String chain, int vnf, int replica, String node) {
        return ReplicaRequest.builder().chainId(chain).vnfIndex(vnf).vnfType("snort").replicaIndex(replica)
                .nodeName(node).image("registry.local/snort:2.9").request("cpu", "2").request("memory", "4Gi")
                .limit("cpu", "2").limit("memory", "4Gi").build();
    }

    private static List<Pod> podsOf(String chain) {
        return admin.pods().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, chain).list().getItems();
    }

    private static int statefulSetsOf(String chain) {
        return admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, chain)
                .list().getItems().size();
    }

    private static List<Pod> live(List<Pod> pods) {
        return pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .collect(Collectors.toList());
    }

    static void waitUntil(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            Thread.sleep(100);
        }
    }

    /** As below, for a chain the test created: the orphan sweep must see it by its labels first. */
    private static void removeExistingAndCheckNoLeak(String chain) throws InterruptedException {
        org.junit.Assert.assertTrue(bridge.listChainIds().toString(), bridge.listChainIds().contains(chain));
        removeAndCheckNoLeak(chain);
    }

    /** Removes the chain and checks that nothing labelled with it is left (no leaked object). */
    private static void removeAndCheckNoLeak(String chain) throws InterruptedException {
        bridge.removeChain(chain);
        waitUntil("no object of chain " + chain + " left", READY, () ->
                statefulSetsOf(chain) == 0 && podsOf(chain).isEmpty()
                        && admin.apps().controllerRevisions().inNamespace(NS)
                        .withLabel(ReplicaNames.LABEL_CHAIN, chain).list().getItems().isEmpty());
        org.junit.Assert.assertFalse(bridge.listChainIds().contains(chain));
    }

    @Test
    public void createdReplicaIsReadyOnTheChosenNodeAndHoldsItsResources() throws Exception {
        String chain = "it-create";
        removeAndCheckNoLeak(chain); // leftovers of an interrupted run
        Map<String, NodeResources> before = bridge.nodeFreeResources();
        assertEquals(Set.of("worker1", "worker2"), before.keySet());
        assertEquals(20_000, before.get("worker2").allocatableCpuMillis());
        bridge.ensureReplica(ReplicaRequest.builder().chainId(chain).vnfIndex(1).vnfType("snort").replicaIndex(0)
                .nodeName("worker2").image("registry.local/snort:2.9").request("cpu", "2").request("memory", "4Gi")
                .limit("cpu", "2").limit("memory", "4Gi").identity("fc00:2::1:3", "device:leaf2", 4).build());
        ReplicaStatus s = bridge.awaitReady(chain, 1, 0, READY);
        // The pod the API server made from the template carries the identity the node agent reads.
        Map<String, String> podAnnotations = podsOf(chain).get(0).getMetadata().getAnnotations();
        assertEquals("fc00:2::1:3", podAnnotations.get(ReplicaNames.ANNOTATION_SID));
        assertEquals("device:leaf2", podAnnotations.get(ReplicaNames.ANNOTATION_SWITCH_DEVICE));
        assertEquals("4", podAnnotations.get(ReplicaNames.ANNOTATION_SWITCH_PORT));
        assertTrue(s.ready());
        assertEquals("worker2", s.nodeName());
        assertNotNull("pod IP", s.podIp());
        assertEquals("sfc-it-create-vnf1-r0-0", s.podName());
        assertEquals(1, statefulSetsOf(chain));
        assertEquals(1, podsOf(chain).size());
        Map<String, NodeResources> after = bridge.nodeFreeResources();
        assertEquals(2_000, before.get("worker2").freeCpuMillis() - after.get("worker2").freeCpuMillis());
        assertEquals(4L << 30, before.get("worker2").freeMemoryBytes() - after.get("worker2").freeMemoryBytes());
        assertEquals(before.get("worker1").freeCpuMillis(), after.get("worker1").freeCpuMillis());
        // The global loop's choice: the node with the most free resources is now worker1.
        assertEquals("worker1", after.keySet().iterator().next());
        removeExistingAndCheckNoLeak(chain);
        assertFalse(bridge.removeReplica(chain, 1, 0));
    }

    @Test
    public void scaleUpAndDown() throws Exception {
        String chain = "it-scale";
        removeAndCheckNoLeak(chain); // leftovers of an interrupted run
        bridge.scale(chain, 2, List.of(request(chain, 2, 0, "worker1"), request(chain, 2, 1, "worker2"),
                request(chain, 2, 2, "worker1")));
        for (int r = 0; r < 3; r++) {
            bridge.awaitReady(chain, 2, r, READY);
        }
        List<ReplicaStatus> up = bridge.listReplicas(chain, 2);
        assertEquals(3, up.size());
        assertEquals(List.of("worker1", "worker2", "worker1"),
                up.stream().map(ReplicaStatus::nodeName).collect(Collectors.toList()));
        assertTrue(up.stream().allMatch(ReplicaStatus::ready));
        assertEquals(3, live(podsOf(chain)).size());

        bridge.scale(chain, 2, List.of(request(chain, 2, 1, "worker2")));
        waitUntil("scale-in to replica 1 only", READY, () -> podsOf(chain).size() == 1
                && bridge.listReplicas(chain, 2).size() == 1);
        assertEquals("sfc-it-scale-vnf2-r1-0", podsOf(chain).get(0).getMetadata().getName());
        assertEquals(1, bridge.listReplicas(chain, 2).get(0).replicaIndex());
        removeExistingAndCheckNoLeak(chain);
    }

    @Test
    public void killedPodIsRecreatedAndNeverDuplicated() throws Exception {
        String chain = "it-kill";
        removeAndCheckNoLeak(chain); // leftovers of an interrupted run
        bridge.ensureReplica(request(chain, 0, 0, "worker1"));
        ReplicaStatus first = bridge.awaitReady(chain, 0, 0, READY);
        String uid = admin.pods().inNamespace(NS).withName(first.podName()).get().getMetadata().getUid();
        admin.pods().inNamespace(NS).withName(first.podName()).withGracePeriod(0).delete();
        long deadline = System.nanoTime() + READY.toNanos();
        while (true) {
            List<Pod> pods = podsOf(chain);
            assertTrue("more than one pod for one replica: " + pods.size(), pods.size() <= 1);
            if (pods.size() == 1 && !uid.equals(pods.get(0).getMetadata().getUid())
                    && bridge.listReplicas(chain, 0).get(0).ready()) {
                break;
            }
            assertTrue("killed pod not replaced in time", System.nanoTime() < deadline);
            Thread.sleep(50);
        }
        assertEquals(1, statefulSetsOf(chain));
        assertEquals(1, podsOf(chain).size());
        assertEquals("worker1", bridge.listReplicas(chain, 0).get(0).nodeName());
        removeExistingAndCheckNoLeak(chain);
    }

    @Test
    public void concurrentAndRepeatedEnsureMakeOneReplica() throws Exception {
        String chain = "it-idem";
        removeAndCheckNoLeak(chain); // leftovers of an interrupted run
        ReplicaRequest r = request(chain, 0, 0, "worker2");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<ReplicaStatus>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(pool.submit(() -> bridge.ensureReplica(r)));
            }
            Set<String> names = new HashSet<>();
            for (Future<ReplicaStatus> f : calls) {
                names.add(f.get(60, TimeUnit.SECONDS).name());
            }
            assertEquals(Set.of("sfc-it-idem-vnf0-r0"), names);
        } finally {
            pool.shutdownNow();
        }
        bridge.ensureReplica(r);
        bridge.awaitReady(chain, 0, 0, READY);
        bridge.ensureReplica(r);
        assertEquals(1, statefulSetsOf(chain));
        assertEquals(1, podsOf(chain).size());
        removeExistingAndCheckNoLeak(chain);
    }

    private static void testenv(String script, String arg) throws Exception {
        Process p = new ProcessBuilder("bash", new File(testenv, script).getPath(), arg)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        System.out.print(out);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(script + " " + arg + " failed: " + out);
        }
    }

    @Test
    public void apiServerRestartDuringEnsure() throws Exception {
        Assume.assumeTrue("needs tools/k8s-testenv to restart kube-apiserver (-Dsrv6int.k8s.testenv)",
                new File(testenv, "stop").isFile());
        String chain = "it-restart";
        removeAndCheckNoLeak(chain); // leftovers of an interrupted run
        testenv("stop", "apiserver");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<ReplicaStatus> ensure = pool.submit(() -> bridge.ensureReplica(request(chain, 0, 0, "worker2")));
            Thread.sleep(2000);
            assertFalse("ensure cannot succeed while the API server is down", ensure.isDone());
            testenv("start", "apiserver");
            assertEquals("sfc-it-restart-vnf0-r0", ensure.get(120, TimeUnit.SECONDS).name());
        } finally {
            pool.shutdownNow();
            testenv("start", "apiserver"); // no-op when running; restores it if the test failed early
        }
        ReplicaStatus s = bridge.awaitReady(chain, 0, 0, READY);
        assertEquals("worker2", s.nodeName());
        bridge.ensureReplica(request(chain, 0, 0, "worker2")); // the caller's retry
        assertEquals(1, statefulSetsOf(chain));
        assertEquals(1, podsOf(chain).size());
        removeExistingAndCheckNoLeak(chain);
    }

    @Test
    public void bridgeIdentityHasOnlyItsRights() throws Exception {
        removeAndCheckNoLeak("it-rbac");
        // An existing replica, so fabric8's GET before PATCH succeeds and the PATCH itself is judged.
        admin.apps().statefulSets().inNamespace(NS)
                .resource(Fabric8VnfReplicaManager.statefulSet(request("it-rbac", 0, 0, "worker1"))).create();
        try (KubernetesClient asBridge = client(bridgeKubeconfig)) {
            assertForbidden(() -> asBridge.pods().inNamespace(NS).withName("any").delete());
            assertForbidden(() -> asBridge.secrets().inNamespace(NS).list());
            assertForbidden(() -> asBridge.apps().statefulSets().inNamespace("default").list());
            assertForbidden(() -> asBridge.apps().statefulSets().inNamespace(NS).withName("sfc-it-rbac-vnf0-r0")
                    .patch("{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"));
            assertNotEquals(0, asBridge.nodes().list().getItems().size());
            // It watches its own namespace's pods and StatefulSets only.
            io.fabric8.kubernetes.client.Watcher<Pod> none = new io.fabric8.kubernetes.client.Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod resource) {
                }

                @Override
                public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
                }
            };
            // It watches pods of every namespace (free resources from watched state, read-only) but
            // changes pods nowhere and StatefulSets only in its namespace.
            asBridge.pods().inAnyNamespace().watch(none).close();
            asBridge.pods().inNamespace(NS).watch(none).close();
            assertForbidden(() -> asBridge.nodes().withName("worker1").edit(n -> n));
            assertForbidden(() -> asBridge.pods().inNamespace("default").resource(new io.fabric8.kubernetes.api.model
                    .PodBuilder().withNewMetadata().withName("x").endMetadata().withNewSpec().addNewContainer()
                    .withName("c").withImage("i").endContainer().endSpec().build()).create());
            assertForbidden(() -> asBridge.pods().inNamespace("default").withName("any").delete());
        }
        removeAndCheckNoLeak("it-rbac");
    }

    /**
     * A pod status write as the kubelet makes it: the Ready condition set to the value, one PUT of
     * the status subresource (the pod read before).
     *
     * @return when the PUT was sent, nanoTime
     */
    private static long setReady(String pod, boolean ready) {
        Pod p = admin.pods().inNamespace(NS).withName(pod).get();
        p.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).forEach(c -> {
            c.setStatus(ready ? "True" : "False");
            c.setLastTransitionTime(Instant.now().toString());
        });
        long t0 = System.nanoTime();
        admin.pods().inNamespace(NS).resource(p).updateStatus();
        return t0;
    }

    /** When the listener heard what of one replica, and when a LIST per second (the removed poll) first saw it. */
    private static final class Heard {
        final BlockingQueue<long[]> told = new LinkedBlockingQueue<>();
        final ReplicaListener listener;

        Heard(String name) {
            listener = (c, vnf, st) -> {
                if (st.name().equals(name)) {
                    told.add(new long[] {System.nanoTime(), st.ready() ? 1 : 0});
                }
            };
        }

        long awaitReady(boolean ready, long sinceNanos) throws InterruptedException {
            while (true) {
                long[] e = told.poll(30, TimeUnit.SECONDS);
                assertNotNull("readiness " + ready + " not told within 30 s", e);
                if (e[0] >= sinceNanos && (e[1] == 1) == ready) {
                    return e[0];
                }
            }
        }
    }

    private static long[] sorted(List<Long> v) {
        long[] a = v.stream().mapToLong(Long::longValue).sorted().toArray();
        return a;
    }

    private static String stats(List<Long> nanos) {
        long[] a = sorted(nanos);
        return String.format("median %.1f ms, p90 %.1f ms, max %.1f ms (n=%d)", a[a.length / 2] / 1e6,
                a[(int) (a.length * 0.9)] / 1e6, a[a.length - 1] / 1e6, a.length);
    }

    /**
     * The watch's latency: a pod's Ready condition patched on the API server (as the kubelet does)
     * until the bridge's listener is told, for flips both ways; in the same run a LIST every second
     * (what the global loop did before) sees the same flips, as the baseline.
     */
    @Test
    public void readinessChangesReachTheListenerInMillisecondsNotAtTheNextPoll() throws Exception {
        String chain = "it-watch";
        removeAndCheckNoLeak(chain);
        Heard heard = new Heard(ReplicaNames.replicaName(chain, 0, 0));
        ReplicaListener l = heard.listener;
        bridge.addListener(l);
        ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor();
        BlockingQueue<long[]> polled = new LinkedBlockingQueue<>();
        try {
            bridge.ensureReplica(request(chain, 0, 0, "worker1"));
            ReplicaStatus s = bridge.awaitReady(chain, 0, 0, READY);
            heard.awaitReady(true, 0);
            poller.scheduleAtFixedRate(() -> {
                try {
                    for (ReplicaStatus r : bridge.listReplicas(chain, 0)) {
                        polled.add(new long[] {System.nanoTime(), r.ready() ? 1 : 0});
                    }
                } catch (RuntimeException e) {
                    // next second
                }
            }, 0, 1, TimeUnit.SECONDS);
            List<Long> watch = new ArrayList<>();
            List<Long> poll = new ArrayList<>();
            boolean ready = true;
            for (int i = 0; i < 12; i++) {
                ready = !ready;
                Thread.sleep(150 + (i * 97) % 400); // not in step with the poll
                long t0 = setReady(s.podName(), ready);
                watch.add(heard.awaitReady(ready, t0) - t0);
                long seen;
                while (true) {
                    long[] e = polled.poll(30, TimeUnit.SECONDS);
                    assertNotNull("the poll never saw readiness " + ready, e);
                    if (e[0] >= t0 && (e[1] == 1) == ready) {
                        seen = e[0];
                        break;
                    }
                }
                poll.add(seen - t0);
                assertEquals(ready, bridge.watchedReplicas(chain, 0).orElseThrow().get(0).ready());
            }
            long[] w = sorted(watch);
            long[] p = sorted(poll);
            System.out.println("RealApiServerTest: pod Ready flipped on the API server -> listener told: "
                    + stats(watch));
            System.out.println("RealApiServerTest: same flips seen by a LIST per second (the removed poll): "
                    + stats(poll)
                    + String.format("; median ratio poll/watch %.0fx", (double) p[p.length / 2] / w[w.length / 2]));
            // Not a timing assertion: the watch tells each flip before the poll's next LIST can see it.
            for (int i = 0; i < watch.size(); i++) {
                assertTrue("flip " + i + " told by the watch after the poll saw it", watch.get(i) <= poll.get(i));
            }
        } finally {
            poller.shutdownNow();
            bridge.removeListener(l);
        }
        removeExistingAndCheckNoLeak(chain);
    }

    /**
     * kube-apiserver stopped and started again: the watch reconnects (resuming from its resourceVersion
     * or re-listing) and goes on telling changes; readiness is unknown while it is down.
     */
    @Test
    public void theWatchRidesOutAnApiServerRestart() throws Exception {
        Assume.assumeTrue("needs tools/k8s-testenv to restart kube-apiserver (-Dsrv6int.k8s.testenv)",
                new File(testenv, "stop").isFile());
        String chain = "it-rewatch";
        removeAndCheckNoLeak(chain);
        Heard heard = new Heard(ReplicaNames.replicaName(chain, 0, 0));
        ReplicaListener l = heard.listener;
        bridge.addListener(l);
        try {
            bridge.ensureReplica(request(chain, 0, 0, "worker2"));
            ReplicaStatus s = bridge.awaitReady(chain, 0, 0, READY);
            heard.awaitReady(true, 0);
            bridge.nodeFreeResources(); // the free resources' watch too
            waitUntil("the capacity watch established", Duration.ofSeconds(30),
                    () -> bridge.nodeCapacityStats().problem() == null);
            testenv("stop", "apiserver");
            try {
                waitUntil("readiness unknown while the API server is down", Duration.ofSeconds(30),
                        () -> bridge.watchedReplicas(chain, 0).isEmpty());
                waitUntil("free resources not answered from the watch while the API server is down",
                        Duration.ofSeconds(30), () -> bridge.nodeCapacityStats().problem() != null);
            } finally {
                testenv("start", "apiserver");
            }
            waitUntil("the watch re-established", Duration.ofSeconds(60),
                    () -> bridge.watchedReplicas(chain, 0).isPresent());
            waitUntil("the capacity watch re-established", Duration.ofSeconds(60),
                    () -> bridge.nodeCapacityStats().problem() == null);
            long fromWatch = bridge.nodeCapacityStats().fromWatch();
            assertEquals(render(bridge.listFreeResources()), render(bridge.nodeFreeResources()));
            assertEquals(fromWatch + 1, bridge.nodeCapacityStats().fromWatch());
            long t0 = setReady(s.podName(), false);
            long told = heard.awaitReady(false, t0) - t0;
            System.out.printf("RealApiServerTest: after the API server restart, pod not Ready -> told in %.1f ms%n",
                    told / 1e6);
            assertFalse(bridge.watchedReplicas(chain, 0).orElseThrow().get(0).ready());
        } finally {
            bridge.removeListener(l);
        }
        removeExistingAndCheckNoLeak(chain);
    }

    /**
     * The bridge's Role without {@code watch} (an old manifest): a create cannot wait for Ready and says
     * why at once, readiness is unknown; once the manifest is applied the watch starts again by itself.
     */
    @Test
    public void aRoleWithoutWatchIsAClearErrorAndApplyingTheManifestHealsIt() throws Exception {
        String chain = "it-nowatch";
        removeAndCheckNoLeak(chain);
        admin.rbac().roles().inNamespace(NS).withName("srv6int-k8s-bridge").edit(r -> {
            r.getRules().forEach(rule -> rule.getVerbs().remove("watch"));
            return r;
        });
        try (Fabric8VnfReplicaManager noWatch = Fabric8VnfReplicaManager.fromKubeconfig(bridgeKubeconfig, CONFIG)) {
            noWatch.ensureReplica(request(chain, 0, 0, "worker1"));
            long t0 = System.nanoTime();
            try {
                noWatch.awaitReady(chain, 0, 0, READY);
                fail("awaitReady without the right to watch");
            } catch (BridgeException e) {
                System.out.println("RealApiServerTest: without watch: " + e.getMessage());
                assertEquals(e.getMessage(), 403, e.httpCode());
                assertTrue(e.getMessage(), e.getMessage().contains("bridge-rbac.yaml"));
            }
            assertTrue("fails at once", System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(30));
            assertTrue(noWatch.watchedReplicas(chain, 0).isEmpty());
            try (InputStream in = Files.newInputStream(new File("../deploy/bridge-rbac.yaml").toPath())) {
                admin.load(in).forceConflicts().serverSideApply();
            }
            waitUntil("the watch started again once allowed", Duration.ofSeconds(60),
                    () -> noWatch.watchedReplicas(chain, 0).isPresent());
            assertTrue(noWatch.awaitReady(chain, 0, 0, READY).ready());
        } finally {
            try (InputStream in = Files.newInputStream(new File("../deploy/bridge-rbac.yaml").toPath())) {
                admin.load(in).forceConflicts().serverSideApply();
            }
        }
        removeExistingAndCheckNoLeak(chain);
    }

    /** A map of free resources as text (NodeResources has no equals): node order and every figure. */
    static String render(Map<String, NodeResources> free) {
        return free.values().stream().map(NodeResources::toString).collect(Collectors.joining(", "));
    }

    /** A pod of another tenant: requests only; schedulerName "none" keeps it unbound until bound by hand. */
    private static Pod tenantPod(String name, String node, String cpu, String memory) {
        return new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName(name)
                .addToLabels("srv6int.org/test", "capacity").endMetadata()
                .withNewSpec().withNodeName(node).withSchedulerName(node == null ? "none" : null)
                .withAutomountServiceAccountToken(false).withTerminationGracePeriodSeconds(0L)
                // srv6int-sfc enforces Pod Security restricted
                .withNewSecurityContext().withRunAsNonRoot(true).withNewSeccompProfile().withType("RuntimeDefault")
                .endSeccompProfile().endSecurityContext()
                .addNewContainer().withName("c").withImage("registry.local/tenant:1")
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withNewCapabilities().withDrop("ALL")
                .endCapabilities().endSecurityContext().withNewResources()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity(cpu))
                .addToRequests("memory", new io.fabric8.kubernetes.api.model.Quantity(memory))
                .endResources().endContainer().endSpec().build();
    }

    /**
     * Waits until the bridge's answer (from its watch) shows what the condition asks and equals what a
     * LIST computes; returns how long after {@code t0} the answer first showed it.
     */
    private static long awaitWatched(String what, long t0, Predicate<Map<String, NodeResources>> shows)
            throws InterruptedException {
        long deadline = t0 + TimeUnit.SECONDS.toNanos(10);
        long seen = -1;
        while (true) {
            Map<String, NodeResources> w = bridge.nodeFreeResources();
            long now = System.nanoTime();
            if (seen < 0 && shows.test(w)) {
                seen = now - t0;
            }
            if (seen >= 0) {
                // Nothing else changes the cluster now: the two must agree once the watch caught up.
                Map<String, NodeResources> listed = bridge.listFreeResources();
                if (render(w).equals(render(bridge.nodeFreeResources())) && render(w).equals(render(listed))) {
                    return seen;
                }
            }
            if (now > deadline) {
                fail("within 10 s the watched answer did not show " + what + " and equal a LIST: watched "
                        + render(w) + "; LIST " + render(bridge.listFreeResources()) + "; "
                                + bridge.nodeCapacityStats());
            }
            Thread.sleep(2);
        }
    }

    private static long freeCpu(Map<String, NodeResources> free, String node) {
        return free.get(node).freeCpuMillis();
    }

    /**
     * Free resources come from the bridge's watch of nodes and pods: a pod created unbound counts
     * nowhere, binding it, creating one bound, finishing one (Succeeded) and deleting one show in
     * the watched answer within a bounded wait, which then equals what a LIST computes; none of
     * these answers needed a LIST.
     */
    @Test
    public void freeResourcesFollowPodsFromTheWatchAndEqualAList() throws Exception {
        admin.pods().inNamespace(NS).withLabel("srv6int.org/test", "capacity").withGracePeriod(0).delete();
        waitUntil("no tenant pod left", READY, () ->
                admin.pods().inNamespace(NS).withLabel("srv6int.org/test", "capacity").list().getItems().isEmpty());
        bridge.nodeFreeResources(); // starts the watch
        waitUntil("the capacity watch established", Duration.ofSeconds(30),
                () -> bridge.nodeCapacityStats().problem() == null);
        Map<String, NodeResources> base = bridge.nodeFreeResources();
        assertEquals(render(bridge.listFreeResources()), render(base));
        long listsBefore = bridge.nodeCapacityStats().byList();
        long w1 = freeCpu(base, "worker1");
        long w2 = freeCpu(base, "worker2");
        List<Long> lag = new ArrayList<>();
        try {
            // Unbound (no scheduler takes it): held nowhere.
            admin.pods().inNamespace(NS).resource(tenantPod("cap-a", null, "3", "1Gi")).create();
            Thread.sleep(300);
            awaitWatched("an unbound pod holding nothing", System.nanoTime(),
                    f -> freeCpu(f, "worker1") == w1 && freeCpu(f, "worker2") == w2);
            // Bound to worker1 as the scheduler binds it.
            long t0 = System.nanoTime();
            admin.bindings().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.BindingBuilder()
                    .withNewMetadata().withName("cap-a").endMetadata()
                    .withNewTarget().withApiVersion("v1").withKind("Node").withName("worker1").endTarget().build())
                    .create();
            lag.add(awaitWatched("cap-a bound to worker1", t0, f -> freeCpu(f, "worker1") == w1 - 3000));
            // Created bound to worker2.
            t0 = System.nanoTime();
            admin.pods().inNamespace(NS).resource(tenantPod("cap-b", "worker2", "1500m", "2Gi")).create();
            lag.add(awaitWatched("cap-b on worker2", t0, f -> freeCpu(f, "worker2") == w2 - 1500
                    && f.get("worker2").freeMemoryBytes() == base.get("worker2").freeMemoryBytes() - (2L << 30)));
            // Finished: a Succeeded pod holds nothing (the pod stays).
            Pod a = admin.pods().inNamespace(NS).withName("cap-a").get();
            a.getStatus().setPhase("Succeeded");
            t0 = System.nanoTime();
            admin.pods().inNamespace(NS).resource(a).updateStatus();
            lag.add(awaitWatched("cap-a Succeeded", t0, f -> freeCpu(f, "worker1") == w1));
            // Deleted.
            t0 = System.nanoTime();
            admin.pods().inNamespace(NS).withName("cap-b").withGracePeriod(0).delete();
            lag.add(awaitWatched("cap-b deleted", t0, f -> freeCpu(f, "worker2") == w2));
        } finally {
            admin.pods().inNamespace(NS).withLabel("srv6int.org/test", "capacity").withGracePeriod(0).delete();
        }
        System.out.println("RealApiServerTest: pod write on the API server -> shown by the watched free resources: "
                + lag.stream().map(n -> String.format("%.1f ms", n / 1e6)).collect(Collectors.joining(", "))
                + " (bind, create bound, Succeeded, delete); " + bridge.nodeCapacityStats());
        assertEquals("every answer after the watch was up came from it", listsBefore,
                bridge.nodeCapacityStats().byList());
    }

    /**
     * The ClusterRole without {@code watch} (an older manifest): the answer is the LIST's (right, at the
     * old cost), the refusal is counted and said; without {@code list} either a clear 403. Applying the
     * manifest brings the watch back without a restart.
     */
    @Test
    public void aCapacityRoleWithoutWatchFallsBackToAListCountedAndHealsWhenApplied() throws Exception {
        String role = "srv6int-k8s-bridge-capacity";
        try (Fabric8VnfReplicaManager noWatch = Fabric8VnfReplicaManager.fromKubeconfig(bridgeKubeconfig, CONFIG)) {
            admin.rbac().clusterRoles().withName(role).edit(r -> {
                r.getRules().forEach(rule -> rule.getVerbs().remove("watch"));
                return r;
            });
            waitUntil("the watch refused and counted", Duration.ofSeconds(60), () -> {
                String expected = render(noWatch.listFreeResources());
                assertEquals("the answer is the LIST's while refused", expected, render(noWatch.nodeFreeResources()));
                return noWatch.nodeCapacityStats().watchRefusals() > 0;
            });
            NodeCapacityStats refused = noWatch.nodeCapacityStats();
            System.out.println("RealApiServerTest: capacity watch refused: " + refused);
            assertTrue(refused.problem(), refused.problem().contains("HTTP 403"));
            assertEquals(0, refused.fromWatch());
            long lists = refused.byList();
            noWatch.nodeFreeResources();
            assertEquals("each answer while refused is a LIST, counted", lists + 1,
                    noWatch.nodeCapacityStats().byList());
            // Without list either (get only): no answer at all, said clearly.
            admin.rbac().clusterRoles().withName(role).edit(r -> {
                r.getRules().forEach(rule -> rule.setVerbs(new ArrayList<>(List.of("get"))));
                return r;
            });
            waitUntil("the LIST refused", Duration.ofSeconds(30), () -> {
                try {
                    noWatch.nodeFreeResources();
                    return false;
                } catch (BridgeException e) {
                    assertEquals(e.getMessage(), 403, e.httpCode());
                    return true;
                }
            });
            try (InputStream in = Files.newInputStream(new File("../deploy/bridge-rbac.yaml").toPath())) {
                admin.load(in).forceConflicts().serverSideApply();
            }
            waitUntil("the watch started again once allowed and answering", Duration.ofSeconds(60), () -> {
                noWatch.nodeFreeResources();
                return noWatch.nodeCapacityStats().fromWatch() > 0;
            });
            assertEquals(render(noWatch.listFreeResources()), render(noWatch.nodeFreeResources()));
        } finally {
            try (InputStream in = Files.newInputStream(new File("../deploy/bridge-rbac.yaml").toPath())) {
                admin.load(in).forceConflicts().serverSideApply();
            }
        }
    }

    private static void assertForbidden(Runnable call) {
        try {
            call.run();
            fail("the bridge's ServiceAccount was allowed more than it needs");
        } catch (KubernetesClientException e) {
            assertEquals(e.getMessage(), 403, e.getCode());
        }
    }
}
