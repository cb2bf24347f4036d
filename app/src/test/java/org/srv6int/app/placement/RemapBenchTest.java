// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import org.junit.Test;
import org.srv6int.pipeconf.Srv6IntPipelineConstants;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The benchmark's bounds, as counts of flows: a rescale moves at most
 * 1/(n+1) + 2 % of the active flows (hash % n: about n/(n+1)), and a drain that
 * completes before its deadline moves no active flow.
 */
public class RemapBenchTest {

    @Test
    public void rescaleMovesAtMostTheNewReplicasShare() {
        int[] hashes = RemapBench.flowHashes(20_000, 7);
        for (RemapBench.Row r : RemapBench.remap(hashes, Srv6IntPipelineConstants.ENCAP_BUCKETS, 7)) {
            double goal = 1.0 / (r.n + 1) + 0.02;
            assertTrue("n=" + r.n + " out " + r.oursOut, r.oursOut <= goal);
            assertTrue("n=" + r.n + " in " + r.oursIn, r.oursIn <= goal);
            // the old selector moves every flow whose hash % n differs: far more from n = 2 on
            if (r.n >= 2) {
                assertTrue("n=" + r.n + " hash%n " + r.moduloOut, r.moduloOut > 0.5);
                assertTrue("n=" + r.n, r.moduloOut > 1.5 * r.oursOut);
            }
        }
    }

    @Test
    public void aDrainBeforeItsDeadlineMovesNoActiveFlow() {
        RemapBench.DrainResult d = RemapBench.drain(2, 2_000, 8_000, 2_000, 30_000, 3);
        assertTrue("established " + d.established, d.established > 100);
        assertEquals(0, d.forced);
        assertEquals(0, d.movedWhileActive);
        assertTrue(d.drained > 0);
        assertTrue("completed " + d.completedMs, d.completedMs >= 0 && d.completedMs < 30_000);
    }

    @Test
    public void aDrainCutByItsDeadlineMovesFlowsAndCountsIt() {
        RemapBench.DrainResult d = RemapBench.drain(1, 2_000, 60_000, 2_000, 10_000, 3);
        assertTrue("forced " + d.forced, d.forced > 0);
        assertTrue("moved " + d.movedWhileActive, d.movedWhileActive > 0);
    }
}
