// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.tool;

import org.srv6int.codec.Addresses;
import org.srv6int.codec.DecodeErrors;
import org.srv6int.codec.DecodeStatus;
import org.srv6int.codec.IntReportView;
import org.srv6int.codec.Srv6IntPacketView;
import org.srv6int.codec.WireFormat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders any frame the project deals with (an SRv6-INT packet, an INT report
 * frame or UDP payload, a plain IPv4/IPv6 frame) as a JSON tree of every field.
 * Used by {@code srv6int-decode} and by the golden vector generator, so the
 * vectors' {@code decoded} object is exactly what the tool prints.
 */
public final class PacketJson {

    /** Key of the error reason in an error object. */
    public static final String ERROR = "error";

    private PacketJson() {
    }

    /**
     * Decodes an Ethernet frame of any supported kind.
     *
     * @param f   bytes
     * @param off first byte
     * @param len length
     * @return field tree, or an object with {@code error} (a {@link DecodeStatus} name)
     */
    public static Map<String, Object> decodeFrame(byte[] f, int off, int len) {
        if (len >= WireFormat.ETH_LEN) {
            int et = u16(f, off + 12);
            if (et == WireFormat.ETHERTYPE_IPV4 && len >= WireFormat.ETH_LEN + WireFormat.IPV4_LEN
                    && (f[off + WireFormat.ETH_LEN + 9] & 0xFF) == WireFormat.PROTO_UDP) {
                int ihl = 4 * (f[off + WireFormat.ETH_LEN] & 0x0F);
                int udp = off + WireFormat.ETH_LEN + ihl;
                if (udp + 4 <= off + len && u16(f, udp + 2) == WireFormat.REPORT_UDP_PORT) {
                    return report(f, off, len, true);
                }
            }
            // IPv6 without a Routing header is a plain frame; a cut IPv6 header is an error.
            if (et != WireFormat.ETHERTYPE_IPV6 || hasOtherNextHeader(f, off, len)) {
                return plain(f, off, len);
            }
        }
        return srv6(f, off, len);
    }

    private static boolean hasOtherNextHeader(byte[] f, int off, int len) {
        return len >= WireFormat.ETH_LEN + WireFormat.IPV6_LEN
                && (f[off + WireFormat.ETH_LEN + 6] & 0xFF) != WireFormat.PROTO_ROUTING;
    }

    /**
     * Decodes an SRv6-INT frame.
     *
     * @param f   bytes
     * @param off first byte
     * @param len length
     * @return field tree or error object
     */
    public static Map<String, Object> srv6(byte[] f, int off, int len) {
        Srv6IntPacketView v = new Srv6IntPacketView(new DecodeErrors());
        DecodeStatus s = v.wrap(f, off, len);
        if (!s.isOk()) {
            return error("srv6int", s);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "srv6int");
        m.put("length", len);
        putSrv6(m, v, f, v.completedHops());
        return m;
    }

