// SPDX-License-Identifier: Apache-2.0
package org.srv6int.bench;

import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.telemetry.TelemetryShards;
import org.srv6int.app.telemetry.UdpCollector;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the real collector (UdpCollector with k receive threads + their TelemetryEngine shards)
 * on 127.0.0.1:port; writes the report payload the sender replays; from 1 s after the first
 * report on, counts accepted reports for the given seconds and prints the rate, the datagrams per receive
 * thread, the kernel's drops on the port and the receive threads' allocation per report.
 * Usage: CollectorUdpBench &lt;port&gt; &lt;seconds&gt; &lt;payload-file&gt; [threads] [flows]
 */
public final class CollectorUdpBench {

    private CollectorUdpBench() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        double secs = Double.parseDouble(args[1]);
        Files.write(Path.of(args[2]), BenchSetup.report(0));
        if (secs <= 0) {
            return;
        }
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        int flows = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        TelemetryShards shards = BenchSetup.shards(System::nanoTime, threads, flows);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (UdpCollector c = new UdpCollector(shards, threads, new InetSocketAddress("127.0.0.1", port), 4 << 20)) {
            List<Long> tids = new ArrayList<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith("srv6int-int-collector-")) {
                    tids.add(t.getId());
                }
            }
            System.out.println("ready");
            System.out.flush();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (shards.counters().datagrams() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            // As the C sink: measure from 1 s after the first report (JIT warm-up).
            Thread.sleep(1000);
            long t0 = System.nanoTime();
            List<CollectorCounters> s0 = shards.shardCounters();
            CollectorCounters c0 = CollectorCounters.sum(s0);
            long k0 = c.kernelDrops();
            long b0 = allocated(mx, tids);
            Thread.sleep((long) (secs * 1000));
            long t1 = System.nanoTime();
            List<CollectorCounters> s1 = shards.shardCounters();
            CollectorCounters c1 = CollectorCounters.sum(s1);
            long k1 = c.kernelDrops();
            long b1 = allocated(mx, tids);
            double s = (t1 - t0) / 1e9;
            StringBuilder per = new StringBuilder();
            for (int i = 0; i < s1.size(); i++) {
                per.append(i == 0 ? "" : ",").append(s1.get(i).datagrams() - s0.get(i).datagrams());
            }
            long d = c1.datagrams() - c0.datagrams();
            System.out.printf("collector threads=%d accepted=%d datagrams=%d seconds=%.3f reports_per_s=%.0f "
                                      + "kernel_drops=%d per_thread=%s bytes_allocated_per_report=%.3f%n",
                              threads, c1.accepted() - c0.accepted(), d, s, (c1.accepted() - c0.accepted()) / s,
                              k0 < 0 || k1 < 0 ? -1 : k1 - k0, per, (b1 - b0) / (double) Math.max(1, d));
            System.out.println("counters " + c1);
        }
    }

    private static long allocated(com.sun.management.ThreadMXBean mx, List<Long> tids) {
        long n = 0;
        for (long t : tids) {
            n += mx.getThreadAllocatedBytes(t);
        }
        return n;
    }
}
