// SPDX-License-Identifier: Apache-2.0
/* Inline AF_PACKET forwarding core shared by vnf-fwd, vnf-dpi and vnf-ids. */
#include "vnf.h"
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/mman.h>
#include <sys/socket.h>

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

struct ring {
  int fd;
  uint8_t *map;
  size_t map_len;
  unsigned frame_size, nframes, idx;
};

struct port {
  const char *name;
  int ifindex;
  struct ring rx, tx;
  int tx_pending;
  struct port *out;
};

/* log-linear latency histogram: 16 sub-buckets per power of two (<= 6.25 % error) */
#define HBUCKETS 1024
struct hist { uint64_t n, max, b[HBUCKETS]; };
static unsigned hidx(uint64_t v) {
  if (v < 16) return (unsigned)v;
  unsigned e = 63u - (unsigned)__builtin_clzll(v);
  return 16u + (e - 4u) * 16u + (unsigned)((v >> (e - 4u)) & 15u);
}
static uint64_t hupper(unsigned i) {   /* upper bound of bucket i */
  if (i < 16) return i;
  unsigned e = (i - 16u) / 16u + 4u, m = (i - 16u) % 16u;
  return (1ull << e) + ((uint64_t)(m + 1u) << (e - 4u)) - 1u;
}
static void hadd(struct hist *h, uint64_t v) {
  h->b[hidx(v)]++; h->n++; if (v > h->max) h->max = v;
}
static uint64_t hpct(const struct hist *h, double q) {
  if (!h->n) return 0;
  uint64_t want = (uint64_t)(q * (double)h->n + 0.999999), acc = 0;
  if (want < 1) want = 1;
  for (unsigned i = 0; i < HBUCKETS; i++) { acc += h->b[i]; if (acc >= want) { uint64_t u = hupper(i); return u > h->max ? h->max : u; } }
  return h->max;
}

static struct {
  uint64_t rx_frames, rx_bytes, tx_frames, tx_bytes;
  uint64_t drop_rx_ring_full, drop_tx_ring_full, drop_too_big, drop_tx_error, drop_verdict, drop_parse;
  uint64_t parse[SRV6_STATUS_COUNT], inner[INNER_STATUS_COUNT], inner_truncated;
  uint64_t polls, batches, socket_errors;
} C;
static struct hist h_service, h_sojourn;

static volatile sig_atomic_t sig_stop, sig_dump, sig_reset;
static void on_signal(int s) {
  if (s == SIGUSR1) sig_dump = 1;
  else if (s == SIGUSR2) sig_reset = 1;
  else sig_stop = 1;
}

static const struct vnf_module *M;
static struct port ports[2];
static int nports;
static const char *stats_path;
static struct timespec t_start;

