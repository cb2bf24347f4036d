// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_V1MODEL_LOOKUP_MD_INIT_P4
#define SRV6INT_V1MODEL_LOOKUP_MD_INIT_P4
// Lookup metadata: the (inner) flow's 5-tuple and its CRC-32 hash, read by
// multipath/bucket selection, the Flow Label and Port_Counter.
#include "../arch.p4"
#include "../../../shared/header.p4"

control LookupMdInit(in headers_t hdr, inout local_md_t md) {
    apply {
        if (hdr.inner_ipv6.isValid()) {
            md.flow_src = hdr.inner_ipv6.src_addr;
            md.flow_dst = hdr.inner_ipv6.dst_addr;
            md.flow_proto = hdr.inner_ipv6.next_hdr;
        } else if (hdr.ipv4.isValid()) {
            md.flow_src = (bit<128>) hdr.ipv4.src_addr;
            md.flow_dst = (bit<128>) hdr.ipv4.dst_addr;
            md.flow_proto = hdr.ipv4.protocol;
        } else if (hdr.ipv6.isValid()) {
            md.flow_src = hdr.ipv6.src_addr;
            md.flow_dst = hdr.ipv6.dst_addr;
            md.flow_proto = hdr.ipv6.next_hdr;
        }
        // Ports only from a first fragment (docs/wire-format.md 1.6).
        bool first_fragment = !hdr.ipv4.isValid() || hdr.ipv4.frag_offset == 0;
        if (hdr.tcp.isValid() && first_fragment) {
            md.l4_sport = hdr.tcp.sport;
            md.l4_dport = hdr.tcp.dport;
        } else if (hdr.udp.isValid() && first_fragment) {
            md.l4_sport = hdr.udp.sport;
            md.l4_dport = hdr.udp.dport;
        }
        if (hdr.icmpv6.isValid()) {
            md.icmp_type = hdr.icmpv6.type;
        }
        // CRC-32 over the addresses at their own width (docs/wire-format.md 1.6).
        if (!hdr.inner_ipv6.isValid() && hdr.ipv4.isValid()) {
            hash(md.flow_hash, HashAlgorithm.crc32, 32w0,
                 { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, md.flow_proto, md.l4_sport, md.l4_dport },
                 33w0x100000000);
        } else {
            hash(md.flow_hash, HashAlgorithm.crc32, 32w0,
                 { md.flow_src, md.flow_dst, md.flow_proto, md.l4_sport, md.l4_dport },
                 33w0x100000000);
        }
    }
}

#endif
