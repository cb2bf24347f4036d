// SPDX-License-Identifier: Apache-2.0
/*
 * udp_count: the machine's UDP receive limit: k threads, each on its own SO_REUSEPORT socket of
 * one port, count datagrams with recvmmsg and do nothing else (the baseline of the collector
 * benchmark). Usage: udp_count <ip> <port> <seconds> [sockets (default 1)].
 * Measures for <seconds>, starting 1 s after the first datagram (the collector benchmark gives
 * the JVM the same second to warm up). Prints:
 *   received=<n> seconds=<s> pps=<rate> kernel_drops=<n> per_socket=<n>,<n>,...
 * kernel_drops: datagrams the kernel dropped on the port's full receive buffers during the
 * measurement ("drops" of /proc/net/udp).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define MAX_SOCKETS 64

struct receiver {
    int fd;
    _Atomic unsigned long got;
    char pad[64];
};

static struct receiver rx[MAX_SOCKETS];
static atomic_int stop;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static long kernel_drops(int port) {
    FILE *f = fopen("/proc/net/udp", "r");
    if (!f) {
        return -1;
    }
    char line[512];
    long drops = 0;
    char want[8];
    snprintf(want, sizeof want, ":%04X", port);
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char local[64];
        long d = 0;
        /* sl local rem st tx:rx tr:tm retrnsmt uid timeout inode ref pointer drops */
        if (sscanf(line, " %*s %63s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %ld", local, &d) == 2) {
            size_t n = strlen(local);
            if (n >= 5 && strcmp(local + n - 5, want) == 0) {
                drops += d;
            }
        }
    }
    fclose(f);
    return drops;
}

static void *receive(void *arg) {
    struct receiver *r = arg;
    static __thread unsigned char bufs[BATCH][2048];
    struct iovec iov[BATCH];
    struct mmsghdr msgs[BATCH];
    memset(msgs, 0, sizeof msgs);
    for (int i = 0; i < BATCH; i++) {
        iov[i].iov_base = bufs[i];
        iov[i].iov_len = sizeof bufs[i];
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        int n = recvmmsg(r->fd, msgs, BATCH, 0, NULL);
        if (n > 0) {
            atomic_fetch_add_explicit(&r->got, n, memory_order_relaxed);
        }
    }
    return NULL;
}

static unsigned long total(int k) {
    unsigned long s = 0;
    for (int i = 0; i < k; i++) {
        s += atomic_load_explicit(&rx[i].got, memory_order_relaxed);
    }
    return s;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: %s <ip> <port> <seconds> [sockets]\n", argv[0]);
        return 2;
    }
    int k = argc == 5 ? atoi(argv[4]) : 1;
    if (k < 1 || k > MAX_SOCKETS) {
        fprintf(stderr, "sockets must be 1..%d\n", MAX_SOCKETS);
        return 2;
    }
    int port = atoi(argv[2]);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    if (inet_pton(AF_INET, argv[1], &a.sin_addr) != 1) {
        fprintf(stderr, "bad address\n");
        return 2;
    }
    for (int i = 0; i < k; i++) {
        int fd = socket(AF_INET, SOCK_DGRAM, 0);
        int rcvbuf = 4 << 20, one = 1;
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
        if (k > 1) {
            setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
        }
        if (bind(fd, (struct sockaddr *) &a, sizeof a) < 0) {
            perror("bind");
            return 1;
        }
        struct timeval tv = {.tv_sec = 0, .tv_usec = 200000};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        rx[i].fd = fd;
    }
    pthread_t th[MAX_SOCKETS];
    for (int i = 0; i < k; i++) {
        pthread_create(&th[i], NULL, receive, &rx[i]);
    }
    double giveup = now() + 30;
    while (total(k) == 0) {
        if (now() > giveup) {
            fprintf(stderr, "no datagram within 30 s\n");
            return 1;
        }
        usleep(500);
    }
    double secs = atof(argv[3]);
    usleep(1000000);
    double t0 = now();
    unsigned long c0 = total(k);
    unsigned long s0[MAX_SOCKETS];
    for (int i = 0; i < k; i++) {
        s0[i] = atomic_load(&rx[i].got);
    }
    long d0 = kernel_drops(port);
    usleep((useconds_t) (secs * 1e6));
    double t1 = now();
    unsigned long c1 = total(k);
    unsigned long s1[MAX_SOCKETS];
    for (int i = 0; i < k; i++) {
        s1[i] = atomic_load(&rx[i].got);
    }
    long d1 = kernel_drops(port);
    atomic_store(&stop, 1);
    printf("received=%lu seconds=%.3f pps=%.0f kernel_drops=%ld per_socket=", c1 - c0, t1 - t0,
           (c1 - c0) / (t1 - t0), d0 < 0 || d1 < 0 ? -1 : d1 - d0);
    for (int i = 0; i < k; i++) {
        printf(i ? ",%lu" : "%lu", s1[i] - s0[i]);
    }
    printf("\n");
    for (int i = 0; i < k; i++) {
        pthread_join(th[i], NULL);
        close(rx[i].fd);
    }
    return 0;
}
