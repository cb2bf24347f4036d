// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.VnfKey;
import java.util.List;
import java.util.Map;

/**
 * The loop's port towards the chain's multipath group (the app's vNF inventory and flow
 * programming in ONOS, a model in the testbed twin).
 */
public interface ChainRouting {

    /**
     * Chooses the nodes of new replicas (Algorithm 4, line 10, with the LCS placement of the
     * paper's ref. [13]: docs/placement.md).
     *
     * @param vnf        vNF to scale out
     * @param candidates eligible nodes with their free resources
     * @param count      replicas to place, &gt;= 1
     * @return one node per new replica
     * @throws IllegalStateException naming why no node fits
     */
    List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count);

    /**
     * Returns what the last {@link #placeReplicas} weighed besides the placement itself (e.g. the
     * interference scores), for the decision's detail.
     *
     * @return "; ..." or "" if nothing
     */
    default String placementNote() {
        return "";
    }

    /**
     * Adds ready replicas to the chain's multipath group and splits the vNF's traffic evenly over
     * all its active replicas (make-before-break).
     *
     * @param vnf      vNF
     * @param replicas ready replicas to add
     */
    void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas);

    /**
     * Takes a replica out of the multipath group (no new traffic), keeping it known.
     *
     * @param vnf       vNF
     * @param replicaId replica id
     */
    void drainReplica(VnfKey vnf, String replicaId);

    /**
     * Forgets a drained replica whose pod is gone.
     *
     * @param vnf       vNF
     * @param replicaId replica id
     */
    void removeReplica(VnfKey vnf, String replicaId);

    /**
     * Takes a dead replica out of the multipath group at once (weight 0), keeping it known so
     * that it can return. By default the same as {@link #drainReplica}.
     *
     * @param vnf       vNF
     * @param replicaId replica id
     */
    default void failReplica(VnfKey vnf, String replicaId) {
        drainReplica(vnf, replicaId);
    }

    /**
     * Puts a replica that was dead back into the multipath group with weight 1.
     *
     * @param vnf       vNF
     * @param replicaId replica id
     * @throws UnsupportedOperationException if this routing cannot (the default)
     */
    default void restoreReplica(VnfKey vnf, String replicaId) {
        throw new UnsupportedOperationException("this routing cannot put a replica back");
    }

    /**
     * Gives back what a previous leader left claimed for replicas that never reached the inventory
     * (their SIDs); called when this leader resumes, and again while claims were too young to judge.
     *
     * @return claims left for a later call (too young to tell from a create in progress)
     */
    default int releaseOrphanSids() {
        return 0;
    }

    /**
     * The reservations the inventory holds (PENDING replicas: a workload being made, or one a
     * create left when it failed and its give-back failed too, or whose group update failed).
     *
     * @return by vNF, each reservation's name and node (no pod address); none by default
     */
    default Map<VnfKey, List<ReplicaInfo>> reservations() {
        return Map.of();
    }

    /**
     * Gives back a reservation whose workload is not coming: its record and SID claim go; a replica
     * that joined the group meanwhile stays.
     *
     * @param vnf       vNF
     * @param replicaId replica id
     * @return true if it was given back or is gone, false if it joined meanwhile
     * @throws UnsupportedOperationException if this routing keeps no reservations (the default)
     */
    default boolean releaseReservation(VnfKey vnf, String replicaId) {
        throw new UnsupportedOperationException("this routing keeps no reservations");
    }
}
