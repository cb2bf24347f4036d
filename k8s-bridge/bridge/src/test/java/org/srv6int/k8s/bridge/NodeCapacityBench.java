// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The cost of one placement's {@code nodeFreeResources()} with N pods in the cluster: answered from
 * the bridge's watch against the LIST of every node and pod it replaced, measured in the same run,
 * alternating LIST, watch, LIST, watch ... (ROUNDS pairs), the ratio taken pair by pair. Each pair's
 * two answers must be equal (the benchmark stops otherwise). Wall time per call as the caller sees it
 * (the LIST's includes the API server's work); also the heap the watch's caches hold (used heap after
 * a GC with and without the watch, rough). Prints figures; asserts nothing.
 *
 * <p>Usage: {@code NodeCapacityBench <admin kubeconfig> <bridge kubeconfig> [N ...]}, against
 * tools/k8s-testenv (tools/bench-capacity runs it).
 */
public final class NodeCapacityBench {
    private static final String NS = "bench-capacity";
    private static final BridgeConfig CONFIG = new BridgeConfig("srv6int-sfc", 10, Duration.ofMillis(100),
            Duration.ofSeconds(2), Duration.ofSeconds(60), Duration.ofSeconds(30));

    private NodeCapacityBench() {
    }

    public static void main(String[] args) throws Exception {
        File admin = new File(args[0]);
        File bridgeKc = new File(args[1]);
        int[] sizes = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {100, 500, 2000};
        int rounds = Integer.parseInt(System.getenv().getOrDefault("ROUNDS", "15"));
        try (KubernetesClient k = RealApiServerTest.client(admin)) {
            if (k.namespaces().withName(NS).get() == null) {
                k.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                        .create();
            }
            RealApiServerTest.waitUntil("default ServiceAccount in " + NS, Duration.ofSeconds(60),
                    () -> k.serviceAccounts().inNamespace(NS).withName("default").get() != null);
            try {
                int have = 0;
                for (int n : sizes) {
                    have = grow(k, have, n);
                    run(bridgeKc, n, rounds);
                }
            } finally {
                k.namespaces().withName(NS).delete();
            }
        }
    }

    private static int grow(KubernetesClient k, int from, int to) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Pod>> made = new ArrayList<>();
            for (int i = from; i < to; i++) {
                Pod p = new PodBuilder().withNewMetadata().withName("tenant-" + i).endMetadata().withNewSpec()
                        .withNodeName(i % 2 == 0 ? "worker1" : "worker2").withAutomountServiceAccountToken(false)
                        .addNewContainer().withName("c").withImage("registry.local/tenant:1").withNewResources()
                        .addToRequests("cpu", new Quantity("5m")).addToRequests("memory", new Quantity("16Mi"))
                        .endResources().endContainer().endSpec().build();
                made.add(pool.submit(() -> k.pods().inNamespace(NS).resource(p).create()));
            }
            for (Future<Pod> f : made) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return to;
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    private static void run(File bridgeKc, int n, int rounds) throws Exception {
        try (Fabric8VnfReplicaManager bridge = Fabric8VnfReplicaManager.fromKubeconfig(bridgeKc, CONFIG)) {
            for (int i = 0; i < 3; i++) {
                bridge.listFreeResources(); // warm-up of the client and the JIT on the LIST path
            }
            long heapBefore = usedHeapAfterGc();
            bridge.nodeFreeResources(); // starts the watch
            RealApiServerTest.waitUntil("the capacity watch established", Duration.ofSeconds(120),
                    () -> bridge.nodeCapacityStats().problem() == null);
            // Let the pods' status updates (kwok marking them Running) settle before measuring.
            String listed = "";
            for (int i = 0; i < 600 && !listed.equals(RealApiServerTest.render(bridge.nodeFreeResources())); i++) {
                Thread.sleep(100);
                listed = RealApiServerTest.render(bridge.listFreeResources());
            }
            long heapWatch = usedHeapAfterGc() - heapBefore;
            for (int i = 0; i < 1000; i++) {
                bridge.nodeFreeResources(); // warm-up of the watch path
            }
            double[] list = new double[rounds];
            double[] watch = new double[rounds];
            double[] ratio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                Map<String, NodeResources> a = bridge.listFreeResources();
                long t1 = System.nanoTime();
                Map<String, NodeResources> b = bridge.nodeFreeResources();
                long t2 = System.nanoTime();
                if (!RealApiServerTest.render(a).equals(RealApiServerTest.render(b))) {
                    throw new IllegalStateException("answers differ with " + n + " pods: LIST "
                            + RealApiServerTest.render(a) + ", watch " + RealApiServerTest.render(b));
                }
                list[r] = (t1 - t0) / 1e6;
                watch[r] = (t2 - t1) / 1e6;
                ratio[r] = list[r] / watch[r];
            }
            System.out.printf("RESULT pods=%d rounds=%d list_ms=%.2f watch_ms=%.4f ratio=%.0f "
                            + "(list min/max %.2f/%.2f, watch min/max %.4f/%.4f) watch_heap_mb=%.1f %s%n",
                    n, rounds, median(list), median(watch), median(ratio), min(list), max(list), min(watch),
                    max(watch), heapWatch / 1048576.0, bridge.nodeCapacityStats());
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(0);
    }
}
