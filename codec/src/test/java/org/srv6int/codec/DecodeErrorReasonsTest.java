// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import org.junit.Test;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;

import static org.junit.Assert.assertEquals;

/** One crafted input per rejection reason: the reason is returned and counted once. */
public class DecodeErrorReasonsTest {

    private final Set<DecodeStatus> covered = EnumSet.noneOf(DecodeStatus.class);

    /** Offsets in the 4-segment fixture frame. */
    private static final int IP = 14;
    private static final int SRH = 54;
    private static final int TLV = 126;

    private void packet(DecodeStatus expected, byte[] f) {
        DecodeErrors e = new DecodeErrors();
        assertEquals(expected, new Srv6IntPacketView(e).wrap(f, 0, f.length));
        assertEquals(1, e.get(expected));
        assertEquals(1, e.total());
        // The same reason through a report whose mirrored frame is f.
        if (f.length >= 14) {
            byte[] p = new byte[16 + f.length];
            p[0] = 0x14;
            Bytes.put16(p, 12, f.length);
            System.arraycopy(f, 0, p, 16, f.length);
            DecodeErrors e2 = new DecodeErrors();
            assertEquals(expected, new IntReportView(e2).wrapPayload(p, 0, p.length));
            assertEquals(1, e2.total());
        }
        covered.add(expected);
    }

    private static byte[] edit(Consumer<byte[]> c) {
        byte[] f = Fixtures.encapsulated(true);
        c.accept(f);
        return f;
    }

    private void report(DecodeStatus expected, byte[] r) {
        DecodeErrors e = new DecodeErrors();
        assertEquals(expected, new IntReportView(e).wrapFrame(r, 0, r.length));
        assertEquals(1, e.get(expected));
        assertEquals(1, e.total());
        covered.add(expected);
    }

    private static byte[] editReport(Consumer<byte[]> c) {
        byte[] r = Fixtures.reportFrame();
        c.accept(r);
        return r;
    }

    @Test
    public void everyReasonHasACraftedInput() {
        byte[] ok = Fixtures.encapsulated(true);
        packet(DecodeStatus.TRUNCATED_ETHERNET, new byte[13]);
        packet(DecodeStatus.UNSUPPORTED_ETHERTYPE, edit(f -> Bytes.put16(f, 12, 0x0800)));
        packet(DecodeStatus.TRUNCATED_IPV6, Arrays.copyOf(ok, IP + 39));
        packet(DecodeStatus.BAD_IPV6_VERSION, edit(f -> f[IP] = 0x40));
        packet(DecodeStatus.NO_ROUTING_HEADER, edit(f -> f[IP + 6] = 17));
        packet(DecodeStatus.TRUNCATED_SRH, Arrays.copyOf(ok, SRH + 7));
        packet(DecodeStatus.BAD_ROUTING_TYPE, edit(f -> f[SRH + 2] = 3));
        packet(DecodeStatus.SRH_LENGTH_PAST_BUFFER, Arrays.copyOf(ok, SRH + 79));
        packet(DecodeStatus.SRH_LENGTH_PAST_BUFFER, edit(f -> f[SRH + 1] = (byte) 200));
        packet(DecodeStatus.PAYLOAD_LENGTH_SHORTER_THAN_SRH, edit(f -> Bytes.put16(f, IP + 4, 79)));
        packet(DecodeStatus.LAST_ENTRY_PAST_LIST, edit(f -> f[SRH + 4] = 4));
        packet(DecodeStatus.SEGMENTS_LEFT_PAST_LAST_ENTRY, edit(f -> f[SRH + 3] = 4));
        packet(DecodeStatus.TLV_LENGTH_PAST_END, edit(f -> f[TLV + 1] = 7));
        packet(DecodeStatus.TLV_LENGTH_PAST_END, edit(f -> {
            f[TLV] = 4;
            f[TLV + 1] = 0;
            f[TLV + 2] = 4;
            f[TLV + 3] = 0;
            f[TLV + 4] = 0;
            f[TLV + 5] = 0;
            f[TLV + 6] = 0;
            f[TLV + 7] = (byte) 0xFC; // a Type byte with no room for its Length
        }));
        packet(DecodeStatus.UNKNOWN_TLV, edit(f -> f[TLV] = 5));
        packet(DecodeStatus.BAD_INT_TLV_LENGTH, edit(f -> f[TLV + 1] = 4));
        packet(DecodeStatus.DUPLICATE_INT_TLV, withTwoTlvs());
        packet(DecodeStatus.MISSING_INT_TLV, edit(f -> f[TLV] = 4));
        packet(DecodeStatus.MAPINFO_BITS_WITHOUT_FIELD, edit(f -> Bytes.put16(f, TLV + 2, 0x3F)));

        int rip = 14;
        int udp = 34;
        report(DecodeStatus.TRUNCATED_ETHERNET, new byte[5]);
        report(DecodeStatus.UNSUPPORTED_ETHERTYPE, Fixtures.encapsulated(false));
        report(DecodeStatus.TRUNCATED_IPV4, Arrays.copyOf(Fixtures.reportFrame(), rip + 19));
        report(DecodeStatus.BAD_IPV4_HEADER, editReport(r -> r[rip] = 0x55));
        report(DecodeStatus.BAD_IPV4_HEADER, editReport(r -> r[rip] = 0x44));
        report(DecodeStatus.BAD_IPV4_HEADER, editReport(r -> Bytes.put16(r, rip + 2, r.length)));
        report(DecodeStatus.NOT_UDP, editReport(r -> r[rip + 9] = 6));
        report(DecodeStatus.TRUNCATED_UDP, editReport(r -> Bytes.put16(r, rip + 2, 27)));
        report(DecodeStatus.BAD_UDP_LENGTH, editReport(r -> Bytes.put16(r, udp + 4, 7)));
        report(DecodeStatus.BAD_UDP_LENGTH, editReport(r -> Bytes.put16(r, udp + 4, r.length)));
        report(DecodeStatus.TRUNCATED_REPORT_HEADER, editReport(r -> Bytes.put16(r, udp + 4, 8 + 15)));
        report(DecodeStatus.BAD_REPORT_VERSION, editReport(r -> r[42] = 0x24));
        report(DecodeStatus.BAD_REPORT_HDR_LEN, editReport(r -> r[42] = 0x15));
        report(DecodeStatus.BAD_ORIGINAL_LENGTH, editReport(r -> Bytes.put16(r, 42 + 12, r.length)));
        report(DecodeStatus.BAD_ORIGINAL_LENGTH, editReport(r -> r[43] = 1));
        report(DecodeStatus.REPORT_SEGMENTS_LEFT_NOT_ZERO, editReport(r -> r[42 + 16 + SRH + 3] = 1));

        EnumSet<DecodeStatus> all = EnumSet.allOf(DecodeStatus.class);
        all.remove(DecodeStatus.OK);
        assertEquals(all, covered);
    }

