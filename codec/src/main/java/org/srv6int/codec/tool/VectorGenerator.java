// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.tool;

import org.srv6int.codec.Addresses;
import org.srv6int.codec.BehaviourStatus;
import org.srv6int.codec.EndpointBehaviours;
import org.srv6int.codec.FlowHash;
import org.srv6int.codec.IntMetadata;
import org.srv6int.codec.IntReportEncoder;
import org.srv6int.codec.IntReportView;
import org.srv6int.codec.Srv6IntEncap;
import org.srv6int.codec.Srv6IntPacketView;
import org.srv6int.codec.WireFormat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Generates the golden vectors of tests/vectors/ from the reference behaviours:
 * SFC 1 of the paper's testbed (SW1..SW4 in a row, device ids 1..4, chain tag 1,
 * an IPv4/UDP packet from h1 to h2), once in plain mode and once in SFC mode
 * (vNF 1 on SW2, vNF 2 on SW3); then a chain whose consecutive vNFs hang off one
 * switch (vNFs 1-3 on SW2, vNF 4 on SW4 right before End.DT.INT), and plain mode
 * with an IPv6 inner packet. Deterministic: the unit test regenerates the
 * files and compares them byte for byte with the committed ones.
 *
 * <p>Usage: {@code VectorGenerator [out-dir]} (default {@code tests/vectors}).
 */
public final class VectorGenerator {

    /** Switch N's MAC: 02:00:00:00:00:0N. */
    static long swMac(int n) {
        return 0x020000000000L | n;
    }

    static final long H1_MAC = Addresses.mac("02:00:00:00:01:01");
    static final long H2_MAC = Addresses.mac("02:00:00:00:01:04");
    static final long VNF1_MAC = Addresses.mac("02:00:00:00:02:01");
    static final long VNF2_MAC = Addresses.mac("02:00:00:00:02:02");
    static final long VNF3_MAC = Addresses.mac("02:00:00:00:02:03");
    static final long VNF4_MAC = Addresses.mac("02:00:00:00:02:04");
    static final long COLLECTOR_MAC = Addresses.mac("02:00:00:00:03:01");
    static final int TAG = 1;
    static final int PLAIN_PORT_COUNTER = 1;
    static final int SFC_PORT_COUNTER = 2;

    /** One generated vector. */
    public static final class Vector {
        final String name;
        final Map<String, Object> meta;
        final byte[] bytes;

        Vector(String name, Map<String, Object> meta, byte[] bytes) {
            this.name = name;
            this.meta = meta;
            this.bytes = bytes;
        }

        /**
         * Returns the vector's name (its file name without .json).
         *
         * @return name
         */
        public String name() {
            return name;
        }

        /**
         * Returns a copy of the frame bytes.
         *
         * @return bytes
         */
        public byte[] bytes() {
            return bytes.clone();
        }
    }

    private VectorGenerator() {
    }

    static byte[] sid(String s) {
        return Addresses.ipv6(s);
    }

    /** The inner packet: IPv4/UDP h1 10.0.1.1:5000 -> h2 10.0.4.1:6000, DSCP AF11. */
    static byte[] innerPacket() {
        byte[] payload = "SRv6-INT golden vector payload.\n".getBytes(StandardCharsets.US_ASCII);
        int len = WireFormat.IPV4_LEN + WireFormat.UDP_LEN + payload.length;
        byte[] p = new byte[len];
        p[0] = 0x45;
        p[1] = 0x28;
        put16(p, 2, len);
        put16(p, 4, 0x1234);
        put16(p, 6, 0x4000);
        p[8] = 64;
        p[9] = (byte) WireFormat.PROTO_UDP;
        put32(p, 12, Addresses.ipv4("10.0.1.1"));
        put32(p, 16, Addresses.ipv4("10.0.4.1"));
        put16(p, 10, checksum(p, 0, WireFormat.IPV4_LEN, 0));
        int u = WireFormat.IPV4_LEN;
        put16(p, u, 5000);
        put16(p, u + 2, 6000);
        put16(p, u + 4, WireFormat.UDP_LEN + payload.length);
        System.arraycopy(payload, 0, p, u + WireFormat.UDP_LEN, payload.length);
        long pseudo = (Addresses.ipv4("10.0.1.1") >>> 16) + (Addresses.ipv4("10.0.1.1") & 0xFFFF)
                + (Addresses.ipv4("10.0.4.1") >>> 16) + (Addresses.ipv4("10.0.4.1") & 0xFFFF)
                + WireFormat.PROTO_UDP + WireFormat.UDP_LEN + payload.length;
        int c = checksum(p, u, WireFormat.UDP_LEN + payload.length, pseudo);
        put16(p, u + 6, c == 0 ? 0xFFFF : c);
        return p;
    }