static uint64_t now_ns(clockid_t c) {
  struct timespec ts; clock_gettime(c, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void read_kernel_drops(void) {
  for (int i = 0; i < nports; i++) {
    struct tpacket_stats st; socklen_t l = sizeof st;
    if (getsockopt(ports[i].rx.fd, SOL_PACKET, PACKET_STATISTICS, &st, &l) == 0)
      C.drop_rx_ring_full += st.tp_drops;   /* reading resets the kernel's counters */
  }
}

static void write_stats(FILE *f) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  double up = (double)(t.tv_sec - t_start.tv_sec) + (double)(t.tv_nsec - t_start.tv_nsec) / 1e9;
  fprintf(f, "vnf=%s\npid=%d\nuptime_s=%.3f\n", M->name, (int)getpid(), up);
  fprintf(f, "rx_frames=%llu\nrx_bytes=%llu\ntx_frames=%llu\ntx_bytes=%llu\n",
          (unsigned long long)C.rx_frames, (unsigned long long)C.rx_bytes,
          (unsigned long long)C.tx_frames, (unsigned long long)C.tx_bytes);
  uint64_t drops = C.drop_rx_ring_full + C.drop_tx_ring_full + C.drop_too_big + C.drop_tx_error + C.drop_verdict + C.drop_parse;
  fprintf(f, "drop_total=%llu\ndrop_rx_ring_full=%llu\ndrop_tx_ring_full=%llu\ndrop_too_big=%llu\n"
             "drop_tx_error=%llu\ndrop_verdict=%llu\ndrop_parse=%llu\n",
          (unsigned long long)drops, (unsigned long long)C.drop_rx_ring_full, (unsigned long long)C.drop_tx_ring_full,
          (unsigned long long)C.drop_too_big, (unsigned long long)C.drop_tx_error,
          (unsigned long long)C.drop_verdict, (unsigned long long)C.drop_parse);
  for (int i = 1; i < SRV6_STATUS_COUNT; i++)
    fprintf(f, "drop_parse.%s=%llu\n", srv6_status_name((enum srv6_status)i), (unsigned long long)C.parse[i]);
  for (int i = 1; i < INNER_STATUS_COUNT; i++)
    fprintf(f, "not_inspected.%s=%llu\n", inner_status_name((enum inner_status)i), (unsigned long long)C.inner[i]);
  fprintf(f, "inner_truncated=%llu\nsocket_errors=%llu\n", (unsigned long long)C.inner_truncated,
          (unsigned long long)C.socket_errors);
  fprintf(f, "latency_samples=%llu\n", (unsigned long long)h_service.n);
  fprintf(f, "service_ns_p50=%llu\nservice_ns_p95=%llu\nservice_ns_p99=%llu\nservice_ns_max=%llu\n",
          (unsigned long long)hpct(&h_service, .50), (unsigned long long)hpct(&h_service, .95),
          (unsigned long long)hpct(&h_service, .99), (unsigned long long)h_service.max);
  fprintf(f, "sojourn_ns_p50=%llu\nsojourn_ns_p95=%llu\nsojourn_ns_p99=%llu\nsojourn_ns_max=%llu\n",
          (unsigned long long)hpct(&h_sojourn, .50), (unsigned long long)hpct(&h_sojourn, .95),
          (unsigned long long)hpct(&h_sojourn, .99), (unsigned long long)h_sojourn.max);
  if (M->stats) M->stats(f);
}

static void write_stats_file(void);
static void dump_stats(const char *why) {
  read_kernel_drops();
  fprintf(stderr, "--- %s stats (%s) ---\n", M->name, why);
  write_stats(stderr);
  write_stats_file();
}

static void write_stats_file(void) {
  read_kernel_drops();
  if (stats_path) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", stats_path);
    FILE *f = fopen(tmp, "w");
    if (!f) { fprintf(stderr, "%s: %s: %s\n", M->name, tmp, strerror(errno)); return; }
    write_stats(f);
    if (fclose(f) == 0) rename(tmp, stats_path);
  }
}

static int ring_setup(struct ring *r, int ifindex, int tx, unsigned frame_size, unsigned nframes) {
  r->fd = socket(AF_PACKET, SOCK_RAW, 0);   /* protocol 0: receives nothing until bound */
  if (r->fd < 0) return -1;
  int v = TPACKET_V2, one = 1;
  if (setsockopt(r->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof v)) return -1;
  if (tx) {
    if (setsockopt(r->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof one)) return -1;
    /* a frame the kernel refuses is skipped (slot back to AVAILABLE) instead of
     * parking the ring at TP_STATUS_WRONG_FORMAT, which stalls every later frame */
    if (setsockopt(r->fd, SOL_PACKET, PACKET_LOSS, &one, sizeof one)) return -1;
  } else {
    /* do not see the frames we send ourselves (hairpin mode, or an outgoing copy) */
    if (setsockopt(r->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one)) return -1;
  }
  unsigned per_block = 4096u * 16u / frame_size; if (per_block < 1) per_block = 1;
  struct tpacket_req req = { .tp_block_size = frame_size * per_block, .tp_frame_size = frame_size,
                             .tp_block_nr = (nframes + per_block - 1) / per_block };
  req.tp_frame_nr = req.tp_block_nr * per_block;
  if (setsockopt(r->fd, SOL_PACKET, tx ? PACKET_TX_RING : PACKET_RX_RING, &req, sizeof req)) return -1;
  r->frame_size = frame_size; r->nframes = req.tp_frame_nr; r->idx = 0;
  r->map_len = (size_t)req.tp_block_size * req.tp_block_nr;
  r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED, r->fd, 0);
  if (r->map == MAP_FAILED) r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
  if (r->map == MAP_FAILED) return -1;
  struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = ifindex,
                             .sll_protocol = tx ? 0 : htons(ETH_P_ALL) };
  if (bind(r->fd, (struct sockaddr *)&sll, sizeof sll)) return -1;
  if (!tx) {
    struct packet_mreq mr = { .mr_ifindex = ifindex, .mr_type = PACKET_MR_PROMISC };
    if (setsockopt(r->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof mr)) return -1;
    /* discard anything queued before the bind */
    struct tpacket_stats st; socklen_t l = sizeof st;
    getsockopt(r->fd, SOL_PACKET, PACKET_STATISTICS, &st, &l);
  }
  return 0;
}

