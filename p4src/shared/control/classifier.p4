// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_CLASSIFIER_P4
#define SRV6INT_CLASSIFIER_P4
// H.Encaps.INT, part 1: classify a native packet to a chain.
#include "../header.p4"
#include "../size.p4"

control SfcClassifier(inout headers_t hdr, inout local_md_t md) {
    DIRECT_COUNTER(sfc_classifier_counter);

    // int_period = k: INT on 1 in k packets of the chain (0 = never).
    action set_chain(bit<16> chain_id, bit<1> sfc_mode, bit<16> map_info, bit<16> int_period) {
        md.chain_hit = 1;
        md.chain_id = chain_id;
        md.sfc_mode = sfc_mode;
        md.map_info = map_info;
        md.int_period = int_period;
    }

    table sfc_classifier {
        key = {
            md.ig_port        : ternary @name("ig_port");
            md.flow_proto     : ternary @name("ip_proto");
            hdr.ipv4.src_addr : ternary @name("ipv4_src");
            hdr.ipv4.dst_addr : ternary @name("ipv4_dst");
            hdr.ipv6.src_addr : ternary @name("ipv6_src");
            hdr.ipv6.dst_addr : ternary @name("ipv6_dst");
            md.l4_sport       : ternary @name("l4_sport");
            md.l4_dport       : ternary @name("l4_dport");
        }
        actions = {
            set_chain;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = SFC_CLASSIFIER_TABLE_SIZE;
        counters = sfc_classifier_counter;
    }

    apply {
        sfc_classifier.apply();
    }
}

#endif
