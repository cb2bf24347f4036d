// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.srv6int.twin.dataplane.Vectors.COLLECTOR_PORT;
import static org.srv6int.twin.dataplane.Vectors.DOWNSTREAM;
import static org.srv6int.twin.dataplane.Vectors.PLAIN_PATH;
import static org.srv6int.twin.dataplane.Vectors.SFC_PATH;
import static org.srv6int.twin.dataplane.Vectors.SW;
import static org.srv6int.twin.dataplane.Vectors.UPSTREAM;
import static org.srv6int.twin.dataplane.Vectors.VNF_PORT;
import static org.srv6int.twin.dataplane.Vectors.assertMatches;
import static org.srv6int.twin.dataplane.Vectors.frame;

import java.util.List;
import org.junit.Test;
import org.onosproject.net.PortNumber;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.codec.IntReportView;
import org.srv6int.codec.Srv6IntPacketView;

/**
 * The emulated switches against the golden vectors, with the vectors' own entries
 * (the scenario of tests/vectors/README.md, as p4src/tests/test_dataplane.py programs
 * BMv2): each node alone (no links, every port an edge) like the BMv2 tests, then the
 * whole chain across the paper testbed's links. Timestamps and queue fields are masked
 * as in the BMv2 tests; the Flow Label is compared.
 */
public class EmulatedDataplaneVectorTest {

    private static final long T0 = 1_000_000L;

    /** One switch with no links: every frame it sends leaves at an edge port. */
    private static EmulatedDataplane alone(int n, Vectors.Entries e) {
        EmulatedDataplane dp = new EmulatedDataplane(List.of());
        e.programInto(dp, SW[n]);
        return dp;
    }

    private static byte[] one(EmulatedDataplane dp, int n, int port, byte[] in, long now, int outPort) {
        List<Dataplane.Frame> out = dp.inject(SW[n], PortNumber.portNumber(port), in, now);
        assertEquals("one frame out of SW" + n, 1, out.size());
        assertEquals(PortNumber.portNumber(outPort), out.get(0).port());
        assertEquals(SW[n], out.get(0).device());
        return out.get(0).bytes();
    }

    private static int sl(byte[] f) {
        return f[57] & 0xFF;
    }

    private static long u32(byte[] f, int off) {
        return ((f[off] & 0xFFL) << 24) | ((f[off + 1] & 0xFFL) << 16) | ((f[off + 2] & 0xFFL) << 8) | (f[off
                + 3] & 0xFFL);
    }

    /** Detection Result of an encapsulated frame. */
    private static long detectionResult(byte[] f) {
        Srv6IntPacketView v = new Srv6IntPacketView();
        assertEquals(org.srv6int.codec.DecodeStatus.OK, v.wrap(f, 0, f.length));
        return v.detectionResult();
    }

    @Test
    public void hEncapsIntPlain() {
        EmulatedDataplane dp = alone(1, Vectors.ingress(false, 1, List.of(PLAIN_PATH), List.of(1)));
        assertMatches(one(dp, 1, UPSTREAM, frame("input-h1"), T0, DOWNSTREAM), "plain-1-sw1-encap");
    }

    @Test
    public void hEncapsIntSfcSecondPacket() {
        EmulatedDataplane dp = alone(1, Vectors.ingress(true, 1, List.of(SFC_PATH), List.of(1)));
        one(dp, 1, UPSTREAM, frame("input-h1"), T0, DOWNSTREAM);
        // Port_Counter 2 on the second packet of the flow.
        assertMatches(one(dp, 1, UPSTREAM, frame("input-h1"), T0, DOWNSTREAM), "sfc-1-sw1-encap");
    }

    @Test
    public void intOnOneInKPackets() {
        EmulatedDataplane dp = alone(1, Vectors.ingress(false, 3, List.of(PLAIN_PATH), List.of(1)));
        StringBuilder flags = new StringBuilder();
        for (int i = 0; i < 7; i++) {
            flags.append(one(dp, 1, UPSTREAM, frame("input-h1"), T0, DOWNSTREAM)[59] & 1);
        }
        assertEquals("1001001", flags.toString());
    }

    @Test
    public void endTIntPlain() {
        assertMatches(one(alone(2, Vectors.endpoint(2)), 2, UPSTREAM, frame("plain-1-sw1-encap"), T0, DOWNSTREAM),
                      "plain-2-sw2-end-t");
        assertMatches(one(alone(3, Vectors.endpoint(3)), 3, UPSTREAM, frame("plain-2-sw2-end-t"), T0, DOWNSTREAM),
                      "plain-3-sw3-end-t");
    }

