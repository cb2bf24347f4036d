// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import java.net.InetAddress;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Error paths of the bridge against fabric8's mock API server: injected 5xx,
 * timeouts, 409 conflicts, refused connections, plus the shape of the objects it
 * creates and the free-resource arithmetic. The real API server tests are in
 * {@link RealApiServerTest}.
 */
public class Fabric8VnfReplicaManagerTest {
    private static final String NS = "srv6int-sfc";
    private static final String STS_PATH = "/apis/apps/v1/namespaces/" + NS + "/statefulsets";
    private static final BridgeConfig CONFIG = new BridgeConfig(NS, 5, Duration.ofMillis(10),
            Duration.ofMillis(80), Duration.ofSeconds(20), Duration.ofSeconds(3));

    private MockApiServer mock;
    private KubernetesClient k8s;
    private Fabric8VnfReplicaManager bridge;

    /**
     * A server per test: a test that closes a watch with events in flight stalls one of the mock's
     * event loops for up to 30 s (see {@link MockApiServer}), and a shared server's next tests then
     * timed out behind it (CI of stop 41: two POSTs, 3 s each).
     */
    @Before
    public void setUp() throws Exception {
        mock = new MockApiServer(CONFIG);
        k8s = mock.client;
        bridge = new Fabric8VnfReplicaManager(k8s, CONFIG);
    }

    @After
    public void tearDown() {
        bridge.close(); // its watch; the client is the mock's
        mock.close(); // waits out the mock's stall on closing a watch
    }

    static ReplicaRequest request(String chain, int vnf, int replica, String node) {
        return ReplicaRequest.builder().chainId(chain).vnfIndex(vnf).vnfType("snort").replicaIndex(replica)
                .nodeName(node).image("registry.local/snort:2.9").request("cpu", "2").request("memory", "4Gi")
                .limit("cpu", "4").limit("memory", "4Gi").build();
    }

    private List<StatefulSet> statefulSets() {
        return k8s.apps().statefulSets().inNamespace(NS).list().getItems();
    }

