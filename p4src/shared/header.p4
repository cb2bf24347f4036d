// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_HEADER_P4
#define SRV6INT_HEADER_P4
// SRv6-INT: headers and the metadata every target carries (docs/wire-format.md).
#include "define.p4"

@controller_header("packet_in")
header packet_in_t {
    port_num_t ingress_port;
    bit<7>     _pad;
}

@controller_header("packet_out")
header packet_out_t {
    port_num_t egress_port;
    bit<7>     _pad;
}

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<6>      dscp;
    bit<2>      ecn;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header ipv6_t {
    bit<4>      version;
    bit<8>      traffic_class;
    bit<20>     flow_label;
    bit<16>     payload_len;
    bit<8>      next_hdr;
    bit<8>      hop_limit;
    ipv6_addr_t src_addr;
    ipv6_addr_t dst_addr;
}

// RFC 8754 SRH fixed part; Flags carry I (0x01) and S (0x02), Tag the chain id.
header srh_t {
    bit<8>  next_hdr;
    bit<8>  hdr_ext_len;
    bit<8>  routing_type;
    bit<8>  segments_left;
    bit<8>  last_entry;
    bit<8>  flags;
    bit<16> tag;
}

// One Segment List entry: a SID, or once consumed, 16 bytes of INT metadata:
// Device_ID 16 | Q_ID 8 | Q_Length 24 | In_Time 32 | vNF_Latency 32 | Port_Counter 16.
header srh_segment_t {
    bit<128> sid;
}

// The last 8 bytes of the SRH.
header srv6_int_tlv_t {
    bit<8>  type;
    bit<8>  length;
    bit<16> map_info;
    bit<32> detection_result;
}

header tcp_t {
    bit<16> sport;
    bit<16> dport;
    bit<32> seq_no;
    bit<32> ack_no;
    bit<4>  data_offset;
    bit<3>  res;
    bit<3>  ecn;
    bit<6>  ctrl;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgent_ptr;
}

header udp_t {
    bit<16> sport;
    bit<16> dport;
    bit<16> len;
    bit<16> checksum;
}

header icmpv6_t {
    bit<8>  type;
    bit<8>  code;
    bit<16> checksum;
}

// Neighbor Solicitation / Advertisement body with one link-layer address option.
header ndp_t {
    bit<32>     flags;
    ipv6_addr_t target_addr;
    bit<8>      opt_type;
    bit<8>      opt_length;
    mac_addr_t  opt_mac;
}

// INT report header (docs/wire-format.md 3).
header report_hdr_t {
    bit<4>  version;
    bit<4>  hdr_len;
    bit<8>  flags;
    bit<16> reporter_id;
    bit<32> seq_no;
    bit<32> egress_ts;
    bit<16> orig_len;
    bit<16> reserved;
}

struct headers_t {
    packet_out_t   packet_out;
    packet_in_t    packet_in;
    // Report encapsulation, valid only on the report copy.
    ethernet_t     report_ethernet;
    ipv4_t         report_ipv4;
    udp_t          report_udp;
    report_hdr_t   report;
    ethernet_t     ethernet;
    // Outer IPv6 of an SRv6 packet, or a native IPv6 packet.
    ipv6_t         ipv6;
    srh_t          srh;
    srh_segment_t[MAX_SEGMENTS] segs;
    srv6_int_tlv_t srh_tlv;
    // Inner (or native) IPv4, inner IPv6.
    ipv4_t         ipv4;
    ipv6_t         inner_ipv6;
    icmpv6_t       icmpv6;
    ndp_t          ndp;
    tcp_t          tcp;
    udp_t          udp;
}

// Per-packet state. Fields tagged @field_list(FL_CLONE) survive a clone on
// v1model (other targets carry them in their bridged/mirror metadata).
#define FL_CLONE 1
// Fields that survive a recirculation (the next local SID's pass).
#define FL_RECIRC 2
struct local_md_t {
    @field_list(FL_CLONE) port_num_t ig_port;
    @field_list(FL_CLONE) bit<16> device_id;
    @field_list(FL_CLONE) bit<1>  is_report;
    // In_Time (ns) and Port_Counter for the INT metadata this switch writes.
    @field_list(FL_CLONE) bit<32> int_in_time;
    @field_list(FL_CLONE) bit<16> port_counter;
    ipv6_addr_t my_sid;
    mac_addr_t  router_mac;
    bit<32>     now_ns;

    // 5-tuple of the (inner) flow.
    ipv6_addr_t flow_src;
    ipv6_addr_t flow_dst;
    bit<8>      flow_proto;
    bit<16>     l4_sport;
    bit<16>     l4_dport;
    bit<8>      icmp_type;
    bit<32>     flow_hash;

    // Classifier / encapsulation.
    bit<1>      chain_hit;
    bit<16>     chain_id;
    bit<1>      sfc_mode;
    bit<16>     map_info;
    bit<16>     int_period;
    bit<1>      int_on;
    bit<1>      encap;
    bit<8>      last_entry;
    ipv6_addr_t s0;
    ipv6_addr_t s1;
    ipv6_addr_t s2;
    ipv6_addr_t s3;
    ipv6_addr_t s4;
    ipv6_addr_t s5;
    ipv6_addr_t s6;

    // Endpoint.
    bit<2>      sid_action;
    bit<16>     vnf_id;
    port_num_t  vnf_port;
    mac_addr_t  vnf_mac;
    bit<128>    active_seg;
    bit<1>      vnf_return;
    bit<32>     vnf_last_latency;

    // INT metadata the egress writes into Segment List[int_slot].
    bit<2>      int_write;
    bit<8>      int_slot;
    bit<32>     int_vnf_latency;

    // Forwarding decision.
    bit<1>      fwd;
    port_num_t  out_port;
    bit<1>      punt;
    bit<1>      cpu_clone;
    bit<1>      drop;
    bit<8>      drop_reason;
    bit<1>      ipv4_changed;
    bit<1>      decap;
    bit<1>      ndp_replied;
    // IPv6 Traffic Class / IPv4 DSCP+ECN of the packet as it leaves (queue choice).
    bit<8>      traffic_class;

    // Consecutive local SIDs: passes of this arrival so far (0 = first pass).
    @field_list(FL_RECIRC) bit<8> local_passes;
    // The destination my_sid matched in this pass, and whether the endpoint
    // moved to the next segment (End.T.INT, or back from a vNF).
    ipv6_addr_t processed_sid;
    bit<1>      sid_advanced;
    // ipv6_routing missed (a SID of this switch has no route here).
    bit<1>      ipv6_route_miss;
    bit<1>      recirculate;
}

#endif
