// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.InterferenceView;
import org.srv6int.app.api.model.LearnedInterference;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.placement.InterferenceMatrix;

import java.util.List;
import java.util.Optional;

/**
 * The interference matrix the cluster learns: the leader learns from the loop's windows
 * ({@link InterferenceLearner}) and writes the matrix to the loop state store whenever it moved;
 * a new leader first reads it back and goes on from there, so what was learned survives a leader
 * change. Without a store the matrix lives in this object only.
 */
public final class ClusterInterference {

    private final LoopStateStore store;
    private final InterferenceMatrix matrix = new InterferenceMatrix();
    private InterferenceLearner learner = new InterferenceLearner(matrix);
    private boolean restored;
    private long written;
    private long storeFailures;

    /**
     * Creates the learning state of one instance.
     *
     * @param store the cluster's loop state store, null to keep the matrix here only
     */
    public ClusterInterference(LoopStateStore store) {
        this.store = store;
        this.restored = store == null;
    }

    /**
     * Returns the matrix placement scores with (this instance's copy).
     *
     * @return matrix
     */
    public InterferenceMatrix matrix() {
        return matrix;
    }

    /**
     * This instance became the leader: the store's matrix is read before the next window is
     * learned from, and comparisons pending from an earlier term are dropped.
     */
    public synchronized void lead() {
        restored = store == null;
        learner = new InterferenceLearner(matrix);
    }

    /**
     * Learns from one window (leader only) and writes the matrix when it moved. A store that
     * cannot be read means no learning this window (the store's matrix must not be overwritten
     * with one that does not start from it); a failed write is retried next window.
     *
     * @param observations the loop's observations of the window
     * @param where        where each vNF's replicas run
     * @param classes      the class of each vNF
     */
    public synchronized void observe(List<VnfObservation> observations, Colocation where, NodeResidents classes) {
        if (!restored) {
            Optional<LearnedInterference> had;
            try {
                had = store.learnedInterference();
            } catch (RuntimeException e) {
                storeFailures++;
                return;
            }
            had.ifPresent(matrix::restore);
            written = learner.learned();
            restored = true;
        }
        learner.observe(observations, where, classes);
        if (store != null && learner.learned() != written) {
            try {
                store.putLearnedInterference(matrix.learned());
                written = learner.learned();
            } catch (RuntimeException e) {
                storeFailures++;
            }
        }
    }

    /**
     * Returns the matrix for the CLI and REST: on the leader its own; elsewhere the store's (what
     * the leader learned), or this instance's copy if the store cannot be read.
     *
     * @param leader whether this instance leads the loop
     * @return the seed, the values and the sample counts
     */
    public InterferenceView view(boolean leader) {
        if (!leader && store != null) {
            try {
                Optional<LearnedInterference> had = store.learnedInterference();
                if (had.isPresent()) {
                    InterferenceMatrix m = new InterferenceMatrix();
                    m.restore(had.get());
                    return m.view();
                }
            } catch (RuntimeException e) {
                synchronized (this) {
                    storeFailures++;
                }
            }
        }
        return matrix.view();
    }

    /**
     * Returns how many observations moved the matrix on this instance since it last led.
     *
     * @return observations
     */
    public synchronized long learned() {
        return learner.learned();
    }

    /**
     * Returns how often the store could not be read or written.
     *
     * @return failures since start
     */
    public synchronized long storeFailures() {
        return storeFailures;
    }
}
