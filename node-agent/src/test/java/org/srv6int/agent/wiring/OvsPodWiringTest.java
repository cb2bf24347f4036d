// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.Test;
import org.srv6int.agent.pods.ReplicaPod;
import org.srv6int.k8s.bridge.ReplicaNames;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A pod whose host interface cannot be looked up (here: no network-status annotation) is
 * a clear error, counted once per pod and reason however often the repair retries it, and
 * pending until it is unwired. Dry run: OVS is never called.
 */
public class OvsPodWiringTest {

    private static ReplicaPod pod(String uid) throws IOException {
        Map<String, String> labels = new HashMap<>();
        labels.put(ReplicaNames.LABEL_CHAIN, "2");
        labels.put(ReplicaNames.LABEL_VNF, "1");
        labels.put(ReplicaNames.LABEL_REPLICA, "0");
        Map<String, String> ann = new HashMap<>();
        ann.put(ReplicaNames.ANNOTATION_SID, "fc00:2::11");
        ann.put(ReplicaNames.ANNOTATION_SWITCH_DEVICE, "device:leaf1");
        ann.put(ReplicaNames.ANNOTATION_SWITCH_PORT, "4");
        Pod p = new PodBuilder().withNewMetadata().withName("vnf-" + uid).withNamespace("srv6int-sfc").withUid(uid)
                .withLabels(labels).withAnnotations(ann).endMetadata()
                .withNewSpec().addNewContainer().withName("vnf").endContainer().endSpec()
                .withNewStatus().addNewContainerStatus().withName("vnf").withContainerID("containerd://" + uid)
                .endContainerStatus().endStatus().build();
        return ReplicaPod.parse(p, 1_000_000);
    }

    @Test
    public void aPodWithoutNetworkStatusIsCountedOncePerPodAndStaysPending() throws IOException {
        OvsCommands none = new OvsCommands(null, Files.createTempDirectory("ovs"), Duration.ofSeconds(1));
        try (OvsPodWiring w = new OvsPodWiring(new OvsSidWiring(none, "srv6int-br", "system"),
                new PodInterfaces("net1"), p -> "nic0", true)) {
            ReplicaPod a = pod("a");
            for (int i = 0; i < 3; i++) { // the first wire, then two repairs
                try {
                    w.wire(a);
                    fail("wired without a MAC");
                } catch (PodInterfaces.LookupException e) {
                    assertEquals(PodInterfaces.Failure.NO_NETWORK_STATUS, e.failure());
                    assertTrue(e.getMessage(), e.getMessage().contains("network-status missing"));
                }
            }
            w.repair();
            assertEquals("one pod, one reason", 1, w.lookupFailures(PodInterfaces.Failure.NO_NETWORK_STATUS));
            assertEquals(1, w.pending());
            try {
                w.wire(pod("b"));
                fail("wired without a MAC");
            } catch (PodInterfaces.LookupException e) {
                assertEquals(2, w.lookupFailures(PodInterfaces.Failure.NO_NETWORK_STATUS));
            }
            StringBuilder sb = new StringBuilder();
            w.render(sb);
            assertTrue(sb.toString(), sb.toString().contains(
                    "srv6int_node_wiring_lookup_failures_total{reason=\"no_network_status\"} 2\n"));
            assertTrue(sb.toString(), sb.toString().contains(
                    "srv6int_node_wiring_lookup_failures_total{reason=\"no_peer\"} 0\n"));
            assertTrue(sb.toString(), sb.toString().contains("srv6int_node_wiring_pending_pods 2\n"));
            w.unwire(a);
            assertEquals(1, w.pending());
            assertEquals(Map.of(), w.wired());
        }
    }
}
