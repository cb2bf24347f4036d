// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import org.junit.Test;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.testing.PaperTestbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.srv6int.app.testing.PaperTestbed.SFC1;
import static org.srv6int.app.testing.PaperTestbed.SFC2;

/**
 * LCS alignment, replica placement and segment-list weights on the paper's testbed.
 */
public class PlacementTest {

    @Test
    public void lcsKeepsOrder() {
        List<int[]> a = Lcs.align(List.of("a", "b", "c"), List.of("x", "c", "a", "y", "b", "c"), String::equals);
        assertEquals(3, a.size());
        assertEquals(2, a.get(0)[1]);
        assertEquals(4, a.get(1)[1]);
        assertEquals(5, a.get(2)[1]);
        assertEquals(0, Lcs.length(List.of("a"), List.of("b"), String::equals));
    }

    @Test
    public void snortScaleOutGoesWhereResourcesAreFree() {
        List<VnfReplica> rs = PaperTestbed.initialReplicas();
        Optional<String> full = LcsPlacement.chooseNode(PaperTestbed.sfc2(), 0, rs,
                                                        Map.of("worker1", 0.0, "worker2", 8.0),
                                                        PaperTestbed.devices(), PaperTestbed.pathService());
        assertEquals(Optional.of("worker2"), full);
        Optional<String> both = LcsPlacement.chooseNode(PaperTestbed.sfc2(), 0, rs,
                                                        Map.of("worker1", 9.0, "worker2", 8.0),
                                                        PaperTestbed.devices(), PaperTestbed.pathService());
        assertEquals(Optional.of("worker1"), both);
        assertEquals(Optional.empty(), LcsPlacement.chooseNode(PaperTestbed.sfc2(), 0, rs, Map.of("w9", 5.0),
                                                               PaperTestbed.devices(), PaperTestbed.pathService()));
    }

    @Test
    public void lcsPrefersKeepingChainOrderOverFreeResources() {
        // SFC 1: Fwd on Worker 1 (SW2), nDPI on Worker 2 (SW3). A new Fwd replica keeps chain order on
        // either worker (on Worker 2 it shares the server with nDPI), so both align fully (LCS 2) and
        // the richer one wins; a new nDPI replica on Worker 1 also keeps order (Fwd, nDPI on one server).
        List<VnfReplica> rs = PaperTestbed.initialReplicas();
        assertEquals(Optional.of("worker2"), LcsPlacement.chooseNode(PaperTestbed.sfc1(), 0, rs,
                Map.of("worker1", 1.0, "worker2", 5.0), PaperTestbed.devices(), PaperTestbed.pathService()));
    }

    @Test
    public void oneSegmentListPerCombinationWithProductWeights() {
        List<VnfReplica> rs = new ArrayList<>(PaperTestbed.initialReplicas());
        rs.add(PaperTestbed.replica(VnfKey.of(SFC1, 0), "r1", "worker2", 3).withWeight(2));
        rs.add(PaperTestbed.replica(VnfKey.of(SFC1, 1), "r1", "worker1", 4));
        SfcPaths p = SegmentListComputer.compute(PaperTestbed.sfc1(), rs, PaperTestbed.devices(),
                                                 new SidRouting(PaperTestbed.pathService()));
        assertEquals(4, p.segmentLists().size());
        assertEquals(6, p.totalWeight());
        SegmentList back = p.segmentLists().stream()
                .filter(l -> l.segments().get(1).toString().equals("fc00:0:3:f::3")
                        && l.segments().get(2).toString().equals("fc00:0:2:f::4"))
                .findFirst().orElseThrow();
        assertEquals(2, back.weight());
        // Fwd on Worker 2 then nDPI on Worker 1: the packet goes SW1, SW2, SW3, back to SW2, then to SW4
        assertEquals(List.of(PaperTestbed.SW1, PaperTestbed.SW2, PaperTestbed.SW3, PaperTestbed.SW2,
                             PaperTestbed.SW3, PaperTestbed.SW4), back.switchPath());
        assertEquals(List.of(3, 1), SegmentListComputer.scale(List.of(600, 200)));
        assertEquals(255, (int) SegmentListComputer.scale(List.of(1000, 3)).get(0));
    }

    @Test
    public void noListWithoutActiveReplica() {
        List<VnfReplica> rs = List.of(PaperTestbed.initialReplicas().get(2).withState(
                org.srv6int.app.api.model.ReplicaState.DRAINING));
        assertEquals(0, SegmentListComputer.compute(PaperTestbed.sfc2(), rs, PaperTestbed.devices(),
                new SidRouting(PaperTestbed.pathService())).segmentLists().size());
        assertEquals(SFC2, SegmentListComputer.compute(PaperTestbed.sfc2(), rs, PaperTestbed.devices(),
                new SidRouting(PaperTestbed.pathService())).sfcId());
    }
}
