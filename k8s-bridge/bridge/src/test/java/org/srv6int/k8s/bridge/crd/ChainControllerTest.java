// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.After;
import org.junit.Assume;
import org.junit.Before;
import org.junit.Test;
import org.srv6int.k8s.bridge.BridgeConfig;
import org.srv6int.k8s.bridge.Fabric8VnfReplicaManager;
import org.srv6int.k8s.bridge.ReplicaNames;
import org.srv6int.k8s.bridge.ReplicaRequest;

import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The {@link ChainController} on a real control plane (kube-apiserver + kube-controller-manager's
 * garbage collector + KWOK, tools/k8s-testenv) with the bridge's own identity and RBAC
 * (k8s-bridge/deploy/bridge-rbac.yaml): a replica StatefulSet the bridge creates for a chain an
 * object declares is owned by that object, and deleting the object runs the finalizer and lets
 * the garbage collector remove the StatefulSet (the sink here removes nothing from the cluster);
 * with 100 objects whose p95 changes every window, the status write rate stays at most about one
 * write per chain per 10 s and every chain's status still follows its p95 (the rate and the syncs
 * printed; their speed is tools/bench-chain-status's figure, the pacing StatusPacerTest's). The
 * sink is an in-memory stand-in for the app (the app's own sink runs in app's ChainCrdEndToEndTest).
 * Runs when {@code srv6int.admin.kubeconfig} is given
 * (its directory also holds bridge.kubeconfig); skipped otherwise.
 */
public class ChainControllerTest {

    private static final String NS = "srv6int-sfc";
    private static final String LABEL = "srv6int.org/test";

    private KubernetesClient admin;
    private KubernetesClient bridgeClient;
    private ChainController controller;
    private final Sink sink = new Sink();

    /** The app's side, in memory: owns every object it is asked about, reports a jittering p95. */
    static final class Sink implements ChainSink {
        final Map<String, Integer> owned = new ConcurrentHashMap<>();
        final Set<String> released = ConcurrentHashMap.newKeySet();
        final AtomicLong p95 = new AtomicLong(800_000);

        @Override
        public ChainReport sync(ChainObject chain) {
            owned.put(chain.key(), 1);
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("observedGeneration", chain.generation());
            status.put("state", "Ready");
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("vnfIndex", 0);
            b.put("lmaxNs", 1_000_000);
            b.put("p95Ns", p95.incrementAndGet()); // a new measurement at every sync
            status.put("bottleneck", b);
            return new ChainReport(status, "Ready/" + chain.generation(),
                                   List.of(new ChainNote(false, "Synced", "steady", null)));
        }

        @Override
        public boolean release(ChainObject chain) {
            released.add(chain.key());
            owned.remove(chain.key());
            return true;
        }

        @Override
        public Collection<String> ownedKeys() {
            return new HashSet<>(owned.keySet());
        }

        @Override
        public boolean orphaned(String key) {
            owned.remove(key);
            return true;
        }
    }

    @Before
    public void setUp() throws Exception {
        File adminKc = ServiceFunctionChainCrdTest.adminKubeconfig();
        if (adminKc == null) {
            String reason = "ChainControllerTest skipped: no control plane (set -Dsrv6int.admin.kubeconfig=<admin "
                    + "kubeconfig>; tools/k8s-testenv/start makes it and bridge.kubeconfig next to it)";
            System.out.println(reason);
            Assume.assumeTrue(reason, false);
        }
        admin = ServiceFunctionChainCrdTest.client(adminKc);
        ServiceFunctionChainCrdTest.applyCrd(admin);
        try (InputStream in = Files.newInputStream(new File("../deploy/bridge-rbac.yaml").toPath())) {
            admin.load(in).forceConflicts().serverSideApply();
        }
        cleanUp();
        File bridgeKc = new File(adminKc.getParentFile(), "bridge.kubeconfig");
        bridgeClient = Fabric8VnfReplicaManager.newClient(Fabric8VnfReplicaManager.kubeconfigConfig(bridgeKc),
                                                          BridgeConfig.defaults(NS));
        controller = new ChainController(bridgeClient, NS, sink, new ChainController.Settings(
                Duration.ofSeconds(1), Duration.ofSeconds(10), 2, Duration.ofMillis(5), Duration.ofSeconds(5)), "test");
        assertTrue("listed", controller.start(Duration.ofSeconds(30)));
    }

    @After
    public void tearDown() {
        if (controller != null) {
            controller.close();
        }
        if (bridgeClient != null) {
            bridgeClient.close();
        }
        if (admin != null) {
            cleanUp();
            admin.close();
        }
    }