    /** The IPv6 inner packet: IPv6/UDP h1 2001:db8:1::1:5000 -> h2 2001:db8:4::1:6000, TC 0x28. */
    static byte[] innerPacket6() {
        byte[] payload = "SRv6-INT golden vector payload.\n".getBytes(StandardCharsets.US_ASCII);
        int udpLen = WireFormat.UDP_LEN + payload.length;
        byte[] p = new byte[WireFormat.IPV6_LEN + udpLen];
        p[0] = 0x62;
        p[1] = (byte) 0x80;
        put16(p, 4, udpLen);
        p[6] = (byte) WireFormat.PROTO_UDP;
        p[7] = 64;
        byte[] src = Addresses.ipv6("2001:db8:1::1");
        byte[] dst = Addresses.ipv6("2001:db8:4::1");
        System.arraycopy(src, 0, p, 8, 16);
        System.arraycopy(dst, 0, p, 24, 16);
        int u = WireFormat.IPV6_LEN;
        put16(p, u, 5000);
        put16(p, u + 2, 6000);
        put16(p, u + 4, udpLen);
        System.arraycopy(payload, 0, p, u + WireFormat.UDP_LEN, payload.length);
        long pseudo = WireFormat.PROTO_UDP + udpLen;
        for (int i = 0; i < 16; i += 2) {
            pseudo += ((src[i] & 0xFF) << 8 | (src[i + 1] & 0xFF)) + ((dst[i] & 0xFF) << 8 | (dst[i + 1] & 0xFF));
        }
        int c = checksum(p, u, udpLen, pseudo);
        put16(p, u + 6, c == 0 ? 0xFFFF : c);
        return p;
    }

    private static byte[] h1Frame(byte[] inner, int etherType) {
        byte[] f = new byte[WireFormat.ETH_LEN + inner.length];
        EndpointBehaviours.rewriteEthernet(f, 0, swMac(1), H1_MAC);
        put16(f, 12, etherType);
        System.arraycopy(inner, 0, f, WireFormat.ETH_LEN, inner.length);
        return f;
    }

    /**
     * Builds every vector, in order.
     *
     * @return vectors
     */
    public static List<Vector> generate() {
        List<Vector> out = new ArrayList<>();
        byte[] inner = innerPacket();
        byte[] h1Frame = h1Frame(inner, WireFormat.ETHERTYPE_IPV4);
        out.add(vector("input-h1", "IPv4/UDP packet from h1 as it reaches SW1 (input of H.Encaps.INT)",
                "h1", 0, "input", null, h1Frame));
        plain(out, inner);
        sfc(out, inner);
        local(out, inner);
        out.add(vector("input-h1-ipv6", "IPv6/UDP packet from h1 as it reaches SW1 (input of H.Encaps.INT)",
                "h1", 0, "input", null, h1Frame(innerPacket6(), WireFormat.ETHERTYPE_IPV6)));
        ipv6(out, innerPacket6());
        return out;
    }

