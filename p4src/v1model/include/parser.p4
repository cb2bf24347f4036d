// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_V1MODEL_PARSER_P4
#define SRV6INT_V1MODEL_PARSER_P4
// v1model parser, deparser and checksums.
#include "arch.p4"
#include "../../shared/header.p4"

parser Srv6IntParser(packet_in packet, out headers_t hdr, inout local_md_t md,
                     inout standard_metadata_t sm) {
    // Segments still to extract; a LastEntry above MAX_SEGMENTS - 1 overruns
    // hdr.segs and ends in a parser error (counted and dropped in ingress).
    bit<8> segs_to_parse = 0;

    state start {
        md.ig_port = sm.ingress_port;
        transition select(sm.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }

    state parse_packet_out {
        packet.extract(hdr.packet_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_IPV6: parse_ipv6;
            default: accept;
        }
    }

    state parse_ipv6 {
        packet.extract(hdr.ipv6);
        transition select(hdr.ipv6.next_hdr) {
            PROTO_ROUTING: parse_srh;
            PROTO_TCP: parse_tcp;
            PROTO_UDP: parse_udp;
            PROTO_ICMPV6: parse_icmpv6;
            default: accept;
        }
    }

    state parse_srh {
        packet.extract(hdr.srh);
        segs_to_parse = hdr.srh.last_entry + 1;
        transition select(hdr.srh.routing_type) {
            SRH_ROUTING_TYPE: parse_segment;
            default: accept;
        }
    }

    state parse_segment {
        packet.extract(hdr.segs.next);
        segs_to_parse = segs_to_parse - 1;
        transition select(segs_to_parse) {
            0: parse_srv6_int_tlv;
            default: parse_segment;
        }
    }

    state parse_srv6_int_tlv {
        packet.extract(hdr.srh_tlv);
        transition select(hdr.srh.next_hdr) {
            PROTO_IPV4: parse_ipv4;
            PROTO_IPV6: parse_inner_ipv6;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            PROTO_TCP: parse_tcp;
            PROTO_UDP: parse_udp;
            default: accept;
        }
    }

    state parse_inner_ipv6 {
        packet.extract(hdr.inner_ipv6);
        transition select(hdr.inner_ipv6.next_hdr) {
            PROTO_TCP: parse_tcp;
            PROTO_UDP: parse_udp;
            default: accept;
        }
    }

    state parse_icmpv6 {
        packet.extract(hdr.icmpv6);
        transition select(hdr.icmpv6.type) {
            ICMP6_TYPE_NS: parse_ndp;
            ICMP6_TYPE_NA: parse_ndp;
            default: accept;
        }
    }

    state parse_ndp {
        packet.extract(hdr.ndp);
        transition accept;
    }

    state parse_tcp {
        packet.extract(hdr.tcp);
        transition accept;
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition accept;
    }
}

control Srv6IntDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.report_ethernet);
        packet.emit(hdr.report_ipv4);
        packet.emit(hdr.report_udp);
        packet.emit(hdr.report);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv6);
        packet.emit(hdr.srh);
        packet.emit(hdr.segs);
        packet.emit(hdr.srh_tlv);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.inner_ipv6);
        packet.emit(hdr.icmpv6);
        packet.emit(hdr.ndp);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
    }
}

control Srv6IntVerifyChecksum(inout headers_t hdr, inout local_md_t md) {
    apply { }
}

control Srv6IntComputeChecksum(inout headers_t hdr, inout local_md_t md) {
    apply {
        update_checksum(hdr.ipv4.isValid() && md.ipv4_changed == 1,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum(hdr.report_ipv4.isValid(),
            { hdr.report_ipv4.version, hdr.report_ipv4.ihl, hdr.report_ipv4.dscp,
              hdr.report_ipv4.ecn, hdr.report_ipv4.total_len,
              hdr.report_ipv4.identification, hdr.report_ipv4.flags,
              hdr.report_ipv4.frag_offset, hdr.report_ipv4.ttl,
              hdr.report_ipv4.protocol, hdr.report_ipv4.src_addr,
              hdr.report_ipv4.dst_addr },
            hdr.report_ipv4.hdr_checksum, HashAlgorithm.csum16);
        // ICMPv6 checksum of a generated Neighbor Advertisement (pseudo-header
        // upper-layer length fits in 16 bits, its upper half is zero).
        update_checksum(md.ndp_replied == 1,
            { hdr.ipv6.src_addr, hdr.ipv6.dst_addr, hdr.ipv6.payload_len,
              8w0, hdr.ipv6.next_hdr, hdr.icmpv6.type, hdr.icmpv6.code,
              hdr.ndp.flags, hdr.ndp.target_addr, hdr.ndp.opt_type,
              hdr.ndp.opt_length, hdr.ndp.opt_mac },
            hdr.icmpv6.checksum, HashAlgorithm.csum16);
    }
}

#endif
