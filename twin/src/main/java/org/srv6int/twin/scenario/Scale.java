// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.twin.Experiment;
import org.srv6int.twin.control.Topology;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfType;

/**
 * The large scenario ({@code tools/twin scale}, docs/twin.md section 14), generated from a worker
 * count and a seed: a leaf-spine fabric of {@value #SPINES} spines and {@value #LEAVES} leaves,
 * the traffic source on leaf 1 and the sink and collector on the last leaf (border leaves),
 * workers spread round-robin over the leaves between them, each with {@value #NUMA_NODES} NUMA nodes that each
 * have their own NIC port on the leaf and are a node of their own for the app, the platform and
 * a node agent; {@value #CHAINS_PER_WORKER} chains per worker (40 for 16 workers) of 2-4 vNFs of
 * the paper's four types, each vNF on the next NUMA node with room; diurnal traffic (the run is
 * one day) and a flash crowd of {@value #FLASH_GBPS} Gbit/s more on about one chain in ten
 * (chains with a Snort).
 */
public final class Scale {
    /** Spines. */
    public static final int SPINES = 2;
    /** Leaves. */
    public static final int LEAVES = 8;
    /** NUMA nodes per worker. */
    public static final int NUMA_NODES = 2;
    /** Chains per worker. */
    public static final double CHAINS_PER_WORKER = 2.5;
    /** Default workers. */
    public static final int DEFAULT_WORKERS = 16;
    /** Default simulated duration, seconds. */
    public static final double DEFAULT_DURATION_S = 90;
    /** Rate a flash crowd adds to its chain, Gbit/s (more than one Snort's NUMA node serves). */
    public static final double FLASH_GBPS = 2.0;
    /** The flash crowd's start and end as fractions of the run. */
    public static final double FLASH_FROM = 0.3;
    /** End of the flash crowd, fraction of the run. */
    public static final double FLASH_TO = 0.55;
    /** One packet in this many is INT-sampled (the testbed's 16 would be 40 k reports/s per 10 chains). */
    public static final int INT_SAMPLING = 64;
    /** Detection Results per vNF per 1 ms tick handed to the node agent (a uniform subsample). */
    public static final int DETECTIONS_PER_TICK = 16;
    /** Label prefix of the flash-crowd chains' ids. */
    public static final String FLASH_SUFFIX = "-flash";

    /** Start allocation per type (VnfType order), sized for about 0.5 Gbit/s. */
    static final Allocation[] START = {
        new Allocation(0.5, 1, 10, 1200), new Allocation(2.0, 2, 20, 1900),
        new Allocation(1.0, 2, 20, 1500), new Allocation(1.0, 2, 20, 1500)};

    private Scale() {
    }

    /**
     * The scenario with the default duration.
     *
     * @param workers number of workers (1..256)
     * @param seed    generator seed (same seed, same fabric)
     * @return scenario "scale"
     */
    public static Scenario scenario(int workers, long seed) {
        return scenario(workers, seed, DEFAULT_DURATION_S);
    }

    /**
     * The scenario.
     *
     * @param workers   number of workers (1..256)
     * @param seed      generator seed (same seed, same fabric)
     * @param durationS simulated seconds
     * @return scenario "scale"
     */
    public static Scenario scenario(int workers, long seed, double durationS) {
        if (workers < 1 || workers > 256) {
            throw new IllegalArgumentException("--workers must be 1..256, got " + workers);
        }
        if (!(durationS >= 10)) {
            throw new IllegalArgumentException("--duration must be at least 10 s, got " + durationS);
        }
        String title = String.format(Locale.ROOT, "Leaf-spine fabric (%d spines, %d leaves), %d workers of %d NUMA "
                + "nodes, %d chains, diurnal traffic and a flash crowd", SPINES, LEAVES, workers, NUMA_NODES,
                chains(workers));
        return new Scenario("scale", title, List.of(() -> build(workers, seed, durationS)));
    }

    /** Chains for a worker count. */
    public static int chains(int workers) {
        return Math.max(1, (int) Math.round(CHAINS_PER_WORKER * workers));
    }

    /** Node name of a worker's NUMA node (both 1-based / 0-based as Linux numbers them). */
    public static String nodeName(int worker, int numa) {
        return String.format(Locale.ROOT, "worker%d-numa%d", worker, numa);
    }

    /**
     * The leaf of a worker: leaves 2 .. {@value #LEAVES} - 1 in turn. The border leaves hold no
     * worker: with a vNF on the ingress leaf the switches drop the chain's flows (NO_ROUTE at the
     * ingress, seen in a first version of this scenario; docs/twin.md section 14).
     */
    static int leafOf(int worker) {
        return 2 + (worker - 1) % (LEAVES - 2);
    }