    /**
     * Consecutive vNFs behind one switch: vNFs 1, 2, 3 on SW2 (one worker), SW3 plain
     * End.T.INT, vNF 4 on SW4 followed by End.DT.INT on the same switch. When a vNF
     * returns the frame and the next segment is again a SID of the switch, the switch
     * finishes the return (the vNF's INT metadata) and then processes the next SID in
     * another pass: the next departure, or End.DT.INT. Port_Counter is counted once
     * per arrival at a switch.
     */
    private static void local(List<Vector> out, byte[] inner) {
        long t0 = 2_000_000L;
        Srv6IntEncap encap = Srv6IntEncap.builder().ingressSid(sid("fc00:0:1::1"))
                .path(Arrays.asList(sid("fc00:0:2::f1"), sid("fc00:0:2::f2"), sid("fc00:0:2::f3"),
                        sid("fc00:0:3::1"), sid("fc00:0:4::f4"), sid("fc00:0:4::d4")))
                .tag(TAG).sfcMode(true).build();
        byte[] f = encap.encapsulate(inner, swMac(2), swMac(1),
                new IntMetadata(1, 0, 2, t0, 0, SFC_PORT_COUNTER));
        out.add(vector("local-1-sw1-encap", "H.Encaps.INT at SW1: vNFs 1, 2, 3 behind SW2, SW3 End.T.INT, "
                + "vNF 4 and End.DT.INT on SW4", "SW1", 1, "H.Encaps.INT", "input-h1", f));
        EndpointBehaviours b = new EndpointBehaviours();
        f = f.clone();
        check(b.sfcDepart(f, 0, f.length, 2, t0 + 10_000, t0 + 11_000, 31_000));
        EndpointBehaviours.rewriteEthernet(f, 0, VNF1_MAC, swMac(2));
        out.add(vector("local-2-sw2-to-vnf1", "End.T.INT at SW2, departure to vNF 1 (Detection Result := "
                + "31000 ns)", "SW2", 2, "End.T.INT (SFC, to vNF)", "local-1-sw1-encap", f));
        long[] mac = {VNF2_MAC, VNF3_MAC};
        long[] last = {32_000, 33_000};
        long departed = t0 + 11_000;
        for (int i = 0; i < 2; i++) {
            long t = t0 + 50_000 + 40_000L * i;
            long latency = t - departed;
            departed = t + 2_000;
            f = f.clone();
            check(b.sfcReturn(f, 0, f.length, 2, 0, 5, t, SFC_PORT_COUNTER));
            check(b.sfcDepart(f, 0, f.length, 2, t + 1_000, t + 2_000, last[i]));
            EndpointBehaviours.rewriteEthernet(f, 0, mac[i], swMac(2));
            String name = "local-" + (3 + i) + "-sw2-to-vnf" + (2 + i);
            out.add(vector(name, "SW2 on the return from vNF " + (1 + i) + ": End.T.INT writes vNF " + (1 + i)
                    + "'s INT metadata (latency " + latency + " ns), the next "
                    + "segment is vNF " + (2 + i) + " on SW2: departure to it in a second pass "
                    + "(Detection Result := " + last[i] + " ns)", "SW2", 2, "End.T.INT (SFC, from vNF, to vNF)",
                    "local-" + (2 + i) + (i == 0 ? "-sw2-to-vnf1" : "-sw2-to-vnf2"), f));
        }
        f = f.clone();
        check(b.sfcReturn(f, 0, f.length, 2, 0, 5, t0 + 140_000, SFC_PORT_COUNTER));
        EndpointBehaviours.rewriteEthernet(f, 0, swMac(3), swMac(2));
        out.add(vector("local-5-sw2-end-t", "End.T.INT at SW2 on the return from vNF 3, to SW3",
                "SW2", 2, "End.T.INT (SFC, from vNF)", "local-4-sw2-to-vnf3", f));
        f = f.clone();
        check(b.endT(f, 0, f.length, 3, 2, 1, t0 + 150_000, SFC_PORT_COUNTER));
        EndpointBehaviours.rewriteEthernet(f, 0, swMac(4), swMac(3));
        out.add(vector("local-6-sw3-end-t", "End.T.INT at SW3 (the SRH still has S set: the SID is a plain "
                + "End.T.INT one)", "SW3", 3, "End.T.INT", "local-5-sw2-end-t", f));
        f = f.clone();
        check(b.sfcDepart(f, 0, f.length, 4, t0 + 160_000, t0 + 161_000, 34_000));
        EndpointBehaviours.rewriteEthernet(f, 0, VNF4_MAC, swMac(4));
        out.add(vector("local-7-sw4-to-vnf4", "End.T.INT at SW4, departure to vNF 4 (Detection Result := "
                + "34000 ns)", "SW4", 4, "End.T.INT (SFC, to vNF)", "local-6-sw3-end-t", f));
        f = f.clone();
        check(b.sfcReturn(f, 0, f.length, 4, 0, 5, t0 + 200_000, SFC_PORT_COUNTER));
        // The frame End.DT.INT meets in its second pass (not a vector: it never leaves SW4).
        egress(out, b, f, "local", 8, t0 + 201_000, t0 + 202_000, 0, SFC_PORT_COUNTER, "local-7-sw4-to-vnf4");
    }

