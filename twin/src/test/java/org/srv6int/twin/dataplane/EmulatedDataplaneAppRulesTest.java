// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.Arrays;
import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.codec.Addresses;
import org.srv6int.codec.DecodeStatus;
import org.srv6int.codec.FlowHash;
import org.srv6int.codec.IntReportView;
import org.srv6int.codec.Srv6IntPacketView;

/**
 * The emulated switches programmed with what the real app installs on the paper's
 * testbed (AppHarness + PaperTestbed, as PaperTestbedProgrammingTest: SFC 1 and SFC 2 of
 * Fig. 5), replaying the golden vectors' flow through SFC 1.
 *
 * <p>The vectors were generated for their own scenario (tests/vectors/README.md), whose
 * identities differ from the app's netcfg fixture (paper-testbed-netcfg.json): vNF SIDs
 * fc00:0:n::fX vs the app's fc00:0:n:f::X (vnfSidPrefix), End.DT.INT SID fc00:0:4::d4 vs
 * dtSid fc00:0:4::d, switch / vNF / host / collector MACs, the report addresses, and the
 * UDP destination port (6000; SFC 1's classifier wants 5001). The expected frames are the
 * vectors with exactly these identities substituted (and the Flow Label and IPv4 header
 * checksum that follow from them recomputed); everything else is compared byte for byte.
 */
public class EmulatedDataplaneAppRulesTest {

    private static final PortNumber P1 = PortNumber.portNumber(1);
    private static final PortNumber P2 = PortNumber.portNumber(2);
    private static final PortNumber VNF = PortNumber.portNumber(3);
    private static final PortNumber COLLECTOR = PortNumber.portNumber(10);

    private AppHarness app;
    private EmulatedDataplane dp;

    @Before
    public void setUp() {
        app = new AppHarness();
        app.deployFig5();
        app.settle();
        dp = new EmulatedDataplane(PaperTestbed.links());
        for (DeviceId d : PaperTestbed.SWITCHES) {
            List<FlowRule> rules = new ArrayList<>();
            app.flows.getFlowEntries(d).forEach(rules::add);
            List<Group> groups = new ArrayList<>();
            app.groups.getGroups(d).forEach(groups::add);
            dp.program(d, rules, groups);
        }
    }

    private static String hex(byte[] b) {
        return Addresses.toHex(b, 0, b.length);
    }

    private static String sid(String s) {
        return hex(Ip6Address.valueOf(s).toOctets());
    }

    private static String mac(String s) {
        return hex(MacAddress.valueOf(s).toBytes());
    }

    /** Vector identity -> app identity, same byte length each. */
    private static final String[][] IDENTITIES = {
        {sid("fc00:0:2::f1"), sid("fc00:0:2:f::1")},
        {sid("fc00:0:3::f2"), sid("fc00:0:3:f::1")},
        {sid("fc00:0:4::d4"), sid("fc00:0:4::d")},
        {mac("02:00:00:00:02:01"), mac("00:00:00:00:02:03")},
        {mac("02:00:00:00:02:02"), mac("00:00:00:00:03:03")},
        {mac("02:00:00:00:01:04"), mac("00:00:00:00:04:02")},
        {mac("02:00:00:00:03:01"), mac("00:00:00:00:00:fe")},
        {mac("02:00:00:00:00:01"), mac("00:00:00:00:01:00")},
        {mac("02:00:00:00:00:02"), mac("00:00:00:00:02:00")},
        {mac("02:00:00:00:00:03"), mac("00:00:00:00:03:00")},
        {mac("02:00:00:00:00:04"), mac("00:00:00:00:04:00")},
        // report IPv4 source and destination
        {"0a006404", "0a000004"},
        {"0a006401", "0a000064"},
        // inner UDP ports 5000 -> 6000 become 5000 -> 5001
        {"13881770", "13881389"},
    };

    /** SFC 1's flow: the vectors' inner packet sent to UDP port 5001. */
    private static byte[] input() {
        return Addresses.fromHex(Vectors.load("input-h1").get("hex").asText().replace("13881770", "13881389"));
    }

    /** A vector as the app's identities would make it. */
    private static byte[] expected(String name) {
        String h = Vectors.load(name).get("hex").asText();
        for (String[] s : IDENTITIES) {
            h = h.replace(s[0], s[1]);
        }
        byte[] b = Addresses.fromHex(h);
        byte[] in = input();
        int label = FlowHash.flowLabel(in, 14, in.length - 14);
        if ((b[12] & 0xFF) == 0x86 && (b[13] & 0xFF) == 0xDD) {
            setFlowLabel(b, 14, label);
        } else if (b.length > 58 && (b[58 + 12] & 0xFF) == 0x86) {
            // report: the IPv4 header checksum over the new addresses, the mirrored frame's label
            b[24] = 0;
            b[25] = 0;
            long sum = 0;
            for (int i = 14; i < 34; i += 2) {
                sum += ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
            }
            while ((sum >>> 16) != 0) {
                sum = (sum & 0xFFFF) + (sum >>> 16);
            }
            b[24] = (byte) (~sum >>> 8);
            b[25] = (byte) ~sum;
            setFlowLabel(b, 58 + 14, label);
        }
        return b;
    }

