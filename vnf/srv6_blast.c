// SPDX-License-Identifier: Apache-2.0
/* srv6-blast: sends the frames of a pcap file out of an interface through an
 * AF_PACKET TPACKET_V2 TX ring, bounded in count and time, optionally paced.
 *   srv6-blast -i IFACE -f FILE.pcap [-c COUNT] [-t SECONDS] [-r PPS] [--vary-flows]
 * Default: every frame of the file once (frames the kernel would refuse, shorter
 * than an Ethernet header or longer than a ring slot, skipped and counted). With -c or -t the file is replayed in a
 * loop until COUNT frames or SECONDS. --vary-flows adds the loop number to the
 * inner TCP/UDP source port of every SRv6-INT frame so each pass makes new flows.
 * Prints sent=, seconds=, pps= on stdout. */
#include "pcap_file.h"
#include "srv6.h"
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/mman.h>
#include <sys/socket.h>

static volatile sig_atomic_t stop;
static void on_sig(int s) { (void)s; stop = 1; }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (double)t.tv_sec + (double)t.tv_nsec / 1e9; }

int main(int argc, char **argv) {
  const char *ifname = NULL, *file = NULL;
  unsigned long long count = 0; double seconds = 0, pps = 0; int vary = 0;
  static const struct option lo[] = { { "vary-flows", 0, 0, 1 }, { 0, 0, 0, 0 } };
  int c;
  while ((c = getopt_long(argc, argv, "i:f:c:t:r:", lo, NULL)) != -1) {
    switch (c) {
    case 'i': ifname = optarg; break;
    case 'f': file = optarg; break;
    case 'c': count = strtoull(optarg, NULL, 0); break;
    case 't': seconds = atof(optarg); break;
    case 'r': pps = atof(optarg); break;
    case 1: vary = 1; break;
    default: goto usage;
    }
  }
  if (!ifname || !file) {
  usage:
    fprintf(stderr, "usage: %s -i IFACE -f FILE.pcap [-c COUNT] [-t SECONDS] [-r PPS] [--vary-flows]\n", argv[0]);
    return 2;
  }
  struct frame *fr;
  int n = pcap_load(file, &fr);
  if (n <= 0) { fprintf(stderr, "srv6-blast: no frames in %s\n", file); return 1; }
  int once = !count && !seconds;   /* default: every frame of the file once (skipped ones too) */
  if (seconds <= 0) seconds = 1e9;
  if (!count) count = ~0ull;
  /* inner source port offsets for --vary-flows */
  uint32_t *sport_off = calloc((size_t)n, sizeof *sport_off);
  for (int i = 0; i < n && vary; i++) {
    struct srv6_pkt p;
    if (srv6_parse(fr[i].data, fr[i].len, &p) == SRV6_OK && p.has_ports) sport_off[i] = p.l4_off;
  }

  int ifindex = (int)if_nametoindex(ifname);
  if (!ifindex) { fprintf(stderr, "srv6-blast: no interface %s\n", ifname); return 1; }
  int fd = socket(AF_PACKET, SOCK_RAW, 0), v = TPACKET_V2, one = 1;
  unsigned fsz = 2048, nfr = 1024;
  struct tpacket_req req = { .tp_block_size = 1u << 16, .tp_frame_size = fsz, .tp_block_nr = nfr / 32, .tp_frame_nr = nfr };
  if (fd < 0 || setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v, sizeof v) ||
      setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof one) ||
      setsockopt(fd, SOL_PACKET, PACKET_LOSS, &one, sizeof one) ||   /* refused frames skipped, ring keeps going */
      setsockopt(fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof req)) { perror("srv6-blast: socket"); return 1; }
  uint8_t *map = mmap(NULL, (size_t)req.tp_block_size * req.tp_block_nr, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = ifindex };
  if (map == MAP_FAILED || bind(fd, (struct sockaddr *)&sll, sizeof sll)) { perror("srv6-blast: ring"); return 1; }
  const size_t doff = TPACKET2_HDRLEN - sizeof(struct sockaddr_ll);
  signal(SIGTERM, on_sig); signal(SIGINT, on_sig);

  unsigned long long sent = 0, sent_at_loop = 0, skipped = 0, short_ = 0, full_waits = 0; unsigned idx = 0, pending = 0; int fi = 0; unsigned loop = 0;
  double t0 = now(), tend = t0 + seconds, t = t0;
  while (sent < count && !stop) {
    if ((sent & 63) == 0) { t = now(); if (t >= tend) break; }
    if (pps > 0 && (double)sent >= (t - t0) * pps) {
      if (pending) { sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0); pending = 0; }
      struct timespec ts = { 0, 50000 }; nanosleep(&ts, NULL);
      t = now(); if (t >= tend) break;
      continue;
    }
    struct tpacket2_hdr *h = (struct tpacket2_hdr *)(map + (size_t)idx * fsz);
    uint32_t st = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
    if (st != TP_STATUS_AVAILABLE && st != TP_STATUS_WRONG_FORMAT) {
      full_waits++;
      sendto(fd, NULL, 0, 0, NULL, 0); pending = 0;
      struct pollfd pf = { .fd = fd, .events = POLLOUT }; poll(&pf, 1, 1);
      t = now(); if (t >= tend) break;
      continue;
    }
    struct frame *f = &fr[fi];
    if (f->len > fsz - doff) { skipped++; }
    else if (f->len < 14) { short_++; }   /* the kernel refuses frames shorter than an Ethernet header */
    else {
      uint8_t *d = (uint8_t *)h + doff;
      memcpy(d, f->data, f->len);
      if (vary && sport_off[fi] && loop) {
        uint16_t sp = (uint16_t)(((d[sport_off[fi]] << 8) | d[sport_off[fi] + 1]) + loop);
        d[sport_off[fi]] = (uint8_t)(sp >> 8); d[sport_off[fi] + 1] = (uint8_t)sp;
      }
      h->tp_len = f->len;
      __atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
      idx = idx + 1 == nfr ? 0 : idx + 1;
      sent++;
      if (++pending >= 32) { sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0); pending = 0; }
    }
    if (++fi == n) {
      fi = 0; loop++;
      if (once || sent == sent_at_loop) break;   /* once, or nothing in the file can be sent */
      sent_at_loop = sent;
    }
  }
  /* the last frames: wait until the kernel took them all */
  sendto(fd, NULL, 0, 0, NULL, 0);
  double dt = now() - t0;
  printf("sent=%llu seconds=%.3f pps=%.0f skipped_too_big=%llu skipped_short=%llu ring_full_waits=%llu\n",
         sent, dt, dt > 0 ? (double)sent / dt : 0.0, skipped, short_, full_waits);
  munmap(map, (size_t)req.tp_block_size * req.tp_block_nr); close(fd);
  free(sport_off); pcap_free(fr, n);
  return 0;
}
