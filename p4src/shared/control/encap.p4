// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_ENCAP_P4
#define SRV6INT_ENCAP_P4
// H.Encaps.INT, part 2: pick one segment list of the chain by the flow's bucket
// and push IPv6 + SRH + SRv6-INT TLV (docs/wire-format.md 1).
#include "../header.p4"
#include "segments.p4"
#include "../size.p4"

control Srv6Encap(inout headers_t hdr, inout local_md_t md) {
    DIRECT_COUNTER(srv6_encap_counter);
    // The bucket table: the controller maps each (chain, bucket) to one segment
    // list, so a change of replicas moves only the buckets it must (not the
    // n/(n+1) of all flows an action selector's hash % n moves). The direct
    // counter tells the controller when a bucket's flows are gone (drain).
    bit<ENCAP_BUCKET_BITS> bucket;
    ReadSegment() read_segment;

    // s0 = Segment List[0] (the egress End.DT.INT SID) ... s<last_entry-1>;
    // Segment List[last_entry] is this switch's own SID.
    action h_encaps_int(bit<8> last_entry,
                        ipv6_addr_t s0, ipv6_addr_t s1, ipv6_addr_t s2, ipv6_addr_t s3,
                        ipv6_addr_t s4, ipv6_addr_t s5, ipv6_addr_t s6) {
        md.encap = 1;
        md.last_entry = last_entry;
        md.s0 = s0;
        md.s1 = s1;
        md.s2 = s2;
        md.s3 = s3;
        md.s4 = s4;
        md.s5 = s5;
        md.s6 = s6;
    }

    table srv6_encap {
        key = {
            md.chain_id : exact @name("chain_id");
            bucket      : exact @name("bucket");
        }
        actions = {
            h_encaps_int;
            @defaultonly NoAction;
        }
        const default_action = NoAction;
        size = ENCAP_TABLE_SIZE;
        counters = srv6_encap_counter;
    }

    apply {
        bucket = md.flow_hash[ENCAP_BUCKET_BITS - 1:0];
        if (!srv6_encap.apply().hit) {
            return;
        }
        bit<8> le = md.last_entry;
        if (le == 0 || le >= MAX_SEGMENTS) {
            md.drop = 1;
            md.drop_reason = DROP_BAD_ENCAP;
            return;
        }
        bit<16> inner_len;
        bit<8> tc;
        bit<8> inner_nh;
        if (hdr.ipv6.isValid()) {
            // A native IPv6 packet becomes the inner packet.
            hdr.inner_ipv6 = hdr.ipv6;
            inner_len = hdr.ipv6.payload_len + 40;
            tc = hdr.ipv6.traffic_class;
            inner_nh = PROTO_IPV6;
        } else {
            inner_len = hdr.ipv4.total_len;
            tc = hdr.ipv4.dscp ++ hdr.ipv4.ecn;
            inner_nh = PROTO_IPV4;
        }
        bit<16> seg_bytes = ((bit<16>) (le + 1)) << 4;

        hdr.ethernet.ether_type = ETHERTYPE_IPV6;
        hdr.ipv6.setValid();
        hdr.ipv6.version = 6;
        hdr.ipv6.traffic_class = tc;
        hdr.ipv6.flow_label = md.flow_hash[19:0];
        hdr.ipv6.payload_len = 8 + seg_bytes + 8 + inner_len;
        hdr.ipv6.next_hdr = PROTO_ROUTING;
        hdr.ipv6.hop_limit = DEFAULT_HOP_LIMIT;
        hdr.ipv6.src_addr = md.my_sid;

        hdr.srh.setValid();
        hdr.srh.next_hdr = inner_nh;
        hdr.srh.hdr_ext_len = (((bit<8>) (le + 1)) << 1) + 1;
        hdr.srh.routing_type = SRH_ROUTING_TYPE;
        hdr.srh.segments_left = le - 1;
        hdr.srh.last_entry = le;
        hdr.srh.flags = 0;
        if (md.int_on == 1) {
            hdr.srh.flags = hdr.srh.flags | SRH_FLAG_INT;
        }
        if (md.sfc_mode == 1) {
            hdr.srh.flags = hdr.srh.flags | SRH_FLAG_SFC;
        }
        hdr.srh.tag = md.chain_id;

        hdr.segs[0].setValid();
        hdr.segs[0].sid = md.s0;
        hdr.segs[1].setValid();
        hdr.segs[1].sid = (le == 1) ? md.my_sid : md.s1;
        if (le >= 2) { hdr.segs[2].setValid(); hdr.segs[2].sid = (le == 2) ? md.my_sid : md.s2; }
        if (le >= 3) { hdr.segs[3].setValid(); hdr.segs[3].sid = (le == 3) ? md.my_sid : md.s3; }
        if (le >= 4) { hdr.segs[4].setValid(); hdr.segs[4].sid = (le == 4) ? md.my_sid : md.s4; }
        if (le >= 5) { hdr.segs[5].setValid(); hdr.segs[5].sid = (le == 5) ? md.my_sid : md.s5; }
        if (le >= 6) { hdr.segs[6].setValid(); hdr.segs[6].sid = (le == 6) ? md.my_sid : md.s6; }
        if (le >= 7) { hdr.segs[7].setValid(); hdr.segs[7].sid = md.my_sid; }

        hdr.srh_tlv.setValid();
        hdr.srh_tlv.type = SRV6_INT_TLV_TYPE;
        hdr.srh_tlv.length = SRV6_INT_TLV_LENGTH;
        hdr.srh_tlv.map_info = md.map_info;
        hdr.srh_tlv.detection_result = 0;

        bit<128> active;
        read_segment.apply(hdr, le - 1, active);
        hdr.ipv6.dst_addr = active;

        // The ingress is hop 0: its own INT metadata replaces its own SID.
        if (md.int_on == 1) {
            md.int_write = INT_WRITE_FULL;
            md.int_slot = le;
            md.int_vnf_latency = 0;
        }
    }
}

#endif