    /**
     * Decodes an INT report, whole frame or UDP payload.
     *
     * @param f     bytes
     * @param off   first byte
     * @param len   length
     * @param frame true for Ethernet/IPv4/UDP, false for the UDP payload only
     * @return field tree or error object
     */
    public static Map<String, Object> report(byte[] f, int off, int len, boolean frame) {
        IntReportView r = new IntReportView(new DecodeErrors());
        DecodeStatus s = frame ? r.wrapFrame(f, off, len) : r.wrapPayload(f, off, len);
        if (!s.isOk()) {
            return error("int_report", s);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", frame ? "int_report" : "int_report_payload");
        m.put("length", len);
        if (frame) {
            m.put("ethernet", ethernet(f, off));
            m.put("ipv4", ipv4(f, r.ipv4Offset()));
            m.put("udp", udp(f, r.udpOffset()));
        }
        Map<String, Object> h = new LinkedHashMap<>();
        int ho = r.headerOffset();
        h.put("version", r.version());
        h.put("hdr_len", r.hdrLenWords());
        h.put("flags", r.reportFlags());
        h.put("truncated", r.isMirrorTruncated());
        h.put("reporter_device_id", r.reporterDeviceId());
        h.put("sequence_number", r.sequenceNumber());
        h.put("egress_timestamp", r.egressTimestamp());
        h.put("original_length", r.originalLength());
        h.put("reserved", u16(f, ho + 14));
        m.put("report", h);
        Map<String, Object> mir = new LinkedHashMap<>();
        mir.put("type", "srv6int");
        mir.put("length", r.mirroredLength());
        putSrv6(mir, r.packet(), f, r.hopCount());
        m.put("mirrored", mir);
        return m;
    }

    private static void putSrv6(Map<String, Object> m, Srv6IntPacketView v, byte[] f, int hops) {
        if (v.hasEthernet()) {
            m.put("ethernet", ethernet(f, v.ipv6Offset() - WireFormat.ETH_LEN));
        }
        int ip = v.ipv6Offset();
        Map<String, Object> i6 = new LinkedHashMap<>();
        i6.put("version", (f[ip] & 0xFF) >>> 4);
        i6.put("traffic_class", v.trafficClass());
        i6.put("flow_label", v.flowLabel());
        i6.put("payload_length", v.payloadLength());
        i6.put("next_header", f[ip + 6] & 0xFF);
        i6.put("hop_limit", v.hopLimit());
        i6.put("src", Addresses.ipv6ToString(f, ip + 8));
        i6.put("dst", Addresses.ipv6ToString(f, ip + 24));
        m.put("ipv6", i6);
        Map<String, Object> srh = new LinkedHashMap<>();
        srh.put("next_header", v.srhNextHeader());
        srh.put("hdr_ext_len", v.hdrExtLen());
        srh.put("routing_type", f[v.srhOffset() + 2] & 0xFF);
        srh.put("segments_left", v.segmentsLeft());
        srh.put("last_entry", v.lastEntry());
        srh.put("flags", v.flags());
        srh.put("flag_int", v.isIntOn());
        srh.put("flag_sfc", v.isSfcMode());
        srh.put("tag", v.tag());
        List<Object> segs = new ArrayList<>();
        List<Object> segsIp = new ArrayList<>();
        for (int i = 0; i <= v.lastEntry(); i++) {
            segs.add(Addresses.toHex(f, v.segmentOffset(i), WireFormat.SEGMENT_LEN));
            segsIp.add(Addresses.ipv6ToString(f, v.segmentOffset(i)));
        }
        srh.put("segments", segs);
        srh.put("segments_as_ipv6", segsIp);
        Map<String, Object> tlv = new LinkedHashMap<>();
        int t = v.intTlvOffset();
        tlv.put("offset_in_srh", t - v.srhOffset());
        tlv.put("type", f[t] & 0xFF);
        tlv.put("length", f[t + 1] & 0xFF);
        tlv.put("map_info", v.mapInfo());
        tlv.put("detection_result", v.detectionResult());
        tlv.put("hex", Addresses.toHex(f, t, WireFormat.INT_TLV_LEN));
        srh.put("int_tlv", tlv);
        m.put("srh", srh);
        List<Object> mds = new ArrayList<>();
        v.visitIntMetadata((hop, dev, qid, qlen, in, lat, pc) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("hop", hop);
            e.put("segment_index", v.lastEntry() - hop);
            e.put("device_id", dev);
            e.put("q_id", qid);
            e.put("q_length", qlen);
            e.put("in_time", in);
            e.put("vnf_latency", lat);
            e.put("port_counter", pc);
            mds.add(e);
        }, hops);
        m.put("int_metadata", mds);
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("offset", v.innerOffset() - (v.ipv6Offset() - (v.hasEthernet() ? WireFormat.ETH_LEN : 0)));
        in.put("length", v.innerLength());
        in.put("available", v.innerAvailable());
        in.put("truncated", v.isTruncated());
        putIp(in, f, v.innerOffset(), v.innerAvailable());
        m.put("inner", in);
    }

    /**
     * Decodes a plain Ethernet frame (IPv4 or IPv6 without SRH).
     *
     * @param f   bytes
     * @param off first byte
     * @param len length
     * @return field tree or error object
     */
    public static Map<String, Object> plain(byte[] f, int off, int len) {
        if (len < WireFormat.ETH_LEN) {
            return error("ethernet", DecodeStatus.TRUNCATED_ETHERNET);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "ethernet");
        m.put("length", len);
        m.put("ethernet", ethernet(f, off));
        putIp(m, f, off + WireFormat.ETH_LEN, len - WireFormat.ETH_LEN);
        return m;
    }