    private static void setFlowLabel(byte[] b, int ip, int label) {
        b[ip + 1] = (byte) ((b[ip + 1] & 0xF0) | (label >>> 16));
        b[ip + 2] = (byte) (label >>> 8);
        b[ip + 3] = (byte) label;
    }

    private static void assertLike(Dataplane.Frame f, DeviceId d, PortNumber port, String vector) {
        assertEquals(d, f.device());
        assertEquals(port, f.port());
        JsonNode v = Vectors.load(vector);
        Vectors.assertMatches(f.bytes(), expected(vector), v);
    }

    @Test
    public void sfc1RunsThroughBothVnfsAndReportsLikeTheVectors() {
        List<Dataplane.Frame> out = null;
        for (int packet = 0; packet < 2; packet++) {
            long t = 5_000_000L * (packet + 1);
            out = dp.inject(PaperTestbed.SW1, P1, input(), t);
            for (DeviceId worker : List.of(PaperTestbed.SW2, PaperTestbed.SW3)) {
                // Each vNF holds the packet 40 us.
                t += 40_000;
                assertEquals(1, out.size());
                if (packet == 1) {
                    // Port_Counter 2: the vectors' second packet.
                    assertLike(out.get(0), worker, VNF,
                               worker.equals(PaperTestbed.SW2) ? "sfc-2-sw2-to-vnf1" : "sfc-4-sw3-to-vnf2");
                }
                out = dp.inject(worker, VNF, out.get(0).bytes(), t);
            }
        }
        assertEquals(2, out.size());
        assertLike(out.get(0), PaperTestbed.SW4, P2, "sfc-6-sw4-end-dt");
        assertLike(out.get(1), PaperTestbed.SW4, COLLECTOR, "sfc-7-sw4-report");
        assertEquals(40_000, dp.vnfLatency(PaperTestbed.SW2, 1));
        assertEquals(40_000, dp.vnfLatency(PaperTestbed.SW3, 1));
        IntReportView r = new IntReportView();
        byte[] rep = out.get(1).bytes();
        assertEquals(DecodeStatus.OK, r.wrapFrame(rep, 0, rep.length));
        assertEquals(4, r.reporterDeviceId());
        assertEquals(1, r.sequenceNumber());
        Srv6IntPacketView m = r.packet();
        assertEquals("Segment List[0..3] all hold INT metadata", 3, m.lastEntry());
        for (int hop = 0; hop < 4; hop++) {
            assertEquals("hop " + hop, hop + 1, m.intDeviceId(hop));
            assertEquals(2, m.intPortCounter(hop));
        }
        assertEquals(40_000, m.intVnfLatency(1));
        assertEquals(40_000, m.intVnfLatency(2));
    }

    @Test
    public void sfc2SamplesIntOnOneInTenPackets() {
        byte[] in = input();
        in[37] = (byte) 0x8A; // UDP destination port 5002: SFC 2 (Snort on Worker 1)
        int reports = 0;
        for (int packet = 0; packet < 20; packet++) {
            long t = 1_000_000L * packet;
            List<Dataplane.Frame> out = dp.inject(PaperTestbed.SW1, P1, in, t);
            assertEquals(1, out.size());
            assertEquals(PaperTestbed.SW2, out.get(0).device());
            assertEquals(VNF, out.get(0).port());
            out = dp.inject(PaperTestbed.SW2, VNF, out.get(0).bytes(), t + 1000);
            assertEquals(PaperTestbed.SW4, out.get(0).device());
            assertEquals(P2, out.get(0).port());
            reports += out.size() - 1;
        }
        assertEquals(2, reports);
        assertEquals(2, dp.reports(PaperTestbed.SW4));
    }

    @Test
    public void trafficOfNoChainIsRoutedNatively() {
        byte[] in = input();
        in[37] = (byte) 0x99; // UDP destination port 5017: no classifier entry
        List<Dataplane.Frame> out = dp.inject(PaperTestbed.SW1, P1, in, 0);
        assertEquals(1, out.size());
        assertEquals(PaperTestbed.SW4, out.get(0).device());
        assertEquals(P2, out.get(0).port());
        byte[] f = out.get(0).bytes();
        assertEquals("TTL -1 per switch", (in[22] & 0xFF) - 4, f[22] & 0xFF);
        long sum = 0;
        for (int i = 14; i < 34; i += 2) {
            sum += ((f[i] & 0xFF) << 8) | (f[i + 1] & 0xFF);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        assertEquals("IPv4 header checksum", 0xFFFF, sum);
        assertEquals("00:00:00:00:04:02", MacAddress.valueOf(Arrays.copyOf(f, 6)).toString());
    }
}
