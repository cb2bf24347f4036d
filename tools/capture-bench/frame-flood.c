// SPDX-License-Identifier: Apache-2.0
/* Traffic of the capture benchmark (tools/bench-capture): sends the frames of a
 * pcap file round and round out of IFACE (an AF_PACKET socket, sendmmsg in
 * batches of 64) for SECONDS, as fast as it can, and prints how many it sent.
 * usage: frame-flood IFACE FRAMES.pcap SECONDS */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define MAXF 1024
#define BATCH 64

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: frame-flood IFACE FRAMES.pcap SECONDS\n");
        return 2;
    }
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *in = pcap_open_offline(argv[2], err);
    if (!in) {
        fprintf(stderr, "frame-flood: %s\n", err);
        return 1;
    }
    static u_char buf[MAXF][512];
    static size_t len[MAXF];
    int n = 0;
    struct pcap_pkthdr *h;
    const u_char *d;
    while (n < MAXF && pcap_next_ex(in, &h, &d) == 1) {
        len[n] = h->caplen < 512 ? h->caplen : 512;
        memcpy(buf[n], d, len[n]);
        n++;
    }
    pcap_close(in);
    if (n == 0) {
        fprintf(stderr, "frame-flood: no frames in %s\n", argv[2]);
        return 1;
    }
    int s = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
    struct sockaddr_ll a = {0};
    a.sll_family = AF_PACKET;
    a.sll_protocol = htons(ETH_P_ALL);
    a.sll_ifindex = if_nametoindex(argv[1]);
    if (s < 0 || a.sll_ifindex == 0 || bind(s, (struct sockaddr *) &a, sizeof a) < 0) {
        perror("frame-flood: socket");
        return 1;
    }
    struct mmsghdr m[BATCH];
    struct iovec v[BATCH];
    unsigned long sent = 0;
    int next = 0;
    double end = now() + atof(argv[3]);
    while (now() < end) {
        for (int i = 0; i < BATCH; i++) {
            v[i].iov_base = buf[next];
            v[i].iov_len = len[next];
            memset(&m[i], 0, sizeof m[i]);
            m[i].msg_hdr.msg_iov = &v[i];
            m[i].msg_hdr.msg_iovlen = 1;
            next = (next + 1) % n;
        }
        int r = sendmmsg(s, m, BATCH, 0);
        if (r > 0) {
            sent += r;
        }
    }
    printf("sent %lu seconds %s\n", sent, argv[3]);
    return 0;
}
