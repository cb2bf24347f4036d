// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_ACL_P4
#define SRV6INT_ACL_P4
// ACL: packet-in for the controller (LLDP/BDDP, ARP/NDP if wanted) and drops.
#include "../header.p4"
#include "../size.p4"

control Acl(inout headers_t hdr, inout local_md_t md) {
    DIRECT_COUNTER(acl_counter);

    action punt_to_cpu() {
        md.punt = 1;
    }

    action clone_to_cpu() {
        md.cpu_clone = 1;
    }

    action drop() {
        md.drop = 1;
        md.drop_reason = DROP_ACL;
    }

    table acl {
        key = {
            md.ig_port              : ternary @name("ig_port");
            hdr.ethernet.dst_addr   : ternary @name("eth_dst");
            hdr.ethernet.src_addr   : ternary @name("eth_src");
            hdr.ethernet.ether_type : ternary @name("eth_type");
            md.flow_proto           : ternary @name("ip_proto");
            md.icmp_type            : ternary @name("icmp_type");
            md.l4_sport             : ternary @name("l4_sport");
            md.l4_dport             : ternary @name("l4_dport");
        }
        actions = {
            punt_to_cpu;
            clone_to_cpu;
            drop;
            NoAction;
        }
        const default_action = NoAction();
        size = ACL_TABLE_SIZE;
        counters = acl_counter;
    }

    apply {
        acl.apply();
    }
}

#endif
