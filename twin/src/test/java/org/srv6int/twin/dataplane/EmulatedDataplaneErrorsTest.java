// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.Arrays;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.srv6int.pipeconf.Srv6IntConstants.*;
import static org.srv6int.twin.dataplane.Vectors.PLAIN_PATH;
import static org.srv6int.twin.dataplane.Vectors.SW;
import static org.srv6int.twin.dataplane.Vectors.frame;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.srv6int.app.testing.PaperTestbed;

/**
 * Weighted multipath, malformed frames (dropped and counted, never an exception) and
 * rules the P4 program cannot hold (rejected at program() time, naming the problem).
 */
public class EmulatedDataplaneErrorsTest {

    private static final PortNumber UP = PortNumber.portNumber(Vectors.UPSTREAM);

    private static EmulatedDataplane alone(int n, Vectors.Entries e) {
        EmulatedDataplane dp = new EmulatedDataplane(List.of());
        e.programInto(dp, SW[n]);
        return dp;
    }

    private static long totalDrops(EmulatedDataplane dp, int n) {
        long s = 0;
        for (DropReason r : DropReason.values()) {
            s += dp.drops(SW[n], r);
        }
        return s;
    }

    @Test
    public void weightedSplitFollowsGroupWeightsAndKeepsEachFlowOnOneList() {
        List<String> other = List.of("fc00:0:5::1", "fc00:0:4::d4");
        EmulatedDataplane dp = alone(1, Vectors.ingress(false, 1, List.of(PLAIN_PATH, other), List.of(3, 1)));
        byte[] base = frame("input-h1");
        Map<PortNumber, Integer> picks = new HashMap<>();
        int flows = 4000;
        for (int i = 0; i < flows; i++) {
            byte[] f = base.clone();
            f[34] = (byte) (i >>> 8);       // UDP source port
            f[35] = (byte) i;
            f[29] = (byte) (i * 7);         // IPv4 source host
            List<Dataplane.Frame> out = dp.inject(SW[1], UP, f, 0);
            assertEquals(1, out.size());
            PortNumber p = out.get(0).port();
            assertEquals("a flow changed segment list", p, dp.inject(SW[1], UP, f, 1).get(0).port());
            picks.merge(p, 1, Integer::sum);
        }
        double share = picks.getOrDefault(PortNumber.portNumber(2), 0) / (double) flows;
        // 3:1 over 4000 flows: 0.75, binomial sd 0.007.
        assertTrue("weight 3:1 gave " + picks, share > 0.72 && share < 0.78);
        assertEquals(flows, picks.values().stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    public void malformedSrhIsDroppedAndCounted() {
        EmulatedDataplane dp = alone(2, Vectors.endpoint(2));
        byte[] bad = frame("plain-1-sw1-encap");
        bad[126] = 124; // not the SRv6-INT TLV type
        assertEquals(List.of(), dp.inject(SW[2], UP, bad, 0));
        assertEquals(1, dp.drops(SW[2], DropReason.MALFORMED_SRH));
    }

    @Test
    public void endDtIntWithSegmentsLeftIsDropped() {
        EmulatedDataplane dp = alone(4, Vectors.egress(256));
        byte[] bad = frame("plain-3-sw3-end-t");
        bad[57] = 1;
        assertEquals(List.of(), dp.inject(SW[4], UP, bad, 0));
        assertEquals(1, dp.drops(SW[4], DropReason.DT_SL_NOT_ZERO));
        assertEquals(0, dp.reports(SW[4]));
    }

    @Test
    public void moreThanMaxSegmentsIsAParserDrop() {
        EmulatedDataplane dp = alone(2, Vectors.endpoint(2));
        byte[] f = frame("plain-1-sw1-encap");
        int srhEnd = 62 + 16 * 4;
        byte[] g = new byte[f.length + 80];
        System.arraycopy(f, 0, g, 0, srhEnd);
        System.arraycopy(f, srhEnd, g, srhEnd + 80, f.length - srhEnd);
        g[55] = 19;
        g[58] = 8;
        int pl = ((g[18] & 0xFF) << 8 | (g[19] & 0xFF)) + 80;
        g[18] = (byte) (pl >>> 8);
        g[19] = (byte) pl;
        assertEquals(List.of(), dp.inject(SW[2], UP, g, 0));
        assertEquals(1, dp.drops(SW[2], DropReason.PARSER_ERROR));
    }

    @Test
    public void everyTruncationIsDroppedOrForwardedNeverThrown() {
        EmulatedDataplane dp = alone(2, Vectors.endpoint(2));
        byte[] f = frame("plain-1-sw1-encap");
        int headersEnd = 62 + 16 * 4 + 8 + 20 + 8; // Eth+IPv6, SRH with 4 SIDs and the TLV, IPv4, UDP
        for (int len = 0; len < f.length; len++) {
            long before = dp.drops(SW[2], DropReason.PARSER_ERROR);
            List<Dataplane.Frame> out = dp.inject(SW[2], UP, Arrays.copyOf(f, len), 0);
            if (len < headersEnd) {
                assertEquals("length " + len, List.of(), out);
                assertEquals("length " + len, before + 1, dp.drops(SW[2], DropReason.PARSER_ERROR));
            }
        }
    }

    @Test
    public void randomFramesAreDroppedOrForwardedAndAllCounted() {
        EmulatedDataplane dp = new EmulatedDataplane(PaperTestbed.links());
        Vectors.ingress(true, 1, List.of(Vectors.SFC_PATH), List.of(1)).programInto(dp, SW[1]);
        Vectors.endpoint(2).programInto(dp, SW[2]);
        Random rnd = new Random(7);
        byte[][] seeds = {frame("input-h1"), frame("sfc-1-sw1-encap"), frame("sfc-2-sw2-to-vnf1")};
        int out = 0;
        int frames = 20_000;
        for (int i = 0; i < frames; i++) {
            byte[] f = seeds[i % seeds.length].clone();
            // flip a few bytes and cut at a random length
            for (int k = 0; k < 1 + rnd.nextInt(4); k++) {
                f[rnd.nextInt(f.length)] = (byte) rnd.nextInt(256);
            }
            f = Arrays.copyOf(f, rnd.nextInt(f.length + 1));
            out += dp.inject(SW[1 + i % 2], i % 3 == 2 ? PortNumber.portNumber(3) : UP, f, i).size();
        }
        // Every frame either left at an edge port or was counted where it died (no links
        // lead past SW2's downstream port to a programmed switch, SW3 drops with NO_ROUTE).
        long drops = totalDrops(dp, 1) + totalDrops(dp, 2) + totalDrops(dp, 3);
        assertTrue("some dropped: " + drops, drops > 1000);
        assertTrue("some forwarded: " + out, out > 1000);
    }

    private static void assertRejected(FlowRule r, String... words) {
        EmulatedDataplane dp = new EmulatedDataplane(List.of());
        try {
            dp.program(SW[1], List.of(r), List.of());
            fail("accepted " + r);
        } catch (IllegalArgumentException e) {
            for (String w : words) {
                assertTrue(e.getMessage() + " should name " + w, e.getMessage().contains(w));
            }
        }
    }

    @Test
    public void rulesTheProgramCannotHoldAreRejectedAtProgramTime() {
        PiAction endT = PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_T_INT).build();
        PiCriterion sid = PiCriterion.builder().matchLpm(HDR_IPV6_DST, Vectors.ip6("fc00:0:1::1"), 128).build();
        assertRejected(Vectors.rule(SW[1], PiTableId.of("Srv6IntIngress.no_such_table"), sid, 1, endT),
                       "no_such_table");
        assertRejected(Vectors.rule(SW[1], SRV6_INT_INGRESS_ENDPOINT_MY_SID, sid, 1,
                                    PiAction.builder().withId(PiActionId.of("Srv6IntIngress.endpoint.end_x")).build()),
                       "end_x", "my_sid");
        assertRejected(Vectors.rule(SW[1], SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING, sid, 1, endT),
                       "end_t_int", "ipv6_routing");
        assertRejected(Vectors.rule(SW[1], SRV6_INT_INGRESS_ENDPOINT_MY_SID,
                                    PiCriterion.builder().matchLpm(PiMatchFieldId.of("ipv4_dst"),
                                                                   new byte[4], 32).build(), 1, endT),
                       "ipv4_dst");
        assertRejected(Vectors.rule(SW[1], SRV6_INT_INGRESS_ENDPOINT_MY_SID,
                                    PiCriterion.builder().matchExact(HDR_IPV6_DST, Vectors.ip6("fc00::1")).build(),
                                    1, endT),
                       "LPM");
        assertRejected(Vectors.rule(SW[1], SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING, sid, 1,
                                    PiAction.builder().withId(SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP)
                                            .withParameter(new PiActionParam(PORT, 600))
                                            .withParameter(new PiActionParam(DMAC, 1L)).build()),
                       "port", "9 bits");
        assertRejected(Vectors.rule(SW[1], SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING, sid, 1,
                                    PiAction.builder().withId(SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP)
                                            .withParameter(new PiActionParam(PORT, 2))
                                            .withParameter(new PiActionParam(PiActionParamId.of("smac"), 1L))
                                            .build()),
                       "smac");
        assertRejected(Vectors.rule(SW[1], SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP,
                                    PiCriterion.builder().matchExact(HDR_CHAIN_ID, 1).build(), 0,
                                    Vectors.encapAction(List.of("fc00:0:4::d4"))),
                       "bucket");
        assertRejected(Vectors.rule(SW[1], SRV6_INT_INGRESS_ENDPOINT_MY_SID, null, 0, endT), "const");
    }

    @Test
    public void aRoutingLoopEndsWithTheHopLimit() {
        EmulatedDataplane dp = new EmulatedDataplane(PaperTestbed.links());
        dp.program(SW[1], List.of(Vectors.switchInfo(1, "fc00:0:1::1"),
                                  Vectors.route6(1, "fc00:0:2::", 48, 2, Vectors.swMac(2))), List.of());
        dp.program(SW[2], List.of(Vectors.switchInfo(2, "fc00:0:2::99"),
                                  Vectors.route6(2, "fc00:0:2::", 48, 1, Vectors.swMac(1))), List.of());
        // Hop Limit 64 arriving at SW2 from SW1: 63 more traversals, then dropped.
        assertEquals(List.of(), dp.inject(SW[2], UP, frame("plain-1-sw1-encap"), 0));
        assertEquals(1, dp.drops(SW[1], DropReason.HOP_LIMIT) + dp.drops(SW[2], DropReason.HOP_LIMIT));
        assertEquals(0, dp.loopDrops());
    }

    @Test
    public void reprogrammingReplacesEntries() {
        EmulatedDataplane dp = new EmulatedDataplane(List.of());
        Vectors.endpoint(2).programInto(dp, SW[2]);
        assertEquals(1, dp.inject(SW[2], UP, frame("plain-1-sw1-encap"), 0).size());
        dp.program(SW[2], List.of(), List.of());
        assertEquals(List.of(), dp.inject(SW[2], UP, frame("plain-1-sw1-encap"), 0));
        assertEquals(1, dp.drops(SW[2], DropReason.NO_ROUTE));
        assertNotNull(dp);
    }
}
