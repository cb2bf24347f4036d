// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_V1MODEL_LOCAL_SID_PASS_P4
#define SRV6INT_V1MODEL_LOCAL_SID_PASS_P4
// Consecutive local SIDs (docs/p4-tables.md "Consecutive local vNFs"): the next
// segment has no route because SIDs of this switch have none here
// (RoutingProgrammer routes other switches' SIDs), so it is looked up in my_sid
// on another pass through the pipeline: a recirculation, bounded by
// LOCAL_PASS_LIMIT and refused for a segment that loops to the SID just processed.
#include "../arch.p4"
#include "../../../shared/header.p4"
#include "../../../shared/size.p4"

control LocalSidPass(inout headers_t hdr, inout local_md_t md) {
    // Passes for a next segment that is again a SID of this switch, per chain
    // (SRH Tag). P4Runtime name is the ingress's (the app reads it).
    @name(".Srv6IntIngress.local_sid_recirculations")
    counter(MAX_CHAINS, CounterType.packets) local_sid_recirculations;

    apply {
        if (md.drop == 1 && md.ipv6_route_miss == 1 && md.sid_advanced == 1) {
            if (hdr.ipv6.dst_addr == md.processed_sid) {
                md.drop_reason = DROP_LOCAL_SID_LOOP;
            } else if (md.local_passes >= LOCAL_PASS_LIMIT) {
                md.drop_reason = DROP_LOCAL_CHAIN_LIMIT;
            } else if (hdr.ipv6.hop_limit <= 1) {
                md.drop_reason = DROP_HOP_LIMIT;
            } else {
                // End.T.INT's Hop Limit decrement, as routing would have done.
                hdr.ipv6.hop_limit = hdr.ipv6.hop_limit - 1;
                md.drop = 0;
                md.recirculate = 1;
                md.local_passes = md.local_passes + 1;
                local_sid_recirculations.count((bit<32>) hdr.srh.tag);
            }
        }
    }
}

#endif
