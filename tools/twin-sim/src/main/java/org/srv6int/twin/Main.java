package org.srv6int.twin;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.srv6int.twin.report.Outputs;
import org.srv6int.twin.report.Plots;
import org.srv6int.twin.scenario.Scenario;
import org.srv6int.twin.scenario.Scenarios;

/**
 * Command line of the testbed twin: {@code tools/twin <fig8|fig9|fig10|fig11|fig12|all> [options]}.
 * Exit status 0 on success, 2 on bad arguments, 1 on an I/O failure.
 */
public final class Main {
    static final String USAGE = String.join("\n",
            "usage: tools/twin <scenario>... [options]",
            "  scenarios: fig8 fig9 fig10 fig11 fig12 all",
            "  --policy LIST     comma-separated subset of ours,none,vpa (default: all three)",
            "  --seed N          random seed, same seed gives the same files (default 1)",
            "  --out DIR         output root (default out)",
            "  --no-plots        skip the PNG files",
            "  --quiet           no progress bar",
            "  --local-loop twin|agent  local loop: the twin's own (default) or the node agent's LocalLoop",
            "  --k8s fake|real   replica manager: in-process fake (default) or the real control plane",
            "  --dataplane emulated|bmv2   switches: emulated (default) or BMv2",
            "  -h, --help        this text");

