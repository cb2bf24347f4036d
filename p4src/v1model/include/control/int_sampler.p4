// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_V1MODEL_INT_SAMPLER_P4
#define SRV6INT_V1MODEL_INT_SAMPLER_P4
// 1-in-k INT sampling per chain: a countdown from the classifier's int_period;
// md.int_on is set on the packet that reaches 0 (period 0 = never).
#include "../arch.p4"
#include "../../../shared/header.p4"
#include "../../../shared/size.p4"

control IntSampler(inout local_md_t md) {
    // P4Runtime names are the ingress's (they predate this control; the app reads them).
    @name(".Srv6IntIngress.int_sample_countdown")
    register<bit<16>>(MAX_CHAINS) int_sample_countdown;

    apply {
        bit<32> chain = (bit<32>) md.chain_id;
        bit<16> left;
        int_sample_countdown.read(left, chain);
        if (md.int_period == 0) {
            md.int_on = 0;
        } else if (left == 0) {
            md.int_on = 1;
            left = md.int_period - 1;
        } else {
            md.int_on = 0;
            left = left - 1;
        }
        int_sample_countdown.write(chain, left);
    }
}

#endif
