// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import static org.junit.Assert.assertEquals;
import static org.srv6int.pipeconf.Srv6IntConstants.*;
import static org.srv6int.twin.dataplane.Vectors.SW;
import static org.srv6int.twin.dataplane.Vectors.frame;

import java.util.List;
import org.junit.Test;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.srv6int.codec.Addresses;
import org.srv6int.codec.Bytes;

/** The ACL (drop, punt, clone to CPU) and the data-plane NDP answer. */
public class EmulatedDataplaneAclNdpTest {

    private static final PortNumber UP = PortNumber.portNumber(1);

    private static PiCriterion udpDport(int port) {
        return PiCriterion.builder().matchTernary(HDR_IP_PROTO, 17, 0xFF).matchTernary(HDR_L4_DPORT, port, 0xFFFF)
                .build();
    }

    @Test
    public void aclDropsPuntsAndClones() {
        Vectors.Entries e = Vectors.ingress(false, 1, List.of(Vectors.PLAIN_PATH), List.of(1));
        e.rules.add(Vectors.rule(SW[1], SRV6_INT_INGRESS_ACL_ACL, udpDport(6000), 10,
                                 PiAction.builder().withId(SRV6_INT_INGRESS_ACL_DROP).build()));
        EmulatedDataplane dp = new EmulatedDataplane(List.of());
        e.programInto(dp, SW[1]);
        assertEquals(List.of(), dp.inject(SW[1], UP, frame("input-h1"), 0));
        assertEquals(1, dp.drops(SW[1], DropReason.ACL));

        e.rules.set(e.rules.size() - 1, Vectors.rule(SW[1], SRV6_INT_INGRESS_ACL_ACL, udpDport(6000), 10,
                PiAction.builder().withId(SRV6_INT_INGRESS_ACL_PUNT_TO_CPU).build()));
        e.programInto(dp, SW[1]);
        List<Dataplane.Frame> out = dp.inject(SW[1], UP, frame("input-h1"), 0);
        assertEquals(1, out.size());
        assertEquals(PortNumber.CONTROLLER, out.get(0).port());
        assertEquals(Addresses.toHex(frame("input-h1"), 0, 74), Addresses.toHex(out.get(0).bytes(), 0, 74));

        e.rules.set(e.rules.size() - 1, Vectors.rule(SW[1], SRV6_INT_INGRESS_ACL_ACL, udpDport(6000), 10,
                PiAction.builder().withId(SRV6_INT_INGRESS_ACL_CLONE_TO_CPU).build()));
        e.groups.add(Vectors.cloneSession(SW[1], 99, 7));
        e.programInto(dp, SW[1]);
        out = dp.inject(SW[1], UP, frame("input-h1"), 0);
        assertEquals(2, out.size());
        Vectors.assertMatches(out.get(0).bytes(), "plain-1-sw1-encap");
        assertEquals(PortNumber.portNumber(7), out.get(1).port());
        assertEquals("the copy is the frame as it arrived", Addresses.toHex(frame("input-h1"), 0, 74),
                     Addresses.toHex(out.get(1).bytes(), 0, 74));
    }

    @Test
    public void neighborSolicitationForTheSwitchIsAnswered() {
        Vectors.Entries e = Vectors.endpoint(2);
        e.rules.add(Vectors.rule(SW[2], SRV6_INT_INGRESS_NDP_NDP_REPLY,
                PiCriterion.builder().matchExact(HDR_NDP_TARGET, Vectors.ip6("fc00:0:2::1")).build(), 0,
                PiAction.builder().withId(SRV6_INT_INGRESS_NDP_NDP_NS_TO_NA)
                        .withParameter(new PiActionParam(TARGET_MAC, Vectors.swMac(2))).build()));
        EmulatedDataplane dp = new EmulatedDataplane(List.of());
        e.programInto(dp, SW[2]);
        // Ethernet | IPv6 (fc00:0:1::1 -> ff02::1:ff00:1, ICMPv6, HL 255) | NS fc00:0:2::1 + SLLA option
        byte[] ns = new byte[14 + 40 + 32];
        Bytes.put48(ns, 0, Vectors.mac("33:33:ff:00:00:01"));
        Bytes.put48(ns, 6, Vectors.swMac(1));
        Bytes.put16(ns, 12, 0x86DD);
        ns[14] = 0x60;
        Bytes.put16(ns, 18, 32);
        ns[20] = 58;
        ns[21] = (byte) 255;
        System.arraycopy(Vectors.ip6("fc00:0:1::1"), 0, ns, 22, 16);
        System.arraycopy(Vectors.ip6("ff02::1:ff00:1"), 0, ns, 38, 16);
        ns[54] = (byte) 135;
        System.arraycopy(Vectors.ip6("fc00:0:2::1"), 0, ns, 62, 16);
        ns[78] = 1;
        ns[79] = 1;
        Bytes.put48(ns, 80, Vectors.swMac(1));
        List<Dataplane.Frame> out = dp.inject(SW[2], UP, ns, 0);
        assertEquals(1, out.size());
        assertEquals(UP, out.get(0).port());
        byte[] na = out.get(0).bytes();
        assertEquals(Vectors.swMac(1), Bytes.get48(na, 0));
        assertEquals(Vectors.swMac(2), Bytes.get48(na, 6));
        assertEquals(Addresses.toHex(Vectors.ip6("fc00:0:2::1"), 0, 16), Addresses.toHex(na, 22, 16));
        assertEquals(Addresses.toHex(Vectors.ip6("fc00:0:1::1"), 0, 16), Addresses.toHex(na, 38, 16));
        assertEquals(136, na[54] & 0xFF);
        assertEquals(0xE0000000L, Bytes.get32(na, 58));
        assertEquals(2, na[78]);
        assertEquals(Vectors.swMac(2), Bytes.get48(na, 80));
        // ICMPv6 checksum: pseudo-header + message sums to 0xFFFF.
        long sum = Bytes.sum16(na, 22, 32) + 32 + 58 + Bytes.sum16(na, 54, 32);
        assertEquals(0, Bytes.fold(sum));
    }
}
