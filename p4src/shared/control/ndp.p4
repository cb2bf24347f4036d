// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_NDP_P4
#define SRV6INT_NDP_P4
// NDP: a Neighbor Solicitation for one of the switch's addresses is answered in
// the data plane (static entries written from netcfg, no packet-in).
#include "../header.p4"
#include "../size.p4"

control Ndp(inout headers_t hdr, inout local_md_t md) {
    DIRECT_COUNTER(ndp_reply_counter);

    action ndp_ns_to_na(mac_addr_t target_mac) {
        hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
        hdr.ethernet.src_addr = target_mac;
        hdr.ipv6.dst_addr = hdr.ipv6.src_addr;
        hdr.ipv6.src_addr = hdr.ndp.target_addr;
        hdr.ipv6.hop_limit = 255;
        hdr.icmpv6.type = ICMP6_TYPE_NA;
        hdr.ndp.flags = NDP_FLAGS_RSO;
        hdr.ndp.opt_type = NDP_OPT_TARGET_LL_ADDR;
        hdr.ndp.opt_length = 1;
        hdr.ndp.opt_mac = target_mac;
        md.ndp_replied = 1;
        md.fwd = 1;
        md.out_port = md.ig_port;
    }

    table ndp_reply {
        key = {
            hdr.ndp.target_addr : exact @name("ndp_target");
        }
        actions = {
            ndp_ns_to_na;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = NDP_REPLY_TABLE_SIZE;
        counters = ndp_reply_counter;
    }

    apply {
        if (hdr.ndp.isValid() && hdr.icmpv6.type == ICMP6_TYPE_NS) {
            ndp_reply.apply();
        }
    }
}

#endif
