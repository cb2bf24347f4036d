// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_V1MODEL_FLOW_COUNTER_P4
#define SRV6INT_V1MODEL_FLOW_COUNTER_P4
// Port_Counter: packets per flow at this switch, in FLOW_COUNTER_CELLS cells
// indexed by the low bits of the flow hash. increment 0 reads only (a packet
// back from its vNF, or another pass of one arrival, was counted already).
#include "../arch.p4"
#include "../../../shared/header.p4"
#include "../../../shared/size.p4"

control FlowCounter(inout local_md_t md, in bit<16> increment) {
    // P4Runtime names are the ingress's (they predate this control; the app reads them).
    @name(".Srv6IntIngress.flow_packets")
    register<bit<16>>(FLOW_COUNTER_CELLS) flow_packets;

    @name(".Srv6IntIngress.count_flow_packet")
    action count_flow_packet(bit<16> increment) {
        bit<32> cell = (bit<32>) md.flow_hash[11:0];
        bit<16> n;
        flow_packets.read(n, cell);
        n = n + increment;
        flow_packets.write(cell, n);
        md.port_counter = n;
    }

    apply {
        count_flow_packet(increment);
    }
}

#endif