    @Test
    public void ensureCreatesPinnedLabelledStatefulSetWithResources() {
        ReplicaStatus s = bridge.ensureReplica(request("c1", 3, 0, "worker2"));
        assertEquals("sfc-c1-vnf3-r0", s.name());
        assertEquals(ReplicaStatus.PHASE_ABSENT, s.phase()); // no controller behind the mock
        assertFalse(s.ready());
        StatefulSet sts = k8s.apps().statefulSets().inNamespace(NS).withName("sfc-c1-vnf3-r0").get();
        assertNotNull(sts);
        assertEquals(Integer.valueOf(1), sts.getSpec().getReplicas());
        Map<String, String> labels = sts.getMetadata().getLabels();
        assertEquals("c1", labels.get(ReplicaNames.LABEL_CHAIN));
        assertEquals("3", labels.get(ReplicaNames.LABEL_VNF));
        assertEquals("0", labels.get(ReplicaNames.LABEL_REPLICA));
        assertEquals("snort", labels.get(ReplicaNames.LABEL_VNF_TYPE));
        assertEquals(ReplicaNames.MANAGER, labels.get(ReplicaNames.LABEL_MANAGED_BY));
        assertEquals(labels, sts.getSpec().getTemplate().getMetadata().getLabels());
        assertEquals("worker2", sts.getSpec().getTemplate().getSpec().getNodeSelector()
                .get(ReplicaNames.HOSTNAME_LABEL));
        var res = sts.getSpec().getTemplate().getSpec().getContainers().get(0).getResources();
        assertEquals(new Quantity("2"), res.getRequests().get("cpu"));
        assertEquals(new Quantity("4Gi"), res.getRequests().get("memory"));
        assertEquals(new Quantity("4"), res.getLimits().get("cpu"));
        assertEquals("registry.local/snort:2.9",
                sts.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    }

    /** The NUMA node the app's placement chose reaches the API server on the pod template (the agent reads the pod). */
    @Test
    public void theChosenNumaNodeIsWrittenOnThePodTemplate() {
        ReplicaRequest r = ReplicaRequest.builder().chainId("c1").vnfIndex(0).vnfType("snort").replicaIndex(0)
                .nodeName("worker1").image("registry.local/snort:2.9").request("cpu", "2")
                .identity("fc00:0:2:f::1", "of:0000000000000002", 3).numaNode(1).build();
        bridge.ensureReplica(r);
        StatefulSet sts = k8s.apps().statefulSets().inNamespace(NS).withName("sfc-c1-vnf0-r0").get();
        Map<String, String> pod = sts.getSpec().getTemplate().getMetadata().getAnnotations();
        assertEquals("1", pod.get("srv6int.org/numa-node"));
        assertEquals("fc00:0:2:f::1", pod.get("srv6int.org/sid"));
        // Without a choice the pod asks for no NUMA node (the node agent's NUMASFP places it).
        bridge.ensureReplica(request("c1", 0, 1, "worker1"));
        StatefulSet plain = k8s.apps().statefulSets().inNamespace(NS).withName("sfc-c1-vnf0-r1").get();
        Map<String, String> none = plain.getSpec().getTemplate().getMetadata().getAnnotations();
        assertTrue(none == null || !none.containsKey("srv6int.org/numa-node"));
    }

    @Test
    public void repeatedEnsureNeverMakesASecondReplica() {
        ReplicaRequest r = request("c1", 0, 0, "worker1");
        for (int i = 0; i < 3; i++) {
            bridge.ensureReplica(r);
        }
        assertEquals(1, statefulSets().size());
    }

    @Test
    public void injected500sAreRetried() {
        mock.server.expect().post().withPath(STS_PATH)
                .andReturn(500, new StatusBuilder().withCode(500).withMessage("etcdserver: leader changed").build())
                .times(2);
        int before = mock.server.getRequestCount();
        bridge.ensureReplica(request("c1", 0, 0, "worker1"));
        assertEquals(1, statefulSets().size());
        // Three GET+POST rounds (two answered 500) then the pod status GET.
        assertTrue("requests: " + (mock.server.getRequestCount() - before),
                mock.server.getRequestCount() - before >= 7);
    }

    @Test
    public void lostCreateResponseIsNotRepeated() {
        // The first POST reached the server and made the replica, but its answer was lost
        // (503 here); the first GET had seen nothing. The retry must find it, not duplicate it.
        k8s.apps().statefulSets().inNamespace(NS)
                .resource(Fabric8VnfReplicaManager.statefulSet(request("c1", 0, 0, "worker1"))).create();
        mock.server.expect().get().withPath(STS_PATH + "/sfc-c1-vnf0-r0")
                .andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound").build()).once();
        mock.server.expect().post().withPath(STS_PATH)
                .andReturn(503, new StatusBuilder().withCode(503).withMessage("response lost").build()).once();
        ReplicaStatus s = bridge.ensureReplica(request("c1", 0, 0, "worker1"));
        assertEquals("sfc-c1-vnf0-r0", s.name());
        assertEquals(1, statefulSets().size());
    }

    @Test
    public void conflictOnCreateIsResolvedByGet() {
        // Another caller created it between our GET (404) and our POST: the POST gets
        // 409 AlreadyExists from the store, and the bridge returns the existing replica.
        k8s.apps().statefulSets().inNamespace(NS)
                .resource(Fabric8VnfReplicaManager.statefulSet(request("c1", 0, 0, "worker2"))).create();
        mock.server.expect().get().withPath(STS_PATH + "/sfc-c1-vnf0-r0")
                .andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound").build()).once();
        bridge.ensureReplica(request("c1", 0, 0, "worker1"));
        List<StatefulSet> all = statefulSets();
        assertEquals(1, all.size());
        // The existing one wins: a retried request never replaces a replica.
        assertEquals("worker2", all.get(0).getSpec().getTemplate().getSpec().getNodeSelector()
                .get(ReplicaNames.HOSTNAME_LABEL));
    }

    @Test
    public void foreignObjectWithTheSameNameIsNotAdopted() {
        k8s.apps().statefulSets().inNamespace(NS).resource(new StatefulSetBuilder()
                .withNewMetadata().withName("sfc-c1-vnf0-r0").endMetadata().withNewSpec().endSpec().build())
                .create();
        try {
            bridge.ensureReplica(request("c1", 0, 0, "worker1"));
            fail("adopted a StatefulSet the bridge does not manage");
        } catch (BridgeException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("not a replica managed by the bridge"));
        }
    }

