// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Runs {@link AgentBenchmark} and prints the figures with the ratio of
 * selection to full sort measured in the same run (tools/bench-agent).
 * Arguments: {@code [quick]} for short iterations.
 */
public final class AgentBench {

    private AgentBench() {
    }

    /**
     * Entry point.
     *
     * @param args "quick" for a short run
     * @throws RunnerException if JMH fails
     */
    public static void main(String[] args) throws RunnerException {
        boolean quick = args.length > 0 && "quick".equals(args[0]);
        OptionsBuilder ob = new OptionsBuilder();
        ob.include(AgentBenchmark.class.getName() + ".*").forks(1).threads(1);
        if (quick) {
            ob.warmupIterations(2).warmupTime(TimeValue.milliseconds(500))
                    .measurementIterations(3).measurementTime(TimeValue.milliseconds(500));
        }
        Options opts = ob.build();
        Collection<RunResult> results = new Runner(opts).run();
        Map<String, Double> score = new HashMap<>();
        Map<String, Double> error = new HashMap<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.') + 1);
            score.put(name, r.getPrimaryResult().getScore());
            error.put(name, r.getPrimaryResult().getScoreError());
        }
        double ingest = score.get("ingest");
        double select = score.get("p95Select");
        double sort = score.get("p95Sort");
        System.out.println();
        System.out.println("== node agent benchmark (1 thread = 1 core) ==");
        System.out.printf(Locale.ROOT,
                "samples ingested through windows + Algorithms 1-3: %.1f M/s (± %.1f); target >= 20 M/s: %s%n",
                ingest / 1e6, error.get("ingest") / 1e6, ingest >= 20e6 ? "MET" : "NOT MET");
        System.out.printf(Locale.ROOT, "L95 of 1500 samples, selection:   %.1f us/window (%.0f windows/s)%n",
                1e6 / select, select);
        System.out.printf(Locale.ROOT, "L95 of 1500 samples, full sort:   %.1f us/window (%.0f windows/s)%n",
                1e6 / sort, sort);
        System.out.printf(Locale.ROOT, "selection / sort speed-up: %.2fx%n", select / sort);
    }
}