    /** Plain mode with an IPv6 inner packet: End.DT.INT looks at the SRH's Next Header. */
    private static void ipv6(List<Vector> out, byte[] inner) {
        Srv6IntEncap encap = Srv6IntEncap.builder().ingressSid(sid("fc00:0:1::1"))
                .path(Arrays.asList(sid("fc00:0:2::1"), sid("fc00:0:3::1"), sid("fc00:0:4::d4")))
                .tag(TAG).sfcMode(false).build();
        byte[] f = encap.encapsulate(inner, swMac(2), swMac(1),
                new IntMetadata(1, 0, 2, 3_000_000L, 0, PLAIN_PORT_COUNTER));
        out.add(vector("ipv6-1-sw1-encap", "H.Encaps.INT at SW1 of an IPv6 packet: SRH Next Header 41, "
                + "outer Traffic Class = the inner one", "SW1", 1, "H.Encaps.INT", "input-h1-ipv6", f));
        EndpointBehaviours b = new EndpointBehaviours();
        f = f.clone();
        check(b.endT(f, 0, f.length, 2, 0, 5, 3_010_000L, PLAIN_PORT_COUNTER));
        EndpointBehaviours.rewriteEthernet(f, 0, swMac(3), swMac(2));
        out.add(vector("ipv6-2-sw2-end-t", "End.T.INT at SW2 (plain), IPv6 inner", "SW2", 2, "End.T.INT",
                "ipv6-1-sw1-encap", f));
        f = f.clone();
        check(b.endT(f, 0, f.length, 3, 2, 1, 3_020_000L, PLAIN_PORT_COUNTER));
        EndpointBehaviours.rewriteEthernet(f, 0, swMac(4), swMac(3));
        out.add(vector("ipv6-3-sw3-end-t", "End.T.INT at SW3 (plain), IPv6 inner", "SW3", 3, "End.T.INT",
                "ipv6-2-sw2-end-t", f));
        egress(out, b, f, "ipv6", 4, 3_030_000L, 3_031_000L, 0, PLAIN_PORT_COUNTER, "ipv6-3-sw3-end-t");
    }

    private static void plain(List<Vector> out, byte[] inner) {
        Srv6IntEncap encap = Srv6IntEncap.builder().ingressSid(sid("fc00:0:1::1"))
                .path(Arrays.asList(sid("fc00:0:2::1"), sid("fc00:0:3::1"), sid("fc00:0:4::d4")))
                .tag(TAG).sfcMode(false).build();
        byte[] f = encap.encapsulate(inner, swMac(2), swMac(1),
                new IntMetadata(1, 0, 2, 1_000_000L, 0, PLAIN_PORT_COUNTER));
        out.add(vector("plain-1-sw1-encap", "H.Encaps.INT at SW1: I set, S clear, hop-0 INT metadata in "
                + "Segment List[3]", "SW1", 1, "H.Encaps.INT", "input-h1", f));
        EndpointBehaviours b = new EndpointBehaviours();
        f = f.clone();
        check(b.endT(f, 0, f.length, 2, 0, 5, 1_010_000L, PLAIN_PORT_COUNTER));
        EndpointBehaviours.rewriteEthernet(f, 0, swMac(3), swMac(2));
        out.add(vector("plain-2-sw2-end-t", "End.T.INT at SW2 (plain): INT metadata over Segment List[2], "
                + "Segments Left 2 -> 1", "SW2", 2, "End.T.INT", "plain-1-sw1-encap", f));
        f = f.clone();
        check(b.endT(f, 0, f.length, 3, 2, 1, 1_020_000L, PLAIN_PORT_COUNTER));
        EndpointBehaviours.rewriteEthernet(f, 0, swMac(4), swMac(3));
        out.add(vector("plain-3-sw3-end-t", "End.T.INT at SW3 (plain): INT metadata over Segment List[1], "
                + "Segments Left 1 -> 0", "SW3", 3, "End.T.INT", "plain-2-sw2-end-t", f));
        egress(out, b, f, "plain", 4, 1_030_000L, 1_031_000L, 0, PLAIN_PORT_COUNTER, "plain-3-sw3-end-t");
    }

