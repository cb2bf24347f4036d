// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_INT_MD_P4
#define SRV6INT_INT_MD_P4
// Writes this switch's INT metadata over Segment List[md.int_slot]
// (docs/wire-format.md 1.5). Runs where queue metadata exists (egress).
#include "../header.p4"
#include "segments.p4"

control IntMetadataWriter(inout headers_t hdr, inout local_md_t md,
                          in bit<8> q_id, in bit<24> q_length, in bit<32> now_ns) {
    WriteSegment() write_segment;

    apply {
        if (md.int_write == INT_WRITE_NONE || !hdr.srh_tlv.isValid()) {
            return;
        }
        bit<16> map = hdr.srh_tlv.map_info;
        bit<16> dev = 0;
        bit<8>  qid = 0;
        bit<24> qlen = 0;
        bit<32> t_in = 0;
        bit<32> lat = 0;
        bit<16> pc = 0;
        if (md.int_write == INT_WRITE_PARKED) {
            // Internal state until the packet is back: the departure time waits
            // in the vNF_Latency field.
            dev = md.device_id;
            if ((hdr.srh.flags & SRH_FLAG_INT) != 0) { t_in = md.int_in_time; }
            lat = now_ns;
        } else if (md.int_write == INT_WRITE_REDUCED) {
            if ((map & MAP_DEVICE_ID) != 0) { dev = md.device_id; }
            if ((map & MAP_VNF_LATENCY) != 0) { lat = md.int_vnf_latency; }
        } else {
            if ((map & MAP_DEVICE_ID) != 0) { dev = md.device_id; }
            if ((map & MAP_QUEUE) != 0) { qid = q_id; qlen = q_length; }
            if ((map & MAP_IN_TIME) != 0) { t_in = md.int_in_time; }
            if ((map & MAP_VNF_LATENCY) != 0) { lat = md.int_vnf_latency; }
            if ((map & MAP_PORT_COUNTER) != 0) { pc = md.port_counter; }
        }
        write_segment.apply(hdr, md.int_slot, dev ++ qid ++ qlen ++ t_in ++ lat ++ pc);
    }
}

#endif
