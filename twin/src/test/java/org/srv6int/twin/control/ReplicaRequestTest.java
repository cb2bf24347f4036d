// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.twin.dataplane.EmulatedDataplane;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;
import org.srv6int.twin.model.VnfType;

/**
 * A new replica starts with what its pod spec requests (the vNF's replica template, or what its
 * first pod asked for), not with what the node agent has given the running pod since; the loop's
 * placement sees the same request.
 */
public class ReplicaRequestTest {

    @Test
    public void aNewReplicaGetsThePodsRequestNotTheBoostedAllocation() throws Exception {
        Fabric fabric = new Fabric();
        Host w1 = fabric.addHost(new Host("worker1", "sw2"));
        Host w2 = fabric.addHost(new Host("worker2", "sw3"));
        Allocation request = new Allocation(2.5, 3, 25, 1900);
        VnfInstance snort = w1.addInstance("vnf3", VnfType.SNORT, request, 0);
        fabric.addChain(new Chain("sfc2", List.of("vnf3"), t -> 1.0, 1024, 1000));
        try (EmulatedDataplane dp = new EmulatedDataplane(TestbedNetcfg.links())) {
            AppControl control = new AppControl(fabric, Map.of(), dp, () -> 30.0);
            // the node agent has boosted the running pod (through its files; here the model directly)
            snort.allocation().set(Resource.CPU_QUOTA, 6.0);
            snort.allocation().set(Resource.LLC_WAYS, 6);
            snort.allocation().set(Resource.MEM_BW_PCT, 60);
            snort.allocation().set(Resource.CPU_FREQ_MHZ, 2200);
            VnfKey k = control.key("vnf3");
            assertEquals("the loop's placement sees the pod's CPU request", 2500, control.requestMillis(k));
            control.routing().addReplicas(k, List.of(new ReplicaInfo("sfc-1-vnf0-r1", "worker2", "10.244.2.9")));
            assertEquals(1, w2.instanceCount());
            Allocation started = w2.instances().get(0).allocation();
            for (Resource r : Resource.values()) {
                assertEquals(r.toString(), request.get(r), started.get(r), 0);
            }
        }
    }
}
