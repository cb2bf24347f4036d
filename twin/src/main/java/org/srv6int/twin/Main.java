// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import java.net.URISyntaxException;
import java.util.Locale;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.twin.control.AppControl;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;
import org.srv6int.twin.model.VnfModels;
import org.srv6int.twin.dataplane.Dataplane;
import org.srv6int.twin.k8s.RealKubernetes;
import org.srv6int.twin.report.IndexPage;
import org.srv6int.twin.report.Outputs;
import org.srv6int.twin.report.Plots;
import org.srv6int.twin.report.Repeats;
import org.srv6int.twin.report.ScaleReport;
import org.srv6int.twin.scenario.Scale;
import org.srv6int.twin.scenario.Scenario;
import org.srv6int.twin.scenario.Scenarios;

/**
 * Command line of the testbed twin: {@code tools/twin <fig8|fig9|fig10|fig11|fig12|shared-worker|all> [options]}.
 * Exit status 0 on success, 2 on bad arguments, 1 on an I/O failure.
 */
public final class Main {
    static final String USAGE = String.join("\n",
            "usage: tools/twin <scenario>... [options]",
            "  scenarios: fig8 fig9 fig10 fig11 fig12 shared-worker all",
            "    scale                   leaf-spine fabric, 2.5 chains per worker, diurnal traffic + flash crowd",
            "                            (not in all; policy ours unless --policy; docs/twin.md section 14)",
            "  related systems (in all too; --policy does not apply):",
            "    numasfp                 NUMASFP Figs. 10-12, ours vs Octans, Node-balance, Node-first "
                    + "(docs/numasfp.md)",
            "    pushaside interference  CoCo push-aside, interference-aware co-location (docs/twin.md)",
            "  failures (in all too; issue 18, docs/twin.md): kill-replica rescale",
            "  --policy LIST     comma-separated subset of ours,none,vpa (default: all three)",
            "  --seed N          random seed, same seed gives the same files (default 1)",
            "  --repeat N        run seeds seed..seed+N-1; repeat.json and <scenario>-repeat.png give mean and",
            "                    95 % interval per chain (the other files are the first seed's; default 1)",
            "  --out DIR         output root (default out)",
            "  --no-plots        skip the PNG files",
            "  --quiet           no progress (else a bar on a terminal, a line per experiment otherwise)",
            "  --k8s fake|real   replica manager: in-process fake (default) or the real control plane",
            "  --dataplane emulated|bmv2   switches: emulated (default) or BMv2",
            "  --onos-instances N   the app on a cluster of N ONOS instances (default 1; docs/cluster.md)",
            "  --vnf-models assumed|measured   vNF service times: paper-calibrated (default) or measured on",
            "                    the real vNFs of vnf/ (docs/lab.md \"curves\"; docs/twin.md section 2)",
            "  --workers N       scale: workers (default 16), spread over leaves 2-7 of 8",
            "  --duration S      scale: simulated seconds (default 90)",
            "  -h, --help        this text");

