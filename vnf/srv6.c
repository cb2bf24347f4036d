// SPDX-License-Identifier: Apache-2.0
#include "srv6.h"
#include <string.h>
#include <netinet/in.h>

#define NAME(n) #n,
static const char *const srv6_names[] = { SRV6_STATUSES(NAME) };
static const char *const inner_names[] = { INNER_STATUSES(NAME) };
const char *srv6_status_name(enum srv6_status s) { return (unsigned)s < SRV6_STATUS_COUNT ? srv6_names[s] : "?"; }
const char *inner_status_name(enum inner_status s) { return (unsigned)s < INNER_STATUS_COUNT ? inner_names[s] : "?"; }

static inline uint16_t be16(const uint8_t *b) { return (uint16_t)(b[0] << 8 | b[1]); }
static inline uint32_t be32(const uint8_t *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }

#define TLV_PAD1 0
#define TLV_PADN 4
#define TLV_SRV6_INT 252

/* L4 after an IP header: off = frame offset of L4, end = end of the inner packet present. */
static void parse_l4(const uint8_t *f, uint32_t off, uint32_t end, int first_frag, struct srv6_pkt *p) {
  p->l4_off = off;
  p->payload_off = off;
  p->payload_len = end - off;
  if (!first_frag) { p->l4_off = 0; return; }
  if (p->l4proto == IPPROTO_UDP) {
    if (end - off < 8) { p->inner = INNER_TRUNCATED_L4; return; }
    p->sport = be16(f + off); p->dport = be16(f + off + 2); p->has_ports = 1;
    p->payload_off = off + 8; p->payload_len = end - off - 8;
  } else if (p->l4proto == IPPROTO_TCP) {
    if (end - off < 20) { p->inner = INNER_TRUNCATED_L4; return; }
    uint32_t doff = (uint32_t)(f[off + 12] >> 4) * 4;
    p->sport = be16(f + off); p->dport = be16(f + off + 2); p->has_ports = 1;
    if (doff < 20 || doff > end - off) { p->inner = INNER_TRUNCATED_L4; return; }
    p->payload_off = off + doff; p->payload_len = end - off - doff;
  }
}

static void parse_inner(const uint8_t *f, struct srv6_pkt *p) {
  uint32_t off = p->inner_off, avail = p->inner_len;
  if (p->srh_nh == IPPROTO_IPIP) {
    if (avail < 20) { p->inner = INNER_TRUNCATED_IP; return; }
    uint32_t ihl = (uint32_t)(f[off] & 0x0f) * 4, tot = be16(f + off + 2);
    if ((f[off] >> 4) != 4 || ihl < 20 || tot < ihl) { p->inner = INNER_BAD_IP_HEADER; return; }
    if (ihl > avail) { p->inner = INNER_TRUNCATED_IP; return; }
    if (tot < avail) p->inner_len = avail = tot;   /* padding after the packet */
    p->ip_ver = 4; p->l4proto = f[off + 9];
    p->saddr = f + off + 12; p->daddr = f + off + 16;
    int first_frag = (be16(f + off + 6) & 0x1fff) == 0;
    parse_l4(f, off + ihl, off + avail, first_frag, p);
  } else if (p->srh_nh == IPPROTO_IPV6) {
    if (avail < 40) { p->inner = INNER_TRUNCATED_IP; return; }
    if ((f[off] >> 4) != 6) { p->inner = INNER_BAD_IP_HEADER; return; }
    uint32_t tot = 40u + be16(f + off + 4);
    if (tot < avail) p->inner_len = avail = tot;
    p->ip_ver = 6; p->saddr = f + off + 8; p->daddr = f + off + 24;
    uint8_t nh = f[off + 6];
    uint32_t h = off + 40, end = off + avail;
    int first_frag = 1;
    for (int i = 0; i < 8; i++) {   /* bounded walk of extension headers */
      if (nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING || nh == IPPROTO_DSTOPTS) {
        if (end - h < 8) { p->inner = INNER_TRUNCATED_IP; return; }
        uint32_t l = 8u * (f[h + 1] + 1u);
        if (l > end - h) { p->inner = INNER_TRUNCATED_IP; return; }
        nh = f[h]; h += l;
      } else if (nh == IPPROTO_FRAGMENT) {
        if (end - h < 8) { p->inner = INNER_TRUNCATED_IP; return; }
        if (be16(f + h + 2) & 0xfff8) first_frag = 0;
        nh = f[h]; h += 8;
      } else break;
    }
    p->l4proto = nh;
    parse_l4(f, h, end, first_frag, p);
  } else {
    p->inner = INNER_NOT_IP;
  }
}

