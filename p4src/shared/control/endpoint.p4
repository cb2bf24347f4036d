// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_ENDPOINT_P4
#define SRV6INT_ENDPOINT_P4
// End.T.INT (plain and SFC mode) and End.DT.INT (docs/wire-format.md 2).
#include "../header.p4"
#include "../size.p4"
#include "segments.p4"

// my-SID match: which endpoint behaviour this destination asks for.
control MySid(inout headers_t hdr, inout local_md_t md) {
    DIRECT_COUNTER(my_sid_counter);

    action end_t_int() {
        md.sid_action = SID_END_T;
    }

    // The SID is a vNF replica hanging off this switch on vnf_port.
    action end_t_int_sfc(bit<16> vnf_id, port_num_t vnf_port, mac_addr_t vnf_mac) {
        md.sid_action = SID_END_T_SFC;
        md.vnf_id = vnf_id;
        md.vnf_port = vnf_port;
        md.vnf_mac = vnf_mac;
    }

    action end_dt_int() {
        md.sid_action = SID_END_DT;
    }

    table my_sid {
        key = {
            hdr.ipv6.dst_addr : lpm @name("ipv6_dst");
        }
        actions = {
            end_t_int;
            end_t_int_sfc;
            end_dt_int;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = MY_SID_TABLE_SIZE;
        counters = my_sid_counter;
    }

    apply {
        my_sid.apply();
        // Without S the packet does not visit the vNF (plain End.T.INT).
        if (md.sid_action == SID_END_T_SFC && (hdr.srh.flags & SRH_FLAG_SFC) == 0) {
            md.sid_action = SID_END_T;
        }
    }
}

// True when the SRH is one this program can process: RFC 8754 type 4 with the
// SRv6-INT TLV as its last 8 bytes.
control CheckSrh(in headers_t hdr, out bool ok) {
    apply {
        ok = hdr.srh.isValid() && hdr.srh_tlv.isValid()
            && hdr.srh.routing_type == SRH_ROUTING_TYPE
            && hdr.srh.segments_left <= hdr.srh.last_entry
            && hdr.srh.hdr_ext_len == (((hdr.srh.last_entry + 1) << 1) + 1)
            && hdr.srh_tlv.type == SRV6_INT_TLV_TYPE
            && hdr.srh_tlv.length == SRV6_INT_TLV_LENGTH;
    }
}

// Header rewrites of the endpoint behaviours. The caller has filled, for SFC
// mode, md.active_seg, md.vnf_return and either md.vnf_last_latency (on the way
// out) or md.int_vnf_latency / md.int_in_time (on the way back).
control Srv6Endpoint(inout headers_t hdr, inout local_md_t md) {
    ReadSegment() read_segment;

    apply {
        bit<8> sl = hdr.srh.segments_left;
        bool int_on = (hdr.srh.flags & SRH_FLAG_INT) != 0;

        if (md.sid_action == SID_END_DT) {
            if (sl != 0) {
                md.drop = 1;
                md.drop_reason = DROP_DT_SL_NOT_ZERO;
                return;
            }
            if (int_on) {
                // The report copy writes the egress's INT metadata (see the v1model egress, v1model/srv6int_v1model.p4).
                md.is_report = 1;
            }
            md.decap = 1;
            if (hdr.inner_ipv6.isValid()) {
                hdr.ipv6 = hdr.inner_ipv6;
                hdr.inner_ipv6.setInvalid();
            } else {
                hdr.ipv6.setInvalid();
                hdr.ethernet.ether_type = ETHERTYPE_IPV4;
            }
            hdr.srh.setInvalid();
            hdr.segs[0].setInvalid();
            hdr.segs[1].setInvalid();
            hdr.segs[2].setInvalid();
            hdr.segs[3].setInvalid();
            hdr.segs[4].setInvalid();
            hdr.segs[5].setInvalid();
            hdr.segs[6].setInvalid();
            hdr.segs[7].setInvalid();
            hdr.srh_tlv.setInvalid();
            return;
        }

        if (md.sid_action == SID_END_T_SFC && md.vnf_return == 0) {
            // Out to the vNF: stamp the previous latency, park the departure
            // time in the active segment; SL and destination stay.
            hdr.srh_tlv.detection_result = md.vnf_last_latency;
            md.int_write = INT_WRITE_PARKED;
            md.int_slot = sl;
            md.fwd = 1;
            md.out_port = md.vnf_port;
            hdr.ethernet.src_addr = md.router_mac;
            hdr.ethernet.dst_addr = md.vnf_mac;
            return;
        }

        // Plain End.T.INT, or the packet is back from its vNF.
        if (sl == 0) {
            md.drop = 1;
            md.drop_reason = DROP_END_SL_ZERO;
            return;
        }
        if (md.sid_action == SID_END_T_SFC) {
            md.int_write = int_on ? INT_WRITE_FULL : INT_WRITE_REDUCED;
            md.int_slot = sl;
        } else if (int_on) {
            md.int_write = INT_WRITE_FULL;
            md.int_slot = sl;
            md.int_vnf_latency = 0;
        }
        sl = sl - 1;
        hdr.srh.segments_left = sl;
        bit<128> next_seg;
        read_segment.apply(hdr, sl, next_seg);
        hdr.ipv6.dst_addr = next_seg;
        md.sid_advanced = 1;
    }
}

#endif
