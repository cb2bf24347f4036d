// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import java.net.InetAddress;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The bridge's watch of replica readiness ({@link ReplicaWatch}) against fabric8's mock API server:
 * its in-memory store serves LIST and WATCH like the API server; scripted responses stand in for
 * what it cannot be made to do (a {@code 410 Gone} on a watch, a watch refused by RBAC). Listener
 * events are checked in order; the real API server's are in {@link RealApiServerTest}.
 */
public class ReplicaWatchTest {
    private static final String NS = "srv6int-sfc";
    private static final BridgeConfig CONFIG = new BridgeConfig(NS, 5, Duration.ofMillis(10),
            Duration.ofMillis(80), Duration.ofSeconds(20), Duration.ofSeconds(3));
    private static final String PODS = "/api/v1/namespaces/" + NS + "/pods";

    private MockApiServer mock;
    private KubernetesClient k8s;
    private Fabric8VnfReplicaManager bridge;
    private final BlockingQueue<ReplicaStatus> told = new LinkedBlockingQueue<>();
    private final ReplicaListener listener = (chain, vnf, s) -> told.add(s);

    // A server per test: informers of one test never meet the next one's store.
    @Before
    public void setUp() throws Exception {
        mock = new MockApiServer(CONFIG);
        k8s = mock.client;
        bridge = new Fabric8VnfReplicaManager(k8s, CONFIG);
    }

    @After
    public void tearDown() {
        bridge.close();
        mock.close();
    }

    /** The pod the StatefulSet controller would make from the replica's template (the mock has no controller). */
    static Pod podOf(ReplicaRequest r, boolean ready) {
        var template = Fabric8VnfReplicaManager.statefulSet(r).getSpec().getTemplate();
        return new PodBuilder().withNewMetadata().withName(ReplicaNames.podName(r.name())).withNamespace(NS)
                .withLabels(template.getMetadata().getLabels()).endMetadata()
                .withNewSpec().withNodeName(r.nodeName()).withContainers(template.getSpec().getContainers())
                .endSpec()
                .withNewStatus().withPhase("Running").withPodIP("10.0.0.7")
                .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition()
                .endStatus().build();
    }

    private ReplicaStatus next() throws InterruptedException {
        ReplicaStatus s = told.poll(10, TimeUnit.SECONDS);
        assertNotNull("no readiness change told", s);
        return s;
    }

