// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.Arrays;
import static org.junit.Assert.assertEquals;
import static org.srv6int.twin.dataplane.Vectors.COLLECTOR_PORT;
import static org.srv6int.twin.dataplane.Vectors.DOWNSTREAM;
import static org.srv6int.twin.dataplane.Vectors.PLAIN_PATH;
import static org.srv6int.twin.dataplane.Vectors.SW;
import static org.srv6int.twin.dataplane.Vectors.UPSTREAM;
import static org.srv6int.twin.dataplane.Vectors.VNF_PORT;
import static org.srv6int.twin.dataplane.Vectors.assertMatches;
import static org.srv6int.twin.dataplane.Vectors.frame;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.onosproject.net.PortNumber;
import org.onosproject.net.pi.runtime.PiAction;
import org.srv6int.codec.Addresses;
import org.srv6int.codec.IntMetadata;
import org.srv6int.codec.Srv6IntEncap;

import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_END_T_INT;

/**
 * The emulated switch against the local-* and ipv6-* golden vectors: consecutive vNFs
 * behind one switch (the next segment after a vNF's return is again a SID of the same
 * switch, served in another pass like the P4 program's recirculation (local_sid_pass.p4)), a local vNF right
 * before End.DT.INT, IPv6 inner traffic; and the bad segment lists that would make a
 * switch pass a frame to itself without end.
 */
public class EmulatedDataplaneLocalChainTest {

    private static final long T0 = 1_000_000L;

    private static EmulatedDataplane alone(int n, Vectors.Entries e) {
        EmulatedDataplane dp = new EmulatedDataplane(List.of());
        e.programInto(dp, SW[n]);
        return dp;
    }

    private static byte[] one(EmulatedDataplane dp, int n, int port, byte[] in, long now, int outPort) {
        List<Dataplane.Frame> out = dp.inject(SW[n], PortNumber.portNumber(port), in, now);
        assertEquals("one frame out of SW" + n, 1, out.size());
        assertEquals(PortNumber.portNumber(outPort), out.get(0).port());
        return out.get(0).bytes();
    }

    private static void assertNoDrops(EmulatedDataplane dp, int n) {
        for (DropReason r : DropReason.values()) {
            assertEquals(r + " at SW" + n, 0, dp.drops(SW[n], r));
        }
    }

    /** Three vNFs on SW2's worker, each returning the frame 30 µs after it left. */
    @Test
    public void threeConsecutiveLocalVnfs() {
        EmulatedDataplane dp = alone(2, Vectors.localVnfs());
        byte[] last = null;
        List<byte[]> toVnf = new ArrayList<>();
        for (int packet = 0; packet < 2; packet++) {
            long t = T0 + 1_000_000L * packet;
            toVnf.clear();
            byte[] f = one(dp, 2, UPSTREAM, frame("local-1-sw1-encap"), t, VNF_PORT);
            for (int vnf = 1; vnf <= 3; vnf++) {
                toVnf.add(f);
                t += 30_000;
                f = dp.inject(SW[2], PortNumber.portNumber(VNF_PORT), f, t).get(0).bytes();
            }
            last = f;
        }
        // Port_Counter 2: the second packet of the flow, counted once per arrival.
        assertMatches(toVnf.get(0), "local-2-sw2-to-vnf1");
        assertMatches(toVnf.get(1), "local-3-sw2-to-vnf2");
        assertMatches(toVnf.get(2), "local-4-sw2-to-vnf3");
        assertMatches(last, "local-5-sw2-end-t");
        for (int vnf = 1; vnf <= 3; vnf++) {
            assertEquals("vNF " + vnf + " latency", 30_000, dp.vnfLatency(SW[2], vnf));
        }
        // One extra pass after vNF 1 and after vNF 2, for each of the two packets.
        assertEquals(4, dp.localRecirculations(SW[2], 1));
        assertEquals(0, dp.localRecirculations(SW[2], 2));
        assertNoDrops(dp, 2);
    }

    @Test
    public void endTIntAfterTheLocalVnfs() {
        EmulatedDataplane dp = alone(3, Vectors.endpoint(3));
        one(dp, 3, UPSTREAM, frame("local-5-sw2-end-t"), T0, DOWNSTREAM);
        assertMatches(one(dp, 3, UPSTREAM, frame("local-5-sw2-end-t"), T0, DOWNSTREAM), "local-6-sw3-end-t");
    }

    /** vNF 4 on SW4 returns; End.DT.INT on SW4 decapsulates and reports with vNF 4's entry. */
    @Test
    public void localVnfThenEndDtInt() {
        EmulatedDataplane dp = alone(4, Vectors.localVnfThenEgress(256));
        List<Dataplane.Frame> out = null;
        byte[] toVnf = null;
        for (int packet = 0; packet < 2; packet++) {
            long t = T0 + 1_000_000L * packet;
            toVnf = one(dp, 4, UPSTREAM, frame("local-6-sw3-end-t"), t, VNF_PORT);
            out = dp.inject(SW[4], PortNumber.portNumber(VNF_PORT), toVnf, t + 45_000);
            assertEquals(2, out.size());
        }
        assertMatches(toVnf, "local-7-sw4-to-vnf4");
        assertEquals(PortNumber.portNumber(DOWNSTREAM), out.get(0).port());
        assertMatches(out.get(0).bytes(), "local-8-sw4-end-dt");
        assertEquals(PortNumber.portNumber(COLLECTOR_PORT), out.get(1).port());
        assertMatches(out.get(1).bytes(), "local-9-sw4-report");
        assertEquals(45_000, dp.vnfLatency(SW[4], 4));
        assertEquals(2, dp.localRecirculations(SW[4], 1));
        assertNoDrops(dp, 4);
    }

