// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onlab.packet.Ip6Address;
import org.onosproject.store.Store;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.VnfReplicaEvent;
import org.srv6int.app.api.model.VnfReplicaId;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Cluster-wide store of vNF replicas. Its writes are called by
 * {@link org.srv6int.app.inventory.ReplicaLifecycle} only, which checks each against the life cycle.
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
    Set<Ip6Address> sidsInUse();

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

    /**
     * Removes a replica only if its record is still the one given (a compare-and-remove).
     *
     * @param replica the record read before
     * @return true if removed
     */
    boolean removeReplica(VnfReplica replica);

    /**
     * Returns the SID claims: each SID held and the replica it was claimed for, with the claim's time.
     *
     * @return claims
     */
    List<SidClaim> sidClaims();

    /**
     * Gives back a SID claim if that replica still holds it.
     *
     * @param sid    the SID
     * @param holder the replica it was claimed for
     * @return true if released
     */
    boolean releaseSidClaim(Ip6Address sid, VnfReplicaId holder);

    /** A SID claimed for a replica, since a time (wall-clock milliseconds of the claim). */
    final class SidClaim {
        private final Ip6Address sid;
        private final VnfReplicaId holder;
        private final long sinceMillis;

        /**
         * Creates a claim.
         *
         * @param sid         the SID
         * @param holder      the replica it was claimed for
         * @param sinceMillis when it was claimed
         */
        public SidClaim(Ip6Address sid, VnfReplicaId holder, long sinceMillis) {
            this.sid = Objects.requireNonNull(sid, "sid is null");
            this.holder = Objects.requireNonNull(holder, "holder is null");
            this.sinceMillis = sinceMillis;
        }

        /**
         * The SID.
         *
         * @return SID
         */
        public Ip6Address sid() {
            return sid;
        }

        /**
         * The replica it was claimed for.
         *
         * @return replica id
         */
        public VnfReplicaId holder() {
            return holder;
        }

        /**
         * When it was claimed.
         *
         * @return wall-clock milliseconds
         */
        public long sinceMillis() {
            return sinceMillis;
        }

        @Override
        public String toString() {
            return sid + " for " + holder + " since " + sinceMillis;
        }
    }
}