    private static void waitFor(String what, BooleanSupplier c) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!c.getAsBoolean()) {
            assertTrue("timed out waiting for " + what, System.nanoTime() < deadline);
            Thread.sleep(10);
        }
    }

    @Test
    public void appearanceReadinessAndDeletionAreToldInOrderAndQueriesReadTheCache() throws Exception {
        ReplicaRequest r = Fabric8VnfReplicaManagerTest.request("c1", 2, 0, "worker1");
        bridge.addListener(listener);
        waitFor("watch established", () -> bridge.watchedReplicas("c1", 2).isPresent());
        assertEquals(List.of(), bridge.watchedReplicas("c1", 2).get());
        bridge.ensureReplica(r);
        ReplicaStatus s = next();
        assertEquals("sfc-c1-vnf2-r0", s.name());
        assertFalse(s.ready());
        assertEquals(ReplicaStatus.PHASE_ABSENT, s.phase());
        k8s.pods().inNamespace(NS).resource(podOf(r, false)).create();
        k8s.pods().inNamespace(NS).resource(podOf(r, true)).update();
        s = next();
        assertTrue(s.ready());
        assertEquals("10.0.0.7", s.podIp());
        assertEquals("worker1", s.nodeName());
        // A query is a read of the cache: no request reaches the API server.
        int before = mock.server.getRequestCount();
        assertEquals(List.of(s), bridge.watchedReplicas("c1", 2).get());
        assertEquals(List.of(), bridge.watchedReplicas("c1", 3).get());
        assertEquals(before, mock.server.getRequestCount());
        k8s.pods().inNamespace(NS).resource(podOf(r, false)).update();
        assertFalse(next().ready());
        bridge.removeReplica("c1", 2, 0);
        s = next();
        assertEquals(ReplicaStatus.PHASE_DELETED, s.phase());
        assertFalse(s.ready());
        assertEquals(List.of(), bridge.watchedReplicas("c1", 2).get());
        // Nothing else: a phase or IP change of a not-Ready pod is not a readiness change.
        assertNull(told.poll(200, TimeUnit.MILLISECONDS));
    }

    @Test
    public void awaitReadyWakesOnTheWatchEvent() throws Exception {
        ReplicaRequest r = Fabric8VnfReplicaManagerTest.request("c1", 0, 0, "worker1");
        bridge.ensureReplica(r);
        new Thread(() -> {
            try {
                Thread.sleep(300);
                k8s.pods().inNamespace(NS).resource(podOf(r, true)).create();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).start();
        ReplicaStatus s = bridge.awaitReady("c1", 0, 0, Duration.ofSeconds(10));
        assertTrue(s.ready());
        assertEquals("sfc-c1-vnf0-r0-0", s.podName());
    }

    private static final String SELECTOR = "labelSelector=app.kubernetes.io%2Fmanaged-by%3Dsrv6int-k8s-bridge";
    private static final String SETS = "/apis/apps/v1/namespaces/" + NS + "/statefulsets";

    /** The paths of the informers' first LIST (any cached version), re-LIST and WATCH from version rv. */
    private static String firstList(String base) {
        return base + "?" + SELECTOR + "&resourceVersion=0";
    }

    private static String watchFrom(String base, String rv) {
        return base + "?allowWatchBookmarks=true&" + SELECTOR + "&resourceVersion=" + rv
                + "&timeoutSeconds=600&watch=true";
    }

    /**
     * An API server that answers only what is scripted (fabric8's mock in expectation mode): the
     * replica's StatefulSet listed at version 10 and watched from there with no event.
     */
    private static io.fabric8.kubernetes.client.server.mock.KubernetesMockServer scripted(ReplicaRequest r)
            throws Exception {
        var server = new io.fabric8.kubernetes.client.server.mock.KubernetesMockServer(false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        var sts = Fabric8VnfReplicaManager.statefulSet(r);
        sts.getMetadata().setNamespace(NS);
        sts.getMetadata().setResourceVersion("5");
        server.expect().withPath(firstList(SETS)).andReturn(200, new io.fabric8.kubernetes.api.model.apps
                .StatefulSetListBuilder().withMetadata(new io.fabric8.kubernetes.api.model.ListMetaBuilder()
                .withResourceVersion("10").build()).withItems(sts).build()).always();
        quietWatch(server, watchFrom(SETS, "10"));
        return server;
    }

    /** A watch that stays open with no event (the mock closes a session once its events are sent). */
    private static void quietWatch(io.fabric8.kubernetes.client.server.mock.KubernetesMockServer server, String path) {
        server.expect().withPath(path).andUpgradeToWebSocket().open().waitFor(5_000)
                .andEmit(new WatchEvent(new StatusBuilder().withCode(410).build(), "ERROR")).done().always();
    }

    private static io.fabric8.kubernetes.api.model.PodList podList(String rv, Pod... pods) {
        for (Pod p : pods) {
            p.getMetadata().setResourceVersion(rv);
        }
        return new io.fabric8.kubernetes.api.model.PodListBuilder().withMetadata(
                new io.fabric8.kubernetes.api.model.ListMetaBuilder().withResourceVersion(rv).build())
                .withItems(pods).build();
    }

    private static KubernetesClient clientOf(io.fabric8.kubernetes.client.server.mock.KubernetesMockServer s) {
        return new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(Fabric8VnfReplicaManager.tune(s.createClient().getConfiguration(), CONFIG))
                .withHttpClientFactory(new io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory()).build();
    }

    @Test
    public void aGoneResourceVersionIsListedAgainAndTheChangeMadeMeanwhileIsTold() throws Exception {
        ReplicaRequest r = Fabric8VnfReplicaManagerTest.request("c1", 0, 0, "worker1");
        var server = scripted(r);
        // Listed at 10 not Ready; the watch from 10 delivers nothing and ends with 410 Gone (history
        // compacted); the pod turned Ready meanwhile (version 20), which only the re-list can tell.
        server.expect().withPath(firstList(PODS)).andReturn(200, podList("10", podOf(r, false))).once();
        Status gone = new StatusBuilder().withCode(410).withReason("Expired").withMessage("too old resource version")
                .build();
        server.expect().withPath(watchFrom(PODS, "10")).andUpgradeToWebSocket().open()
                .waitFor(500).andEmit(new WatchEvent(gone, "ERROR")).done().once();
        server.expect().withPath(PODS + "?" + SELECTOR).andReturn(200, podList("20", podOf(r, true))).once();
        quietWatch(server, watchFrom(PODS, "20"));
        try (KubernetesClient c = clientOf(server); ReplicaWatch watch = new ReplicaWatch(c, NS,
                Duration.ofSeconds(1))) {
            watch.addListener(listener);
            ReplicaStatus s = next();
            assertFalse(s.ready());
            s = next();
            assertTrue("told after the re-list", s.ready());
            waitFor("watch re-established", () -> watch.replicas("c1", 0).isPresent());
            assertTrue(watch.replicas("c1", 0).get().get(0).ready());
            List<String> paths = paths(requests(server));
            assertTrue(paths.toString(), paths.contains(PODS + "?" + SELECTOR));
            assertTrue(paths.toString(), paths.contains(watchFrom(PODS, "20")));
        } finally {
            server.destroy();
        }
    }

    private static List<RecordedRequest> requests(io.fabric8.kubernetes.client.server.mock.KubernetesMockServer s)
            throws InterruptedException {
        List<RecordedRequest> out = new ArrayList<>();
        RecordedRequest q;
        while ((q = s.takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
            out.add(q);
        }
        return out;
    }

    @Test
    public void aWatchRefusedByRbacFailsClearlyWithoutPollingAndHealsOnceAllowed() throws Exception {
        ReplicaRequest r = Fabric8VnfReplicaManagerTest.request("c1", 0, 0, "worker1");
        var server = scripted(r);
        server.expect().withPath(firstList(PODS)).andReturn(200, podList("10", podOf(r, true))).always();
        Status forbidden = new StatusBuilder().withCode(403).withReason("Forbidden").withMessage(
                "pods is forbidden: User \"system:serviceaccount:srv6int-sfc:srv6int-k8s-bridge\" cannot watch "
                        + "resource \"pods\" in API group \"\" in the namespace \"srv6int-sfc\"").build();
        // Refused once (the RBAC without watch), allowed from then on (the RBAC applied).
        server.expect().withPath(watchFrom(PODS, "10")).andReturn(403, forbidden).once();
        quietWatch(server, watchFrom(PODS, "10"));
        try (KubernetesClient c = clientOf(server); ReplicaWatch watch = new ReplicaWatch(c, NS,
                Duration.ofMillis(700))) {
            watch.addListener(listener);
            waitFor("refusal seen", () -> watch.problem() != null && watch.problem().startsWith("watch refused"));
            assertTrue(watch.problem(), watch.problem().contains("403"));
            assertEquals(Optional.empty(), watch.replicas("c1", 0));
            long t0 = System.nanoTime();
            try {
                watch.awaitReady(r.name(), Duration.ofSeconds(30));
                fail("expected BridgeException");
            } catch (BridgeException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("may not watch its replicas"));
                assertTrue(e.getMessage(), e.getMessage().contains("bridge-rbac.yaml"));
                assertEquals(403, e.httpCode());
            }
            assertTrue("fails at once, not after the timeout", System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5));
            requests(server);
            Thread.sleep(200);
            assertEquals("no polling while refused", List.of(), paths(requests(server)));
            // The next query after the pause starts the watch again, which is now allowed.
            Thread.sleep(600);
            waitFor("watch healed", () -> watch.replicas("c1", 0).isPresent());
            assertTrue(watch.replicas("c1", 0).get().get(0).ready());
            assertNull(watch.problem());
            // What the permitted LIST showed was told; the restart found nothing new to tell.
            List<ReplicaStatus> all = new ArrayList<>();
            told.drainTo(all);
            assertTrue(all.toString(), all.get(all.size() - 1).ready());
        } finally {
            server.destroy();
        }
    }

    private static List<String> paths(List<RecordedRequest> qs) {
        List<String> out = new ArrayList<>();
        qs.forEach(q -> out.add(q.getPath()));
        return out;
    }
}