    /** The fixture with a second SRv6-INT TLV appended to the SRH. */
    private static byte[] withTwoTlvs() {
        byte[] ok = Fixtures.encapsulated(true);
        byte[] f = new byte[ok.length + 8];
        System.arraycopy(ok, 0, f, 0, TLV + 8);
        System.arraycopy(ok, TLV, f, TLV + 8, 8);
        System.arraycopy(ok, TLV + 8, f, TLV + 16, ok.length - TLV - 8);
        f[SRH + 1] = 10;
        Bytes.put16(f, IP + 4, Bytes.get16(ok, IP + 4) + 8);
        return f;
    }

    @Test
    public void paddingAroundTheTlvIsAccepted() {
        byte[] ok = Fixtures.encapsulated(true);
        byte[] f = new byte[ok.length + 8];
        System.arraycopy(ok, 0, f, 0, TLV);
        f[TLV] = 0;                 // Pad1
        f[TLV + 1] = 4;             // PadN, 5 bytes of padding
        f[TLV + 2] = 5;
        System.arraycopy(ok, TLV, f, TLV + 8, ok.length - TLV);
        f[SRH + 1] = 10;
        Bytes.put16(f, IP + 4, Bytes.get16(ok, IP + 4) + 8);
        Srv6IntPacketView v = new Srv6IntPacketView();
        assertEquals(DecodeStatus.OK, v.wrap(f, 0, f.length));
        assertEquals(TLV + 8, v.intTlvOffset());
        assertEquals(0x1F, v.mapInfo());
    }

    @Test
    public void paddedAndTruncatedFramesAreAccepted() {
        byte[] ok = Fixtures.encapsulated(true);
        Srv6IntPacketView v = new Srv6IntPacketView();
        byte[] padded = Arrays.copyOf(ok, ok.length + 20);
        assertEquals(DecodeStatus.OK, v.wrap(padded, 0, padded.length));
        assertEquals(ok.length - 134, v.innerAvailable());
        assertEquals(false, v.isTruncated());
        assertEquals(DecodeStatus.OK, v.wrap(ok, 0, 134 + 3));
        assertEquals(true, v.isTruncated());
        assertEquals(3, v.innerAvailable());
    }

    @Test
    public void badArgumentsAreRejectedNotThrown() {
        Srv6IntPacketView v = new Srv6IntPacketView();
        byte[] ok = Fixtures.encapsulated(true);
        assertEquals(DecodeStatus.TRUNCATED_ETHERNET, v.wrap((byte[]) null, 0, 0));
        assertEquals(DecodeStatus.TRUNCATED_ETHERNET, v.wrap(ok, -1, 10));
        assertEquals(DecodeStatus.TRUNCATED_ETHERNET, v.wrap(ok, 10, ok.length));
        assertEquals(DecodeStatus.TRUNCATED_ETHERNET, v.wrap(ok, Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertEquals(DecodeStatus.TRUNCATED_IPV6, v.wrapIpv6(ok, 0, -5));
        IntReportView r = new IntReportView();
        assertEquals(DecodeStatus.TRUNCATED_REPORT_HEADER, r.wrapPayload(ok, 5, ok.length));
        assertEquals(DecodeStatus.TRUNCATED_ETHERNET, r.wrapFrame((byte[]) null, 0, 1));
        assertEquals(6, v.errors().total() + r.errors().total() - 1);
    }
}
