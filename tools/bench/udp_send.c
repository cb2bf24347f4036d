/*
 * udp_send: blasts one INT report payload at a UDP address with sendmmsg, rewriting the
 * report header's Sequence Number (bytes 4..7, big-endian) so every datagram is a new report.
 * Usage: udp_send <src-ip> <dst-ip> <dst-port> <payload-file> <seconds>
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

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s <src-ip> <dst-ip> <dst-port> <payload-file> <seconds>\n", argv[0]);
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
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        perror("socket");
        return 1;
    }
    int sndbuf = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    struct sockaddr_in src = {.sin_family = AF_INET};
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[3]))};
    if (inet_pton(AF_INET, argv[1], &src.sin_addr) != 1 || inet_pton(AF_INET, argv[2], &dst.sin_addr) != 1) {
        fprintf(stderr, "bad address\n");
        return 2;
    }
    if (bind(fd, (struct sockaddr *) &src, sizeof src) < 0 || connect(fd, (struct sockaddr *) &dst, sizeof dst) < 0) {
        perror("bind/connect");
        return 1;
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
    unsigned int seq = 0;
    unsigned long sent = 0;
    double start = now(), end = start + secs, t = start;
    while (t < end) {
        for (int i = 0; i < BATCH; i++) {
            unsigned int s = htonl(seq + i);
            memcpy(bufs[i] + 4, &s, 4);
        }
        int n = sendmmsg(fd, msgs, BATCH, 0);
        if (n > 0) {
            seq += n;
            sent += n;
        }
        t = now();
    }
    printf("sent=%lu seconds=%.3f pps=%.0f\n", sent, t - start, sent / (t - start));
    close(fd);
    return 0;
}
