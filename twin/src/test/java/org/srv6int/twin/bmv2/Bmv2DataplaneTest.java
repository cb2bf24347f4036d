// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.codec.DecodeStatus;
import org.srv6int.codec.IntReportView;
import org.srv6int.codec.Srv6IntPacketView;
import org.srv6int.twin.dataplane.Dataplane.Frame;

/**
 * Real packets through four BMv2 switches programmed with the rules the real app installs on the
 * paper's testbed (SFC 1 and SFC 2 of Fig. 5): the golden vectors' input frame from h1 at SW1 port
 * 1, the vNFs played by re-injecting what leaves at a vNF server port, the frame at the sink and the
 * INT report at the collector port decoded with the codec. Timestamps are BMv2's and not compared.
 * Skips, with the reason printed, without root or without simple_switch_grpc.
 */
public class Bmv2DataplaneTest {

    private static final PortNumber P1 = PortNumber.portNumber(1);
    private static final PortNumber P2 = PortNumber.portNumber(2);
    private static final PortNumber P3 = PortNumber.portNumber(3);
    private static final PortNumber P10 = PortNumber.portNumber(10);

    private static Bmv2Dataplane dp;
    private static AppHarness app;

    @BeforeClass
    public static void startFabric() {
        // generous quiet period: the machine is shared, a frame crosses up to four software switches
        dp = AppRules.startOrSkip("Bmv2DataplaneTest", 300);
        app = AppRules.fig5();
        AppRules.programAll(dp, app);
    }

    @AfterClass
    public static void stopFabric() {
        if (dp != null) {
            String ns = dp.netns();
            dp.close();
            assertTrue("namespace " + ns + " deleted", !Files.exists(Paths.get("/run/netns", ns)));
        }
    }

