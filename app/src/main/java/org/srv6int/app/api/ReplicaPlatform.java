// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.VnfKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The loop's port towards the container platform (the Kubernetes bridge in ONOS, a model in
 * the testbed twin).
 */
public interface ReplicaPlatform {

    /**
     * Returns the free resources of every schedulable node.
     *
     * @return nodes, any order
     */
    List<NodeResources> nodeFreeResources();

    /**
     * Creates one more replica of the vNF pinned to the node and completes when it is Ready
     * (exceptionally on failure or timeout). Idempotent on the request id, across ONOS
     * instances: a second call with the same id (a new leader finishing the old one's decision)
     * returns the replica of the first, never a second one.
     *
     * @param vnf       vNF
     * @param node      node to pin the pod to
     * @param requestId the loop's id of this replica request (decision id and index)
     * @return the ready replica
     */
    CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId);

    /**
     * Deletes a replica's pod; completes when it is gone.
     *
     * @param vnf       vNF
     * @param replicaId replica id
     * @return completion
     */
    CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId);

    /**
     * Returns the readiness of the vNF's replicas the platform runs: replica id to whether its pod
     * exists and is Ready (false: gone or not Ready). A replica the platform does not list is not
     * one of its workloads (e.g. registered by an operator) and is judged by INT alone. Reads what
     * the platform follows (the bridge's watch cache): does not block on the platform's API, the
     * loop calls it on every failure-detection round.
     *
     * @param vnf vNF
     * @return readiness by replica id; empty if this platform cannot tell now (cannot list
     *         replicas, or its watch is not established)
     */
    default Optional<Map<String, Boolean>> replicaReadiness(VnfKey vnf) {
        return Optional.empty();
    }

    /**
     * Tells the listener of every change of {@link #replicaReadiness} from now on, as the platform
     * sees it. A platform that cannot tell never calls it.
     *
     * @param listener listener
     */
    default void addReadinessListener(ReadinessListener listener) {
    }

    /**
     * Stops telling the listener.
     *
     * @param listener listener
     */
    default void removeReadinessListener(ReadinessListener listener) {
    }
}
