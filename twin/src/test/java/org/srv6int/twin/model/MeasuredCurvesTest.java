// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;
import static org.junit.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

/** The measured vNF model: medians, interpolation, the size factor, and the repository's curves. */
public class MeasuredCurvesTest {
    private static final String HEAD = "vnf,quota_cores,rep,offered_pps,pps,mbps,cores_used\n";
    private static final Allocation FULL = new Allocation(0.5, 11, 100, 2200);

    private static MeasuredCurves curves(String quotaRows, String sizeRows) throws IOException {
        return new MeasuredCurves(
                MeasuredCurves.medians(MeasuredCurves.parse(new BufferedReader(new StringReader(HEAD + quotaRows))),
                        false),
                MeasuredCurves.medians(MeasuredCurves.parse(new BufferedReader(new StringReader(HEAD + sizeRows))),
                        true));
    }

    private static final String ENGINES = "dpi,1,1,0,100000,0,0.5\nids,1,1,0,100000,0,0.3\n";

    @Test
    public void costIsTheMedianOfTheRepetitionsInterpolatedAndHeldOutside() throws IOException {
        // fwd at 0.5 cores: 2, 3 (median) and 10 µs per packet; at 1 core: 5 µs
        MeasuredCurves m = curves(ENGINES + "fwd,0.5,1,0,100000,0,0.2\nfwd,0.5,2,0,100000,0,1.0\n"
                + "fwd,0.5,3,0,100000,0,0.3\nfwd,1,1,0,200000,0,1.0\n", "");
        assertEquals(3.0, m.serviceTimeUs(VnfType.FWD, FULL, 498), 1e-9);
        Allocation a = FULL.copy();
        a.set(Resource.CPU_QUOTA, 0.75);
        assertEquals(4.0, m.serviceTimeUs(VnfType.FWD, a, 498), 1e-9);
        a.set(Resource.CPU_QUOTA, 0.1);
        assertEquals(3.0, m.serviceTimeUs(VnfType.FWD, a, 498), 1e-9);
        a.set(Resource.CPU_QUOTA, 2);
        assertEquals(5.0, m.serviceTimeUs(VnfType.FWD, a, 498), 1e-9);
        // Snort is the IDS, nDPI and ntopng the DPI engine
        assertEquals(3.0, m.serviceTimeUs(VnfType.SNORT, a, 498), 1e-9);
        assertEquals(5.0, m.serviceTimeUs(VnfType.NTOPNG, a, 498), 1e-9);
    }

    @Test
    public void sizeScalesByTheMeasuredCostPerSizeAndOtherResourcesByTheAssumedSensitivity() throws IOException {
        MeasuredCurves m = curves(ENGINES + "fwd,0.5,1,0,100000,0,0.3\n",
                "fwd@200,1,1,0,100000,0,0.2\nfwd@1024,1,1,0,100000,0,0.4\n");
        // cost(498 B) = 2 + (298/824)*2 µs; 1024 B costs 4 µs: factor 4 / cost(498)
        double mix = 2 + 298.0 / 824 * 2;
        assertEquals(3.0 * 4 / mix, m.serviceTimeUs(VnfType.FWD, FULL, 1024), 1e-9);
        Allocation starved = new Allocation(0.5, 1, 10, 1000);
        double ratio = VnfType.FWD.serviceTimeUs(starved, 498) / VnfType.FWD.serviceTimeUs(FULL, 498);
        assertTrue(ratio > 1.5);
        assertEquals(3.0 * ratio, m.serviceTimeUs(VnfType.FWD, starved, 498), 1e-9);
    }

    @Test(expected = IllegalArgumentException.class)
    public void anEngineWithoutRowsIsRefused() throws IOException {
        curves("fwd,1,1,0,1000,0,0.1\n", "");
    }

    @Test
    public void assumedIsThePaperModel() {
        assertEquals(VnfType.SNORT.serviceTimeUs(FULL, 1024), VnfModels.ASSUMED.serviceTimeUs(VnfType.SNORT, FULL,
                1024), 0);
        assertEquals(VnfModels.MEASURED, VnfModels.parse("measured"));
        try {
            VnfModels.parse("guessed");
            fail("accepted an unknown model");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("assumed or measured"));
        }
    }

    @Test
    public void theRepositoryCurvesGiveACapacityThatGrowsWithTheQuota() {
        MeasuredCurves m = MeasuredCurves.instance();
        for (Map.Entry<String, TreeMap<Double, Double>> e : m.costByQuota().entrySet()) {
            double last = 0;
            for (Map.Entry<Double, Double> q : e.getValue().entrySet()) {
                double cap = q.getKey() / q.getValue();
                assertTrue(e.getKey() + " at " + q.getKey() + " cores: " + cap + " Mpps after " + last,
                        cap > last);
                last = cap;
            }
            assertTrue(e.getKey() + " measured at 0.1 .. 2 cores",
                    e.getValue().firstKey() <= 0.1 && e.getValue().lastKey() >= 2);
        }
    }
}
