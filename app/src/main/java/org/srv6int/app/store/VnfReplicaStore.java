// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import java.util.Set;
import org.onosproject.store.Store;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.VnfReplicaEvent;
import org.srv6int.app.api.model.VnfReplicaId;

import java.util.Collection;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Cluster-wide store of vNF replicas.
 */
public interface VnfReplicaStore extends Store<VnfReplicaEvent, VnfReplicaStoreDelegate> {

    /**
     * Returns every replica.
     *
     * @return replicas
     */
    Collection<VnfReplica> getReplicas();

    /**
     * Returns one replica.
     *
     * @param id id
     * @return replica or empty
     */
    Optional<VnfReplica> getReplica(VnfReplicaId id);

    /**
     * Adds a replica unless its id or its SID is taken (atomic across the cluster: two replicas
     * never hold one SID, however many are added at once).
     *
     * @param replica replica
     * @return true if added
     */
    boolean createReplica(VnfReplica replica);

    /**
     * Returns the SIDs held: those of the stored replicas and those claimed by a create in progress
     * (or left claimed by an instance that failed between claim and store).
     *
     * @return SIDs not free to allocate
     */
    Set<org.onlab.packet.Ip6Address> sidsInUse();

    /**
     * Atomically changes an existing replica.
     *
     * @param id     id
     * @param change function from the current to the new replica
     * @return the new replica, empty if the id is unknown
     */
    Optional<VnfReplica> updateReplica(VnfReplicaId id, UnaryOperator<VnfReplica> change);

    /**
     * Removes a replica.
     *
     * @param id id
     * @return removed replica or empty
     */
    Optional<VnfReplica> removeReplica(VnfReplicaId id);
}
