// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.k8s;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.junit.Test;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;

/**
 * How {@code --k8s real} maps the app inventory's names of an experiment's initial pods to the
 * bridge's replica indexes (no Kubernetes): r<i>k</i> and the bridge's own
 * {@code sfc-<chain>-vnf<i>-r<k>} are replica k, anything else is refused.
 */
public class K8sInitialReplicaNamesTest {
    private static final VnfKey SNORT = VnfKey.of(SfcId.of(2), 0);

    @Test
    public void inventoryAndBridgeNamesGiveTheReplicaIndex() {
        assertEquals(0, RealKubernetes.replicaIndex(SNORT, "r0"));
        assertEquals(12, RealKubernetes.replicaIndex(SNORT, "r12"));
        assertEquals(1, RealKubernetes.replicaIndex(SNORT, "sfc-2-vnf0-r1"));
    }

    @Test
    public void otherNamesAreRefused() {
        for (String bad : new String[] {"x0", "r", "sfc-3-vnf0-r1", "sfc-2-vnf1-r1", "foo-r1", "r-1"}) {
            try {
                RealKubernetes.replicaIndex(SNORT, bad);
                fail(bad + " accepted");
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("named neither r<k> nor sfc-2-vnf0-r<k>"));
            }
        }
    }

    @Test
    public void nodesHaveTheCoresOfATwinWorker() {
        assertEquals(10_000L, RealKubernetes.NODE_CPU_MILLIS);
    }
}
