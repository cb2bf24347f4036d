package org.srv6int.app.loop;

import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.telemetry.UdpCollector;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the real collector (UdpCollector + TelemetryEngine) on 127.0.0.1:port; writes the report
 * payload the sender replays; from the first report on, counts accepted reports for the given
 * seconds and prints the rate and the collector thread's allocation per report.
 * Usage: CollectorUdpBench &lt;port&gt; &lt;seconds&gt; &lt;payload-file&gt;
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
        TelemetryEngine engine = BenchSetup.engine(System::nanoTime);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (UdpCollector c = new UdpCollector(engine, new InetSocketAddress("127.0.0.1", port), 4 << 20)) {
            long tid = -1;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("srv6int-int-collector")) {
                    tid = t.getId();
                }
            }
            System.out.println("ready");
            System.out.flush();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (engine.counters().datagrams() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            long t0 = System.nanoTime();
            long a0 = engine.counters().accepted();
            long d0 = engine.counters().datagrams();
            long b0 = mx.getThreadAllocatedBytes(tid);
            Thread.sleep((long) (secs * 1000));
            long t1 = System.nanoTime();
            long a1 = engine.counters().accepted();
            long d1 = engine.counters().datagrams();
            long b1 = mx.getThreadAllocatedBytes(tid);
            double s = (t1 - t0) / 1e9;
            System.out.printf("collector accepted=%d datagrams=%d seconds=%.3f reports_per_s=%.0f "
                                      + "bytes_allocated_per_report=%.3f%n",
                              a1 - a0, d1 - d0, s, (a1 - a0) / s, (b1 - b0) / (double) Math.max(1, d1 - d0));
            System.out.println("counters " + engine.counters());
        }
    }
}
