// SPDX-License-Identifier: Apache-2.0
/* vnf-dpi: classifies every flow of the inner packets with nDPI (libndpi 4.2 API).
 * Flow = inner 5-tuple, both directions together. Each flow is given to nDPI
 * until it is classified (and no extra dissection is possible) or for at most
 * --max-dpi-pkts packets; then nDPI gives up (with a port-based guess).
 * The flow table is a fixed-size hash table; a colliding new flow evicts the old one. */
#include "vnf.h"
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <ndpi_api.h>

enum { F_EMPTY = 0, F_DETECTING, F_DONE };

struct flow {
  uint8_t key[38];   /* ver, proto, addr lo, addr hi, port lo, port hi (IPv4 zero-padded) */
  uint8_t state, how; /* how: 0 not yet, 1 classified by payload, 2 guessed at give-up, 3 unknown */
  uint16_t pkts;
  struct ndpi_flow_struct *nf;
  ndpi_protocol proto;
};

static struct ndpi_detection_module_struct *nd;
static struct flow *tab;
static unsigned ntab, max_pkts;
static uint64_t flows_new, flows_detected, flows_guessed, flows_unknown, flows_evicted,
                pkts_to_ndpi, pkts_classified_flow, pkts_no_flow, alloc_fail;
static uint64_t *by_proto;   /* flows per protocol id (app protocol, else master) */
static unsigned nprotos;

static uint64_t fnv(const uint8_t *b, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}

static void make_key(const struct srv6_pkt *p, uint8_t k[38]) {
  memset(k, 0, 38);
  unsigned al = p->ip_ver == 4 ? 4 : 16;
  k[0] = p->ip_ver; k[1] = p->l4proto;
  int swap = memcmp(p->saddr, p->daddr, al) > 0 || (memcmp(p->saddr, p->daddr, al) == 0 && p->sport > p->dport);
  const uint8_t *a = swap ? p->daddr : p->saddr, *b = swap ? p->saddr : p->daddr;
  uint16_t pa = swap ? p->dport : p->sport, pb = swap ? p->sport : p->dport;
  memcpy(k + 2, a, al); memcpy(k + 18, b, al);
  k[34] = (uint8_t)(pa >> 8); k[35] = (uint8_t)pa; k[36] = (uint8_t)(pb >> 8); k[37] = (uint8_t)pb;
}

static void count_proto(struct flow *f) {
  unsigned id = f->proto.app_protocol != NDPI_PROTOCOL_UNKNOWN ? f->proto.app_protocol : f->proto.master_protocol;
  if (id < nprotos) by_proto[id]++;
}

/* A flow is counted once, by the protocol of its first classification; nDPI may
 * keep dissecting it afterwards (DNS answer, SSH key exchange, TLS certificate). */
static void classify(struct flow *f, int how) {
  if (f->how) return;
  f->how = (uint8_t)how;
  if (how == 1) flows_detected++; else if (how == 2) flows_guessed++; else flows_unknown++;
  count_proto(f);
}

static void finish(struct flow *f) {
  f->state = F_DONE;
  if (f->nf) { ndpi_free_flow(f->nf); f->nf = NULL; }
}

static void give_up(struct flow *f) {
  if (!f->how) {
    uint8_t guessed = 0;
    f->proto = ndpi_detection_giveup(nd, f->nf, 1, &guessed);
    int known = f->proto.app_protocol != NDPI_PROTOCOL_UNKNOWN || f->proto.master_protocol != NDPI_PROTOCOL_UNKNOWN;
    classify(f, known ? (guessed ? 2 : 1) : 3);
  }
  finish(f);
}

static void release(struct flow *f) {
  if (f->state == F_DETECTING) give_up(f);
  if (f->nf) { ndpi_free_flow(f->nf); f->nf = NULL; }
  f->state = F_EMPTY;
}

