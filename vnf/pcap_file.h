// SPDX-License-Identifier: Apache-2.0
/* Minimal reader of classic pcap files (LINKTYPE_ETHERNET, either byte order). */
#ifndef PCAP_FILE_H
#define PCAP_FILE_H
#include <stdint.h>
struct frame { uint8_t *data; uint32_t len; };
/* returns the number of frames (>= 0) or -1; *out is malloc'd, frames too */
int pcap_load(const char *path, struct frame **out);
void pcap_free(struct frame *f, int n);
#endif
