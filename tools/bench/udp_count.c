/*
 * udp_count: the machine's UDP receive limit: counts datagrams with recvmmsg and does nothing
 * else. Usage: udp_count <ip> <port> <seconds>. Counts from the first datagram for <seconds>.
 * Prints: received=<n> seconds=<s> pps=<rate>
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
    if (argc != 4) {
        fprintf(stderr, "usage: %s <ip> <port> <seconds>\n", argv[0]);
        return 2;
    }
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int rcvbuf = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[2]))};
    inet_pton(AF_INET, argv[1], &a.sin_addr);
    if (bind(fd, (struct sockaddr *) &a, sizeof a) < 0) {
        perror("bind");
        return 1;
    }
    struct timeval tv = {.tv_sec = 0, .tv_usec = 200000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    static unsigned char bufs[BATCH][2048];
    struct iovec iov[BATCH];
    struct mmsghdr msgs[BATCH];
    memset(msgs, 0, sizeof msgs);
    for (int i = 0; i < BATCH; i++) {
        iov[i].iov_base = bufs[i];
        iov[i].iov_len = sizeof bufs[i];
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    double secs = atof(argv[3]);
    double start = 0, t = now(), giveup = t + 30;
    unsigned long got = 0;
    while (1) {
        int n = recvmmsg(fd, msgs, BATCH, 0, NULL);
        t = now();
        if (n > 0) {
            if (start == 0) {
                start = t;
            }
            got += n;
        }
        if (start != 0 && t - start >= secs) {
            break;
        }
        if (start == 0 && t > giveup) {
            fprintf(stderr, "no datagram within 30 s\n");
            return 1;
        }
    }
    printf("received=%lu seconds=%.3f pps=%.0f\n", got, t - start, got / (t - start));
    close(fd);
    return 0;
}