    @Test
    public void timeoutsAreRetried() {
        mock.server.expect().get().delay(5, TimeUnit.SECONDS).withPath(STS_PATH + "/sfc-c1-vnf0-r0")
                .andReturn(404, new StatusBuilder().withCode(404).build()).once();
        long t0 = System.nanoTime();
        bridge.ensureReplica(request("c1", 0, 0, "worker1"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue("first attempt should have timed out after ~3 s, took " + ms, ms >= 2900);
        assertEquals(1, statefulSets().size());
    }

    @Test
    public void exhaustedBudgetGivesAClearError() {
        mock.server.expect().post().withPath(STS_PATH)
                .andReturn(500, new StatusBuilder().withCode(500).withMessage("boom").build()).always();
        try {
            bridge.ensureReplica(request("c1", 0, 0, "worker1"));
            fail("expected BridgeException");
        } catch (BridgeException e) {
            assertEquals(5, e.attempts());
            assertEquals(500, e.httpCode());
            assertTrue(e.getMessage(), e.getMessage().contains("sfc-c1-vnf0-r0")
                    && e.getMessage().contains("attempts exhausted") && e.getMessage().contains("HTTP 500"));
        }
        assertEquals(0, statefulSets().size());
    }

    @Test
    public void clientErrorsAreNotRetried() {
        mock.server.expect().post().withPath(STS_PATH)
                .andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden")
                        .withMessage("statefulsets.apps is forbidden").build()).always();
        try {
            bridge.ensureReplica(request("c1", 0, 0, "worker1"));
            fail("expected BridgeException");
        } catch (BridgeException e) {
            assertEquals(1, e.attempts());
            assertEquals(403, e.httpCode());
            assertTrue(e.getMessage(), e.getMessage().contains("not retryable"));
        }
    }

    @Test
    public void refusedConnectionIsRetriedThenReported() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        BridgeConfig cfg = new BridgeConfig(NS, 3, Duration.ofMillis(10), Duration.ofMillis(20),
                Duration.ofSeconds(5), Duration.ofSeconds(1));
        io.fabric8.kubernetes.client.Config c = new io.fabric8.kubernetes.client.ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + port).build();
        try (KubernetesClient dead = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(Fabric8VnfReplicaManager.tune(c, cfg))
                .withHttpClientFactory(new io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory()).build()) {
            new Fabric8VnfReplicaManager(dead, cfg).ensureReplica(request("c1", 0, 0, "worker1"));
            fail("expected BridgeException");
        } catch (BridgeException e) {
            assertEquals(3, e.attempts());
            assertTrue("no HTTP status expected, got " + e.httpCode(), e.httpCode() <= 0);
            assertTrue(e.getMessage(), e.getMessage().contains("attempts exhausted"));
        }
    }

    @Test
    public void scaleKeepsExactlyTheDesiredReplicas() {
        bridge.scale("c1", 1, List.of(request("c1", 1, 0, "worker1"), request("c1", 1, 1, "worker2"),
                request("c1", 1, 2, "worker2")));
        bridge.ensureReplica(request("c1", 2, 0, "worker1")); // another vNF: untouched
        assertEquals(3, bridge.listReplicas("c1", 1).size());
        bridge.scale("c1", 1, List.of(request("c1", 1, 1, "worker2")));
        List<ReplicaStatus> left = bridge.listReplicas("c1", 1);
        assertEquals(1, left.size());
        assertEquals(1, left.get(0).replicaIndex());
        assertEquals(1, bridge.listReplicas("c1", 2).size());
        assertEquals(2, bridge.removeChain("c1"));
        assertEquals(0, statefulSets().size());
        assertFalse(bridge.removeReplica("c1", 1, 1));
    }

    @Test
    public void scaleRejectsRequestsOfAnotherVnf() {
        try {
            bridge.scale("c1", 1, List.of(request("c1", 2, 0, "worker1")));
            fail("expected IllegalArgumentException");
        } catch (IllegalArgumentException e) {
            assertEquals(0, statefulSets().size());
        }
    }

    @Test
    public void awaitReadyReportsPodIpAndNodeOrTimesOut() {
        bridge.ensureReplica(request("c1", 0, 0, "worker1"));
        try {
            bridge.awaitReady("c1", 0, 0, Duration.ofMillis(300));
            fail("expected timeout");
        } catch (BridgeException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("not Ready after"));
        }
        k8s.pods().inNamespace(NS).resource(ReplicaWatchTest.podOf(request("c1", 0, 0, "worker1"), true)).create();
        ReplicaStatus s = bridge.awaitReady("c1", 0, 0, Duration.ofSeconds(5));
        assertTrue(s.ready());
        assertEquals("worker1", s.nodeName());
        assertEquals("10.0.0.7", s.podIp());
        assertEquals("Running", s.phase());
    }

    @Test
    public void awaitReadyOfAMissingReplicaFailsAtOnce() {
        try {
            bridge.awaitReady("c1", 0, 0, Duration.ofSeconds(30));
            fail("expected BridgeException");
        } catch (BridgeException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("does not exist"));
        }
    }
}