static int dpi_init(const struct vnf_config *cfg) {
  nd = ndpi_init_detection_module(ndpi_no_prefs);
  if (!nd) return -1;
  NDPI_PROTOCOL_BITMASK all;
  NDPI_BITMASK_SET_ALL(all);
  ndpi_set_protocol_detection_bitmask2(nd, &all);
  ndpi_finalize_initialization(nd);
  ntab = cfg->max_flows; max_pkts = cfg->max_dpi_pkts ? cfg->max_dpi_pkts : 1;
  tab = calloc(ntab, sizeof *tab);
  nprotos = ndpi_get_num_supported_protocols(nd) + 256;
  by_proto = calloc(nprotos, sizeof *by_proto);
  return tab && by_proto ? 0 : -1;
}

static enum verdict dpi_inspect(const uint8_t *frame, uint32_t len, const struct srv6_pkt *p, uint64_t now_ns) {
  (void)len;
  if (p->inner != INNER_OK && p->inner != INNER_TRUNCATED_L4) { pkts_no_flow++; return VERDICT_FORWARD; }
  uint8_t k[38];
  make_key(p, k);
  struct flow *f = &tab[fnv(k, sizeof k) % ntab];
  if (f->state == F_EMPTY || memcmp(f->key, k, sizeof k)) {
    if (f->state != F_EMPTY) { release(f); flows_evicted++; }
    memcpy(f->key, k, sizeof k);
    f->pkts = 0; f->how = 0;   /* how: 0 not yet classified */
    f->nf = ndpi_flow_malloc(SIZEOF_FLOW_STRUCT);
    if (!f->nf) { alloc_fail++; f->state = F_EMPTY; return VERDICT_FORWARD; }
    memset(f->nf, 0, SIZEOF_FLOW_STRUCT);
    f->state = F_DETECTING;
    flows_new++;
  }
  if (f->state == F_DONE) { pkts_classified_flow++; return VERDICT_FORWARD; }
  uint32_t l3 = p->inner_len > 0xffff ? 0xffff : p->inner_len;
  f->proto = ndpi_detection_process_packet(nd, f->nf, frame + p->inner_off, (unsigned short)l3, now_ns / 1000000ull);
  f->pkts++; pkts_to_ndpi++;
  int known = f->proto.app_protocol != NDPI_PROTOCOL_UNKNOWN || f->proto.master_protocol != NDPI_PROTOCOL_UNKNOWN;
  if (known) classify(f, 1);
  if (known && !ndpi_extra_dissection_possible(nd, f->nf)) finish(f);
  else if (f->pkts >= max_pkts) give_up(f);
  return VERDICT_FORWARD;
}

static void dpi_stats(FILE *o) {
  uint64_t detecting = 0;
  for (unsigned i = 0; i < ntab; i++) detecting += tab[i].state == F_DETECTING;
  fprintf(o, "dpi_flows_new=%llu\ndpi_flows_classified=%llu\ndpi_flows_guessed=%llu\ndpi_flows_unknown=%llu\n"
             "dpi_flows_inspecting=%llu\ndpi_flows_evicted=%llu\ndpi_pkts_to_ndpi=%llu\ndpi_pkts_after_verdict=%llu\n"
             "dpi_pkts_no_flow=%llu\ndpi_alloc_fail=%llu\n",
          (unsigned long long)flows_new, (unsigned long long)flows_detected, (unsigned long long)flows_guessed,
          (unsigned long long)flows_unknown, (unsigned long long)detecting, (unsigned long long)flows_evicted,
          (unsigned long long)pkts_to_ndpi, (unsigned long long)pkts_classified_flow,
          (unsigned long long)pkts_no_flow, (unsigned long long)alloc_fail);
  for (unsigned i = 0; i < nprotos; i++)
    if (by_proto[i]) fprintf(o, "dpi_proto.%s=%llu\n", ndpi_get_proto_name(nd, (u_int16_t)i), (unsigned long long)by_proto[i]);
}

static void dpi_fini(void) {
  for (unsigned i = 0; i < ntab; i++) if (tab[i].nf) { ndpi_free_flow(tab[i].nf); tab[i].nf = NULL; }
  free(tab); free(by_proto);
  ndpi_exit_detection_module(nd);
}

const struct vnf_module vnf_dpi_module = {
  .name = "vnf-dpi", .init = dpi_init, .inspect = dpi_inspect, .stats = dpi_stats, .fini = dpi_fini };

#ifndef VNF_NO_MAIN
int main(int argc, char **argv) { return vnf_main(argc, argv, &vnf_dpi_module); }
#endif
