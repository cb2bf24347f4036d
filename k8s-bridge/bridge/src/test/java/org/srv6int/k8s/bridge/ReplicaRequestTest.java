package org.srv6int.k8s.bridge;

import org.junit.Test;

import static org.junit.Assert.assertEquals;
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
    }
}