    private Main() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        // The app core logs every chain and replica it adds at INFO, and the product's WARNs are the
        // experiments' subject here (kill-replica's failure detection, refused drains): a normal run
        // prints errors only. -Dorg.slf4j.simpleLogger.defaultLogLevel=warn (TWIN_JAVA_OPTS) shows them.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command line; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Scenarios::byName);
    }

    /** Runs the command line with scenarios found by name here (tests give their own). */
    static int run(String[] args, PrintStream out, PrintStream err, Function<String, Scenario> byName) {
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
        VnfModels.select(o.vnfModels); // the one place the vNF model is chosen, before anything runs
        List<Scenario> scenarios = new ArrayList<>();
        for (String s : o.scenarios) {
            Scenario sc;
            try {
                sc = "scale".equals(s) ? Scale.scenario(o.workers, o.seed, o.durationS) : byName.apply(s);
            } catch (IllegalArgumentException e) {
                err.println("twin: " + e.getMessage());
                err.println(USAGE);
                return 2;
            }
            try {
                sc.check(); // before anything runs: a bad testbed is named, not met half-way
            } catch (IllegalArgumentException e) {
                err.println("twin: " + e.getMessage());
                return 2;
            }
            scenarios.add(sc);
        }
        RealKubernetes k8s = null;
        Dataplane bmv2 = null;
        try {
            if (!"emulated".equals(o.dataplane) && o.scenarios.contains("scale")) {
                err.println("twin: scale runs on emulated switches only (BMv2 here has the paper's four)");
                return 2;
            }
            if ("real".equals(o.k8s)) {
                k8s = realKubernetes(err);
                if (k8s == null) {
                    return 2;
                }
            }
            String noDataplane = Dataplanes.unavailableReason(o.dataplane);
            if (noDataplane != null) {
                err.println("twin: --dataplane " + o.dataplane + " cannot run here: " + noDataplane
                        + " (docs/twin.md \"--dataplane bmv2\"); use --dataplane emulated");
                return 2;
            }
            if ("bmv2".equals(o.dataplane)) {
                try {
                    // switch processes: started once, reprogrammed by every run
                    bmv2 = Dataplanes.create(o.dataplane);
                } catch (IllegalStateException e) {
                    err.println("twin: " + e.getMessage());
                    return 2;
                }
                err.println("twin: dataplane " + bmv2);
            }
            int rc = runScenarios(scenarios, o, out, err, platforms(k8s), bmv2);
            return rc != 0 ? rc : runRelated(o, out, err);
        } finally {
            if (bmv2 != null) {
                bmv2.close();
            }
            if (k8s != null) {
                k8s.close();
            }
        }
    }

    /** The global loop's replica platform: simulated, or the bridge on the real control plane. */
    private static Function<AppControl, ReplicaPlatform> platforms(RealKubernetes k8s) {
        if (k8s == null) {
            return Runner.SIMULATED_K8S;
        }
        return c -> {
            // Each experiment sees only its own workers, holding the experiment's initial pods
            // (the inventory's replicas, with the CPU the model gives them) and nothing else.
            List<String> hosts = new ArrayList<>();
            c.fabric().hosts().forEach(h -> hosts.add(h.name()));
            List<RealKubernetes.InitialReplica> initial = new ArrayList<>();
            for (Sfc sfc : c.app().sfcs.getSfcs()) {
                for (VnfReplica r : c.app().inventory.getReplicas(sfc.id())) {
                    VnfInstance pod = c.pod(r.id());
                    if (pod == null) {
                        throw new IllegalStateException("inventory replica " + r.id() + " has no model pod");
                    }
                    initial.add(new RealKubernetes.InitialReplica(r.vnf(), r.id().name(), pod.host().name(),
                            Math.round(pod.allocation().get(Resource.CPU_QUOTA) * 1000)));
                }
            }
            k8s.reset(hosts, key -> typeLabel(c, key), c::requestMillis, initial);
            return k8s;
        };
    }

    private static String typeLabel(AppControl c, VnfKey key) {
        String vnf = c.vnfName(key);
        for (VnfInstance i : c.fabric().instances()) {
            if (i.vnf().equals(vnf)) {
                return i.type().label();
            }
        }
        throw new IllegalArgumentException("no pod of vNF " + vnf);
    }

    private static int runScenarios(List<Scenario> scenarios, Options o, PrintStream out, PrintStream err,
                                    Function<AppControl, ReplicaPlatform> platforms, Dataplane shared) {
        double total = 0;
        for (Scenario s : scenarios) {
            for (Supplier<Experiment> b : s.experiments()) {
                total += b.get().durationS() * o.policies.size();
            }
        }
        total *= o.repeat;
        Progress progress = new Progress(err, total, o.quiet ? Progress.Mode.QUIET : Progress.Mode.detect());
        try {
            for (Scenario s : scenarios) {
                // --repeat: seeds seed .. seed+N-1; the scenario's files are the first seed's,
                // repeat.json and the interval plot summarise all of them.
                Repeats repeats = new Repeats(s.name());
                for (int rep = 0; rep < o.repeat; rep++) {
                    long seed = o.seed + rep;
                    String seedTag = o.repeat > 1 ? " seed " + seed : "";
                    Map<Policy, List<RunResult>> byPolicy = new LinkedHashMap<>();
                    long wallNs = 0;
                    double cpuS = 0;
                    double simulatedS = 0;
                    for (Policy p : o.policies) {
                        List<RunResult> runs = new ArrayList<>();
                        for (Supplier<Experiment> b : s.experiments()) {
                            Experiment e = b.get();
                            String what = s.name() + "/" + p.key() + (e.label().isEmpty() ? "" : " " + e.label())
                                    + seedTag;
                            Dataplane dp = shared != null ? shared : Dataplanes.create(o.dataplane, e.topology());
                            long t0 = System.nanoTime();
                            double c0 = ScaleReport.processCpuS();
                            try {
                                runs.add(Runner.run(e, p, seed, platforms, dp, t -> progress.advance(what, t),
                                                   o.onosInstances));
                            } finally {
                                wallNs += System.nanoTime() - t0;
                                cpuS += ScaleReport.processCpuS() - c0;
                                simulatedS += e.durationS();
                                if (dp != shared) {
                                    dp.close();
                                }
                            }
                            progress.finishRun(what, e.durationS());
                        }
                        byPolicy.put(p, runs);
                    }
                    if (rep == 0) {
                        writeScenario(s, byPolicy, o, seed);
                        if ("scale".equals(s.name())) {
                            writeScale(s, byPolicy, o, simulatedS, wallNs / 1e9, cpuS, err);
                        }
                    }
                    repeats.add(seed, byPolicy);
                }
                if (o.repeat > 1) {
                    repeats.write(o.out.resolve(s.name()), o.plots);
                }
            }
        } catch (IOException e) {
            progress.done();
            err.println("twin: cannot write outputs: " + e.getMessage());
            return 1;
        }
        try {
            List<String> names = new ArrayList<>(Scenarios.names());
            names.add("scale");
            scenarios.forEach(s -> {
                if (!names.contains(s.name())) {
                    names.add(s.name());
                }
            });
            IndexPage.write(o.out, names);
        } catch (IOException e) {
            progress.done();
            err.println("twin: cannot write " + o.out.resolve("index.html") + ": " + e.getMessage());
            return 1;
        }
        progress.done();
        for (Scenario s : scenarios) {
            out.println("twin: " + s.name() + " -> " + o.out.resolve(s.name()));
        }
        out.println("twin: report -> " + o.out.resolve("index.html"));
        return 0;
    }

    /** The scale scenario's own files (docs/twin.md section 14) and its speed line. */
    private static void writeScale(Scenario s, Map<Policy, List<RunResult>> byPolicy, Options o, double simulatedS,
                                   double wallS, double cpuS, PrintStream err) throws IOException {
        org.srv6int.twin.model.Fabric f = s.experiments().get(0).get().fabric();
        List<String> flash = new ArrayList<>();
        f.chains().forEach(c -> {
            if (c.id().endsWith(Scale.FLASH_SUFFIX)) {
                flash.add(c.id());
            }
        });
        ScaleReport.Speed speed = new ScaleReport.Speed(o.workers, f.chains().size(), f.instances().size(), simulatedS,
                wallS, cpuS);
        RunResult first = byPolicy.values().iterator().next().get(0);
        ScaleReport.write(o.out.resolve(s.name()), first, flash, speed, o.plots);
        err.println(String.format(Locale.ROOT, "twin: scale %d workers, %d chains, %d vNFs: %.0f simulated s "
                + "in %.1f wall s = %.2f simulated s per wall s (%.1f CPU s: %.2f simulated s per CPU s); "
                + "peak RSS %.0f MiB, peak heap %.0f MiB", o.workers, speed.chains, speed.vnfs, simulatedS, wallS,
                speed.simPerWall(), cpuS, speed.simPerCpu(), ScaleReport.peakRssMib(), ScaleReport.peakHeapMib()));
    }

    /** The related systems' experiments (pushaside, interference): their own models. */
    private static int runRelated(Options o, PrintStream out, PrintStream err) {
        for (String r : o.related) {
            try {
                if (org.srv6int.twin.failover.FailoverExperiments.NAMES.contains(r)) {
                    org.srv6int.twin.failover.FailoverExperiments.run(r, o.out, o.plots, o.seed, o.policies, out);
                } else {
                    org.srv6int.twin.related.RelatedExperiments.run(r, o.out, o.plots, o.seed, out);
                }
            } catch (IOException e) {
                err.println("twin: cannot write outputs: " + e.getMessage());
                return 1;
            }
        }
        return 0;
    }

    /** One seed's files of a scenario: per policy CSVs and summary.json, the scenario's summary and plots. */
    private static void writeScenario(Scenario s, Map<Policy, List<RunResult>> byPolicy, Options o, long seed)
            throws IOException {
        Map<String, Object> side = new LinkedHashMap<>();
        for (Map.Entry<Policy, List<RunResult>> e : byPolicy.entrySet()) {
            Policy p = e.getKey();
            List<RunResult> runs = e.getValue();
            Path dir = o.out.resolve(s.name()).resolve(p.key());
            Outputs.writeCsv(dir, runs, s.experiments().size() > 1);
            Map<String, Object> ps = Outputs.policySummary(runs);
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("scenario", s.name());
            one.put("policy", p.key());
            one.put("seed", seed);
            one.putAll(ps);
            Outputs.writeJson(dir.resolve("summary.json"), one);
            side.put(p.key(), ps.get("chains"));
        }
        Map<String, Object> sum = new LinkedHashMap<>();
        sum.put("scenario", s.name());
        sum.put("title", s.title());
        sum.put("seed", seed);
        sum.put("policies", side);
        sum.put("settings", settings(s, o));
        if ("fig11".equals(s.name())) {
            sum.put("max_throughput_gbps", Outputs.fig11Table(byPolicy)); // Fig. 11 (a) and (b)
        }
        Outputs.writeJson(o.out.resolve(s.name()).resolve("summary.json"), sum);
        if (o.plots) {
            Plots.write(s, byPolicy, o.out.resolve(s.name()));
        }
    }

    /** The knobs a scenario ran with, for summary.json and the report page. */
    private static Map<String, Object> settings(Scenario s, Options o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("repeat", o.repeat);
        List<String> pols = new ArrayList<>();
        o.policies.forEach(p -> pols.add(p.key()));
        m.put("policies", pols);
        m.put("dataplane", o.dataplane);
        m.put("k8s", o.k8s);
        m.put("onos_instances", o.onosInstances);
        m.put("vnf_models", o.vnfModels.label());
        m.put("tick_s", Runner.DT_S);
        m.put("int_sampling", org.srv6int.twin.model.Fabric.INT_SAMPLING);
        Map<String, Object> exps = new LinkedHashMap<>();
        for (Supplier<Experiment> b : s.experiments()) {
            Experiment e = b.get();
            exps.put(e.label().isEmpty() ? "run" : e.label(), String.format(Locale.ROOT,
                    "%.0f s, t-hat %.1f s", e.durationS(), e.tHatS()));
        }
        m.put("experiments", exps);
        return m;
    }

    /**
     * {@code --k8s real}: starts the control plane of tools/k8s-testenv (or attaches to the one
     * {@value RealKubernetes#KUBECONFIG_ENV} names) and builds the app's replica platform on it
     * (docs/twin.md, "--k8s real"). Close it at the end: it stops what it started.
     *
     * @param err where to say why it cannot start
     * @return the platform, null (and the reason on err) when the control plane cannot start
     */
    static RealKubernetes realKubernetes(PrintStream err) {
        try {
            return RealKubernetes.start(repoRoot(), RealKubernetes.Settings.fromEnvironment());
        } catch (RealKubernetes.StartException e) {
            err.println("twin: --k8s real: " + e.getMessage());
            return null;
        }
    }

    /** The repository the twin runs from: above its jar (twin/target) or the working directory. */
    private static Path repoRoot() {
        List<Path> starts = new ArrayList<>();
        java.security.CodeSource cs = Main.class.getProtectionDomain().getCodeSource();
        if (cs != null) {
            try {
                starts.add(Paths.get(cs.getLocation().toURI()));
            } catch (URISyntaxException e) {
                // not a file: the working directory alone
            }
        }
        starts.add(Paths.get("").toAbsolutePath());
        for (Path p : starts) {
            for (Path d = p; d != null; d = d.getParent()) {
                if (Files.isExecutable(d.resolve("tools/k8s-testenv/start"))) {
                    return d;
                }
            }
        }
        return Paths.get("").toAbsolutePath();
    }

    /** Parsed options. */
    static final class Options {
        final List<String> scenarios = new ArrayList<>();
        final List<String> related = new ArrayList<>();
        final List<Policy> policies = new ArrayList<>();
        long seed = 1;
        int repeat = 1;
        Path out = Paths.get("out");
        boolean plots = true;
        boolean quiet;
        boolean help;
        String k8s = "fake";
        String dataplane = "emulated";
        int onosInstances = 1;
        int workers = Scale.DEFAULT_WORKERS;
        double durationS = Scale.DEFAULT_DURATION_S;
        VnfModels vnfModels = VnfModels.ASSUMED;

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
                    case "--repeat":
                        try {
                            o.repeat = Integer.parseInt(value(args, ++i, a));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--repeat needs an integer, got '" + args[i] + "'");
                        }
                        if (o.repeat < 1 || o.repeat > 100) {
                            throw new IllegalArgumentException("--repeat must be 1..100, got " + o.repeat);
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
                    case "--onos-instances":
                        try {
                            o.onosInstances = Integer.parseInt(value(args, ++i, a));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--onos-instances needs an integer, got '"
                                    + args[i] + "'");
                        }
                        if (o.onosInstances < 1 || o.onosInstances > 7) {
                            throw new IllegalArgumentException("--onos-instances must be 1..7, got " + o.onosInstances);
                        }
                        break;
                    case "--workers":
                        try {
                            o.workers = Integer.parseInt(value(args, ++i, a));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--workers needs an integer, got '" + args[i] + "'");
                        }
                        if (o.workers < 1 || o.workers > 256) {
                            throw new IllegalArgumentException("--workers must be 1..256, got " + o.workers);
                        }
                        break;
                    case "--duration":
                        try {
                            o.durationS = Double.parseDouble(value(args, ++i, a));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--duration needs seconds, got '" + args[i] + "'");
                        }
                        if (!(o.durationS >= 10 && o.durationS <= 86_400)) {
                            throw new IllegalArgumentException("--duration must be 10..86400 s, got " + args[i]);
                        }
                        break;
                    case "--vnf-models":
                        o.vnfModels = VnfModels.parse(value(args, ++i, a));
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
                            o.related.addAll(org.srv6int.twin.related.RelatedExperiments.NAMES);
                            o.related.addAll(org.srv6int.twin.failover.FailoverExperiments.NAMES);
                        } else if (org.srv6int.twin.related.RelatedExperiments.NAMES.contains(a)
                                || org.srv6int.twin.failover.FailoverExperiments.NAMES.contains(a)) {
                            if (!o.related.contains(a)) {
                                o.related.add(a);
                            }
                        } else {
                            o.scenarios.add(a); // looked up (and an unknown one refused) by run
                        }
                }
            }
            if (o.scenarios.isEmpty() && o.related.isEmpty() && !o.help) {
                throw new IllegalArgumentException("no scenario given");
            }
            if (o.policies.isEmpty() && o.scenarios.equals(List.of("scale"))) {
                o.policies.add(Policy.OURS); // the large scenario alone: our loops (docs/twin.md section 14)
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
}
