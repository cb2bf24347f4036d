// SPDX-License-Identifier: Apache-2.0
/* vnf-fwd: SR-aware forwarder. Parses IPv6+SRH (counts what does not decode)
 * and forwards every valid SRv6-INT frame unchanged. */
#include "vnf.h"

static enum verdict fwd_inspect(const uint8_t *frame, uint32_t len, const struct srv6_pkt *p, uint64_t now_ns) {
  (void)frame; (void)len; (void)p; (void)now_ns;
  return VERDICT_FORWARD;
}

const struct vnf_module vnf_fwd_module = { .name = "vnf-fwd", .inspect = fwd_inspect };

#ifndef VNF_NO_MAIN
int main(int argc, char **argv) { return vnf_main(argc, argv, &vnf_fwd_module); }
#endif