static inline struct tpacket2_hdr *slot(struct ring *r, unsigned i) {
  return (struct tpacket2_hdr *)(r->map + (size_t)i * r->frame_size);
}

#define TX_DATA_OFF (TPACKET2_HDRLEN - sizeof(struct sockaddr_ll))

static void tx_flush(struct port *p) {
  if (!p->tx_pending) return;
  p->tx_pending = 0;
  if (sendto(p->tx.fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 && errno != EAGAIN && errno != ENOBUFS && errno != EINTR)
    C.drop_tx_error++;
}

/* 0 = queued; otherwise counted as a drop */
static int tx_enqueue(struct port *p, const uint8_t *data, uint32_t len) {
  struct ring *r = &p->tx;
  if (len > r->frame_size - TX_DATA_OFF) { C.drop_too_big++; return -1; }
  struct tpacket2_hdr *h = slot(r, r->idx);
  uint32_t st = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
  if (st == TP_STATUS_WRONG_FORMAT) { C.drop_tx_error++; st = TP_STATUS_AVAILABLE; }
  if (st != TP_STATUS_AVAILABLE) {
    tx_flush(p); p->tx_pending = 0;
    st = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
    if (st != TP_STATUS_AVAILABLE && st != TP_STATUS_WRONG_FORMAT) { C.drop_tx_ring_full++; return -1; }
  }
  memcpy((uint8_t *)h + TX_DATA_OFF, data, len);
  h->tp_len = len;
  __atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
  r->idx = r->idx + 1 == r->nframes ? 0 : r->idx + 1;
  p->tx_pending++;
  if (p->tx_pending >= 64) tx_flush(p);
  return 0;
}

static void handle(struct port *in, struct tpacket2_hdr *h) {
  uint64_t t0 = now_ns(CLOCK_REALTIME);
  const uint8_t *f = (const uint8_t *)h + h->tp_mac;
  uint32_t len = h->tp_snaplen;
  C.rx_frames++; C.rx_bytes += h->tp_len;
  if (h->tp_snaplen < h->tp_len) { C.drop_too_big++; return; }
  struct srv6_pkt p;
  enum srv6_status s = srv6_parse(f, len, &p);
  if (s != SRV6_OK) { C.parse[s]++; C.drop_parse++; return; }
  C.parse[SRV6_OK]++;
  C.inner[p.inner]++;
  if (p.truncated) C.inner_truncated++;
  if (M->inspect && M->inspect(f, len, &p, t0) == VERDICT_DROP) { C.drop_verdict++; return; }
  if (tx_enqueue(in->out, f, len) == 0) { C.tx_frames++; C.tx_bytes += len; }
  uint64_t t1 = now_ns(CLOCK_REALTIME);
  hadd(&h_service, t1 - t0);
  uint64_t trx = (uint64_t)h->tp_sec * 1000000000ull + h->tp_nsec;
  if (trx && t1 >= trx) hadd(&h_sojourn, t1 - trx);
}

static void usage(const char *prog) {
  fprintf(stderr,
    "usage: %s -i IFACE [-o IFACE] [options]\n"
    "  Forwards every SRv6-INT frame received on -i out of -o (and back), unchanged.\n"
    "  Without -o the frame goes back out of -i (a vNF on a switch port).\n"
    "  -s, --stats FILE       write counters (key=value) there when ready, on SIGUSR1 and at exit\n"
    "  -r, --rules FILE       IDS rule file (ID:/regex/flags)\n"
    "      --drop-on-match    IDS: drop matching frames (IPS); default alert only\n"
    "      --max-flows N      DPI flow table size (default 16384)\n"
    "      --max-dpi-pkts N   DPI: packets per flow given to nDPI (default 16)\n"
    "      --ring-frames N    frames per RX/TX ring (default 2048)\n"
    "      --frame-size N     ring frame size (default 2048; frames longer are dropped)\n"
    "      --stats-every SEC  also rewrite the stats file every SEC seconds (default 0: off)\n"
    "  SIGUSR1: counters to stderr (and the stats file); SIGUSR2: reset latency histograms;\n"
    "  SIGTERM/SIGINT: final counters and exit 0.\n", prog);
}

int vnf_main(int argc, char **argv, const struct vnf_module *m) {
  M = m;
  struct vnf_config cfg = { .max_flows = 16384, .max_dpi_pkts = 16 };
  const char *ifin = NULL, *ifout = NULL;
  unsigned ring_frames = 2048, frame_size = 2048;
  uint64_t stats_every_ns = 0, next_stats = 0;
  static const struct option lo[] = {
    { "in", 1, 0, 'i' }, { "out", 1, 0, 'o' }, { "stats", 1, 0, 's' }, { "rules", 1, 0, 'r' },
    { "drop-on-match", 0, 0, 1 }, { "max-flows", 1, 0, 2 }, { "max-dpi-pkts", 1, 0, 3 },
    { "ring-frames", 1, 0, 4 }, { "frame-size", 1, 0, 5 }, { "stats-every", 1, 0, 6 },
    { "help", 0, 0, 'h' }, { 0, 0, 0, 0 } };
  int c;
  while ((c = getopt_long(argc, argv, "i:o:s:r:h", lo, NULL)) != -1) {
    switch (c) {
    case 'i': ifin = optarg; break;
    case 'o': ifout = optarg; break;
    case 's': stats_path = optarg; break;
    case 'r': cfg.rules = optarg; break;
    case 1: cfg.drop_on_match = 1; break;
    case 2: cfg.max_flows = (unsigned)strtoul(optarg, NULL, 0); break;
    case 3: cfg.max_dpi_pkts = (unsigned)strtoul(optarg, NULL, 0); break;
    case 4: ring_frames = (unsigned)strtoul(optarg, NULL, 0); break;
    case 5: frame_size = (unsigned)strtoul(optarg, NULL, 0); break;
    case 6: stats_every_ns = (uint64_t)(atof(optarg) * 1e9); break;
    case 'h': usage(argv[0]); return 0;
    default: usage(argv[0]); return 2;
    }
  }
  if (!ifin || optind != argc || ring_frames < 8 || frame_size < 256 || (frame_size & (frame_size - 1)) ||
      cfg.max_flows < 1) {
    usage(argv[0]); return 2;
  }
  if (m->init && m->init(&cfg)) { fprintf(stderr, "%s: init failed\n", m->name); return 1; }

  const char *names[2] = { ifin, ifout };
  nports = ifout && strcmp(ifout, ifin) ? 2 : 1;
  for (int i = 0; i < nports; i++) {
    ports[i].name = names[i];
    ports[i].ifindex = (int)if_nametoindex(names[i]);
    if (!ports[i].ifindex) { fprintf(stderr, "%s: no interface %s\n", m->name, names[i]); return 1; }
    if (ring_setup(&ports[i].rx, ports[i].ifindex, 0, frame_size, ring_frames) ||
        ring_setup(&ports[i].tx, ports[i].ifindex, 1, frame_size, ring_frames)) {
      fprintf(stderr, "%s: %s: packet ring: %s\n", m->name, names[i], strerror(errno)); return 1;
    }
  }
  ports[0].out = &ports[nports - 1];
  ports[nports - 1].out = &ports[0];

  struct sigaction sa = { .sa_handler = on_signal };   /* no SA_RESTART: poll returns EINTR */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL); sigaction(SIGINT, &sa, NULL);
  sigaction(SIGUSR1, &sa, NULL); sigaction(SIGUSR2, &sa, NULL);
  clock_gettime(CLOCK_MONOTONIC, &t_start);
  fprintf(stderr, "%s: ready, %s <-> %s, ring %u x %u bytes\n", m->name, ifin, nports == 2 ? ifout : ifin,
          ports[0].rx.nframes, frame_size);
  dump_stats("ready");

  int rc = 0;
  struct pollfd pfd[2];
  for (int i = 0; i < nports; i++) pfd[i] = (struct pollfd){ .fd = ports[i].rx.fd, .events = POLLIN };
  while (!sig_stop) {
    if (sig_dump) { sig_dump = 0; dump_stats("SIGUSR1"); }
    if (stats_every_ns && stats_path) {
      uint64_t t = now_ns(CLOCK_MONOTONIC_COARSE);
      if (t >= next_stats) { if (next_stats) write_stats_file(); next_stats = t + stats_every_ns; }
    }
    if (sig_reset) { sig_reset = 0; memset(&h_service, 0, sizeof h_service); memset(&h_sojourn, 0, sizeof h_sojourn); }
    int busy = 0;
    for (int i = 0; i < nports; i++) {
      struct ring *r = &ports[i].rx;
      for (int budget = 256; budget > 0; budget--) {
        struct tpacket2_hdr *h = slot(r, r->idx);
        if (!(__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER)) break;
        handle(&ports[i], h);
        __atomic_store_n(&h->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
        r->idx = r->idx + 1 == r->nframes ? 0 : r->idx + 1;
        busy = 1;
      }
    }
    for (int i = 0; i < nports; i++) tx_flush(&ports[i]);
    if (busy) { C.batches++; continue; }
    C.polls++;
    if (poll(pfd, (nfds_t)nports, 200) < 0 && errno != EINTR) { perror("poll"); rc = 1; break; }
    for (int i = 0; i < nports; i++) {
      if (!(pfd[i].revents & (POLLERR | POLLHUP | POLLNVAL))) continue;
      /* a pending socket error (ENETDOWN when the link went down): clear it, count it;
       * if the interface is gone there is nothing left to forward between */
      int err = 0; socklen_t el = sizeof err;
      getsockopt(pfd[i].fd, SOL_SOCKET, SO_ERROR, &err, &el);
      C.socket_errors++;
      char nm[IF_NAMESIZE];
      if ((pfd[i].revents & POLLNVAL) || !if_indextoname((unsigned)ports[i].ifindex, nm)) {
        fprintf(stderr, "%s: interface %s is gone (%s), stopping\n", m->name, ports[i].name, strerror(err));
        sig_stop = 1; rc = 1;
      } else {
        struct timespec ts = { 0, 10000000 }; nanosleep(&ts, NULL);   /* link down: do not spin */
      }
    }
  }
  for (int i = 0; i < nports; i++) tx_flush(&ports[i]);
  dump_stats("exit");
  if (m->fini) m->fini();
  for (int i = 0; i < nports; i++) {
    munmap(ports[i].rx.map, ports[i].rx.map_len); close(ports[i].rx.fd);
    munmap(ports[i].tx.map, ports[i].tx.map_len); close(ports[i].tx.fd);
  }
  return rc;
}
