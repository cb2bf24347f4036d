// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.k8s;

import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;

/**
 * Where a replica's data-plane identity (SID, switch, port) comes from before its workload
 * exists: the pod is created carrying it, so the node agent can wire the SID to the pod the
 * moment the pod appears.
 */
public interface ReplicaIdentities {

    /**
     * Reserves, idempotently, the identity of the replica of that name on that node.
     *
     * @param vnf         vNF
     * @param node        node the workload is pinned to
     * @param replicaName the replica's name (its workload's name)
     * @return the reserved replica (PENDING until it is Ready) with its SID and attachment
     */
    VnfReplica reserve(VnfKey vnf, String node, String replicaName);

    /**
     * Gives back a reservation whose workload did not come up; a replica that meanwhile
     * carries traffic is kept.
     *
     * @param vnf         vNF
     * @param replicaName the replica's name
     * @return true if the reservation was given back (its workload may go), false if the
     *         replica carries traffic or is not known
     */
    boolean release(VnfKey vnf, String replicaName);
}
