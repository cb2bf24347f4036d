// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.List;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onlab.packet.Ip6Address;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.pipeconf.Srv6IntActions;
import org.srv6int.pipeconf.Srv6IntConstants;
import org.srv6int.pipeconf.Srv6IntPipelineConstants;
import org.srv6int.twin.dataplane.Dataplane.Frame;

/**
 * Removal on real BMv2: when the app removes both chains the switches accept every delete (the
 * classifier entry and the bucket table of each), SFC traffic is no longer steered to a vNF, and emptying a switch
 * resets its default entries and drops its clone session. A write the switch refuses fails with its
 * reason. Skips like {@link Bmv2DataplaneTest}.
 */
public class Bmv2RemovalTest {

    private static Bmv2Dataplane dp;
    private static AppHarness app;

    @BeforeClass
    public static void startFabric() {
        dp = AppRules.startOrSkip("Bmv2RemovalTest", 300);
        app = AppRules.fig5();
        AppRules.programAll(dp, app);
    }

    @AfterClass
    public static void stopFabric() {
        if (dp != null) {
            dp.close();
        }
    }

    @Test
    public void removingChainsThenEverythingIsAcceptedBySwitches() throws IOException {
        app.sfcs.removeSfc(PaperTestbed.SFC1);
        app.sfcs.removeSfc(PaperTestbed.SFC2);
        app.settle();
        dp.program(PaperTestbed.SW1, AppRules.rules(app, PaperTestbed.SW1), AppRules.groups(app, PaperTestbed.SW1));
        // per chain its classifier entry and its bucket table (one srv6_encap entry per bucket)
        assertEquals(2 * (1 + Srv6IntPipelineConstants.ENCAP_BUCKETS), dp.lastWrites(PaperTestbed.SW1));
        List<Frame> out = dp.inject(PaperTestbed.SW1, PortNumber.portNumber(1), Bmv2DataplaneTest.h1Frame(5001), 0);
        assertTrue("no frame is steered to a vNF any more: " + out,
                   out.stream().noneMatch(f -> f.port().equals(PortNumber.portNumber(3))));

        for (DeviceId d : PaperTestbed.SWITCHES) {
            dp.program(d, List.of(), List.of());
            assertTrue(d + " had entries to remove", dp.lastWrites(d) > 0);
        }
    }

    @Test
    public void refusedWriteFailsWithTheSwitchsReason() {
        // a my_sid entry whose value has bits set beyond its prefix: the translation passes it on
        // (it fits 128 bits), the switch's P4Runtime server refuses it (P4Runtime spec: masked-off
        // LPM bits must be zero)
        FlowRule onSw2 = DefaultFlowRule.builder().forDevice(PaperTestbed.SW2).fromApp(PaperTestbed.APP_ID)
                .forTable(Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID)
                .withSelector(DefaultTrafficSelector.builder().matchPi(PiCriterion.builder()
                        .matchLpm(Srv6IntConstants.HDR_IPV6_DST, Ip6Address.valueOf("fc00:0:2::f1").toOctets(), 48)
                        .build()).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(Srv6IntActions.endTInt()).build())
                .withPriority(0).makePermanent().build();
        try {
            dp.program(PaperTestbed.SW2, List.of(onSw2), List.of());
            fail("BMv2 accepted an LPM value with bits beyond its prefix");
        } catch (IllegalStateException e) {
            System.out.println("BMv2 refusal: " + e.getMessage());
            assertTrue(e.getMessage(), e.getMessage().contains("P4Runtime write failed")
                    && e.getMessage().contains(PaperTestbed.SW2.toString()));
        }
    }
}