    private static void sfc(List<Vector> out, byte[] inner) {
        // Times start just below 2^32 so that In_Time and the vNF 2 latency wrap.
        long t0 = 4_294_900_000L;
        Srv6IntEncap encap = Srv6IntEncap.builder().ingressSid(sid("fc00:0:1::1"))
                .path(Arrays.asList(sid("fc00:0:2::f1"), sid("fc00:0:3::f2"), sid("fc00:0:4::d4")))
                .tag(TAG).sfcMode(true).build();
        byte[] f = encap.encapsulate(inner, swMac(2), swMac(1),
                new IntMetadata(1, 0, 2, t0, 0, SFC_PORT_COUNTER));
        out.add(vector("sfc-1-sw1-encap", "H.Encaps.INT at SW1: I and S set, segments are the vNF SIDs",
                "SW1", 1, "H.Encaps.INT", "input-h1", f));
        EndpointBehaviours b = new EndpointBehaviours();
        f = f.clone();
        check(b.sfcDepart(f, 0, f.length, 2, t0 + 10_000, t0 + 11_000, 38_500));
        EndpointBehaviours.rewriteEthernet(f, 0, VNF1_MAC, swMac(2));
        out.add(vector("sfc-2-sw2-to-vnf1", "End.T.INT at SW2, departure to vNF 1: Detection Result := "
                + "38500 ns (vNF 1's previous latency), Segment List[2] := Device_ID, In_Time and the "
                + "departure time parked in vNF_Latency; Segments Left and destination unchanged",
                "SW2", 2, "End.T.INT (SFC, to vNF)", "sfc-1-sw1-encap", f));
        f = f.clone();
        check(b.sfcReturn(f, 0, f.length, 2, 0, 5, t0 + 51_000, SFC_PORT_COUNTER));
        EndpointBehaviours.rewriteEthernet(f, 0, swMac(3), swMac(2));
        out.add(vector("sfc-3-sw2-end-t", "End.T.INT at SW2 on the return from vNF 1 (frame returned "
                + "unchanged): vNF_Latency = 40000 ns, Segments Left 2 -> 1", "SW2", 2,
                "End.T.INT (SFC, from vNF)", "sfc-2-sw2-to-vnf1", f));
        f = f.clone();
        check(b.sfcDepart(f, 0, f.length, 3, t0 + 55_000, t0 + 60_000, 27_250));
        EndpointBehaviours.rewriteEthernet(f, 0, VNF2_MAC, swMac(3));
        out.add(vector("sfc-4-sw3-to-vnf2", "End.T.INT at SW3, departure to vNF 2: Detection Result := "
                + "27250 ns", "SW3", 3, "End.T.INT (SFC, to vNF)", "sfc-3-sw2-end-t", f));
        f = f.clone();
        check(b.sfcReturn(f, 0, f.length, 3, 2, 1, t0 + 85_000, SFC_PORT_COUNTER));
        EndpointBehaviours.rewriteEthernet(f, 0, swMac(4), swMac(3));
        out.add(vector("sfc-5-sw3-end-t", "End.T.INT at SW3 on the return from vNF 2: vNF_Latency = "
                + "25000 ns across the 2^32 ns wrap, Segments Left 1 -> 0", "SW3", 3,
                "End.T.INT (SFC, from vNF)", "sfc-4-sw3-to-vnf2", f));
        egress(out, b, f, "sfc", 6, t0 + 100_000, t0 + 101_000, 1, SFC_PORT_COUNTER, "sfc-5-sw3-end-t");
    }

