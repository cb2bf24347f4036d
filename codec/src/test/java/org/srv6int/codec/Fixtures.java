// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import java.util.Arrays;

/** Packets shared by the codec tests, built with the reference encoders. */
final class Fixtures {

    private Fixtures() {
    }

    static final byte[] INGRESS = Addresses.ipv6("fc00:0:1::1");
    static final byte[] SW2 = Addresses.ipv6("fc00:0:2::f1");
    static final byte[] SW3 = Addresses.ipv6("fc00:0:3::f2");
    static final byte[] DT = Addresses.ipv6("fc00:0:4::d4");

    /** A small IPv4/UDP packet 10.0.1.1:5000 -> 10.0.4.1:6000 with TOS 0x28. */
    static byte[] inner() {
        byte[] p = new byte[20 + 8 + 12];
        p[0] = 0x45;
        p[1] = 0x28;
        Bytes.put16(p, 2, p.length);
        p[8] = 64;
        p[9] = 17;
        Bytes.put32(p, 12, Addresses.ipv4("10.0.1.1"));
        Bytes.put32(p, 16, Addresses.ipv4("10.0.4.1"));
        Bytes.put16(p, 20, 5000);
        Bytes.put16(p, 22, 6000);
        Bytes.put16(p, 24, 20);
        return p;
    }

    static Srv6IntEncap encap(boolean sfc) {
        return Srv6IntEncap.builder().ingressSid(INGRESS).path(Arrays.asList(SW2, SW3, DT))
                .tag(1).sfcMode(sfc).build();
    }

    /** H.Encaps.INT output with I set. */
    static byte[] encapsulated(boolean sfc) {
        return encap(sfc).encapsulate(inner(), 0x020000000002L, 0x020000000001L,
                new IntMetadata(1, 0, 2, 1000, 0, 1));
    }

    /** Full path in SFC mode; returns the frame at the egress after End.DT.INT. */
    static byte[] atEgress() {
        byte[] f = encapsulated(true);
        EndpointBehaviours b = new EndpointBehaviours();
        b.sfcDepart(f, 0, f.length, 2, 2000, 2100, 500);
        b.sfcReturn(f, 0, f.length, 2, 0, 3, 2600, 1);
        b.sfcDepart(f, 0, f.length, 3, 3000, 3100, 700);
        b.sfcReturn(f, 0, f.length, 3, 0, 4, 3800, 1);
        b.endDt(f, 0, f.length, 4, 1, 5, 4000, 1);
        return f;
    }

    /** Report frame for {@link #atEgress()}. */
    static byte[] reportFrame() {
        byte[] f = atEgress();
        IntReportEncoder e = IntReportEncoder.builder().reporterDeviceId(4)
                .ipv4(Addresses.ipv4("10.0.100.4"), Addresses.ipv4("10.0.100.1")).build();
        byte[] out = new byte[e.maxFrameLength()];
        int n = e.encodeFrame(7, 4100, f, 0, f.length, out, 0);
        return Arrays.copyOf(out, n);
    }
}
