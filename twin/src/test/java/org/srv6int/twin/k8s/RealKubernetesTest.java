// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.k8s;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;

/**
 * {@code --k8s real} end to end: the twin's platform on a real control plane
 * (tools/k8s-testenv), started here, or attached to when {@code srv6int.twin.kubeconfig}
 * (or SRV6INT_TWIN_KUBECONFIG) names the admin kubeconfig of a running one started with
 * SRV6INT_K8S_KWOK_STAGES=crd (tests/ci.d/30-k8s.sh). Skipped, with the reason printed, when
 * the control plane's binaries are not built.
 */
public class RealKubernetesTest {
    private static final Duration DELAY = Duration.ofSeconds(3);
    private static final VnfKey SNORT = VnfKey.of(SfcId.of(2), 3);
    /** CPU of the experiment's initial Snort pod on worker1 and of a new replica (the template's). */
    private static final long INITIAL_MILLIS = 2500;
    private static final long TEMPLATE_MILLIS = 3000;
    private static RealKubernetes k8s;

    @BeforeClass
    public static void startControlPlane() throws Exception {
        k8s = TestControlPlane.start("RealKubernetesTest", DELAY);
    }

    @AfterClass
    public static void stopControlPlane() {
        if (k8s != null) {
            k8s.close();
        }
    }

    private static Map<String, NodeResources> free() {
        Map<String, NodeResources> m = new HashMap<>();
        for (NodeResources r : k8s.nodeFreeResources()) {
            m.put(r.node(), r);
        }
        return m;
    }

    /** Ticks simulated time in 1 ms steps from {@code fromS} until the stage is done; returns the time then. */
    private static double tickUntilDone(CompletionStage<?> s, double fromS) {
        CompletableFuture<?> f = s.toCompletableFuture();
        double t = fromS;
        while (!f.isDone()) {
            t += 0.001;
            k8s.advanceTo(t);
            if (t > fromS + 300) {
                fail("not done after 300 simulated s");
            }
        }
        return t;
    }

    private static void awaitFreeCpu(String node, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (free().get(node).freeCpuMillis() != millis) {
            if (System.nanoTime() > deadline) {
                fail(node + "'s free CPU not " + millis + " m 60 s after the delete: " + free().get(node));
            }
            Thread.sleep(100);
        }
    }

    @Test
    public void replicaIsReadyAfterTheKwokDelayWhileSimulatedTimeIsHeld() throws Exception {
        // The experiment starts with Snort's pod r0 on worker1 holding 2.5 cores.
        k8s.reset(List.of("worker1", "worker2"), v -> "Snort", v -> TEMPLATE_MILLIS,
                  List.of(new RealKubernetes.InitialReplica(SNORT, "r0", "worker1", INITIAL_MILLIS)));
        Map<String, NodeResources> before = free();
        // The nodes have a twin worker's 10 cores; the initial pod's request is its allocation.
        assertEquals(Map.of("worker1", 10_000L - INITIAL_MILLIS, "worker2", 10_000L),
                     Map.of("worker1", before.get("worker1").freeCpuMillis(),
                            "worker2", before.get("worker2").freeCpuMillis()));
        for (double t = 0; t < 10; t += 0.001) {
            k8s.advanceTo(t); // nothing in flight: no pacing
        }
        assertEquals(0.0, k8s.heldSeconds(), 0.0);

        long t0 = System.nanoTime();
        CompletionStage<ReplicaInfo> create = k8s.createReplica(SNORT, "worker2", "t4-0");
        double readyAt = tickUntilDone(create, 10);
        double wall = (System.nanoTime() - t0) / 1e9;
        ReplicaInfo r = create.toCompletableFuture().join();
        double simulated = readyAt - 10;
        System.out.println(String.format(Locale.ROOT, "RealKubernetesTest: kwok delay %.1f s; create to Ready "
                + "%.3f s wall, %.3f s simulated, advanceTo held %.3f s", DELAY.toMillis() / 1e3, wall, simulated,
                k8s.heldSeconds()));
        // replica 0 is the initial pod (the inventory's r0): the new one is the next, as in the simulated platform
        assertEquals("sfc-2-vnf3-r1", r.id());
        assertEquals("worker2", r.node());
        assertNotNull("pod IP", r.podIp());
        // kwok's pod-ready Stage makes the pod Ready only after the delay...
        assertTrue("Ready after " + wall + " s of wall time", wall >= DELAY.toMillis() / 1e3);
        // ...and simulated time was held meanwhile: it shows the delay too (less only by what a
        // loaded machine delays this thread between ticks), the ticks waited for it.
        assertTrue("Ready after " + simulated + " simulated s", simulated >= DELAY.toMillis() / 1e3 - 0.2);
        assertTrue("simulated " + simulated + " s ran ahead of wall " + wall + " s", simulated <= wall + 0.01);
        assertTrue("advanceTo held " + k8s.heldSeconds() + " s", k8s.heldSeconds() >= DELAY.toMillis() / 1e3 - 0.5);

        Map<String, NodeResources> after = free();
        assertEquals("the template's CPU requested", TEMPLATE_MILLIS,
                     before.get("worker2").freeCpuMillis() - after.get("worker2").freeCpuMillis());
        assertEquals("4Gi requested", 4L << 30,
                     before.get("worker2").freeMemoryBytes() - after.get("worker2").freeMemoryBytes());
        assertEquals(before.get("worker1").freeCpuMillis(), after.get("worker1").freeCpuMillis());

        long d0 = System.nanoTime();
        double deletedAt = tickUntilDone(k8s.deleteReplica(SNORT, r.id()), readyAt);
        awaitFreeCpu("worker2", before.get("worker2").freeCpuMillis());
        System.out.println(String.format(Locale.ROOT, "RealKubernetesTest: delete completed after %.3f simulated s, "
                + "worker2's resources free again after %.3f s wall", deletedAt - readyAt,
                        (System.nanoTime() - d0) / 1e9));
        assertEquals(before.get("worker2").freeMemoryBytes(), free().get("worker2").freeMemoryBytes());
        double held = k8s.heldSeconds();
        for (double t = deletedAt; t < deletedAt + 10; t += 0.001) {
            k8s.advanceTo(t);
        }
        assertEquals("no pacing after the delete", held, k8s.heldSeconds(), 0.0);

        // The initial pod is deleted by its inventory name, r0: the bridge's replica 0 on worker1 goes.
        tickUntilDone(k8s.deleteReplica(SNORT, "r0"), deletedAt + 10);
        awaitFreeCpu("worker1", 10_000L);
    }
}
