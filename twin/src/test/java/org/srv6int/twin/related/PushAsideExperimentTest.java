// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.related;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * CoCo's push-aside scenario (coco.txt V-B): the qualitative result, not a time. With the
 * global loop's push-aside on, the SPA recovers without a new replica, on fewer nodes and less
 * CPU than immediate scale-out, and its violation lasts no longer than one telemetry window more.
 */
public class PushAsideExperimentTest {

    @Test
    public void pushAsideRecoversOnFewerResourcesThanImmediateScaleOut() {
        PushAsideExperiment.Result ours = PushAsideExperiment.run(true);
        PushAsideExperiment.Result base = PushAsideExperiment.run(false);
        // Both recover well before the end of the run.
        assertTrue("push-aside recovered at " + ours.recoveredAtS,
                ours.recoveredAtS < PushAsideExperiment.DURATION_S - 10);
        assertTrue("scale-out recovered at " + base.recoveredAtS,
                base.recoveredAtS < PushAsideExperiment.DURATION_S - 10);
        // Push-aside: the logger moved, no SPA replica added; scale-out: one more SPA replica.
        assertEquals(1, ours.spaReplicas);
        assertEquals(2, base.spaReplicas);
        assertTrue(ours.decisions.toString(), ours.decisions.stream().anyMatch(d -> d.contains("PUSH_ASIDE")));
        assertTrue(base.decisions.stream().noneMatch(d -> d.contains("PUSH_ASIDE")));
        // Ahead on resources (paper: 2 VMs instead of 3).
        assertTrue(ours.nodesUsed + " vs " + base.nodesUsed, ours.nodesUsed < base.nodesUsed);
        assertTrue(ours.cpuReservedMillis + " vs " + base.cpuReservedMillis,
                   ours.cpuReservedMillis < base.cpuReservedMillis);
        assertTrue(ours.reservedCoreSeconds + " vs " + base.reservedCoreSeconds,
                   ours.reservedCoreSeconds < base.reservedCoreSeconds);
        // Not behind on the violation by more than a window (the paper: scale-out converges a little faster).
        assertTrue(ours.violationS + " vs " + base.violationS,
                   ours.violationS <= base.violationS + PushAsideExperiment.WINDOW_S);
    }
}
