// SPDX-License-Identifier: Apache-2.0
#include "pcap_file.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t sw32(uint32_t v) { return __builtin_bswap32(v); }

int pcap_load(const char *path, struct frame **out) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); return -1; }
  uint32_t gh[6];
  if (fread(gh, 4, 6, f) != 6) { fclose(f); return -1; }
  int swap;
  if (gh[0] == 0xa1b2c3d4u || gh[0] == 0xa1b23c4du) swap = 0;
  else if (gh[0] == 0xd4c3b2a1u || gh[0] == 0x4d3cb2a1u) swap = 1;
  else { fprintf(stderr, "%s: not a pcap file\n", path); fclose(f); return -1; }
  uint32_t link = swap ? sw32(gh[5]) : gh[5];
  if (link != 1) { fprintf(stderr, "%s: linktype %u, want Ethernet (1)\n", path, link); fclose(f); return -1; }
  int n = 0, cap = 64;
  struct frame *fr = malloc((size_t)cap * sizeof *fr);
  uint32_t rh[4];
  while (fread(rh, 4, 4, f) == 4) {
    uint32_t incl = swap ? sw32(rh[2]) : rh[2];
    if (incl > 262144) { fprintf(stderr, "%s: bad record length\n", path); break; }
    if (n == cap) { cap *= 2; fr = realloc(fr, (size_t)cap * sizeof *fr); }
    fr[n].data = malloc(incl ? incl : 1); fr[n].len = incl;
    if (fread(fr[n].data, 1, incl, f) != incl) { free(fr[n].data); break; }
    n++;
  }
  fclose(f);
  *out = fr;
  return n;
}

void pcap_free(struct frame *f, int n) {
  for (int i = 0; i < n; i++) free(f[i].data);
  free(f);
}
