// SPDX-License-Identifier: Apache-2.0
package org.srv6int.bench;

import org.srv6int.app.export.ExportCounters;
import org.srv6int.app.export.ExportRecord;
import org.srv6int.app.export.IntReportSettings;
import org.srv6int.app.export.IntReportTap;
import org.srv6int.app.api.model.SampledReport;
import org.srv6int.app.telemetry.TelemetryEngine;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The collector's hot path with the per-report export's hook off and on, in the same run: one
 * engine fed in-process (as {@link InProcessCpuBench}), rounds alternating off / on, each timed
 * by the thread's CPU time; with the hook on, the engine samples into the real
 * {@link IntReportTap} and a second thread drains it into Kafka records, as the export thread
 * does. Prints the rate of each round, the allocated bytes per report, and the ratio on / off of
 * the best rounds. Usage: ReportTapBench [reports per round (default 5M)] [pairs (default 3)]
 * [sampleEvery (default 100)] [maxPerSecond (default 1000)]
 */
public final class ReportTapBench {

    private ReportTapBench() {
    }

    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int every = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int perSecond = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
        long[] fake = {0};
        TelemetryEngine engine = BenchSetup.engine(() -> fake[0]);
        int size = 1024;
        byte[][] reports = new byte[size][];
        for (int i = 0; i < size; i++) {
            reports[i] = BenchSetup.report(i);
        }
        ExportCounters counters = new ExportCounters();
        IntReportTap tap = new IntReportTap(new IntReportSettings(every, perSecond, 10_000), counters);
        AtomicBoolean draining = new AtomicBoolean(true);
        long[] drained = {0, 0}; // records, JSON bytes (read after join)
        Thread drain = new Thread(() -> {
            while (draining.get()) {
                SampledReport r = tap.poll();
                if (r == null) {
                    Thread.onSpinWait();
                    continue;
                }
                drained[0]++;
                drained[1] += IntReportTap.record(r, "onos-1", System.currentTimeMillis(), every).value().length();
            }
        }, "drain");
        drain.setDaemon(true);
        drain.start();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long[] seq = {0};
        double bestOff = 0;
        double bestOn = 0;
        for (int round = 0; round < 2 * pairs; round++) {
            boolean on = round % 2 == 1;
            engine.setReportTap(on ? tap : null, perSecond);
            long a0 = mx.getThreadAllocatedBytes(tid);
            long c0 = mx.getCurrentThreadCpuTime();
            long accepted = 0;
            for (long i = 0; i < n; i++) {
                long s = seq[0]++;
                byte[] b = reports[(int) (s & (size - 1))];
                b[4] = (byte) (s >>> 24);
                b[5] = (byte) (s >>> 16);
                b[6] = (byte) (s >>> 8);
                b[7] = (byte) s;
                if (engine.onReport(b, 0, b.length, 0x7F000001)) {
                    accepted++;
                }
                if ((s & 0xFFFF) == 0xFFFF) {
                    fake[0] += 500_000_000L; // a window every 65,536 reports: 131 k reports/s of clock
                    engine.roll();
                }
            }
            long cpu = mx.getCurrentThreadCpuTime() - c0;
            long alloc = mx.getThreadAllocatedBytes(tid) - a0;
            double rate = accepted / (cpu / 1e9);
            if (on) {
                bestOn = Math.max(bestOn, rate);
            } else {
                bestOff = Math.max(bestOff, rate);
            }
            System.out.printf("round %d hook %-3s: %.0f reports per CPU-second, %.1f allocated bytes/report%n",
                              round, on ? "on" : "off", rate, alloc / (double) n);
        }
        draining.set(false);
        drain.join(1000);
        System.out.printf("sampled: %d records built by the drain thread (%d bytes of JSON), %d dropped (queue full)%n",
                          drained[0], drained[1],
                          counters.get(ExportRecord.Kind.INT_REPORT, ExportCounters.Result.DROPPED_QUEUE_FULL));
        System.out.printf("report-tap: off %.0f, on %.0f reports per CPU-second: ratio on/off %.3f "
                                  + "(1/%d sampled, <= %d/s)%n", bestOff, bestOn, bestOn / bestOff, every, perSecond);
    }
}
