// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_ROUTING_P4
#define SRV6INT_ROUTING_P4
// IPv6 routing of SIDs and prefixes, IPv4 routing of decapsulated/native packets.
#include "../header.p4"
#include "../size.p4"

control Routing(inout headers_t hdr, inout local_md_t md) {
    DIRECT_COUNTER(ipv6_routing_counter);
    DIRECT_COUNTER(ipv4_routing_counter);

    action set_next_hop(port_num_t port, mac_addr_t dmac) {
        md.fwd = 1;
        md.out_port = port;
        hdr.ethernet.src_addr = md.router_mac;
        hdr.ethernet.dst_addr = dmac;
    }

    action drop() {
        md.drop = 1;
        md.drop_reason = DROP_NO_ROUTE;
    }

    table ipv6_routing {
        key = {
            hdr.ipv6.dst_addr : lpm @name("ipv6_dst");
        }
        actions = {
            set_next_hop;
            drop;
        }
        default_action = drop();
        size = IPV6_ROUTING_TABLE_SIZE;
        counters = ipv6_routing_counter;
    }

    table ipv4_routing {
        key = {
            hdr.ipv4.dst_addr : lpm @name("ipv4_dst");
        }
        actions = {
            set_next_hop;
            drop;
        }
        default_action = drop();
        size = IPV4_ROUTING_TABLE_SIZE;
        counters = ipv4_routing_counter;
    }

    apply {
        if (hdr.ipv6.isValid()) {
            if (ipv6_routing.apply().hit) {
                // A packet this switch just encapsulated leaves with Hop Limit 64;
                // a decapsulated inner packet leaves unmodified.
                if (md.fwd == 1 && md.encap == 0 && md.decap == 0) {
                    if (hdr.ipv6.hop_limit <= 1) {
                        md.drop = 1;
                        md.drop_reason = DROP_HOP_LIMIT;
                    } else {
                        hdr.ipv6.hop_limit = hdr.ipv6.hop_limit - 1;
                    }
                }
            } else {
                md.ipv6_route_miss = 1;
            }
        } else if (hdr.ipv4.isValid()) {
            // A decapsulated inner packet leaves unmodified.
            if (ipv4_routing.apply().hit && md.fwd == 1 && md.decap == 0) {
                if (hdr.ipv4.ttl <= 1) {
                    md.drop = 1;
                    md.drop_reason = DROP_HOP_LIMIT;
                } else {
                    hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
                    md.ipv4_changed = 1;
                }
            }
        } else {
            md.drop = 1;
            md.drop_reason = DROP_NO_ROUTE;
        }
    }
}

#endif
