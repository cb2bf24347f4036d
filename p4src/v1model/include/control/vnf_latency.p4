// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_V1MODEL_VNF_LATENCY_P4
#define SRV6INT_V1MODEL_VNF_LATENCY_P4
// vNF latency stage of End.T.INT (SFC mode): on the way to the vNF, read the
// vNF's last latency (the TLV's detection result); back from it, latency = now
// minus the departure time parked in the active segment, and In_Time is
// restored from there (docs/wire-format.md 2).
#include "../arch.p4"
#include "../../../shared/header.p4"
#include "../../../shared/size.p4"
#include "../../../shared/control/segments.p4"

control VnfLatency(in headers_t hdr, inout local_md_t md, in bool from_vnf) {
    // Last measured processing latency (ns) of each local vNF. P4Runtime name
    // is the ingress's (it predates this control; the app reads it).
    @name(".Srv6IntIngress.vnf_latency")
    register<bit<32>>(MAX_VNFS) vnf_latency;

    ReadSegment() read_segment;

    apply {
        bit<32> vnf = (bit<32>) md.vnf_id;
        read_segment.apply(hdr, hdr.srh.segments_left, md.active_seg);
        if (from_vnf) {
            md.vnf_return = 1;
            bit<32> latency = md.now_ns - md.active_seg[47:16];
            vnf_latency.write(vnf, latency);
            md.int_vnf_latency = latency;
            md.int_in_time = md.active_seg[79:48];
        } else {
            vnf_latency.read(md.vnf_last_latency, vnf);
        }
    }
}

#endif
