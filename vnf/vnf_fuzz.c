// SPDX-License-Identifier: Apache-2.0
/* vnf-fuzz: feeds malformed frames (every truncation of each seed frame, random
 * byte flips, bogus SRH / IPv6 / inner lengths, random garbage) to the SR-aware
 * parser and to the DPI and IDS inspection code, in-process, each frame in a
 * buffer of exactly its length (build `make fuzz-asan` to catch any over-read).
 * Checks the parser's invariants; exits 1 on a violation.
 *   vnf-fuzz -f SEEDS.pcap -r RULES [-n ITERATIONS] [-s SEED]
 *   vnf-fuzz -p -f FRAMES.pcap   prints each frame's decode status (and inner status), no fuzzing */
#include "vnf.h"
#include "pcap_file.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rs = 88172645463325252ull;
static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }

static uint64_t status_count[SRV6_STATUS_COUNT], inner_count[INNER_STATUS_COUNT], violations, frames;
static const struct vnf_module *mods[2];

static void feed(const uint8_t *src, uint32_t len) {
  uint8_t *b = malloc(len ? len : 1);
  memcpy(b, src, len);
  struct srv6_pkt p;
  enum srv6_status s = srv6_parse(b, len, &p);
  frames++;
  status_count[s]++;
  if (s == SRV6_OK) {
    inner_count[p.inner]++;
    int bad = p.srh_off + p.srh_len > len || p.inner_off + p.inner_len > len || p.inner_off != p.srh_off + p.srh_len;
    if (p.inner == INNER_OK) bad |= p.payload_off + p.payload_len > len || p.payload_off < p.inner_off || p.l4_off > len;
    if (bad) { violations++; fprintf(stderr, "invariant violated: len %u srh %u+%u inner %u+%u payload %u+%u\n",
                                     len, p.srh_off, p.srh_len, p.inner_off, p.inner_len, p.payload_off, p.payload_len); }
    for (int m = 0; m < 2; m++) mods[m]->inspect(b, len, &p, frames * 1000000ull);
  }
  free(b);
}

static void put16(uint8_t *b, uint32_t len, uint32_t off, uint16_t v) {
  if (off + 2 <= len) { b[off] = (uint8_t)(v >> 8); b[off + 1] = (uint8_t)v; }
}

static void mutate_and_feed(const struct frame *f) {
  uint8_t buf[4096];
  uint32_t len = f->len > sizeof buf ? sizeof buf : f->len;
  memcpy(buf, f->data, len);
  switch (rnd() % 9) {
  case 0: len = (uint32_t)(rnd() % (len + 1)); break;                          /* truncation */
  case 1: for (int k = 1 + (int)(rnd() % 8); k > 0; k--) buf[rnd() % len] ^= (uint8_t)(1u << (rnd() % 8)); break;
  case 2: if (len > 55) buf[55] = (uint8_t)rnd(); break;                        /* SRH Hdr Ext Len */
  case 3: if (len > 58) buf[58] = (uint8_t)rnd(); if (len > 57) buf[57] = (uint8_t)rnd(); break; /* Last Entry, SL */
  case 4: put16(buf, len, 18, (uint16_t)rnd()); break;                          /* IPv6 Payload Length */
  case 5: { uint32_t o = 54 + 8u * (buf[55] + 1u) - 8u; if (o + 2 <= len) { buf[o] = (uint8_t)rnd(); buf[o + 1] = (uint8_t)rnd(); } break; } /* TLV */
  case 6: { uint32_t o = 54 + 8u * (buf[55] + 1u); if (o + 4 <= len) { buf[o] = (uint8_t)rnd(); put16(buf, len, o + 2, (uint16_t)rnd()); } break; } /* inner IHL/version, total length */
  case 7: { uint32_t o = 54 + 8u * (buf[55] + 1u) + 20u + 12u; if (o < len) buf[o] = (uint8_t)rnd(); break; } /* TCP data offset */
  case 8: len = (uint32_t)(rnd() % sizeof buf); for (uint32_t i = 0; i < len; i++) buf[i] = (uint8_t)rnd();
          if (len > 13 && (rnd() & 1)) { buf[12] = 0x86; buf[13] = 0xdd; }
          if (len > 60 && (rnd() & 1)) { buf[14] = 0x60; buf[20] = 43; buf[56] = 4; } break;
  }
  feed(buf, len);
}

int main(int argc, char **argv) {
  const char *seeds = NULL; struct vnf_config cfg = { .max_flows = 1024, .max_dpi_pkts = 8 };
  unsigned long iters = 200000; int c, print_only = 0;
  while ((c = getopt(argc, argv, "pf:r:n:s:")) != -1) {
    if (c == 'p') print_only = 1;
    else if (c == 'f') seeds = optarg;
    else if (c == 'r') cfg.rules = optarg;
    else if (c == 'n') iters = strtoul(optarg, NULL, 0);
    else if (c == 's') rs ^= strtoull(optarg, NULL, 0) * 0x9e3779b97f4a7c15ull;
    else { fprintf(stderr, "usage: %s -f SEEDS.pcap -r RULES [-n N] [-s SEED]\n", argv[0]); return 2; }
  }
  if (print_only && seeds) {
    struct frame *pf; int pn = pcap_load(seeds, &pf);
    for (int i = 0; i < pn; i++) {
      struct srv6_pkt p; enum srv6_status s = srv6_parse(pf[i].data, pf[i].len, &p);
      if (s == SRV6_OK) printf("%d OK %s\n", i, inner_status_name(p.inner));
      else printf("%d %s\n", i, srv6_status_name(s));
    }
    if (pn > 0) pcap_free(pf, pn);
    return pn < 0;
  }
  if (!seeds || !cfg.rules) { fprintf(stderr, "usage: %s -f SEEDS.pcap -r RULES [-n N] [-s SEED]\n", argv[0]); return 2; }
  struct frame *fr; int n = pcap_load(seeds, &fr);
  if (n <= 0) return 1;
  mods[0] = &vnf_dpi_module; mods[1] = &vnf_ids_module;
  for (int m = 0; m < 2; m++) if (mods[m]->init(&cfg)) return 1;
  for (int i = 0; i < n; i++)                        /* every truncation of every seed */
    for (uint32_t l = 0; l <= fr[i].len; l++) feed(fr[i].data, l);
  for (unsigned long k = 0; k < iters; k++) mutate_and_feed(&fr[rnd() % (unsigned)n]);
  printf("frames=%llu violations=%llu\n", (unsigned long long)frames, (unsigned long long)violations);
  for (int s = 0; s < SRV6_STATUS_COUNT; s++)
    printf("parse.%s=%llu\n", srv6_status_name((enum srv6_status)s), (unsigned long long)status_count[s]);
  for (int s = 0; s < INNER_STATUS_COUNT; s++)
    printf("inner.%s=%llu\n", inner_status_name((enum inner_status)s), (unsigned long long)inner_count[s]);
  FILE *devnull = fopen("/dev/null", "w");
  for (int m = 0; m < 2; m++) { mods[m]->stats(devnull); mods[m]->fini(); }
  fclose(devnull);
  pcap_free(fr, n);
  return violations ? 1 : 0;
}
