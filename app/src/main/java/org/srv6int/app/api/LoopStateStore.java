package org.srv6int.app.api;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The global loop's state in the cluster's store, so that a new leader resumes exactly: one
 * {@link VnfLoopRecord} per vNF and a cluster-wide decision id sequence. Every call may fail
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