    static Experiment build(int workers, long seed, double durationS) {
        SplittableRandom rnd = new SplittableRandom(seed ^ 0x5CA1EL);
        Fabric f = new Fabric().withIntSampling(INT_SAMPLING).withMaxDetectionsPerTick(DETECTIONS_PER_TICK);
        List<List<String>> servers = new ArrayList<>();
        for (int l = 0; l < LEAVES; l++) {
            servers.add(new ArrayList<>());
        }
        List<Host> pools = new ArrayList<>();
        for (int numa = 0; numa < NUMA_NODES; numa++) {
            for (int w = 1; w <= workers; w++) {
                int leaf = leafOf(w);
                Host h = f.addHost(new Host(nodeName(w, numa), "leaf" + leaf));
                pools.add(h);
            }
        }
        // port order on each leaf: a worker's NUMA nodes side by side
        for (int w = 1; w <= workers; w++) {
            for (int numa = 0; numa < NUMA_NODES; numa++) {
                servers.get(leafOf(w) - 1).add(nodeName(w, numa));
            }
        }
        int n = chains(workers);
        int flash = Math.max(1, (int) Math.round(n / 10.0));
        int next = 0;
        int vnf = 0;
        Map<String, Allocation> templates = new LinkedHashMap<>();
        double linksSum = 0;
        for (int c = 1; c <= n; c++) {
            int k = 2 + rnd.nextInt(3);
            List<VnfType> types = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                types.add(VnfType.values()[rnd.nextInt(VnfType.values().length)]);
            }
            boolean crowd = flash > 0 && types.contains(VnfType.SNORT);
            if (crowd) {
                flash--;
            }
            List<String> vnfs = new ArrayList<>();
            for (VnfType t : types) {
                String v = "vnf" + ++vnf;
                Allocation a = START[t.ordinal()];
                int tried = 0;
                while (!fits(pools.get(next % pools.size()), a)) {
                    next++;
                    if (++tried > pools.size()) {
                        throw new IllegalStateException("scale: no NUMA node has room for " + v + " of chain " + c
                                + " (" + workers + " workers)");
                    }
                }
                pools.get(next % pools.size()).addInstance(v, t, a, 0);
                templates.put(v, a); // a new replica asks for the type's start allocation, not what its first grew to
                next++;
                vnfs.add(v);
            }
            double base = 0.15 + 0.2 * rnd.nextDouble();
            double phase = (rnd.nextDouble() - 0.5) * 0.1;
            DoubleUnaryOperator rate = diurnal(base, phase, durationS, crowd);
            String id = String.format(Locale.ROOT, "sfc%d%s", c, crowd ? FLASH_SUFFIX : "");
            f.addChain(new Chain(id, vnfs, rate, Scenarios.SIZE, Scenarios.BOUND_US));
            linksSum += 2 * (k + 1);
        }
        // Every leg (ingress, vNF to vNF, egress) leaf to leaf crosses a spine: two links (an
        // upper bound: vNFs on one leaf skip them); the load spreads over every leaf-spine link.
        double meanLinks = linksSum / n;
        f.withCore(ch -> 2 * (ch.vnfs().size() + 1), meanLinks / (2.0 * SPINES * LEAVES));
        Topology topo = sizedCollector(Topology.leafSpine(SPINES, LEAVES, servers), n, vnf);
        Experiment e = new Experiment("", f, durationS).withTopology(topo);
        templates.forEach(e::withReplicaTemplate);
        return e;
    }

    /**
     * Sets the collector's limits in the app's netcfg from the scenario, as an operator would:
     * twice its chains and vNFs and eight replicas a vNF (the app defaults' ratio), at least the
     * defaults. The app refuses bindings beyond them (docs/collector.md), 32 workers' 258 vNFs
     * among them.
     */
    static Topology sizedCollector(Topology t, int chains, int vnfs) {
        ObjectNode root = (ObjectNode) t.netcfg();
        ObjectNode c = (ObjectNode) root.path("apps").path("org.srv6int.app").path("srv6int").path("collector");
        int maxVnfs = Math.max(Srv6IntAppConfig.DEFAULT_MAX_VNFS, 2 * vnfs);
        c.put("maxChains", Math.max(Srv6IntAppConfig.DEFAULT_MAX_CHAINS, 2 * chains));
        c.put("maxVnfs", maxVnfs);
        c.put("maxReplicas", Math.max(Srv6IntAppConfig.DEFAULT_MAX_REPLICAS, 8 * maxVnfs));
        return new Topology(t.switches(), t.links(), root, t.ingress(), t.egress());
    }

    private static boolean fits(Host h, Allocation a) {
        for (Resource r : Resource.values()) {
            if (h.free(r) < a.get(r) - 1e-9) {
                return false;
            }
        }
        return true;
    }

    /**
     * The run is one day: from 0.4 of the base rate at night (t = 0) to the base at midday
     * (half the run), per-chain phase a few percent; a flash crowd adds {@link #FLASH_GBPS} from
     * {@link #FLASH_FROM} to {@link #FLASH_TO} of the run with 1 s ramps.
     */
    static DoubleUnaryOperator diurnal(double base, double phase, double durationS, boolean crowd) {
        double from = FLASH_FROM * durationS;
        double to = FLASH_TO * durationS;
        return t -> {
            double day = 0.7 - 0.3 * Math.cos(2 * Math.PI * (t / durationS + phase));
            double g = base * day;
            if (crowd) {
                double up = Math.min(1, Math.max(0, t - from)) * (t < to ? 1 : Math.max(0, 1 - (t - to)));
                g += FLASH_GBPS * up;
            }
            return g;
        };
    }
}
