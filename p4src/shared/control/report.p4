// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_REPORT_P4
#define SRV6INT_REPORT_P4
// INT report encapsulation: Ethernet | IPv4 | UDP | report header | mirrored
// frame (docs/wire-format.md 3). The caller truncates the packet to out_len.
#include "../header.p4"

control IntReport(inout headers_t hdr, inout local_md_t md,
                  in bit<32> seq_no, in bit<32> now_ns, in bit<32> frame_len,
                  out bit<32> out_len) {
    mac_addr_t r_src_mac = 0;
    mac_addr_t r_dst_mac = 0;
    ipv4_addr_t r_src_ip = 0;
    ipv4_addr_t r_dst_ip = 0;
    bit<16> r_sport = 0;
    bit<16> r_dport = 0;
    bit<16> r_trunc = 0;

    action set_report_config(mac_addr_t src_mac, mac_addr_t dst_mac,
                             ipv4_addr_t src_ip, ipv4_addr_t dst_ip,
                             bit<16> udp_sport, bit<16> udp_dport, bit<16> trunc_len) {
        r_src_mac = src_mac;
        r_dst_mac = dst_mac;
        r_src_ip = src_ip;
        r_dst_ip = dst_ip;
        r_sport = udp_sport;
        r_dport = udp_dport;
        r_trunc = trunc_len;
    }

    table report_config {
        key = {}
        actions = {
            set_report_config;
        }
        // Collector port 32766, 256-byte frames until the app configures it.
        default_action = set_report_config(0, 0, 0, 0, 32766, 32766, 256);
        size = 1;
    }

    apply {
        report_config.apply();
        bit<16> orig_len = (bit<16>) frame_len;
        bit<16> kept = orig_len;
        bit<8> flags = 0;
        if (orig_len > r_trunc) {
            kept = r_trunc;
            flags = REPORT_FLAG_TRUNCATED;
        }
        out_len = REPORT_ENCAP_BYTES + (bit<32>) kept;

        hdr.report_ethernet.setValid();
        hdr.report_ethernet.dst_addr = r_dst_mac;
        hdr.report_ethernet.src_addr = r_src_mac;
        hdr.report_ethernet.ether_type = ETHERTYPE_IPV4;

        hdr.report_ipv4.setValid();
        hdr.report_ipv4.version = 4;
        hdr.report_ipv4.ihl = 5;
        hdr.report_ipv4.dscp = 0;
        hdr.report_ipv4.ecn = 0;
        hdr.report_ipv4.total_len = 20 + 8 + 16 + kept;
        hdr.report_ipv4.identification = 0;
        hdr.report_ipv4.flags = 2;  // DF
        hdr.report_ipv4.frag_offset = 0;
        hdr.report_ipv4.ttl = DEFAULT_HOP_LIMIT;
        hdr.report_ipv4.protocol = PROTO_UDP;
        hdr.report_ipv4.hdr_checksum = 0;
        hdr.report_ipv4.src_addr = r_src_ip;
        hdr.report_ipv4.dst_addr = r_dst_ip;

        hdr.report_udp.setValid();
        hdr.report_udp.sport = r_sport;
        hdr.report_udp.dport = r_dport;
        hdr.report_udp.len = 8 + 16 + kept;
        hdr.report_udp.checksum = 0;

        hdr.report.setValid();
        hdr.report.version = REPORT_VERSION;
        hdr.report.hdr_len = REPORT_HDR_WORDS;
        hdr.report.flags = flags;
        hdr.report.reporter_id = md.device_id;
        hdr.report.seq_no = seq_no;
        hdr.report.egress_ts = now_ns;
        hdr.report.orig_len = orig_len;
        hdr.report.reserved = 0;
    }
}

#endif
