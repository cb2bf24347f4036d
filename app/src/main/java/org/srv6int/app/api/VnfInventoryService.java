// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.ReplicaTransition;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.onosproject.event.ListenerService;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The vNF replica inventory. The global loop (Algorithm 4) calls
 * {@link #addReplica(VnfKey, String)} after the Kubernetes bridge has started
 * a pod and {@link #drainReplica}/{@link #removeReplica} to scale in; the flow
 * programming re-routes the chain make-before-break on every change.
 */
public interface VnfInventoryService extends ListenerService<VnfReplicaEvent, VnfReplicaListener> {

    /**
     * Returns every replica.
     *
     * @return replicas
     */
    Collection<VnfReplica> getReplicas();

    /**
     * Returns the replicas of one chain, all its vNFs.
     *
     * @param sfcId chain id
     * @return replicas
     */
    Collection<VnfReplica> getReplicas(SfcId sfcId);

    /**
     * Returns the replicas of one vNF of a chain.
     *
     * @param vnf vNF key
     * @return replicas
     */
    Collection<VnfReplica> getReplicas(VnfKey vnf);

    /**
     * Returns one replica.
     *
     * @param id replica id
     * @return replica or empty
     */
    Optional<VnfReplica> getReplica(VnfReplicaId id);

    /**
     * Adds an ACTIVE replica of weight 1 on a Kubernetes node: the app looks
     * the node up in the devices' SRv6 netcfg (which switch port it hangs off,
     * its MAC) and allocates a replica name and a SID from that switch's
     * vNF SID locator.
     *
     * @param vnf  vNF key
     * @param node Kubernetes node name
     * @return the new replica
     * @throws SfcException (NOT_FOUND) if the chain or vNF does not exist
     * @throws IllegalArgumentException if no device config lists the node
     */
    VnfReplica addReplica(VnfKey vnf, String node);

    /**
     * Like {@link #addReplica(VnfKey, String)} but with the replica name given by the caller:
     * the global loop names a replica after its Kubernetes workload, so any node can find the
     * workload of an inventory replica (e.g. a new leader deleting a drained replica).
     *
     * @param vnf  vNF key
     * @param node Kubernetes node name
     * @param name replica name (DNS label of at most 32 characters)
     * @return the new replica
     * @throws SfcException (NOT_FOUND) if the chain or vNF does not exist, (CONFLICT) if the
     *         name is taken
     * @throws IllegalArgumentException if no device config lists the node or the name is invalid
     */
    VnfReplica addReplica(VnfKey vnf, String node, String name);

    /**
     * Reserves a PENDING replica of weight 0 under the given name on a Kubernetes node: its SID
     * and switch attachment are allocated now, so the workload created afterwards carries them
     * and the switch has its SID programmed before traffic is sent to it. Idempotent: a replica
     * of that name on that node is returned as it is.
     *
     * @param vnf  vNF key
     * @param node Kubernetes node name
     * @param name replica name (DNS label of at most 32 characters)
     * @return the reserved (or existing) replica
     * @throws SfcException (NOT_FOUND) if the chain or vNF does not exist, (CONFLICT) if a
     *         replica of that name exists on another node or no SID is free
     * @throws IllegalArgumentException if no device config lists the node or the name is invalid
     */
    VnfReplica reserveReplica(VnfKey vnf, String node, String name);

    /**
     * Adds a fully specified replica (operator or test), e.g. a vNF that
     * runs outside Kubernetes.
     *
     * @param replica replica
     * @throws SfcException (NOT_FOUND) if the chain or vNF does not exist,
     *         (CONFLICT) if the id or SID is taken
     */
    void registerReplica(VnfReplica replica);

    /**
     * Stops giving new traffic to a replica: state DRAINING, weight 0. Its
     * entries stay installed until {@link #removeReplica}.
     *
     * @param id replica id
     * @return the updated replica
     * @throws SfcException (NOT_FOUND) if unknown
     */
    VnfReplica drainReplica(VnfReplicaId id);

    /**
     * Changes a replica's state and multipath weight through the life cycle's step to that state
     * (ACTIVE: activate, from PENDING or ACTIVE; DRAINING: drain; DEAD: fail; PENDING is refused: only
     * a reservation makes it).
     *
     * @param id     replica id
     * @param state  new state
     * @param weight new weight 0..255 (0 unless ACTIVE)
     * @return the updated replica
     * @throws SfcException (NOT_FOUND) if unknown, (CONFLICT) if the life cycle does not allow it
     */
    VnfReplica updateReplica(VnfReplicaId id, ReplicaState state, int weight);

    /**
     * Marks a replica dead: DEAD, weight 0, out of every segment list (distinguishable from a drain).
     *
     * @param id replica id
     * @return the updated replica
     * @throws SfcException (NOT_FOUND) if unknown
     */
    VnfReplica failReplica(VnfReplicaId id);

    /**
     * Puts a replica back into the group (ACTIVE, weight 1) from any state: a drain given up, or a
     * dead replica that recovered.
     *
     * @param id replica id
     * @return the updated replica
     * @throws SfcException (NOT_FOUND) if unknown
     */
    VnfReplica restoreReplica(VnfReplicaId id);

    /**
     * Gives back a reservation (a PENDING replica whose workload did not come up), atomically: a
     * replica that meanwhile joined the group is kept.
     *
     * @param id replica id
     * @return the released reservation; empty if there was none
     * @throws SfcException (CONFLICT) if the replica is no longer PENDING
     */
    Optional<VnfReplica> releaseReservation(VnfReplicaId id);

    /**
     * Gives back the SIDs claimed for replicas that never reached the store (an instance died
     * between the claim and the store); claims younger than a create takes are left for later.
     *
     * @return the number of such claims left because they were too young (call again later if &gt; 0)
     */
    int releaseOrphanSids();

    /**
     * Removes a replica; its flow entries go after traffic has moved away.
     *
     * @param id replica id
     * @return the removed replica
     * @throws SfcException (NOT_FOUND) if unknown
     */
    VnfReplica removeReplica(VnfReplicaId id);

    /**
     * Every edge of the replica life cycle's table with how often this instance took it since start.
     *
     * @return edges (step, from, to, count), those never taken with 0; empty where no life cycle runs
     */
    default List<ReplicaTransition> transitions() {
        return List.of();
    }

    /**
     * Steps this instance's life cycle refused since start, by step and the state asked from.
     *
     * @return refusals (step, from, count; no "to"); empty where no life cycle runs
     */
    default List<ReplicaTransition> refusedTransitions() {
        return List.of();
    }
}
