// SPDX-License-Identifier: Apache-2.0
/* Common inline-forwarding core of the vNFs: AF_PACKET TPACKET_V2 RX and TX rings
 * between two interfaces (or one, hairpin), SR-aware parsing, counters, signals.
 * A vNF is a module: inspect() sees every valid SRv6-INT frame and returns a verdict. */
#ifndef VNF_H
#define VNF_H
#include <stdint.h>
#include <stdio.h>
#include "srv6.h"

struct vnf_config {
  const char *rules;        /* IDS: rule file (ID:/regex/flags per line) */
  int drop_on_match;        /* IDS: drop frames that match a rule (IPS mode) */
  unsigned max_flows;       /* DPI: flow table size */
  unsigned max_dpi_pkts;    /* DPI: packets per flow given to nDPI before giving up */
};

enum verdict { VERDICT_FORWARD = 0, VERDICT_DROP = 1 };

struct vnf_module {
  const char *name;
  int (*init)(const struct vnf_config *cfg);       /* 0 = ok */
  /* frame unchanged and still valid SRv6-INT; p->inner says if the inner packet parsed */
  enum verdict (*inspect)(const uint8_t *frame, uint32_t len, const struct srv6_pkt *p, uint64_t now_ns);
  void (*stats)(FILE *f);                            /* key=value lines */
  void (*fini)(void);
};

extern const struct vnf_module vnf_fwd_module, vnf_dpi_module, vnf_ids_module;

int vnf_main(int argc, char **argv, const struct vnf_module *m);

#endif
