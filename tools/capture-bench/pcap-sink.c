// SPDX-License-Identifier: Apache-2.0
/* Baseline of the capture benchmark (tools/bench-capture): the least a libpcap
 * reader does. Opens IFACE like the agent's PcapLatencySource.live (snap length
 * 512, non-promiscuous, 100 ms timeout, 8 MiB ring, the same BPF filter), reads frames
 * with pcap_next_ex for WARMUP + SECONDS and prints how many it read in the last
 * SECONDS and the CPU seconds (user + system) it used meanwhile, touching one
 * byte of each frame so the frame is really read.
 * usage: pcap-sink IFACE WARMUP SECONDS */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double cpu(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: pcap-sink IFACE WARMUP SECONDS\n");
        return 2;
    }
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_create(argv[1], err);
    if (!p) {
        fprintf(stderr, "pcap-sink: %s\n", err);
        return 1;
    }
    pcap_set_snaplen(p, 512);
    pcap_set_promisc(p, 0);
    pcap_set_timeout(p, 100);
    pcap_set_buffer_size(p, 8 << 20);
    if (pcap_activate(p) < 0) {
        fprintf(stderr, "pcap-sink: %s\n", pcap_geterr(p));
        return 1;
    }
    struct bpf_program prog;
    if (pcap_compile(p, &prog, "ip6 and ip6[6] == 43 and ip6[42] == 4", 1, PCAP_NETMASK_UNKNOWN) < 0
            || pcap_setfilter(p, &prog) < 0) {
        fprintf(stderr, "pcap-sink: filter: %s\n", pcap_geterr(p));
        return 1;
    }
    double start = now(), from = start + atof(argv[2]), end = from + atof(argv[3]);
    unsigned long counted = 0, sum = 0;
    double cpu0 = -1;
    struct pcap_pkthdr *h;
    const u_char *d;
    for (double t = now(); t < end; t = now()) {
        int r = pcap_next_ex(p, &h, &d);
        if (r == 1) {
            sum += d[h->caplen - 1];
            if (t >= from) {
                if (cpu0 < 0) {
                    cpu0 = cpu();
                }
                counted++;
            }
        } else if (r < 0) {
            fprintf(stderr, "pcap-sink: %s\n", pcap_geterr(p));
            return 1;
        }
    }
    printf("frames %lu seconds %s cpu %.3f checksum %lu\n", counted, argv[3], cpu0 < 0 ? 0 : cpu() - cpu0, sum);
    pcap_close(p);
    return 0;
}
