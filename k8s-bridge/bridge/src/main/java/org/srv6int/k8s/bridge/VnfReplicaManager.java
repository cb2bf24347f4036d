// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import java.util.Optional;
import java.util.SortedSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Creates, scales and removes the replicas of a chain's vNFs on Kubernetes.
 *
 * <p>Every operation is idempotent: replicas have deterministic names
 * ({@link ReplicaNames}), so repeating a call after a failure or a timeout never
 * makes a second replica. API errors that may pass (5xx, 429, timeouts, refused
 * connections) are retried with exponential back-off within a bounded budget
 * ({@link BridgeConfig}); anything else, and an exhausted budget, raise
 * {@link BridgeException}.
 */
public interface VnfReplicaManager {

    /**
     * Makes sure the replica exists: creates it if absent, otherwise returns the
     * existing one unchanged (its node may then differ from the requested one).
     * Does not wait for the pod to be Ready.
     *
     * @param request replica to create
     * @return current status of the replica
     * @throws BridgeException when the API refuses or the retry budget is spent
     */
    ReplicaStatus ensureReplica(ReplicaRequest request);

    /**
     * Waits until the replica's pod is Ready, as the bridge's watch sees it (no polling).
     *
     * @param chainId chain identifier
     * @param vnfIndex index of the vNF in the chain
     * @param replicaIndex replica index
     * @param timeout how long to wait at most
     * @return status of the Ready replica (pod IP and node)
     * @throws BridgeException on timeout, with the last phase seen; at once if the replica does not
     *                         exist, is deleted meanwhile or the bridge may not watch (RBAC)
     */
    ReplicaStatus awaitReady(String chainId, int vnfIndex, int replicaIndex, Duration timeout);

    /**
     * Makes the replicas of one vNF exactly {@code desired}: ensures each of them and
     * removes every other replica of that chain and vNF.
     *
     * @param chainId chain identifier
     * @param vnfIndex index of the vNF in the chain
     * @param desired replicas to keep or create; all of this chain and vNF
     * @return status of the desired replicas, in the given order
     */
    List<ReplicaStatus> scale(String chainId, int vnfIndex, List<ReplicaRequest> desired);

    /**
     * Removes one replica (its StatefulSet; the garbage collector removes the pod).
     * The caller drains traffic first.
     *
     * @param chainId chain identifier
     * @param vnfIndex index of the vNF in the chain
     * @param replicaIndex replica index
     * @return true if the replica existed
     */
    boolean removeReplica(String chainId, int vnfIndex, int replicaIndex);

    /**
     * Removes every replica of a chain.
     *
     * @param chainId chain identifier
     * @return number of replicas removed
     */
    int removeChain(String chainId);

    /**
     * Lists the chains that have at least one workload of the bridge in its namespace, so the
     * owner can delete those of chains that no longer exist.
     *
     * @return chain identifiers, sorted
     */
    SortedSet<String> listChainIds();

    /**
     * Lists the replicas of a chain's vNF, ordered by replica index.
     *
     * @param chainId chain identifier
     * @param vnfIndex index of the vNF in the chain
     * @return replica statuses
     */
    List<ReplicaStatus> listReplicas(String chainId, int vnfIndex);

    /**
     * The replicas of a chain's vNF as the bridge's watch of its StatefulSets and pods shows them:
     * a read of its local cache, no API call. Readiness is this; {@link #listReplicas} (a LIST) is
     * for decisions that must not act on a cache a few milliseconds old (picking a free index,
     * deleting what the inventory does not know).
     *
     * @param chainId chain identifier
     * @param vnfIndex index of the vNF in the chain
     * @return replica statuses ordered by replica index; empty while the watch is not established
     *         (starting, reconnecting, or refused by RBAC): readiness is then unknown
     */
    Optional<List<ReplicaStatus>> watchedReplicas(String chainId, int vnfIndex);

    /**
     * Tells the listener of every change of a replica's readiness from now on (starts the watch).
     *
     * @param listener listener
     */
    void addListener(ReplicaListener listener);

    /**
     * Stops telling the listener.
     *
     * @param listener listener
     */
    void removeListener(ReplicaListener listener);

    /**
     * Free resources per schedulable node: allocatable minus the sum of the
     * requests of its non-terminated pods. Answered from the bridge's watch of nodes and
     * pods (no API call; as fresh as the watch, typically milliseconds behind the API server);
     * while that watch is not established (starting, reconnecting, refused by RBAC) computed
     * by a LIST of every node and pod, never from a cache known to be stale.
     *
     * @return node name to free resources, most free CPU first
     * @throws BridgeException when the watch cannot answer and the LIST fails
     */
    Map<String, NodeResources> nodeFreeResources();
}