    /** input-h1 of the golden vectors, addressed to SW1 and to the chain's UDP port. */
    static byte[] h1Frame(int dstPort) throws IOException {
        Path v = Paths.get(System.getProperty("srv6int.vectors", "../tests/vectors"), "input-h1.json");
        String hex = new ObjectMapper().readTree(v.toFile()).get("hex").asText();
        byte[] f = new byte[hex.length() / 2];
        for (int i = 0; i < f.length; i++) {
            f[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        byte[] sw1 = {0, 0, 0, 0, 1, 0}; // SW1's router MAC (netcfg myMac)
        System.arraycopy(sw1, 0, f, 0, 6);
        f[36] = (byte) (dstPort >> 8); // UDP destination port: the app classifies SFC 1 on 5001, SFC 2 on 5002
        f[37] = (byte) dstPort;
        f[40] = 0; // UDP checksum 0: none over IPv4
        f[41] = 0;
        return f;
    }

    static Frame only(List<Frame> out, DeviceId d, PortNumber p) {
        List<String> where = out.stream().map(f -> f.device() + "/" + f.port()).collect(Collectors.toList());
        assertEquals("frames left at " + where, 1, out.size());
        assertEquals(new ConnectPoint(d, p), new ConnectPoint(out.get(0).device(), out.get(0).port()));
        return out.get(0);
    }

    private static List<String> sids(Srv6IntPacketView v) {
        List<String> s = new ArrayList<>();
        byte[] b = new byte[16];
        for (int i = 0; i <= v.lastEntry(); i++) {
            v.copySegment(i, b, 0);
            s.add(Ip6Address.valueOf(b).toString());
        }
        return s;
    }

    private static List<Integer> hops(Srv6IntPacketView v) {
        List<Integer> h = new ArrayList<>();
        for (int i = 0; i < v.completedHops(); i++) {
            h.add(v.intDeviceId(i));
        }
        return h;
    }

    static Srv6IntPacketView srv6(Frame f) {
        Srv6IntPacketView v = new Srv6IntPacketView();
        byte[] b = f.bytes();
        assertEquals(DecodeStatus.OK, v.wrap(b, 0, b.length));
        return v;
    }

    static String dst(Srv6IntPacketView v) {
        byte[] b = new byte[16];
        v.copyDst(b, 0);
        return Ip6Address.valueOf(b).toString();
    }

    @Test
    public void sfc1CrossesFourSwitchesAndTwoVnfsAndIsReported() throws IOException {
        byte[] in = h1Frame(5001);
        Frame toVnf1 = only(dp.inject(PaperTestbed.SW1, P1, in, 0), PaperTestbed.SW2, P3);
        Srv6IntPacketView v = srv6(toVnf1);
        System.out.println("BMv2 SW2 -> vNF 1: SIDs " + sids(v) + " SL " + v.segmentsLeft() + " hops " + hops(v));
        assertEquals("fc00:0:2:f::1", dst(v));
        assertTrue(v.isIntOn() && v.isSfcMode());
        assertEquals(1, v.tag());
        assertEquals(3, v.lastEntry());
        assertEquals(2, v.segmentsLeft());
        // the active SID is in the destination address; its slot already holds SW2's INT entry
        assertEquals(List.of("fc00:0:4::d", "fc00:0:3:f::1"), sids(v).subList(0, 2));
        assertEquals(List.of(1), hops(v));

        // vNF 1 returns the packet unchanged
        Frame toVnf2 = only(dp.inject(PaperTestbed.SW2, P3, toVnf1.bytes(), 0), PaperTestbed.SW3, P3);
        v = srv6(toVnf2);
        System.out.println("BMv2 SW3 -> vNF 2: SIDs " + sids(v) + " SL " + v.segmentsLeft() + " hops " + hops(v));
        assertEquals("fc00:0:3:f::1", dst(v));
        assertEquals(1, v.segmentsLeft());
        assertEquals(List.of("fc00:0:4::d"), sids(v).subList(0, 1));
        assertEquals(List.of(1, 2), hops(v));

        List<Frame> out = dp.inject(PaperTestbed.SW3, P3, toVnf2.bytes(), 0);
        checkSinkAndReport(out, in, List.of(1, 2, 3, 4), 1);
    }

    @Test
    public void sfc2CrossesSnortOnWorker1AndIsReported() throws IOException {
        byte[] in = h1Frame(5002);
        Frame toSnort = only(dp.inject(PaperTestbed.SW1, P1, in, 0), PaperTestbed.SW2, P3);
        Srv6IntPacketView v = srv6(toSnort);
        assertEquals("fc00:0:2:f::2", dst(v));
        assertEquals(2, v.tag());
        assertEquals(2, v.lastEntry());
        assertEquals(1, v.segmentsLeft());
        assertEquals(List.of("fc00:0:4::d"), sids(v).subList(0, 1));
        assertEquals(List.of(1), hops(v));
        List<Frame> out = dp.inject(PaperTestbed.SW2, P3, toSnort.bytes(), 0);
        // SFC 2 samples INT on 1 packet in 10: the first one of the chain carries it
        checkSinkAndReport(out, in, List.of(1, 2, 4), 2);
    }

    private static void checkSinkAndReport(List<Frame> out, byte[] in, List<Integer> hops, int tag) {
        List<Frame> sink = out.stream().filter(f -> f.device().equals(PaperTestbed.SW4) && f.port().equals(P2))
                .collect(Collectors.toList());
        List<Frame> reports = out.stream().filter(f -> f.device().equals(PaperTestbed.SW4) && f.port().equals(P10))
                .collect(Collectors.toList());
        assertEquals("frames left at " + out.stream().map(f -> f.device() + "/" + f.port())
                .collect(Collectors.toList()), out.size(), sink.size() + reports.size());
        assertEquals("one frame to the sink", 1, sink.size());
        assertEquals("one INT report", 1, reports.size());

        // the sink gets the inner IPv4 packet: same addresses, ports and payload as h1 sent
        byte[] s = sink.get(0).bytes();
        assertEquals(0x0800, ((s[12] & 0xff) << 8) | (s[13] & 0xff));
        assertEquals(in.length, s.length);
        for (int i = 26; i < in.length; i++) { // IPv4 addresses onwards (TTL and checksum change)
            assertEquals("sink byte " + i, in[i], s[i]);
        }

        byte[] r = reports.get(0).bytes();
        IntReportView rv = new IntReportView();
        assertEquals(DecodeStatus.OK, rv.wrapFrame(r, 0, r.length));
        assertEquals(4, rv.reporterDeviceId());
        assertEquals(32766, rv.udpDstPort());
        Srv6IntPacketView m = rv.packet();
        List<Integer> reported = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rv.hopCount(); i++) { // the egress wrote its own entry too
            reported.add(m.intDeviceId(i));
            sb.append(String.format(" [dev %d q %d in %d vnf %d pc %d]", m.intDeviceId(i), m.intQueueLength(i),
                                    m.intInTime(i), m.intVnfLatency(i), m.intPortCounter(i)));
        }
        System.out.println("BMv2 INT report (chain " + tag + ", " + r.length + " bytes, seq " + rv.sequenceNumber()
                + "):" + sb);
        assertEquals(tag, m.tag());
        assertEquals(hops, reported);
        for (int i = 0; i < rv.hopCount(); i++) {
            boolean vnfHop = i > 0 && i < rv.hopCount() - 1;
            assertTrue("vNF latency only where a vNF was crossed, hop " + i,
                       vnfHop ? m.intVnfLatency(i) > 0 : m.intVnfLatency(i) == 0);
        }
    }

    @Test
    public void reprogrammingTheSameRulesWritesNothing() {
        for (DeviceId d : PaperTestbed.SWITCHES) {
            dp.program(d, AppRules.rules(app, d), AppRules.groups(app, d));
            assertEquals(d.toString(), 0, dp.lastWrites(d));
        }
    }
}