    private static void egress(List<Vector> out, EndpointBehaviours b, byte[] arrived, String set,
                               int step, long inTime, long reportTime, long seq, int portCounter,
                               String input) {
        byte[] f = arrived.clone();
        check(b.endDt(f, 0, f.length, 4, 0, 0, inTime, portCounter));
        byte[] inner = new byte[f.length];
        check(b.decapsulate(f, 0, f.length, H2_MAC, swMac(4), inner, 0));
        String dtWhat = "local".equals(set) ? "SW4 on the return from vNF 4: End.T.INT writes vNF 4's INT "
                + "metadata, the next segment is End.DT.INT on SW4: in a second pass the inner packet is "
                + "decapsulated and forwarded to h2 (inner bytes unchanged)"
                : "End.DT.INT at SW4: decapsulated inner packet forwarded to h2 (inner bytes unchanged)";
        out.add(vector(set + "-" + step + "-sw4-end-dt", dtWhat, "SW4", 4, "End.DT.INT", input,
                Arrays.copyOf(inner, b.outputLength())));
        IntReportEncoder.Builder rb = IntReportEncoder.builder().reporterDeviceId(4)
                .ethernet(COLLECTOR_MAC, swMac(4))
                .ipv4(Addresses.ipv4("10.0.100.4"), Addresses.ipv4("10.0.100.1"));
        IntReportEncoder enc = rb.build();
        byte[] r = new byte[enc.maxFrameLength()];
        int n = enc.encodeFrame(seq, reportTime, f, 0, f.length, r, 0);
        out.add(vector(set + "-" + (step + 1) + "-sw4-report", "INT report from SW4 to the collector "
                + "(UDP 32766): report header + the frame as it arrived with SW4's INT metadata in "
                + "Segment List[0]", "SW4", 4, "INT report", input, Arrays.copyOf(r, n)));
        if ("sfc".equals(set)) {
            IntReportEncoder cut = rb.maxMirrorLength(160).build();
            r = new byte[cut.maxFrameLength()];
            n = cut.encodeFrame(seq + 1, reportTime, f, 0, f.length, r, 0);
            out.add(vector(set + "-" + (step + 2) + "-sw4-report-truncated", "The same INT report with "
                    + "the mirror length set to 160 bytes: truncated flag set, Original Length = the "
                    + "full frame's length, Sequence Number + 1", "SW4", 4, "INT report", input,
                    Arrays.copyOf(r, n)));
        }
    }

    private static void check(BehaviourStatus s) {
        if (s != BehaviourStatus.OK) {
            throw new IllegalStateException("behaviour failed: " + s);
        }
    }

    private static Vector vector(String name, String description, String node, int deviceId,
                                 String behaviour, String input, byte[] bytes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("description", description);
        m.put("node", node);
        m.put("device_id", deviceId);
        m.put("behaviour", behaviour);
        m.put("input", input);
        m.put("length", bytes.length);
        m.put("hex", Addresses.toHex(bytes, 0, bytes.length));
        m.put("masks", masks(bytes));
        m.put("decoded", PacketJson.decodeFrame(bytes, 0, bytes.length));
        return new Vector(name, m, bytes);
    }

    /** Byte ranges a switch fills from its clocks, queues or hash: compare them masked. */
    static List<Object> masks(byte[] f) {
        List<Object> l = new ArrayList<>();
        IntReportView r = new IntReportView();
        if (r.wrapFrame(f, 0, f.length).isOk()) {
            l.add(mask(r.headerOffset() + 4, 4, null, "report.sequence_number", "sequence"));
            l.add(mask(r.headerOffset() + 8, 4, null, "report.egress_timestamp", "timestamp"));
            packetMasks(l, r.packet(), "mirrored.", r.packet().lastEntry() + 1, f);
            return l;
        }
        Srv6IntPacketView v = new Srv6IntPacketView();
        if (v.wrap(f, 0, f.length).isOk()) {
            int hops = v.completedHops();
            // A frame on its way to a vNF carries partial INT metadata in the active slot.
            if (v.isSfcMode() && v.segmentsLeft() > 0 && !isSid(f, v.segmentOffset(v.segmentsLeft()))) {
                hops++;
            }
            packetMasks(l, v, "", hops, f);
        }
        return l;
    }

    /** A SID of this testbed starts with fc00; INT metadata starts with a small Device_ID. */
    private static boolean isSid(byte[] f, int o) {
        return (f[o] & 0xFF) == 0xFC && f[o + 1] == 0;
    }

    private static void packetMasks(List<Object> l, Srv6IntPacketView v, String prefix, int hops, byte[] f) {
        l.add(mask(v.ipv6Offset() + 1, 3, "0fffff", prefix + "ipv6.flow_label", "flow_hash"));
        l.add(mask(v.intTlvOffset() + 4, 4, null, prefix + "srh.int_tlv.detection_result", "timestamp"));
        for (int h = 0; h < hops; h++) {
            int o = v.metadataOffset(h);
            int i = v.lastEntry() - h;
            String s = prefix + "srh.segments[" + i + "].";
            l.add(mask(o + WireFormat.MD_Q_ID, 4, null, s + "q_id+q_length", "queue"));
            l.add(mask(o + WireFormat.MD_IN_TIME, 4, null, s + "in_time", "timestamp"));
            l.add(mask(o + WireFormat.MD_VNF_LATENCY, 4, null, s + "vnf_latency", "timestamp"));
        }
    }