    @Test
    public void ipv6InnerTraffic() {
        List<String> path = PLAIN_PATH;
        assertMatches(one(alone(1, Vectors.ingressIpv6(path)), 1, UPSTREAM, frame("input-h1-ipv6"), T0, DOWNSTREAM),
                "ipv6-1-sw1-encap");
        assertMatches(one(alone(2, Vectors.endpoint(2)), 2, UPSTREAM, frame("ipv6-1-sw1-encap"), T0, DOWNSTREAM),
                "ipv6-2-sw2-end-t");
        assertMatches(one(alone(3, Vectors.endpoint(3)), 3, UPSTREAM, frame("ipv6-2-sw2-end-t"), T0, DOWNSTREAM),
                "ipv6-3-sw3-end-t");
        EmulatedDataplane dp = alone(4, Vectors.egressIpv6());
        List<Dataplane.Frame> out = dp.inject(SW[4], PortNumber.portNumber(UPSTREAM), frame("ipv6-3-sw3-end-t"), T0);
        assertEquals(2, out.size());
        assertEquals(PortNumber.portNumber(DOWNSTREAM), out.get(0).port());
        assertMatches(out.get(0).bytes(), "ipv6-4-sw4-end-dt");
        assertMatches(out.get(1).bytes(), "ipv6-5-sw4-report");
    }

    /** A frame from SW1 with the given path after the ingress (SFC mode, INT on). */
    private static byte[] encapsulated(String... path) {
        List<byte[]> p = new ArrayList<>();
        for (String s : path) {
            p.add(Addresses.ipv6(s));
        }
        Srv6IntEncap x = Srv6IntEncap.builder().ingressSid(Addresses.ipv6("fc00:0:1::1")).path(p).tag(7)
                .sfcMode(true).build();
        byte[] inner = Arrays.copyOfRange(frame("input-h1"), 14, frame("input-h1").length);
        return x.encapsulate(inner, Vectors.swMac(2), Vectors.swMac(1), new IntMetadata(1, 0, 0, T0, 0, 1));
    }

    @Test
    public void segmentListLoopingOnOneLocalSidIsDroppedOnce() {
        EmulatedDataplane dp = alone(2, Vectors.localVnfs());
        byte[] toVnf = one(dp, 2, UPSTREAM,
                encapsulated("fc00:0:2::f1", "fc00:0:2::f1", "fc00:0:2::f1", "fc00:0:2::f1", "fc00:0:4::d4"),
                T0, VNF_PORT);
        assertEquals(0, dp.inject(SW[2], PortNumber.portNumber(VNF_PORT), toVnf, T0 + 1000).size());
        assertEquals(1, dp.drops(SW[2], DropReason.LOCAL_SID_LOOP));
        assertEquals(0, dp.drops(SW[2], DropReason.NO_ROUTE));
        assertEquals(0, dp.localRecirculations(SW[2], 7));
    }

    private static Vectors.Entries plainLocalSids() {
        Vectors.Entries e = Vectors.endpoint(2);
        PiAction endT = PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_T_INT).build();
        e.rules.add(Vectors.mySid(2, "fc00:0:2::a", endT));
        e.rules.add(Vectors.mySid(2, "fc00:0:2::b", endT));
        e.rules.add(Vectors.mySid(2, "fc00:0:2::c", endT));
        return e;
    }

    @Test
    public void localSidsUpToTheLimitPassThenTheChainIsDropped() {
        EmulatedDataplane dp = alone(2, plainLocalSids());
        // Two further passes (the limit): forwarded to SW3.
        one(dp, 2, UPSTREAM, encapsulated("fc00:0:2::1", "fc00:0:2::a", "fc00:0:2::b", "fc00:0:3::1",
                "fc00:0:4::d4"), T0, DOWNSTREAM);
        assertEquals(2, dp.localRecirculations(SW[2], 7));
        // A third would be needed: dropped, counted under its own reason.
        assertEquals(0, dp.inject(SW[2], PortNumber.portNumber(UPSTREAM), encapsulated("fc00:0:2::1",
                "fc00:0:2::a", "fc00:0:2::b", "fc00:0:2::c", "fc00:0:3::1", "fc00:0:4::d4"), T0).size());
        assertEquals(1, dp.drops(SW[2], DropReason.LOCAL_CHAIN_LIMIT));
        assertEquals(4, dp.localRecirculations(SW[2], 7));
        // A next segment that is nobody's SID still ends as a routing miss, after one pass.
        assertEquals(0, dp.inject(SW[2], PortNumber.portNumber(UPSTREAM), encapsulated("fc00:0:2::1",
                "fc00:0:2::99", "fc00:0:4::d4"), T0).size());
        assertEquals(1, dp.drops(SW[2], DropReason.NO_ROUTE));
    }
}
