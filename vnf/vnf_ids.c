// SPDX-License-Identifier: Apache-2.0
/* vnf-ids: matches the payload of every inner packet against a rule set with
 * Hyperscan (block mode, one database of all rules). Rule file: one rule a line,
 * `ID:/regex/flags` (flags: i caseless, s dotall, m multiline), '#' comments;
 * see gen-rules. The L4 payload of TCP/UDP is scanned; for other protocols the
 * IP payload; if the inner packet does not parse, all inner bytes.
 * Alert only by default; --drop-on-match drops matching frames (IPS). */
#include "vnf.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hs.h>

static hs_database_t *db;
static hs_scratch_t *scratch;
static unsigned nrules;
static unsigned *rule_id;
static uint64_t *rule_hits;
static int drop_on_match;
static uint64_t pkts_scanned, bytes_scanned, pkts_alert, pkts_clean, matches, scan_errors, pkts_empty;
static double compile_s;

static int on_match(unsigned int id, unsigned long long from, unsigned long long to, unsigned int flags, void *ctx) {
  (void)from; (void)to; (void)flags;
  unsigned *n = ctx;
  (*n)++;
  if (id < nrules) rule_hits[id]++;
  return 0;   /* continue: count every rule that matches (each at most once per packet) */
}

static int load_rules(const char *path, char ***exprs, unsigned **flags) {
  FILE *f = fopen(path, "r");
  if (!f) { fprintf(stderr, "vnf-ids: %s: %s\n", path, strerror(errno)); return -1; }
  unsigned cap = 1024;
  char **ex = malloc(cap * sizeof *ex); unsigned *fl = malloc(cap * sizeof *fl);
  rule_id = malloc(cap * sizeof *rule_id);
  char *line = NULL; size_t ln = 0; ssize_t r; unsigned lineno = 0;
  while ((r = getline(&line, &ln, f)) >= 0) {
    lineno++;
    while (r > 0 && (line[r - 1] == '\n' || line[r - 1] == '\r')) line[--r] = 0;
    if (r == 0 || line[0] == '#') continue;
    char *colon = strchr(line, ':'), *last = strrchr(line, '/');
    if (!colon || colon[1] != '/' || last <= colon + 1) {
      fprintf(stderr, "vnf-ids: %s:%u: not ID:/regex/flags\n", path, lineno); fclose(f); free(line); return -1;
    }
    unsigned fla = HS_FLAG_SINGLEMATCH;
    for (char *c = last + 1; *c; c++) {
      if (*c == 'i') fla |= HS_FLAG_CASELESS;
      else if (*c == 's') fla |= HS_FLAG_DOTALL;
      else if (*c == 'm') fla |= HS_FLAG_MULTILINE;
      else { fprintf(stderr, "vnf-ids: %s:%u: unknown flag %c\n", path, lineno, *c); fclose(f); free(line); return -1; }
    }
    if (nrules == cap) {
      cap *= 2;
      ex = realloc(ex, cap * sizeof *ex); fl = realloc(fl, cap * sizeof *fl);
      rule_id = realloc(rule_id, cap * sizeof *rule_id);
    }
    *last = 0;
    ex[nrules] = strdup(colon + 2);
    fl[nrules] = fla;
    rule_id[nrules] = (unsigned)strtoul(line, NULL, 10);
    nrules++;
  }
  free(line); fclose(f);
  *exprs = ex; *flags = fl;
  return nrules ? 0 : -1;
}

static int ids_init(const struct vnf_config *cfg) {
  if (!cfg->rules) { fprintf(stderr, "vnf-ids: --rules FILE is required\n"); return -1; }
  if (hs_valid_platform() != HS_SUCCESS) { fprintf(stderr, "vnf-ids: CPU not supported by Hyperscan (needs SSSE3)\n"); return -1; }
  drop_on_match = cfg->drop_on_match;
  char **ex; unsigned *fl;
  if (load_rules(cfg->rules, &ex, &fl)) { fprintf(stderr, "vnf-ids: no rules loaded\n"); return -1; }
  unsigned *ids = malloc(nrules * sizeof *ids);
  for (unsigned i = 0; i < nrules; i++) ids[i] = i;
  struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
  hs_compile_error_t *err = NULL;
  if (hs_compile_multi((const char *const *)ex, fl, ids, nrules, HS_MODE_BLOCK, NULL, &db, &err) != HS_SUCCESS) {
    fprintf(stderr, "vnf-ids: rule %u (id %u): %s\n", err->expression < 0 ? 0 : (unsigned)err->expression,
            err->expression < 0 ? 0 : rule_id[err->expression], err->message);
    hs_free_compile_error(err); return -1;
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  compile_s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
  for (unsigned i = 0; i < nrules; i++) free(ex[i]);
  free(ex); free(fl); free(ids);
  if (hs_alloc_scratch(db, &scratch) != HS_SUCCESS) return -1;
  rule_hits = calloc(nrules, sizeof *rule_hits);
  size_t dbsize = 0; hs_database_size(db, &dbsize);
  fprintf(stderr, "vnf-ids: %u rules compiled in %.2f s, database %zu bytes\n", nrules, compile_s, dbsize);
  return rule_hits ? 0 : -1;
}

static enum verdict ids_inspect(const uint8_t *frame, uint32_t len, const struct srv6_pkt *p, uint64_t now_ns) {
  (void)len; (void)now_ns;
  uint32_t off = p->inner_off, n = p->inner_len;
  if (p->inner == INNER_OK || p->inner == INNER_TRUNCATED_L4) { off = p->payload_off; n = p->payload_len; }
  if (n == 0) { pkts_empty++; return VERDICT_FORWARD; }
  unsigned hits = 0;
  if (hs_scan(db, (const char *)frame + off, n, 0, scratch, on_match, &hits) != HS_SUCCESS) scan_errors++;
  pkts_scanned++; bytes_scanned += n; matches += hits;
  if (hits) { pkts_alert++; return drop_on_match ? VERDICT_DROP : VERDICT_FORWARD; }
  pkts_clean++;
  return VERDICT_FORWARD;
}

static void ids_stats(FILE *o) {
  fprintf(o, "ids_rules=%u\nids_compile_s=%.3f\nids_pkts_scanned=%llu\nids_bytes_scanned=%llu\nids_pkts_empty=%llu\n"
             "ids_pkts_alert=%llu\nids_pkts_clean=%llu\nids_matches=%llu\nids_scan_errors=%llu\n",
          nrules, compile_s, (unsigned long long)pkts_scanned, (unsigned long long)bytes_scanned,
          (unsigned long long)pkts_empty, (unsigned long long)pkts_alert, (unsigned long long)pkts_clean,
          (unsigned long long)matches, (unsigned long long)scan_errors);
  unsigned shown = 0;   /* the rules that matched, up to 50, in file order */
  for (unsigned i = 0; i < nrules && shown < 50; i++)
    if (rule_hits[i]) { fprintf(o, "ids_rule.%u=%llu\n", rule_id[i], (unsigned long long)rule_hits[i]); shown++; }
}

static void ids_fini(void) {
  hs_free_scratch(scratch); hs_free_database(db);
  free(rule_hits); free(rule_id);
}

const struct vnf_module vnf_ids_module = {
  .name = "vnf-ids", .init = ids_init, .inspect = ids_inspect, .stats = ids_stats, .fini = ids_fini };

#ifndef VNF_NO_MAIN
int main(int argc, char **argv) { return vnf_main(argc, argv, &vnf_ids_module); }
#endif
