// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.LearnedInterference;
import org.srv6int.app.api.model.ReplicaHealthRecord;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;
import org.srv6int.app.api.model.VnfReplicaId;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The global loop's state in the cluster's store, so that a new leader resumes exactly: one
 * {@link VnfLoopRecord} per vNF, a cluster-wide decision id sequence, and the failure
 * detection's memory of replicas ({@link ReplicaHealthRecord}) and of DOWN chains. Every call may fail
 * (store unreachable, timeout) with an exception; the loop then does not act on what it could
 * not read or write.
 */
public interface LoopStateStore {

    /**
     * Returns every vNF's record.
     *
     * @return records by vNF
     */
    Map<VnfKey, VnfLoopRecord> records();

    /**
     * Writes a vNF's record.
     *
     * @param vnf    vNF
     * @param record record
     */
    void put(VnfKey vnf, VnfLoopRecord record);

    /**
     * Writes many vNFs' records and waits for all (a leader's first round over new chains: one
     * record each). A store over the network issues them without waiting for each one's answer.
     *
     * @param records records by vNF
     * @return the vNFs whose write failed (written or not: write them again)
     */
    default Set<VnfKey> putAll(Map<VnfKey, VnfLoopRecord> records) {
        Set<VnfKey> failed = new LinkedHashSet<>();
        records.forEach((k, r) -> {
            try {
                put(k, r);
            } catch (RuntimeException e) {
                failed.add(k);
            }
        });
        return failed;
    }

    /**
     * Removes a vNF's record (its chain is gone).
     *
     * @param vnf vNF
     */
    void remove(VnfKey vnf);

    /**
     * Returns the next decision id: unique in the cluster and increasing, across leader changes.
     *
     * @return id, from 1
     */
    long nextDecisionId();

    /**
     * Returns the chains whose loop an operator paused.
     *
     * @return chain ids
     */
    Set<SfcId> pausedChains();

    /**
     * Pauses or resumes the loop of one chain (cluster-wide, survives a leader change).
     *
     * @param sfc    chain
     * @param paused true to pause
     */
    void setPaused(SfcId sfc, boolean paused);

    /**
     * Returns the failure detection's memory of every replica it wrote one for.
     *
     * @return records by replica
     */
    Map<VnfReplicaId, ReplicaHealthRecord> replicaHealth();

    /**
     * Writes the failure detection's memory of one replica.
     *
     * @param replica replica
     * @param record  record
     */
    void putReplicaHealth(VnfReplicaId replica, ReplicaHealthRecord record);

    /**
     * Writes the failure detection's memory of many replicas and waits for all, as {@link #putAll}.
     *
     * @param records records by replica
     * @return the replicas whose write failed (written or not: write them again)
     */
    default Set<VnfReplicaId> putReplicaHealthAll(Map<VnfReplicaId, ReplicaHealthRecord> records) {
        Set<VnfReplicaId> failed = new LinkedHashSet<>();
        records.forEach((k, r) -> {
            try {
                putReplicaHealth(k, r);
            } catch (RuntimeException e) {
                failed.add(k);
            }
        });
        return failed;
    }

    /**
     * Removes the failure detection's memory of one replica (it is gone).
     *
     * @param replica replica
     */
    void removeReplicaHealth(VnfReplicaId replica);

    /**
     * Returns the chains the failure detection reported DOWN and that are not UP again.
     *
     * @return state of each DOWN chain when it went down
     */
    Map<SfcId, ChainState> downChains();

    /**
     * Records that a chain went DOWN.
     *
     * @param state its state (liveness DOWN, since, reason, last hop seen)
     */
    void putDownChain(ChainState state);

    /**
     * Records that a chain is no longer DOWN (UP again, or gone).
     *
     * @param sfc chain
     */
    void removeDownChain(SfcId sfc);

    /**
     * Returns the interference matrix the loop learned (interference-aware placement).
     *
     * @return the learned matrix, empty if none was written yet
     */
    Optional<LearnedInterference> learnedInterference();

    /**
     * Writes the learned interference matrix (the leader, after it learned something).
     *
     * @param learned the matrix
     */
    void putLearnedInterference(LearnedInterference learned);
}
