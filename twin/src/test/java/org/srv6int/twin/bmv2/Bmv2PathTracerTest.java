// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.twin.control.PathTracer;

/**
 * The twin's path tracing on real BMv2 with the app's Fig. 5 rules, with a 1 ms quiet period:
 * shorter than the switches take to pass on a frame and its INT report clone, so frames of one
 * probe regularly leave during the next injection. SFC 1's probes must still all go through
 * vNF 1 at SW2 and vNF 2 at SW3 (before the probes were tagged, such late frames put probes at
 * the egress after one vNF or none, and the twin stopped with "switches send 1 through [1/1/r0]"),
 * and SFC 2's all through its one Snort. Skips like {@link Bmv2DataplaneTest}.
 */
public class Bmv2PathTracerTest {

    private static Bmv2Dataplane dp;
    private static AppHarness app;

    @BeforeClass
    public static void startFabric() {
        dp = AppRules.startOrSkip("Bmv2PathTracerTest", 1);
        app = AppRules.fig5();
        AppRules.programAll(dp, app);
    }

    @AfterClass
    public static void stopFabric() {
        if (dp != null) {
            dp.close();
        }
    }

    private static Map<List<VnfReplicaId>, Double> trace(SfcId id) {
        Sfc sfc = app.sfcs.getSfc(id).orElseThrow();
        return PathTracer.trace(dp, sfc, app.inventory, app.config.devices, 0);
    }

    private static VnfReplicaId r0(SfcId sfc, int vnf) {
        return VnfReplicaId.of(VnfKey.of(sfc, vnf), "r0");
    }

    @Test
    public void everyProbeOfSfc1GoesThroughBothVnfsDespiteLateFrames() {
        for (int round = 0; round < 2; round++) {
            assertEquals(Map.of(List.of(r0(PaperTestbed.SFC1, 0), r0(PaperTestbed.SFC1, 1)), 1.0),
                         trace(PaperTestbed.SFC1));
            assertEquals(Map.of(List.of(r0(PaperTestbed.SFC2, 0)), 1.0), trace(PaperTestbed.SFC2));
        }
    }
}
