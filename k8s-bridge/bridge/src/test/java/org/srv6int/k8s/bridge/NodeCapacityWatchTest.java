// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Free resources ({@link NodeCapacityWatch}) against fabric8's mock API server: the scheduler's
 * arithmetic, the first answer by a LIST, then the same from the watch, and never a watched answer
 * before its whole first list is taken in. A server per test: the mock stalls its event loop for
 * seconds when a watch closes with events in flight, which must not reach another test. The mock ignores the
 * field selector {@code spec.nodeName!=} (it says so), so here the bridge's own filter is what
 * leaves out unbound and finished pods; the real API server's is in {@link RealApiServerTest}.
 */
public class NodeCapacityWatchTest {
    private static final BridgeConfig CONFIG = new BridgeConfig("srv6int-sfc", 5, Duration.ofMillis(10),
            Duration.ofMillis(80), Duration.ofSeconds(20), Duration.ofSeconds(3));

    private MockApiServer mock;
    private KubernetesClient k8s;
    private Fabric8VnfReplicaManager bridge;

    @Before
    public void setUp() throws Exception {
        mock = new MockApiServer(CONFIG);
        k8s = mock.client;
        bridge = new Fabric8VnfReplicaManager(k8s, CONFIG);
    }

    @After
    public void tearDown() {
        bridge.close();
        mock.close(); // waits out the mock's stall on closing a watch (see MockApiServer)
    }

    @Test
    public void freeResourcesAreAllocatableMinusRequestsOfLivePods() throws Exception {
        for (String n : List.of("worker1", "worker2")) {
            k8s.nodes().resource(new NodeBuilder().withNewMetadata().withName(n).endMetadata()
                    .withNewSpec().endSpec().withNewStatus()
                    .addToAllocatable("cpu", new Quantity("20")).addToAllocatable("memory", new Quantity("64Gi"))
                    .addNewCondition().withType("Ready").withStatus("True").endCondition()
                    .endStatus().build()).create();
        }
        k8s.nodes().resource(new NodeBuilder().withNewMetadata().withName("cordoned").endMetadata()
                .withNewSpec().withUnschedulable(true).endSpec().withNewStatus()
                .addToAllocatable("cpu", new Quantity("64"))
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build()).create();
        List<Pod> pods = new ArrayList<>();
        pods.add(pod("a", "worker1", "Running", "2", "4Gi", null));
        pods.add(pod("b", "worker1", "Pending", "500m", "512Mi", null));
        pods.add(pod("c", "worker1", "Succeeded", "8", "8Gi", null)); // finished: frees its requests
        pods.add(pod("d", "worker2", "Running", "1", "1Gi", "3")); // init container needs more than the app
        pods.add(pod("e", null, "Pending", "16", "16Gi", null)); // not scheduled
        for (Pod p : pods) {
            k8s.pods().inNamespace("other").resource(p).create();
        }
        Map<String, NodeResources> free = bridge.nodeFreeResources();
        // worker1 has 2.5 cpu requested, worker2 3 cpu (its init container): worker1 is freer.
        assertEquals(List.of("worker1", "worker2"), new ArrayList<>(free.keySet()));
        NodeResources w1 = free.get("worker1");
        assertEquals(20_000 - 2_500, w1.freeCpuMillis());
        assertEquals(64L * (1L << 30) - 4L * (1L << 30) - 512L * (1L << 20), w1.freeMemoryBytes());
        assertEquals(20_000, w1.allocatableCpuMillis());
        assertEquals(20_000 - 3_000, free.get("worker2").freeCpuMillis());
        // The same from the watch once it is established (the first answer was a LIST).
        awaitWatchAnswering();
        assertEquals(RealApiServerTest.render(free), RealApiServerTest.render(bridge.nodeFreeResources()));
        assertEquals(1, bridge.nodeCapacityStats().fromWatch());
        assertEquals(1, bridge.nodeCapacityStats().byList());
    }

    /**
     * fabric8 hands an informer's first list to the handlers on another thread after its start has
     * completed: the watch answers only once its handler has taken in all of it, never a part.
     */
    @Test
    public void theWatchAnswersOnlyOnceItHasTakenInItsWholeList() throws Exception {
        k8s.nodes().resource(new NodeBuilder().withNewMetadata().withName("worker1").endMetadata()
                .withNewSpec().endSpec().withNewStatus().addToAllocatable("cpu", new Quantity("64"))
                .addToAllocatable("memory", new Quantity("64Gi"))
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build()).create();
        for (int i = 0; i < 400; i++) {
            k8s.pods().inNamespace("other").resource(pod("p" + i, "worker1", "Running", "10m", "1Mi", null)).create();
        }
        Map<String, NodeResources> listed = bridge.nodeFreeResources();
        assertEquals(64_000 - 4_000, listed.get("worker1").freeCpuMillis());
        awaitWatchAnswering();
        assertEquals(RealApiServerTest.render(listed), RealApiServerTest.render(bridge.nodeFreeResources()));
        assertEquals(1, bridge.nodeCapacityStats().fromWatch());
    }

    /** Waits (20 s at most) until the watch can answer, asking every millisecond. */
    private void awaitWatchAnswering() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (bridge.nodeCapacityStats().problem() != null) {
            assertTrue(bridge.nodeCapacityStats().toString(), System.nanoTime() < deadline);
            Thread.sleep(1);
        }
    }

    private static Pod pod(String name, String node, String phase, String cpu, String mem, String initCpu) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).endMetadata();
        var spec = b.withNewSpec().withNodeName(node).addNewContainer().withName("c").withImage("x")
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(mem))
                .endResources().endContainer();
        if (initCpu != null) {
            spec = spec.addNewInitContainer().withName("i").withImage("x").withNewResources()
                    .addToRequests("cpu", new Quantity(initCpu)).endResources().endInitContainer();
        }
        return spec.endSpec().withNewStatus().withPhase(phase).endStatus().build();
    }
}
