package org.srv6int.app.loop;

import org.srv6int.app.api.VnfKey;
import java.util.List;
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
     * Creates one more replica of the vNF pinned to the node, idempotently, and completes when
     * it is Ready (exceptionally on failure or timeout).
     *
     * @param vnf  vNF
     * @param node node to pin the pod to
     * @return the ready replica
     */
    CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node);

    /**
     * Deletes a replica's pod; completes when it is gone.
     *
     * @param vnf       vNF
     * @param replicaId replica id
     * @return completion
     */
    CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId);
}
