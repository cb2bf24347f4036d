// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.bench;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.function.LongSupplier;
import java.util.HashMap;
import java.util.Map;

/**
 * Launcher of the codec benchmark (tools/bench-codec): runs the benchmarks of
 * {@link ReportDecodeBenchmark} in one JMH run, single-threaded, with the GC
 * profiler, and prints reports/s per core, bytes allocated per op and the
 * flyweight/naive ratio measured in that same run.
 *
 * <p>Arguments (optional): warmup iterations, measurement iterations, seconds per iteration.
 */
public final class BenchMain {

    private BenchMain() {
    }

    /**
     * Runs the benchmark.
     *
     * @param args [warmups] [iterations] [seconds]
     * @throws RunnerException if JMH fails
     */
    public static void main(String[] args) throws RunnerException {
        int warmups = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include(ReportDecodeBenchmark.class.getName() + "\\.")
                .forks(1).threads(1)
                .warmupIterations(warmups).warmupTime(TimeValue.seconds(seconds))
                .measurementIterations(iterations).measurementTime(TimeValue.seconds(seconds))
                .addProfiler("gc")
                .jvmArgsAppend("-Xmx256m");
        Collection<RunResult> results = new Runner(o.build()).run();
        Map<String, double[]> m = new HashMap<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.') + 1);
            Result<?> primary = r.getPrimaryResult();
            Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
            m.put(name, new double[] {primary.getScore(), primary.getScoreError(),
                                      alloc == null ? Double.NaN : alloc.getScore()});
        }
        System.out.println();
        System.out.println("== SRv6-INT codec benchmark (1 thread = 1 core) ==");
        for (String n : new String[] {"flyweightReport", "naiveReport", "agentPeek"}) {
            double[] v = m.get(n);
            if (v != null) {
                System.out.printf("%-16s %,14.0f ops/s per core (± %,.0f)   %8.1f B/op%n", n, v[0], v[1], v[2]);
            }
        }
        // On a shared, overloaded machine wall-clock throughput understates what one core
        // does; also count operations per second of this thread's CPU time (same JVM, same data).
        ReportDecodeBenchmark b0 = new ReportDecodeBenchmark();
        b0.setup();
        double fly = perCpuSecond(b0::flyweightReport, seconds);
        double naive = perCpuSecond(b0::naiveReport, seconds);
        double peek = perCpuSecond(b0::agentPeek, seconds);
        System.out.printf("per CPU-second of the measuring thread: flyweight %,.0f, naive %,.0f, agentPeek %,.0f;"
                + " ratio %.2fx%n", fly, naive, peek, fly / naive);
        double[] f = m.get("flyweightReport");
        double[] b = m.get("naiveReport");
        if (f != null && b != null) {
            System.out.printf("target (>= 10 M reports/s per core, 0 B/op) by CPU time: %s%n",
                    fly >= 10e6 && f[2] < 1 ? "met" : "NOT met");
            System.out.printf("JMH flyweight / naive throughput ratio: %.2fx (same run); wall-clock target >= 10 M/s"
                    + " per core and 0 B/op: %s%n", f[0] / b[0],
                    f[0] >= 10e6 && f[2] < 1 ? "met" : "NOT met");
        }
    }

    /** Runs op for a warm-up then for about {@code seconds} of CPU time; returns ops per CPU-second. */
    private static double perCpuSecond(LongSupplier op, int seconds) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (int i = 0; i < 5_000_000; i++) {
            sink += op.getAsLong();
        }
        long ops = 0;
        long t0 = mx.getCurrentThreadCpuTime();
        long budget = Math.max(1, seconds) * 2_000_000_000L;
        long t;
        do {
            for (int i = 0; i < 100_000; i++) {
                sink += op.getAsLong();
            }
            ops += 100_000;
            t = mx.getCurrentThreadCpuTime();
        } while (t - t0 < budget);
        if (sink == 42) {
            System.out.print("");
        }
        return ops * 1e9 / (t - t0);
    }
}
