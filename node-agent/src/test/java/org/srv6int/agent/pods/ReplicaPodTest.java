// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import java.util.List;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.Test;
import org.srv6int.k8s.bridge.ReplicaNames;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The bridge's replica contract read from a pod: what is managed, what is refused and why. */
public class ReplicaPodTest {

    private static Map<String, String> labels() {
        Map<String, String> m = new HashMap<>();
        m.put(ReplicaNames.LABEL_CHAIN, "2");
        m.put(ReplicaNames.LABEL_VNF, "1");
        m.put(ReplicaNames.LABEL_VNF_TYPE, "snort");
        m.put(ReplicaNames.LABEL_REPLICA, "0");
        m.put(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER);
        return m;
    }

    private static Map<String, String> annotations() {
        Map<String, String> m = new HashMap<>();
        m.put(ReplicaNames.ANNOTATION_SID, "fc00:2::11");
        m.put(ReplicaNames.ANNOTATION_SWITCH_DEVICE, "device:leaf1");
        m.put(ReplicaNames.ANNOTATION_SWITCH_PORT, "4");
        return m;
    }

    private static Pod pod(Map<String, String> labels, Map<String, String> ann, boolean ready, String containerId) {
        return new PodBuilder().withNewMetadata().withName("sfc-2-vnf1-r0-0").withNamespace("srv6int-sfc")
                .withUid("2f0e8a4c-1b7d-4e0a-9c1e-5d6f7a8b9c0d").withLabels(labels).withAnnotations(ann).endMetadata()
                .withNewSpec().withNodeName("worker1").addNewContainer().withName("vnf")
                .withNewResources().withLimits(Map.of("cpu", new Quantity("1500m")))
                .withRequests(Map.of("cpu", new Quantity("1"))).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").withQosClass("Burstable")
                .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition()
                .addNewContainerStatus().withName("vnf").withContainerID(containerId).endContainerStatus()
                .endStatus().build();
    }

    @Test
    public void theReplicaNameIsThePodsStatefulSetAsTheAppNamesIt() throws IOException {
        Pod p = pod(labels(), annotations(), true, "containerd://abc");
        assertEquals("without an owner: the pod's name", "sfc-2-vnf1-r0-0", ReplicaPod.parse(p, 1).replicaName());
        p.getMetadata().setOwnerReferences(List.of(new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                .withApiVersion("apps/v1").withKind("StatefulSet").withName("sfc-2-vnf1-r0").withUid("u").build()));
        assertEquals("sfc-2-vnf1-r0", ReplicaPod.parse(p, 1).replicaName());
    }

    @Test
    public void theNetworkStatusIsKeptAndPartOfTheIdentity() throws IOException {
        Map<String, String> ann = annotations();
        ReplicaPod none = ReplicaPod.parse(pod(labels(), ann, true, "containerd://abc"), 1);
        assertEquals(null, none.networkStatus());
        ann.put(ReplicaPod.ANNOTATION_NETWORKS_STATUS, "[{\"interface\":\"net1\",\"mac\":\"02:00:00:00:00:01\"}]");
        ReplicaPod old = ReplicaPod.parse(pod(labels(), ann, true, "containerd://abc"), 1);
        assertEquals("Multus 3's name is read", ann.get(ReplicaPod.ANNOTATION_NETWORKS_STATUS), old.networkStatus());
        ann.put(ReplicaPod.ANNOTATION_NETWORK_STATUS, "[{\"interface\":\"net1\",\"mac\":\"02:00:00:00:00:02\"}]");
        ReplicaPod cur = ReplicaPod.parse(pod(labels(), ann, true, "containerd://abc"), 1);
        assertEquals("the current name wins", ann.get(ReplicaPod.ANNOTATION_NETWORK_STATUS), cur.networkStatus());
        assertFalse("an annotation that came late makes the pod wired again", none.sameIdentity(old));
        assertFalse(old.sameIdentity(cur));
        assertTrue(cur.sameIdentity(ReplicaPod.parse(pod(labels(), ann, true, "containerd://abc"), 1)));
    }

    @Test
    public void readsTheContract() throws IOException {
        Map<String, String> ann = annotations();
        ann.put(ReplicaNames.ANNOTATION_NUMA_NODE, "1");
        Pod p = pod(labels(), ann, true, "containerd://abc");
        assertTrue(ReplicaPod.ready(p));
        ReplicaPod r = ReplicaPod.parse(p, 1_000_000);
        assertEquals(2, r.chainId());
        assertEquals(1, r.vnfIndex());
        assertEquals(0, r.replica());
        assertEquals("fc00:2::11", r.sid());
        assertEquals("device:leaf1", r.switchDevice());
        assertEquals(4, r.switchPort());
        assertEquals(1, r.numaNode());
        assertEquals(1_000_000, r.lmaxNs());
        assertEquals(1500, r.cpuLimitMillis());
        assertEquals(1000, r.cpuRequestMillis());
        assertEquals("vnf", r.container());
        assertEquals("containerd://abc", r.containerId());
        assertEquals("snort-c2v1r0", r.vnfName());
        ann.put(ReplicaPod.ANNOTATION_LMAX_NS, "250000");
        assertEquals(250_000, ReplicaPod.parse(pod(labels(), ann, true, "containerd://abc"), 1_000_000).lmaxNs());
    }

    @Test
    public void notReadyOrWithoutContainerIdIsNotManagedYet() {
        assertFalse(ReplicaPod.ready(pod(labels(), annotations(), false, "containerd://abc")));
        assertFalse(ReplicaPod.ready(pod(labels(), annotations(), true, null)));
    }

    private static void refused(Map<String, String> labels, Map<String, String> ann, long lmax, String naming) {
        try {
            ReplicaPod.parse(pod(labels, ann, true, "containerd://abc"), lmax);
            fail("accepted a pod that should be refused for " + naming);
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(naming));
        }
    }

    @Test
    public void malformedContractIsRefusedNamingTheField() {
        Map<String, String> ann = annotations();
        ann.put(ReplicaNames.ANNOTATION_SID, "10.0.0.1");
        refused(labels(), ann, 1, ReplicaNames.ANNOTATION_SID);
        ann = annotations();
        ann.remove(ReplicaNames.ANNOTATION_SID);
        refused(labels(), ann, 1, ReplicaNames.ANNOTATION_SID);
        ann = annotations();
        ann.put(ReplicaNames.ANNOTATION_SWITCH_PORT, "eth3");
        refused(labels(), ann, 1, ReplicaNames.ANNOTATION_SWITCH_PORT);
        ann = annotations();
        ann.put(ReplicaNames.ANNOTATION_NUMA_NODE, "-1");
        refused(labels(), ann, 1, ReplicaNames.ANNOTATION_NUMA_NODE);
        Map<String, String> l = labels();
        l.put(ReplicaNames.LABEL_CHAIN, "chain-a");
        refused(l, annotations(), 1, ReplicaNames.LABEL_CHAIN);
        l = labels();
        l.remove(ReplicaNames.LABEL_VNF);
        refused(l, annotations(), 1, ReplicaNames.LABEL_VNF);
        refused(labels(), annotations(), 0, ReplicaPod.ANNOTATION_LMAX_NS);
    }

    @Test
    public void optOutByAnnotation() {
        Map<String, String> ann = annotations();
        assertFalse(ReplicaPod.optedOut(pod(labels(), ann, true, "containerd://abc")));
        ann.put(ReplicaPod.ANNOTATION_AGENT, ReplicaPod.OPT_OUT);
        assertTrue(ReplicaPod.optedOut(pod(labels(), ann, true, "containerd://abc")));
    }
}
