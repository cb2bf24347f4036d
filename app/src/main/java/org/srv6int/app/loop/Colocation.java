// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.model.VnfKey;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The loop's view of which vNF replicas share a node, for push-aside, and of what a replica
 * requests, for placing new ones only where they fit (the app's inventory and the Kubernetes
 * settings in ONOS, the model in the testbed twin).
 */
public interface Colocation {

    /**
     * Returns the nodes of a vNF's replicas that carry traffic.
     *
     * @param vnf vNF
     * @return replica id to node name; empty if none or unknown
     */
    Map<String, String> replicaNodes(VnfKey vnf);

    /**
     * Returns the nodes of the replicas that carry traffic of each of these vNFs: what
     * {@link #replicaNodes(VnfKey)} returns for each, in one read of the inventory where the view
     * can (the interference learner asks for every observed vNF each period).
     *
     * @param vnfs vNFs
     * @return vNF to (replica id to node name), a vNF with none mapped to an empty map
     */
    default Map<VnfKey, Map<String, String>> replicaNodes(Collection<VnfKey> vnfs) {
        Map<VnfKey, Map<String, String>> out = new HashMap<>();
        for (VnfKey v : vnfs) {
            out.put(v, replicaNodes(v));
        }
        return out;
    }

    /**
     * Returns the CPU one replica of the vNF requests (what moving it frees on its node, and what
     * a node needs free to take a new one).
     *
     * @param vnf vNF
     * @return millicores, 0 if unknown
     */
    long cpuRequestMillis(VnfKey vnf);

    /**
     * Returns what one replica of the vNF needs on its node (its type's profile): CPU request,
     * LLC ways and memory-bandwidth share, checked against the node agents' pool reports.
     *
     * @param vnf vNF
     * @return need; by default the CPU request only
     */
    default ResourceNeed need(VnfKey vnf) {
        return new ResourceNeed(cpuRequestMillis(vnf), 0, 0);
    }
}
