// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import java.util.Map;
import java.util.Set;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** Validation of replica requests and names: bad input gets a clear error. */
public class ReplicaRequestTest {

    private static ReplicaRequest.Builder valid() {
        return ReplicaRequest.builder().chainId("sfc2").vnfIndex(3).vnfType("snort").replicaIndex(1)
                .nodeName("worker2").image("snort:2.9").request("cpu", "2").limit("memory", "4Gi");
    }

    private static void rejects(ReplicaRequest.Builder b, String expected) {
        try {
            b.build();
            fail("accepted an invalid request");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(expected));
        }
    }

    @Test
    public void namesAreDeterministic() {
        assertEquals("sfc-sfc2-vnf3-r1", valid().build().name());
        assertEquals(valid().build(), valid().build());
        assertEquals("sfc-sfc2-vnf3-r1-0", ReplicaNames.podName(valid().build().name()));
    }

    @Test
    public void invalidFieldsAreNamed() {
        rejects(valid().chainId("SFC_2"), "chain id");
        rejects(valid().chainId(null), "chain id");
        rejects(valid().chainId("a-very-long-chain-identifier-that-does-not-fit-in-names"), "shorter chain id");
        rejects(valid().vnfIndex(-1), "must be >= 0");
        rejects(valid().replicaIndex(-2), "must be >= 0");
        rejects(valid().vnfType("snort ids"), "vNF type");
        rejects(valid().nodeName(""), "node name");
        rejects(valid().image(" "), "image");
        rejects(valid().request("cpu", "two"), "invalid request quantity for cpu");
        rejects(valid().limit("memory", "4GiB"), "invalid limit quantity for memory");
        rejects(valid().identity("10.0.0.1", "device:s1", 3), "srv6int.org/sid must be an IPv6 address");
        rejects(valid().identity("fc00:2::1", "device:s1", -1), "srv6int.org/switch-port");
        rejects(valid().identity("fc00:2::1", " ", 3), "srv6int.org/switch-device");
        rejects(valid().numaNode(-1), "srv6int.org/numa-node");
        rejects(valid().profile(65, 0), "srv6int.org/llc-ways must be a number in 0..64, got '65'");
        rejects(valid().profile(0, 101), "srv6int.org/memory-bandwidth-percent must be a number in 0..100");
    }

    /** The profile the node agent holds for a starting replica: literal names, written only when given. */
    @Test
    public void capabilitiesAreOnlyTheNetworkOnes() {
        rejects(valid().capability("SYS_ADMIN"), "capability 'SYS_ADMIN' is not one a vNF may add");
        assertEquals(Set.of("NET_ADMIN", "NET_RAW"),
                valid().capability("NET_RAW").capability("NET_ADMIN").build().capabilities());
        assertTrue(ReplicaSecurity.restricted(valid().capability("NET_BIND_SERVICE").build().capabilities()));
        assertFalse(ReplicaSecurity.restricted(valid().capability("NET_RAW").build().capabilities()));
        assertFalse(valid().build().equals(valid().capability("NET_RAW").build()));
    }

    @Test
    public void aProfileIsWrittenUnderTheContractNames() {
        assertEquals(Map.of("srv6int.org/llc-ways", "3", "srv6int.org/memory-bandwidth-percent", "20"),
                     valid().profile(3, 20).build().annotations());
        assertEquals(Map.of("srv6int.org/llc-ways", "2"), valid().profile(2, 0).build().annotations());
        assertTrue(valid().profile(0, 0).build().annotations().isEmpty());
    }

    /** The contract the node agent reads: these literal names, not the constants, so a rename fails here. */
    @Test
    public void identityIsWrittenUnderTheContractNames() {
        ReplicaRequest r = valid().identity("fc00:2::1:5", "device:leaf2", 7).numaNode(1).build();
        assertEquals(Map.of("srv6int.org/sid", "fc00:2::1:5", "srv6int.org/switch-device", "device:leaf2",
                                      "srv6int.org/switch-port", "7", "srv6int.org/numa-node", "1"),
                     r.annotations());
        io.fabric8.kubernetes.api.model.apps.StatefulSet sts = Fabric8VnfReplicaManager.statefulSet(r);
        assertEquals(r.annotations(), sts.getSpec().getTemplate().getMetadata().getAnnotations());
        Map<String, String> labels = sts.getSpec().getTemplate().getMetadata().getLabels();
        assertEquals("sfc2", labels.get("srv6int.org/chain"));
        assertEquals("3", labels.get("srv6int.org/vnf"));
        assertEquals("1", labels.get("srv6int.org/replica"));
        assertEquals("snort", labels.get("srv6int.org/vnf-type"));
        assertEquals("srv6int-k8s-bridge", labels.get("app.kubernetes.io/managed-by"));
        assertTrue(valid().build().annotations().isEmpty());
    }
}
