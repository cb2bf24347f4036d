package org.srv6int.codec.bench;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.Collection;
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
        double[] f = m.get("flyweightReport");
        double[] b = m.get("naiveReport");
        if (f != null && b != null) {
            System.out.printf("flyweight / naive throughput ratio: %.2fx (same run); target >= 10 M reports/s"
                    + " per core and 0 B/op: %s%n", f[0] / b[0],
                    f[0] >= 10e6 && f[2] < 1 ? "met" : "NOT met");
        }
    }
}