    private static void putIp(Map<String, Object> m, byte[] f, int o, int len) {
        if (len >= WireFormat.IPV4_LEN && (f[o] & 0xFF) >>> 4 == 4) {
            m.put("ipv4", ipv4(f, o));
            int ihl = 4 * (f[o] & 0x0F);
            if ((f[o + 9] & 0xFF) == WireFormat.PROTO_UDP && ihl >= WireFormat.IPV4_LEN
                    && len >= ihl + WireFormat.UDP_LEN) {
                m.put("udp", udp(f, o + ihl));
                m.put("payload", Addresses.toHex(f, o + ihl + WireFormat.UDP_LEN, len - ihl - WireFormat.UDP_LEN));
            } else {
                m.put("payload", Addresses.toHex(f, o + Math.min(ihl, len), len - Math.min(ihl, len)));
            }
        } else if (len >= WireFormat.IPV6_LEN && (f[o] & 0xFF) >>> 4 == 6) {
            Map<String, Object> i6 = new LinkedHashMap<>();
            i6.put("traffic_class", (u16(f, o) >>> 4) & 0xFF);
            i6.put("flow_label", ((f[o + 1] & 0x0F) << 16) | u16(f, o + 2));
            i6.put("payload_length", u16(f, o + 4));
            i6.put("next_header", f[o + 6] & 0xFF);
            i6.put("hop_limit", f[o + 7] & 0xFF);
            i6.put("src", Addresses.ipv6ToString(f, o + 8));
            i6.put("dst", Addresses.ipv6ToString(f, o + 24));
            m.put("ipv6", i6);
            m.put("payload", Addresses.toHex(f, o + WireFormat.IPV6_LEN, len - WireFormat.IPV6_LEN));
        } else {
            m.put("payload", Addresses.toHex(f, o, len));
        }
    }

    private static Map<String, Object> ethernet(byte[] f, int o) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("dst", Addresses.macToString(u48(f, o)));
        e.put("src", Addresses.macToString(u48(f, o + 6)));
        e.put("ethertype", String.format("0x%04x", u16(f, o + 12)));
        return e;
    }

    private static Map<String, Object> ipv4(byte[] f, int o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", (f[o] & 0xFF) >>> 4);
        m.put("ihl", f[o] & 0x0F);
        m.put("tos", f[o + 1] & 0xFF);
        m.put("total_length", u16(f, o + 2));
        m.put("identification", u16(f, o + 4));
        m.put("flags_fragment", u16(f, o + 6));
        m.put("ttl", f[o + 8] & 0xFF);
        m.put("protocol", f[o + 9] & 0xFF);
        m.put("checksum", u16(f, o + 10));
        m.put("src", Addresses.ipv4ToString(u32(f, o + 12)));
        m.put("dst", Addresses.ipv4ToString(u32(f, o + 16)));
        return m;
    }

    private static Map<String, Object> udp(byte[] f, int o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("src_port", u16(f, o));
        m.put("dst_port", u16(f, o + 2));
        m.put("length", u16(f, o + 4));
        m.put("checksum", u16(f, o + 6));
        return m;
    }

    /**
     * Builds an error object.
     *
     * @param kind   what was being decoded
     * @param status the reason
     * @return {@code {"error": reason, "description": ..., "kind": kind}}
     */
    public static Map<String, Object> error(String kind, DecodeStatus status) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(ERROR, status.name());
        m.put("description", status.description());
        m.put("kind", kind);
        return m;
    }

    static int u16(byte[] f, int o) {
        return ((f[o] & 0xFF) << 8) | (f[o + 1] & 0xFF);
    }

    static long u32(byte[] f, int o) {
        return ((long) u16(f, o) << 16) | u16(f, o + 2);
    }

    static long u48(byte[] f, int o) {
        return ((long) u16(f, o) << 32) | u32(f, o + 2);
    }
}
