// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.twin.dataplane.Dataplane.Frame;

/**
 * The global loop's scale-out on real BMv2: the app adds a Snort replica on Worker 2, the switches
 * get only the difference (the new replica's 128 of SFC 2's 256 bucket entries modified on SW1, one SID
 * entry on SW3), and SFC 2's
 * flows then hash over both replicas, each flow staying on one. Skips like {@link Bmv2DataplaneTest}.
 */
public class Bmv2MultipathTest {

    private static Bmv2Dataplane dp;
    private static AppHarness app;

    @BeforeClass
    public static void startFabric() {
        dp = AppRules.startOrSkip("Bmv2MultipathTest", 300);
        app = AppRules.fig5();
        AppRules.programAll(dp, app);
    }

    private static void programAll() {
        AppRules.programAll(dp, app);
    }

    @AfterClass
    public static void stopFabric() {
        if (dp != null) {
            dp.close();
        }
    }

    @Test
    public void snortReplicaOnWorker2SplitsSfc2FlowsAndKeepsEachFlowOnOnePath() throws IOException {
        app.inventory.addReplica(VnfKey.of(PaperTestbed.SFC2, 0), "worker2");
        app.settle();
        programAll();
        assertEquals("SW1: half of SFC 2's bucket entries modified",
                     org.srv6int.pipeconf.Srv6IntPipelineConstants.ENCAP_BUCKETS / 2, dp.lastWrites(PaperTestbed.SW1));
        assertEquals("SW2 unchanged", 0, dp.lastWrites(PaperTestbed.SW2));
        assertEquals("SW3: the new replica's SID", 1, dp.lastWrites(PaperTestbed.SW3));
        assertEquals("SW4 unchanged", 0, dp.lastWrites(PaperTestbed.SW4));

        Map<String, Integer> byReplica = new TreeMap<>();
        for (int sport = 1000; sport < 1016; sport++) {
            byte[] f = Bmv2DataplaneTest.h1Frame(5002);
            f[34] = (byte) (sport >> 8);
            f[35] = (byte) sport;
            String first = null;
            for (int again = 0; again < 2; again++) {
                List<Frame> out = dp.inject(PaperTestbed.SW1, PortNumber.portNumber(1), f, 0);
                assertEquals("one frame per packet", 1, out.size());
                Frame toVnf = out.get(0);
                assertEquals(PortNumber.portNumber(3), toVnf.port());
                String where = toVnf.device() + " " + Bmv2DataplaneTest.dst(Bmv2DataplaneTest.srv6(toVnf));
                if (first == null) {
                    first = where;
                } else {
                    assertEquals("flow with source port " + sport + " changed replica", first, where);
                }
            }
            byReplica.merge(first, 1, Integer::sum);
        }
        System.out.println("BMv2 SFC 2 flows per Snort replica: " + byReplica);
        assertEquals(Set.of(PaperTestbed.SW2 + " fc00:0:2:f::2", PaperTestbed.SW3 + " fc00:0:3:f::2"),
                     byReplica.keySet());
        assertTrue("both replicas get flows: " + byReplica, byReplica.values().stream().allMatch(n -> n > 0));
    }
}
