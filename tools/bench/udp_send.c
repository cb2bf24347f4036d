// SPDX-License-Identifier: Apache-2.0
/*
 * udp_send: blasts one INT report payload at a UDP address with sendmmsg, rewriting the
 * report header's Sequence Number (bytes 4..7, big-endian) so every datagram is a new report.
 * With <flows> > 1 it sends from that many sockets bound to consecutive source addresses
 * (<src-ip>, <src-ip>+1, ...: distinct switches to the collector, distinct 4-tuples for
 * SO_REUSEPORT), one batch each in turn, each flow with its own sequence.
 * Usage: udp_send <src-ip> <dst-ip> <dst-port> <payload-file> <seconds> [flows (default 1)]
 * Prints: sent=<n> seconds=<s> pps=<rate>
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define MAX_FLOWS 256

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: %s <src-ip> <dst-ip> <dst-port> <payload-file> <seconds> [flows]\n", argv[0]);
        return 2;
    }
    int flows = argc == 7 ? atoi(argv[6]) : 1;
    if (flows < 1 || flows > MAX_FLOWS) {
        fprintf(stderr, "flows must be 1..%d\n", MAX_FLOWS);
        return 2;
    }
    unsigned char payload[2048];
    FILE *f = fopen(argv[4], "rb");
    if (!f) {
        perror("payload file");
        return 2;
    }
    size_t len = fread(payload, 1, sizeof payload, f);
    fclose(f);
    if (len < 16) {
        fprintf(stderr, "payload too short (%zu bytes)\n", len);
        return 2;
    }
    struct sockaddr_in src = {.sin_family = AF_INET};
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[3]))};
    if (inet_pton(AF_INET, argv[1], &src.sin_addr) != 1 || inet_pton(AF_INET, argv[2], &dst.sin_addr) != 1) {
        fprintf(stderr, "bad address\n");
        return 2;
    }
    int fds[MAX_FLOWS];
    unsigned int seqs[MAX_FLOWS];
    for (int i = 0; i < flows; i++) {
        fds[i] = socket(AF_INET, SOCK_DGRAM, 0);
        if (fds[i] < 0) {
            perror("socket");
            return 1;
        }
        int sndbuf = 4 << 20;
        setsockopt(fds[i], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
        struct sockaddr_in s = src;
        s.sin_addr.s_addr = htonl(ntohl(src.sin_addr.s_addr) + i);
        if (bind(fds[i], (struct sockaddr *) &s, sizeof s) < 0
            || connect(fds[i], (struct sockaddr *) &dst, sizeof dst) < 0) {
            perror("bind/connect");
            return 1;
        }
        seqs[i] = 0;
    }
    static unsigned char bufs[BATCH][2048];
    struct iovec iov[BATCH];
    struct mmsghdr msgs[BATCH];
    memset(msgs, 0, sizeof msgs);
    for (int i = 0; i < BATCH; i++) {
        memcpy(bufs[i], payload, len);
        iov[i].iov_base = bufs[i];
        iov[i].iov_len = len;
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    double secs = atof(argv[5]);
    unsigned long sent = 0;
    double start = now(), end = start + secs, t = start;
    for (int flow = 0; t < end; flow = (flow + 1) % flows) {
        for (int i = 0; i < BATCH; i++) {
            unsigned int s = htonl(seqs[flow] + i);
            memcpy(bufs[i] + 4, &s, 4);
        }
        int n = sendmmsg(fds[flow], msgs, BATCH, 0);
        if (n > 0) {
            seqs[flow] += n;
            sent += n;
        }
        t = now();
    }
    printf("sent=%lu seconds=%.3f pps=%.0f\n", sent, t - start, sent / (t - start));
    for (int i = 0; i < flows; i++) {
        close(fds[i]);
    }
    return 0;
}
