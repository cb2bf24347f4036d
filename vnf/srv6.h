// SPDX-License-Identifier: Apache-2.0
/* SR-aware parsing of an SRv6-INT frame (docs/wire-format.md sections 1 and 4).
 * Never reads past len; never writes to the frame. */
#ifndef SRV6_H
#define SRV6_H
#include <stdint.h>
#include <stddef.h>

/* Decoder statuses in the order of docs/wire-format.md section 4. */
#define SRV6_STATUSES(X) \
  X(OK) X(TRUNCATED_ETHERNET) X(UNSUPPORTED_ETHERTYPE) X(TRUNCATED_IPV6) \
  X(BAD_IPV6_VERSION) X(NO_ROUTING_HEADER) X(TRUNCATED_SRH) X(BAD_ROUTING_TYPE) \
  X(SRH_LENGTH_PAST_BUFFER) X(PAYLOAD_LENGTH_SHORTER_THAN_SRH) X(LAST_ENTRY_PAST_LIST) \
  X(SEGMENTS_LEFT_PAST_LAST_ENTRY) X(TLV_LENGTH_PAST_END) X(UNKNOWN_TLV) \
  X(BAD_INT_TLV_LENGTH) X(DUPLICATE_INT_TLV) X(MISSING_INT_TLV) X(MAPINFO_BITS_WITHOUT_FIELD)
#define SRV6_ENUM(n) SRV6_##n,
enum srv6_status { SRV6_STATUSES(SRV6_ENUM) SRV6_STATUS_COUNT };
const char *srv6_status_name(enum srv6_status s);

/* Why the inner packet could not be inspected (the frame is still valid SRv6-INT). */
#define INNER_STATUSES(X) X(OK) X(NOT_IP) X(TRUNCATED_IP) X(BAD_IP_HEADER) X(TRUNCATED_L4)
#define INNER_ENUM(n) INNER_##n,
enum inner_status { INNER_STATUSES(INNER_ENUM) INNER_STATUS_COUNT };
const char *inner_status_name(enum inner_status s);

struct srv6_pkt {
  /* outer */
  const uint8_t *dst;        /* outer IPv6 destination (16 bytes) */
  uint32_t srh_off, srh_len;
  uint8_t srh_nh, segments_left, last_entry, flags;
  uint16_t tag, mapinfo;
  uint32_t detection_result;
  int truncated;             /* captured frame shorter than the IPv6 Payload Length */
  /* inner packet: frame[inner_off .. inner_off+inner_len) */
  uint32_t inner_off, inner_len;
  enum inner_status inner;
  uint8_t ip_ver, l4proto;   /* 4 or 6; IPPROTO_* (after IPv6 extension headers) */
  const uint8_t *saddr, *daddr; /* 4 or 16 bytes */
  uint16_t sport, dport;     /* 0 unless TCP/UDP in a first fragment */
  int has_ports;
  uint32_t l4_off;           /* frame offset of the L4 header (0 if none) */
  uint32_t payload_off, payload_len; /* L4 payload (or IP payload if not TCP/UDP) */
};

/* Decodes the frame; on SRV6_OK also parses the inner packet (p->inner says how far). */
enum srv6_status srv6_parse(const uint8_t *frame, uint32_t len, struct srv6_pkt *p);

#endif
