// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

/**
 * Told by the bridge's watch ({@link VnfReplicaManager#addListener}) when a replica's readiness
 * changes: its workload appears (not Ready), its pod turns Ready or not Ready, or its workload is
 * gone. Called on the watch's thread, one change at a time in the order the bridge saw them:
 * return quickly (hand the work to a thread of your own).
 */
@FunctionalInterface
public interface ReplicaListener {

    /**
     * A replica's readiness changed.
     *
     * @param chainId  chain identifier
     * @param vnfIndex index of the vNF in the chain
     * @param status   the replica as the watch now sees it; {@link ReplicaStatus#PHASE_DELETED}
     *                 (not Ready) once its workload is gone
     */
    void readinessChanged(String chainId, int vnfIndex, ReplicaStatus status);
}