    private static void vnfRoundTrip(int n, String in, String toVnf, String out) {
        EmulatedDataplane dp = alone(n, Vectors.endpoint(n));
        int sl = sl(frame(in));
        int slot = 62 + 16 * sl;
        long t = 4_294_900_000L;
        // Packet 1: no measurement yet.
        byte[] a1 = one(dp, n, UPSTREAM, frame(in), t, VNF_PORT);
        assertEquals(0, detectionResult(a1));
        assertEquals("departure time parked in vNF_Latency", t & 0xFFFFFFFFL, u32(a1, slot + 10));
        byte[] b1 = one(dp, n, VNF_PORT, a1, t + 20_000_000, DOWNSTREAM);
        assertEquals(20_000_000, u32(b1, slot + 10));
        assertEquals(20_000_000, dp.vnfLatency(SW[n], n - 1));
        // Packet 2 carries packet 1's latency to the vNF; its round trip wraps In_Time at 2^32.
        long t2 = (1L << 32) - 10_000;
        byte[] a2 = one(dp, n, UPSTREAM, frame(in), t2, VNF_PORT);
        assertEquals(20_000_000, detectionResult(a2));
        assertMatches(a2, toVnf);
        byte[] b2 = one(dp, n, VNF_PORT, a2, t2 + 25_000, DOWNSTREAM);
        assertMatches(b2, out);
        assertEquals(25_000, u32(b2, slot + 10));
        assertEquals("In_Time is the parked arrival time", t2 & 0xFFFFFFFFL, u32(b2, slot + 6));
        assertEquals("Device_ID", n, ((b2[slot] & 0xFF) << 8) | (b2[slot + 1] & 0xFF));
        assertEquals("Port_Counter", 2, ((b2[slot + 14] & 0xFF) << 8) | (b2[slot + 15] & 0xFF));
    }

    @Test
    public void endTIntSfcVnfRoundTripAndDetectionResult() {
        vnfRoundTrip(2, "sfc-1-sw1-encap", "sfc-2-sw2-to-vnf1", "sfc-3-sw2-end-t");
        vnfRoundTrip(3, "sfc-3-sw2-end-t", "sfc-4-sw3-to-vnf2", "sfc-5-sw3-end-t");
    }

    private static void endDt(String in, String dt, String report, int sends, int trunc) {
        EmulatedDataplane dp = alone(4, Vectors.egress(trunc));
        List<Dataplane.Frame> out = null;
        for (int i = 0; i < sends; i++) {
            out = dp.inject(SW[4], PortNumber.portNumber(UPSTREAM), frame(in), T0 + i);
            assertEquals(2, out.size());
            assertEquals(PortNumber.portNumber(DOWNSTREAM), out.get(0).port());
            assertEquals(PortNumber.portNumber(COLLECTOR_PORT), out.get(1).port());
            IntReportView r = new IntReportView();
            byte[] rep = out.get(1).bytes();
            assertEquals(org.srv6int.codec.DecodeStatus.OK, r.wrapFrame(rep, 0, rep.length));
            assertEquals("per-reporter sequence", i, r.sequenceNumber());
        }
        if (dt != null) {
            assertMatches(out.get(0).bytes(), dt);
        }
        assertMatches(out.get(1).bytes(), report);
        assertEquals(sends, dp.reports(SW[4]));
    }

    @Test
    public void endDtIntDecapAndReport() {
        endDt("plain-3-sw3-end-t", "plain-4-sw4-end-dt", "plain-5-sw4-report", 1, 256);
        endDt("sfc-5-sw3-end-t", "sfc-6-sw4-end-dt", "sfc-7-sw4-report", 2, 256);
    }

    @Test
    public void reportTruncated() {
        endDt("sfc-5-sw3-end-t", null, "sfc-8-sw4-report-truncated", 2, 160);
    }

    /** The whole chain across the testbed's links: only the edge frames come out. */
    @Test
    public void wholeChainAcrossTheFabric() {
        for (boolean sfc : new boolean[] {false, true}) {
            EmulatedDataplane dp = new EmulatedDataplane(PaperTestbed.links());
            Vectors.ingress(sfc, 1, List.of(sfc ? SFC_PATH : PLAIN_PATH), List.of(1)).programInto(dp, SW[1]);
            Vectors.endpoint(2).programInto(dp, SW[2]);
            Vectors.endpoint(3).programInto(dp, SW[3]);
            Vectors.egress(256).programInto(dp, SW[4]);
            List<Dataplane.Frame> out = null;
            for (int packet = 0; packet < (sfc ? 2 : 1); packet++) {
                long t = T0 + 1000L * packet;
                out = dp.inject(SW[1], PortNumber.portNumber(UPSTREAM), frame("input-h1"), t);
                if (sfc) {
                    // Each vNF returns the frame unchanged after 1 µs.
                    for (int n = 2; n <= 3; n++) {
                        assertEquals(1, out.size());
                        assertEquals(SW[n], out.get(0).device());
                        assertEquals(PortNumber.portNumber(VNF_PORT), out.get(0).port());
                        if (packet == 1) {
                            assertMatches(out.get(0).bytes(), n == 2 ? "sfc-2-sw2-to-vnf1" : "sfc-4-sw3-to-vnf2");
                        }
                        out = dp.inject(SW[n], PortNumber.portNumber(VNF_PORT), out.get(0).bytes(), t + 1000);
                    }
                }
            }
            assertEquals(2, out.size());
            assertEquals(SW[4], out.get(0).device());
            assertEquals(PortNumber.portNumber(DOWNSTREAM), out.get(0).port());
            assertEquals(PortNumber.portNumber(COLLECTOR_PORT), out.get(1).port());
            assertMatches(out.get(0).bytes(), sfc ? "sfc-6-sw4-end-dt" : "plain-4-sw4-end-dt");
            assertMatches(out.get(1).bytes(), sfc ? "sfc-7-sw4-report" : "plain-5-sw4-report");
            for (DropReason r : DropReason.values()) {
                for (int n = 1; n <= 4; n++) {
                    assertEquals(r + " at SW" + n, 0, dp.drops(SW[n], r));
                }
            }
            assertTrue(dp.vnfLatency(SW[2], 1) == (sfc ? 1000 : 0));
        }
    }
}