    private Main() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        // The app core logs every chain and replica it adds at INFO; keep the progress bar readable.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command line; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("twin: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (o.help) {
            out.println(USAGE);
            return 0;
        }
        if (!"fake".equals(o.k8s)) {
            err.println("twin: --k8s real is not available in this build: the Kubernetes bridge has not "
                    + "landed in the twin yet (docs/twin.md section 6); use --k8s fake");
            return 2;
        }
        if (!"emulated".equals(o.dataplane)) {
            err.println("twin: --dataplane bmv2 is not implemented (docs/twin.md section 6); "
                    + "use --dataplane emulated");
            return 2;
        }
        List<Scenario> scenarios = new ArrayList<>();
        for (String s : o.scenarios) {
            scenarios.add(Scenarios.byName(s));
        }
        double total = 0;
        for (Scenario s : scenarios) {
            for (Supplier<Experiment> b : s.experiments()) {
                total += b.get().durationS() * o.policies.size();
            }
        }
        Progress progress = new Progress(err, total, o.quiet);
        try {
            for (Scenario s : scenarios) {
                Map<Policy, List<RunResult>> byPolicy = new LinkedHashMap<>();
                Map<String, Object> side = new LinkedHashMap<>();
                for (Policy p : o.policies) {
                    List<RunResult> runs = new ArrayList<>();
                    for (Supplier<Experiment> b : s.experiments()) {
                        Experiment e = b.get();
                        String what = s.name() + "/" + p.key() + (e.label().isEmpty() ? "" : " " + e.label());
                        runs.add(Runner.run(e, p, o.seed, "agent".equals(o.localLoop), t -> progress.advance(what, t)));
                        progress.finishRun(e.durationS());
                    }
                    Path dir = o.out.resolve(s.name()).resolve(p.key());
                    Outputs.writeCsv(dir, runs, s.experiments().size() > 1);
                    Map<String, Object> ps = Outputs.policySummary(runs);
                    Map<String, Object> one = new LinkedHashMap<>();
                    one.put("scenario", s.name());
                    one.put("policy", p.key());
                    one.put("seed", o.seed);
                    one.put("local_loop", o.localLoop);
                    one.putAll(ps);
                    Outputs.writeJson(dir.resolve("summary.json"), one);
                    side.put(p.key(), ps.get("chains"));
                    byPolicy.put(p, runs);
                }
                Map<String, Object> sum = new LinkedHashMap<>();
                sum.put("scenario", s.name());
                sum.put("title", s.title());
                sum.put("seed", o.seed);
                sum.put("policies", side);
                Outputs.writeJson(o.out.resolve(s.name()).resolve("summary.json"), sum);
                if (o.plots) {
                    Plots.write(s, byPolicy, o.out.resolve(s.name()));
                }
            }
        } catch (IOException e) {
            progress.done();
            err.println("twin: cannot write outputs: " + e.getMessage());
            return 1;
        }
        progress.done();
        for (Scenario s : scenarios) {
            out.println("twin: " + s.name() + " -> " + o.out.resolve(s.name()));
        }
        return 0;
    }

    /** Parsed options. */
    static final class Options {
        final List<String> scenarios = new ArrayList<>();
        final List<Policy> policies = new ArrayList<>();
        long seed = 1;
        Path out = Paths.get("out");
        boolean plots = true;
        boolean quiet;
        boolean help;
        String k8s = "fake";
        String dataplane = "emulated";
        String localLoop = "twin";

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "-h":
                    case "--help":
                        o.help = true;
                        break;
                    case "--policy":
                        for (String p : value(args, ++i, a).split(",")) {
                            Policy pol = Policy.parse(p.trim());
                            if (!o.policies.contains(pol)) {
                                o.policies.add(pol);
                            }
                        }
                        break;
                    case "--seed":
                        try {
                            o.seed = Long.parseLong(value(args, ++i, a));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--seed needs an integer, got '" + args[i] + "'");
                        }
                        break;
                    case "--out":
                        o.out = Paths.get(value(args, ++i, a));
                        break;
                    case "--no-plots":
                        o.plots = false;
                        break;
                    case "--quiet":
                        o.quiet = true;
                        break;
                    case "--k8s":
                        o.k8s = oneOf(value(args, ++i, a), a, "fake", "real");
                        break;
                    case "--local-loop":
                        o.localLoop = oneOf(value(args, ++i, a), a, "twin", "agent");
                        break;
                    case "--dataplane":
                        o.dataplane = oneOf(value(args, ++i, a), a, "emulated", "bmv2");
                        break;
                    default:
                        if (a.startsWith("-")) {
                            throw new IllegalArgumentException("unknown option " + a);
                        }
                        if ("all".equals(a)) {
                            o.scenarios.addAll(Scenarios.names());
                        } else {
                            Scenarios.byName(a);
                            o.scenarios.add(a);
                        }
                }
            }
            if (o.scenarios.isEmpty() && !o.help) {
                throw new IllegalArgumentException("no scenario given");
            }
            if (o.policies.isEmpty()) {
                o.policies.add(Policy.OURS);
                o.policies.add(Policy.NONE);
                o.policies.add(Policy.VPA);
            }
            return o;
        }

        private static String value(String[] args, int i, String opt) {
            if (i >= args.length) {
                throw new IllegalArgumentException(opt + " needs a value");
            }
            return args[i];
        }

        private static String oneOf(String v, String opt, String... allowed) {
            for (String a : allowed) {
                if (a.equals(v)) {
                    return v;
                }
            }
            throw new IllegalArgumentException(opt + " must be one of " + String.join(", ", allowed) + ", got '"
                    + v + "'");
        }
    }

    /** Progress bar on stderr, in simulated seconds over all runs. */
    static final class Progress {
        private final PrintStream err;
        private final double total;
        private final boolean quiet;
        private double doneBefore;
        private long lastPrintNs;

        Progress(PrintStream err, double total, boolean quiet) {
            this.err = err;
            this.total = total;
            this.quiet = quiet;
        }

        void advance(String what, double simS) {
            long now = System.nanoTime();
            if (quiet || now - lastPrintNs < 200_000_000L) {
                return;
            }
            lastPrintNs = now;
            double f = Math.min(1, (doneBefore + simS) / total);
            int w = 30;
            int k = (int) Math.round(f * w);
            err.print(String.format(Locale.ROOT, "\r[%s%s] %3.0f%% %-36s t=%5.1f s", "#".repeat(k),
                    ".".repeat(w - k), f * 100, what, simS));
            err.flush();
        }

        void finishRun(double durationS) {
            doneBefore += durationS;
        }

        void done() {
            if (!quiet) {
                err.print(String.format(Locale.ROOT, "\r[%s] 100%% done%s\n", "#".repeat(30), " ".repeat(48)));
                err.flush();
            }
        }
    }
}