    private void cleanUp() {
        for (GenericKubernetesResource r : admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS)
                .withLabel(LABEL).list().getItems()) {
            admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS).withName(
                    r.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE),
                                                     "{\"metadata\":{\"finalizers\":null}}");
        }
        admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS).withLabel(LABEL).delete();
        admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, "4077").delete();
    }

    static GenericKubernetesResource object(String name, int id) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(ChainController.API_VERSION);
        r.setKind(ChainController.KIND);
        r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).withLabels(Map.of(LABEL, "yes"))
                              .build());
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("id", id);
        spec.put("ingress", "of:0000000000000001/1");
        spec.put("egress", "of:0000000000000004/2");
        spec.put("classifier", Map.of("srcPrefix", "10.0.1.0/24", "dstPrefix", "10.0.4.0/24"));
        spec.put("vnfs", List.of(Map.of("type", "snort", "lmaxNs", 1_000_000)));
        r.setAdditionalProperty("spec", spec);
        return r;
    }

    private GenericKubernetesResource get(String name) {
        return admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS).withName(name).get();
    }

    /** Each test object's stored p95, by name, in one list call. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> p95s() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (GenericKubernetesResource r : admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS)
                .withLabel(LABEL).list().getItems()) {
            Object status = r.getAdditionalProperties().get("status");
            Object b = status instanceof Map ? ((Map<String, Object>) status).get("bottleneck") : null;
            m.put(r.getMetadata().getName(), b instanceof Map ? ((Map<String, Object>) b).get("p95Ns") : null);
        }
        return m;
    }

    private static void waitUntil(String what, long seconds, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!done.getAsBoolean()) {
            assertTrue("not within " + seconds + " s: " + what, System.nanoTime() < deadline);
            Thread.sleep(50);
        }
    }

    @Test
    public void aReplicaOfADeclaredChainIsOwnedByItsObjectAndCollectedWithIt() throws Exception {
        admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS).resource(object("gc-4077", 4077))
                .create();
        waitUntil("finalizer and status", 30, () -> {
            GenericKubernetesResource r = get("gc-4077");
            return r.getMetadata().getFinalizers() != null
                    && r.getMetadata().getFinalizers().contains(ChainController.FINALIZER)
                    && r.getAdditionalProperties().get("status") != null;
        });
        String uid = get("gc-4077").getMetadata().getUid();
        // The bridge creates the replica as the loop would; the controller tells it the owner.
        try (Fabric8VnfReplicaManager bridge = new Fabric8VnfReplicaManager(bridgeClient, BridgeConfig.defaults(NS))) {
            bridge.ensureReplica(ReplicaRequest.builder().chainId("4077").vnfIndex(0).vnfType("snort")
                                         .replicaIndex(0).nodeName("worker1").image("registry.local/snort:2.9")
                                         .request("cpu", "1").request("memory", "1Gi").limit("cpu", "1")
                                         .limit("memory", "1Gi").build());
        }
        String name = ReplicaNames.replicaName("4077", 0, 0);
        StatefulSet sts = admin.apps().statefulSets().inNamespace(NS).withName(name).get();
        List<OwnerReference> refs = sts.getMetadata().getOwnerReferences();
        assertEquals(1, refs.size());
        assertEquals(uid, refs.get(0).getUid());
        assertEquals(ChainController.KIND, refs.get(0).getKind());
        assertEquals(Boolean.TRUE, refs.get(0).getController());

        admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS).withName("gc-4077").delete();
        waitUntil("the object gone after its finalizer", 30, () -> get("gc-4077") == null);
        assertTrue("the finalizer released the chain", sink.released.contains(NS + "/gc-4077"));
        long t0 = System.nanoTime();
        waitUntil("the garbage collector removes " + name, 60,
                  () -> admin.apps().statefulSets().inNamespace(NS).withName(name).get() == null);
        System.out.printf("ChainControllerTest: StatefulSet %s collected by the garbage collector %.1f s after "
                                  + "its ServiceFunctionChain went%n", name, (System.nanoTime() - t0) / 1e9);
    }

    @Test
    public void statusWritesOfAHundredChainsStayAtAboutOnePerChainPerTenSeconds() throws Exception {
        int n = 100;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = "rate-" + i;
            names.add(name);
            admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS)
                    .resource(object(name, 5000 + i)).create();
        }
        waitUntil("every object has a status", 60, () -> admin.genericKubernetesResources(ChainController.CONTEXT)
                .inNamespace(NS).withLabel(LABEL).list().getItems().stream()
                .filter(r -> r.getAdditionalProperties().get("status") != null).count() == n);
        long w0 = controller.counters().get("statusWrites");
        long s0 = controller.counters().get("syncs");
        long t0 = System.nanoTime();
        Thread.sleep(20_000);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long writes = controller.counters().get("statusWrites") - w0;
        long syncs = controller.counters().get("syncs") - s0;
        double perChainPer10s = writes / (double) n / (seconds / 10);
        System.out.printf("ChainControllerTest: %d chains, p95 changing every window: %d status writes, %d syncs "
                                  + "in %.1f s = %.2f writes per chain per 10 s (%.1f writes/s); counters %s%n",
                          n, writes, syncs, seconds, perChainPer10s, writes / seconds, controller.counters());
        // Each chain's measurement-only change is written once per 10 s; a chain may fall on both ends
        // of the interval measured (one write each side), hence the 1.5. An upper bound only: how
        // many syncs a loaded machine manages is a speed (tools/bench-chain-status), not asserted here;
        // the pacing itself is StatusPacerTest's, on a clock that test moves.
        assertTrue("write rate " + perChainPer10s, perChainPer10s <= 1.5);
        // The status still follows the measurements: every chain's p95 is rewritten, however slowly.
        Map<String, Object> before = p95s();
        assertEquals(before.keySet(), new HashSet<>(names));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        Set<String> stale = new HashSet<>(names);
        while (!stale.isEmpty()) {
            assertTrue("not rewritten within 300 s: " + stale, System.nanoTime() < deadline);
            Thread.sleep(1000); // one list a second: the API server is what is measured, not the test
            Map<String, Object> now = p95s();
            stale.removeIf(name -> !Objects.equals(before.get(name), now.get(name)));
        }
        // Repeats of the same Event count on one Event (client-go's aggregation).
        controller.flushEvents();
        assertTrue(controller.counters().toString(), controller.counters().get("eventsAggregated") > 0
                || controller.counters().get("eventsDropped") > 0);
    }
}