enum srv6_status srv6_parse(const uint8_t *f, uint32_t len, struct srv6_pkt *p) {
  memset(p, 0, sizeof *p);
  if (len < 14) return SRV6_TRUNCATED_ETHERNET;
  if (be16(f + 12) != 0x86dd) return SRV6_UNSUPPORTED_ETHERTYPE;
  if (len - 14 < 40) return SRV6_TRUNCATED_IPV6;
  const uint8_t *ip = f + 14;
  if ((ip[0] >> 4) != 6) return SRV6_BAD_IPV6_VERSION;
  if (ip[6] != 43) return SRV6_NO_ROUTING_HEADER;
  uint32_t plen = be16(ip + 4);
  uint32_t s = 54, rest = len - s;
  if (rest < 8) return SRV6_TRUNCATED_SRH;
  const uint8_t *srh = f + s;
  if (srh[2] != 4) return SRV6_BAD_ROUTING_TYPE;
  uint32_t srh_len = 8u * (srh[1] + 1u);
  if (srh_len > rest) return SRV6_SRH_LENGTH_PAST_BUFFER;
  if (plen < srh_len) return SRV6_PAYLOAD_LENGTH_SHORTER_THAN_SRH;
  uint32_t le = srh[4];
  if (16u * (le + 1u) > 8u * srh[1]) return SRV6_LAST_ENTRY_PAST_LIST;
  if (srh[3] > le) return SRV6_SEGMENTS_LEFT_PAST_LAST_ENTRY;
  /* TLV area: from the end of the segment list to the end of the SRH */
  uint32_t t = 8u + 16u * (le + 1u);
  int seen_int = 0;
  while (t < srh_len) {
    uint8_t type = srh[t];
    if (type == TLV_PAD1) { t++; continue; }
    if (srh_len - t < 2) return SRV6_TLV_LENGTH_PAST_END;
    uint32_t vl = srh[t + 1];
    if (vl > srh_len - t - 2) return SRV6_TLV_LENGTH_PAST_END;
    if (type == TLV_SRV6_INT) {
      if (vl != 6) return SRV6_BAD_INT_TLV_LENGTH;
      if (seen_int) return SRV6_DUPLICATE_INT_TLV;
      seen_int = 1;
      p->mapinfo = be16(srh + t + 2);
      p->detection_result = be32(srh + t + 4);
    } else if (type != TLV_PADN) {
      return SRV6_UNKNOWN_TLV;
    }
    t += 2 + vl;
  }
  if (!seen_int) return SRV6_MISSING_INT_TLV;
  if (p->mapinfo & 0xffe0) return SRV6_MAPINFO_BITS_WITHOUT_FIELD;
  p->dst = ip + 24;
  p->srh_off = s; p->srh_len = srh_len;
  p->srh_nh = srh[0]; p->segments_left = srh[3]; p->last_entry = (uint8_t)le;
  p->flags = srh[5]; p->tag = be16(srh + 6);
  p->inner_off = s + srh_len;
  uint32_t in_plen = plen - srh_len, in_avail = len - p->inner_off;
  p->truncated = in_avail < in_plen;
  p->inner_len = in_avail < in_plen ? in_avail : in_plen;   /* Ethernet padding ignored */
  parse_inner(f, p);
  return SRV6_OK;
}