    private static Map<String, Object> mask(int off, int len, String bitmask, String field, String kind) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("offset", off);
        m.put("length", len);
        if (bitmask != null) {
            m.put("bitmask", bitmask);
        }
        m.put("field", field);
        m.put("kind", kind);
        return m;
    }

    /**
     * Returns every file of the vector set: one JSON per vector plus
     * {@code index.json} (the vectors in order) and the scenario.
     *
     * @return file name to content
     */
    public static Map<String, String> files() {
        Map<String, String> files = new TreeMap<>();
        List<Object> names = new ArrayList<>();
        for (Vector v : generate()) {
            files.put(v.name + ".json", Json.write(v.meta));
            names.add(v.name);
        }
        Map<String, Object> idx = new LinkedHashMap<>();
        idx.put("generator", VectorGenerator.class.getName());
        idx.put("scenario", scenario());
        idx.put("vectors", names);
        files.put("index.json", Json.write(idx));
        files.put(BUCKET_FILE, Json.write(bucketVectors()));
        return files;
    }

    /** File of the bucket-hash vectors (not a frame, so not in index.json's list). */
    public static final String BUCKET_FILE = "bucket-hash.json";

    /** Bucket count of the vectors: the pipeline's ENCAP_BUCKETS (p4src/shared/size.p4). */
    public static final int BUCKETS = 256;

    /**
     * The flow hash and bucket of a few inner packets: IPv4/UDP (h1's packet),
     * IPv4/TCP, IPv4/ICMP and a non-first fragment (ports 0), IPv6/TCP, IPv6/UDP.
     *
     * @return JSON object
     */
    static Map<String, Object> bucketVectors() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("generator", VectorGenerator.class.getName());
        m.put("description", "bucket of a flow in its chain's bucket table at the ingress: flow_hash = CRC-32 "
                + "(IEEE) of src | dst | proto (8) | sport (16) | dport (16), ports 0 unless TCP/UDP in a first "
                + "fragment; bucket = flow_hash & (buckets - 1)");
        m.put("buckets", BUCKETS);
        List<Object> flows = new ArrayList<>();
        flows.add(bucketFlow("ipv4-udp-h1", innerPacket()));
        flows.add(bucketFlow("ipv4-tcp", ip4("10.0.1.7", "10.0.4.9", WireFormat.PROTO_TCP, 40001, 443, 0)));
        flows.add(bucketFlow("ipv4-tcp-next-port", ip4("10.0.1.7", "10.0.4.9", WireFormat.PROTO_TCP, 40002, 443, 0)));
        flows.add(bucketFlow("ipv4-icmp", ip4("10.0.1.1", "10.0.4.1", 1, 0x0800, 0x1234, 0)));
        flows.add(bucketFlow("ipv4-udp-later-fragment", ip4("10.0.1.1", "10.0.4.1", WireFormat.PROTO_UDP,
                5000, 6000, 0x00B9)));
        flows.add(bucketFlow("ipv6-tcp", ip6("2001:db8:1::10", "2001:db8:4::20", WireFormat.PROTO_TCP, 51000, 80)));
        flows.add(bucketFlow("ipv6-udp", ip6("2001:db8:1::10", "2001:db8:4::20", WireFormat.PROTO_UDP, 5353, 53)));
        m.put("flows", flows);
        return m;
    }

    private static Map<String, Object> bucketFlow(String name, byte[] ip) {
        int h = FlowHash.hash(ip, 0, ip.length);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("name", name);
        f.put("inner_hex", Addresses.toHex(ip, 0, ip.length));
        f.put("flow_hash", String.format("%08x", h));
        f.put("bucket", FlowHash.bucket(h, BUCKETS));
        return f;
    }

    /** An IPv4 header and 4 bytes of L4 ports (a TCP/UDP start, or ICMP type/code/checksum). */
    private static byte[] ip4(String src, String dst, int proto, int sport, int dport, int fragment) {
        byte[] p = new byte[WireFormat.IPV4_LEN + 4];
        p[0] = 0x45;
        put16(p, 2, p.length);
        put16(p, 6, fragment);
        p[8] = 64;
        p[9] = (byte) proto;
        put32(p, 12, Addresses.ipv4(src));
        put32(p, 16, Addresses.ipv4(dst));
        put16(p, 10, checksum(p, 0, WireFormat.IPV4_LEN, 0));
        put16(p, WireFormat.IPV4_LEN, sport);
        put16(p, WireFormat.IPV4_LEN + 2, dport);
        return p;
    }

    /** An IPv6 header and 4 bytes of L4 ports. */
    private static byte[] ip6(String src, String dst, int proto, int sport, int dport) {
        byte[] p = new byte[WireFormat.IPV6_LEN + 4];
        p[0] = 0x60;
        put16(p, 4, 4);
        p[6] = (byte) proto;
        p[7] = 64;
        System.arraycopy(Addresses.ipv6(src), 0, p, 8, 16);
        System.arraycopy(Addresses.ipv6(dst), 0, p, 24, 16);
        put16(p, WireFormat.IPV6_LEN, sport);
        put16(p, WireFormat.IPV6_LEN + 2, dport);
        return p;
    }

    private static Map<String, Object> scenario() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("topology", "SW1 - SW2 - SW3 - SW4 in a row; h1 on SW1, h2 on SW4; vNF 1 on SW2 (Worker 1), "
                + "vNF 2 on SW3 (Worker 2); collector behind SW4");
        s.put("chain_tag", TAG);
        List<Object> sw = new ArrayList<>();
        for (int n = 1; n <= 4; n++) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", "SW" + n);
            m.put("device_id", n);
            m.put("mac", Addresses.macToString(swMac(n)));
            m.put("locator", "fc00:0:" + n + "::/48");
            m.put("end_t_int_sid", "fc00:0:" + n + "::1");
            sw.add(m);
        }
        s.put("switches", sw);
        s.put("end_dt_int_sid", "fc00:0:4::d4");
        Map<String, Object> vnf = new LinkedHashMap<>();
        vnf.put("vnf1", "fc00:0:2::f1 on SW2, MAC " + Addresses.macToString(VNF1_MAC));
        vnf.put("vnf2", "fc00:0:3::f2 on SW3, MAC " + Addresses.macToString(VNF2_MAC));
        s.put("vnf_sids", vnf);
        Map<String, Object> local = new LinkedHashMap<>();
        local.put("vnf1", "fc00:0:2::f1 on SW2, MAC " + Addresses.macToString(VNF1_MAC));
        local.put("vnf2", "fc00:0:2::f2 on SW2, MAC " + Addresses.macToString(VNF2_MAC));
        local.put("vnf3", "fc00:0:2::f3 on SW2, MAC " + Addresses.macToString(VNF3_MAC));
        local.put("vnf4", "fc00:0:4::f4 on SW4, MAC " + Addresses.macToString(VNF4_MAC));
        s.put("local_vnf_sids", local);
        s.put("h1_ipv6", "2001:db8:1::1");
        s.put("h2_ipv6", "2001:db8:4::1");
        s.put("h1", "10.0.1.1 " + Addresses.macToString(H1_MAC));
        s.put("h2", "10.0.4.1 " + Addresses.macToString(H2_MAC));
        s.put("collector", "10.0.100.1 " + Addresses.macToString(COLLECTOR_MAC)
                + ", reporter address 10.0.100.4, UDP 32770 -> 32766");
        s.put("map_info", WireFormat.MAP_ALL);
        return s;
    }

    /**
     * Writes the vector set.
     *
     * @param args optional output directory (default tests/vectors)
     * @throws IOException if a file cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path dir = Paths.get(args.length > 0 ? args[0] : "tests/vectors");
        Files.createDirectories(dir);
        for (Map.Entry<String, String> e : files().entrySet()) {
            Files.write(dir.resolve(e.getKey()), e.getValue().getBytes(StandardCharsets.UTF_8));
        }
        System.out.println("wrote " + files().size() + " files to " + dir);
    }

    private static void put16(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 8);
        b[i + 1] = (byte) v;
    }

    private static void put32(byte[] b, int i, long v) {
        put16(b, i, (int) (v >>> 16));
        put16(b, i + 2, (int) v);
    }

    private static int checksum(byte[] b, int off, int len, long initial) {
        long s = initial;
        for (int i = off; i < off + len; i += 2) {
            int hi = b[i] & 0xFF;
            int lo = i + 1 < off + len ? b[i + 1] & 0xFF : 0;
            s += (hi << 8) | lo;
        }
        while ((s >>> 16) != 0) {
            s = (s & 0xFFFF) + (s >>> 16);
        }
        return (int) (~s & 0xFFFF);
    }
}
