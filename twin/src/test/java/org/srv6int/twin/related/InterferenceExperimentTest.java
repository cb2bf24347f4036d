// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.related;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * Interference-aware co-location (vnf-interference.txt): the qualitative result. Chains placed
 * by the app's interference-aware step, learning from the windows, lose less throughput than
 * with the most-free placement, and the learned matrix ends closer to the testbed's real
 * interference than the paper's seed it started from.
 */
public class InterferenceExperimentTest {

    @Test
    public void interferenceAwarePlacementLosesLessThanMostFree() {
        InterferenceExperiment.Result ours = InterferenceExperiment.run("ours", 1);
        InterferenceExperiment.Result most = InterferenceExperiment.run("mostfree", 1);
        InterferenceExperiment.Result seeded = InterferenceExperiment.run("seeded", 1);
        assertTrue(ours.meanLoss() + " vs " + most.meanLoss(), ours.meanLoss() < most.meanLoss());
        // Co-location costs something under every policy (the paper: 12-50 % per type).
        assertTrue(most.meanLoss() > 0.1);
        // The learner saw arrivals and moved the matrix towards the hardware.
        assertTrue(ours.learned > 0);
        assertTrue(ours.matrixErrorPts + " vs " + seeded.matrixErrorPts, ours.matrixErrorPts < seeded.matrixErrorPts);
    }
}
