// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import com.sun.management.OperatingSystemMXBean;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.srv6int.k8s.bridge.BridgeConfig;
import org.srv6int.k8s.bridge.Fabric8VnfReplicaManager;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;

/**
 * The {@link ChainController}'s speed with N ServiceFunctionChain objects whose p95 changes every
 * window (ChainControllerTest's sink), on the defaults (1 s window, 10 s measurement interval, 2
 * workers): syncs per second (the ticker asks for N per window), status writes per second and the
 * process's CPU milliseconds per sync, over a measured interval after every object has a status.
 * One run per process; tools/bench-chain-status runs a base commit's controller and this tree's
 * in turn and prints the ratios. Prints figures; asserts nothing.
 *
 * <p>Usage: {@code ChainControllerBench <label> <admin kubeconfig> <bridge kubeconfig> [N [seconds]]},
 * from k8s-bridge/bridge (it applies ../deploy/crd), against tools/k8s-testenv.
 */
public final class ChainControllerBench {
    private static final String NS = "srv6int-sfc";
    private static final String LABEL = "srv6int.org/bench";

    private ChainControllerBench() {
    }

    public static void main(String[] args) throws Exception {
        String label = args[0];
        File adminKc = new File(args[1]);
        File bridgeKc = new File(args[2]);
        int n = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        int seconds = args.length > 4 ? Integer.parseInt(args[4]) : 20;
        try (KubernetesClient admin = ServiceFunctionChainCrdTest.client(adminKc);
             KubernetesClient bridge = Fabric8VnfReplicaManager.newClient(
                     Fabric8VnfReplicaManager.kubeconfigConfig(bridgeKc), BridgeConfig.defaults(NS))) {
            ServiceFunctionChainCrdTest.applyCrd(admin);
            cleanUp(admin);
            try {
                run(label, admin, bridge, n, seconds);
            } finally {
                cleanUp(admin);
            }
        }
    }

    private static void run(String label, KubernetesClient admin, KubernetesClient bridge, int n, int seconds)
            throws Exception {
        for (int i = 0; i < n; i++) {
            GenericKubernetesResource r = ChainControllerTest.object("bench-" + i, 6000 + i);
            r.getMetadata().setLabels(Map.of(LABEL, "yes"));
            admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS).resource(r).create();
        }
        try (ChainController c = new ChainController(bridge, NS, new ChainControllerTest.Sink(),
                                                     ChainController.Settings.defaults(), "bench")) {
            if (!c.start(Duration.ofSeconds(60))) {
                throw new IllegalStateException("the informer did not list within 60 s");
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS).withLabel(LABEL).list()
                    .getItems().stream().filter(r -> r.getAdditionalProperties().get("status") != null).count() < n) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("not every object has a status after 120 s");
                }
                Thread.sleep(500);
            }
            OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long s0 = c.counters().get("syncs");
            long w0 = c.counters().get("statusWrites");
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            double wall = (System.nanoTime() - t0) / 1e9;
            double cpuMs = (os.getProcessCpuTime() - cpu0) / 1e6;
            long syncs = c.counters().get("syncs") - s0;
            long writes = c.counters().get("statusWrites") - w0;
            System.out.printf("ChainControllerBench %s: %d chains, %.1f s: %.1f syncs/s (asked: %d/s), "
                                      + "%.1f status writes/s, %.3f CPU ms per sync%n",
                              label, n, wall, syncs / wall, n, writes / wall, syncs == 0 ? Double.NaN : cpuMs / syncs);
        }
    }

    private static void cleanUp(KubernetesClient admin) {
        for (GenericKubernetesResource r : admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS)
                .withLabel(LABEL).list().getItems()) {
            admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS).withName(
                    r.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE),
                                                     "{\"metadata\":{\"finalizers\":null}}");
        }
        admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS).withLabel(LABEL).delete();
    }
}
