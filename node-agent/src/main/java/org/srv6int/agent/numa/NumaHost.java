// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.numa;

import java.util.Arrays;
import org.srv6int.agent.actuate.ContainerCgroup;
import org.srv6int.agent.actuate.CpuList;
import org.srv6int.agent.actuate.CpusetActuator;
import org.srv6int.agent.actuate.HostFiles;
import org.srv6int.agent.actuate.Resctrl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * NUMASFP on a live node: the {@link NumaSfp} engine fed with each chain's packet rate and
 * violations, its decisions applied to the kernel. Every chain has one resctrl group
 * ({@code srv6int-chain-<id>}) holding the threads of all its vNFs, so its LLC ways and memory
 * bandwidth are allocated jointly (Max_alloc); a chain's vNFs have the cpus and memory of
 * its node in {@code cpuset.cpus}/{@code cpuset.mems} (cgroup v2 moves the pages when mems
 * changes; on v1 {@link CpusetActuator} sets {@code cpuset.memory_migrate} so it does too). On each node the chains'
 * LLC masks are contiguous and do not overlap, in chain id
 * order; in the other domains a group keeps only the lowest min_cbm_bits ways and the least
 * bandwidth (it has no threads there). A write that fails is counted and retried next interval.
 *
 * <p>Loop thread only, except {@link #onSample} (the packet thread, the same thread in the agent).
 */
public final class NumaHost {

    /** Prefix of the per-chain resctrl group. */
    public static final String GROUP_PREFIX = "srv6int-chain-";

    /** One vNF as NUMASFP sees it. */
    public static final class Member {
        final String name;
        final String chain;
        final String type;
        final ContainerCgroup cgroup;
        final int askedNode;

        /**
         * Creates a member.
         *
         * @param name vNF name
         * @param chainId its chain
         * @param type profile row (null: {@link NumaProfile#ANY})
         * @param cgroup its container cgroup (null: unknown, the chain is left alone)
         * @param askedNode NUMA node its pod asks for ({@code srv6int.org/numa-node}), -1 if none
         */
        public Member(String name, int chainId, String type, ContainerCgroup cgroup, int askedNode) {
            this.name = name;
            this.chain = Integer.toString(chainId);
            this.type = type == null ? NumaProfile.ANY : type;
            this.cgroup = cgroup;
            this.askedNode = askedNode;
        }
    }

    /** Receives each decision (decision log, events); must not block. */
    public interface Listener {
        /**
         * The engine decided.
         *
         * @param d what and why
         */
        void onDecision(NumaDecision d);
    }

    private final HostFiles host;
    private final NumaConfig config;
    private final Listener listener;
    private final NumaSfp engine;
    private final List<Member> members;
    private final Map<String, List<Integer>> chainMembers = new LinkedHashMap<>();
    private final List<BitSet> nodeCpus = new ArrayList<>();
    private final int[] domainOfNode;
    private final long cbmMask;
    private final int lowestBit;
    private final int totalWays;
    private final int minBits;
    private final long mbGranularity;
    private final long mbMin;
    private final long[] samples;
    private final Map<Path, String> written = new HashMap<>();
    private final Map<NumaDecision.Kind, Long> decisions = new TreeMap<>();
    private final List<String> notes = new ArrayList<>();
    private long writeErrors;
    private String lastError;
    private long lastIntervalNanos = Long.MIN_VALUE;

    /**
     * Why NUMASFP cannot run on a host, or null if it can: two or more online NUMA nodes, the
     * NIC's node known, resctrl with both L3 CAT and MBA.
     *
     * @param host host files
     * @param nicNode NUMA node of the NIC, -1 if unknown
     * @return reason or null
     */
    public static String unavailableReason(HostFiles host, int nicNode) {
        List<Integer> nodes;
        try {
            nodes = onlineNodes(host);
        } catch (IOException | IllegalArgumentException e) {
            return "NUMA nodes unreadable: " + e.getMessage();
        }
        if (nodes.size() < 2) {
            return "one NUMA node (" + nodes + "): nothing to place or migrate";
        }
        if (nicNode < 0 || !nodes.contains(nicNode)) {
            return "NUMA node of the NIC unknown";
        }
        Resctrl r = new Resctrl(host);
        if (!r.hasL3() || !r.hasMb()) {
            return "no resctrl " + (!r.hasL3() ? "L3 (CAT)" : "MB (MBA)") + " at " + Resctrl.RESCTRL_ROOT
                    + ": no joint LLC + memory-bandwidth allocation";
        }
        return null;
    }

    private static List<Integer> onlineNodes(HostFiles host) throws IOException {
        BitSet online = CpuList.parse(HostFiles.read(host.path("/sys/devices/system/node/online")));
        List<Integer> out = new ArrayList<>();
        for (int i = online.nextSetBit(0); i >= 0; i = online.nextSetBit(i + 1)) {
            out.add(i);
        }
        return out;
    }

    /**
     * Builds NUMASFP for a node's vNFs: reads the topology and resctrl limits, takes every chain
     * whose vNFs all sit on one node where it is (a restart), places the others (Algorithm 1),
     * and applies cpusets and resctrl groups.
     *
     * @param host host files
     * @param nicNode NUMA node of the NIC
     * @param members the vNFs, index = the agent's vNF index
     * @param config knobs
     * @param listener decisions
     * @throws IOException if the host cannot run NUMASFP ({@link #unavailableReason}) or its files are malformed
     */
    public NumaHost(HostFiles host, int nicNode, List<Member> members, NumaConfig config, Listener listener)
            throws IOException {
        String why = unavailableReason(host, nicNode);
        if (why != null) {
            throw new IOException(why);
        }
        this.host = host;
        this.config = config;
        this.listener = listener;
        this.members = List.copyOf(members);
        this.samples = new long[members.size()];
        List<Integer> nodes = onlineNodes(host);
        int maxNode = nodes.get(nodes.size() - 1);
        if (maxNode != nodes.size() - 1) {
            throw new IOException("NUMA node ids " + nodes + " are not 0..K-1");
        }
        domainOfNode = new int[nodes.size()];
        List<NumaSfp.NodeCapacity> caps = new ArrayList<>();
        Resctrl r = new Resctrl(host);
        String mask = HostFiles.read(r.info("L3/cbm_mask"));
        try {
            cbmMask = Long.parseLong(mask, 16);
        } catch (NumberFormatException e) {
            throw new IOException("resctrl info/L3/cbm_mask: not hex: '" + mask + "'", e);
        }
        lowestBit = Long.numberOfTrailingZeros(cbmMask);
        totalWays = Long.bitCount(cbmMask);
        minBits = (int) Math.max(1, HostFiles.readLong(r.info("L3/min_cbm_bits")));
        mbGranularity = Math.max(1, HostFiles.readLong(r.info("MB/bandwidth_gran")));
        mbMin = HostFiles.readLong(r.info("MB/min_bandwidth"));
        for (int k : nodes) {
            BitSet cpus = CpuList.parse(HostFiles.read(host.path("/sys/devices/system/node/node" + k + "/cpulist")));
            if (cpus.isEmpty()) {
                throw new IOException("NUMA node " + k + " has no cpus");
            }
            nodeCpus.add(cpus);
            domainOfNode[k] = cacheDomain(cpus.nextSetBit(0), k);
            caps.add(new NumaSfp.NodeCapacity(cpus.cardinality(), totalWays, 100));
        }
        engine = new NumaSfp(NumaProfile.paperTableOne(), nicNode, caps, config.settings());
        for (int i = 0; i < members.size(); i++) {
            Member m = members.get(i);
            chainMembers.computeIfAbsent(m.chain, c -> new ArrayList<>()).add(i);
        }
        for (Map.Entry<String, List<Integer>> e : chainMembers.entrySet()) {
            List<String> types = new ArrayList<>();
            boolean cgroups = true;
            for (int i : e.getValue()) {
                types.add(members.get(i).type);
                cgroups &= members.get(i).cgroup != null;
            }
            if (!cgroups) {
                notes.add("chain " + e.getKey() + ": a vNF's cgroup is unknown; chain left where it is");
                continue;
            }
            int found = currentNode(e.getValue());
            int asked = askedNode(e.getValue());
            if (found >= 0) {
                engine.pin(e.getKey(), types, found, 0);
                notes.add("chain " + e.getKey() + " found on node " + found);
            } else if (asked >= 0) {
                engine.pin(e.getKey(), types, asked, 0);
                NumaDecision d = new NumaDecision(NumaDecision.Kind.PLACE, e.getKey(), null, -1, asked, null,
                        "its pods ask for NUMA node " + asked);
                count(d);
                listener.onDecision(d);
            } else {
                NumaDecision d = engine.place(e.getKey(), types, 0);
                count(d);
                listener.onDecision(d);
            }
        }
        for (NumaDecision d : engine.interval(Map.of(), Set.of())) {
            count(d);
            listener.onDecision(d);
        }
        apply();
    }

    /** L3 cache id of a node's first cpu (the schemata domain), the node id when sysfs lacks it. */
    private int cacheDomain(int cpu, int node) {
        Path id = host.path("/sys/devices/system/cpu/cpu" + cpu + "/cache/index3/id");
        if (!Files.isRegularFile(id)) {
            return node;
        }
        try {
            return (int) HostFiles.readLong(id);
        } catch (IOException e) {
            return node;
        }
    }

    /** The node every pod of the chain asks for, if they agree and it exists, else -1. */
    private int askedNode(List<Integer> vnfs) {
        int node = members.get(vnfs.get(0)).askedNode;
        for (int i : vnfs) {
            if (members.get(i).askedNode != node) {
                notes.add("chain " + members.get(i).chain
                        + ": its pods ask for different NUMA nodes; placed by NUMASFP");
                return -1;
            }
        }
        return node < domainOfNode.length ? node : -1;
    }

    /** The node every vNF of the chain has as its only cpuset.mems, or -1. */
    private int currentNode(List<Integer> vnfs) {
        int node = -1;
        for (int i : vnfs) {
            try {
                BitSet mems = CpusetActuator.mems(members.get(i).cgroup);
                if (mems.cardinality() != 1 || (node >= 0 && mems.nextSetBit(0) != node)) {
                    return -1;
                }
                node = mems.nextSetBit(0);
            } catch (IOException e) {
                return -1;
            }
        }
        return node < domainOfNode.length ? node : -1;
    }

    /**
     * One packet of a vNF (its rate feeds the profile).
     *
     * @param vnf index
     */
    public void onSample(int vnf) {
        samples[vnf]++;
    }

    /**
     * Runs an interval when {@link NumaConfig#intervalMs} has passed: each chain's rate is the
     * packets its busiest vNF saw times {@link NumaConfig#frameBytes}; it violated if any of its
     * vNFs is above its latency bound.
     *
     * @param nowNanos monotonic clock
     * @param violated whether a vNF (by index) is above its bound
     * @return the decisions, empty when no interval was due
     */
    public List<NumaDecision> tick(long nowNanos, IntPredicate violated) {
        if (lastIntervalNanos == Long.MIN_VALUE) {
            lastIntervalNanos = nowNanos;
            return List.of();
        }
        long elapsed = nowNanos - lastIntervalNanos;
        if (elapsed < config.intervalMs * 1_000_000L) {
            return List.of();
        }
        lastIntervalNanos = nowNanos;
        Map<String, Double> rates = new LinkedHashMap<>();
        Set<String> bad = new HashSet<>();
        for (Map.Entry<String, List<Integer>> e : chainMembers.entrySet()) {
            long most = 0;
            for (int i : e.getValue()) {
                most = Math.max(most, samples[i]);
                if (violated.test(i)) {
                    bad.add(e.getKey());
                }
            }
            rates.put(e.getKey(), most * config.frameBytes * 8.0 / elapsed);
        }
        Arrays.fill(samples, 0);
        return interval(rates, bad);
    }

    /**
     * One interval with given rates (what {@link #tick} computes): engine, then the kernel.
     *
     * @param ratesGbps rate per chain id
     * @param violated chains that violated
     * @return the decisions
     */
    public List<NumaDecision> interval(Map<String, Double> ratesGbps, Set<String> violated) {
        List<NumaDecision> out = engine.interval(ratesGbps, violated);
        for (NumaDecision d : out) {
            count(d);
            listener.onDecision(d);
        }
        apply();
        return out;
    }

    private void count(NumaDecision d) {
        decisions.merge(d.kind(), 1L, Long::sum);
    }

    /** Brings cpusets and resctrl groups in line with the engine; writes only what changed. */
    private void apply() {
        Map<String, Long> masks = new HashMap<>();
        for (int k = 0; k < domainOfNode.length; k++) {
            int offset = 0;
            List<String> on = new ArrayList<>();
            for (String c : engine.chains()) {
                if (engine.node(c) == k) {
                    on.add(c);
                }
            }
            on.sort((a, b) -> Integer.compare(Integer.parseInt(a), Integer.parseInt(b)));
            for (String c : on) {
                int ways = Math.max(minBits, Math.min(totalWays, engine.allocation(c).ways()));
                int start = Math.min(offset, totalWays - ways);
                masks.put(c, ((ways == 64 ? -1L : (1L << ways) - 1) << (start + lowestBit)) & cbmMask);
                offset += ways;
            }
        }
        // smallest masks first; two masks can share ways only between two writes of one apply
        List<String> order = new ArrayList<>(engine.chains());
        order.sort((a, b) -> Integer.compare(Long.bitCount(masks.get(a)), Long.bitCount(masks.get(b))));
        for (String c : order) {
            int node = engine.node(c);
            try {
                Path group = new Resctrl(host).group(GROUP_PREFIX + c);
                for (int i : chainMembers.get(c)) {
                    ContainerCgroup cg = members.get(i).cgroup;
                    pin(cg, CpuList.format(nodeCpus.get(node)), Integer.toString(node));
                    Resctrl.assignThreads(group, cg);
                }
                long mb = Math.max(mbMin, Math.min(100, (engine.allocation(c).mbPercent() + mbGranularity - 1)
                        / mbGranularity * mbGranularity));
                write(group.resolve("schemata"), schemata(group.resolve("schemata"), node, masks.get(c), mb));
            } catch (IOException | RuntimeException e) {
                writeErrors++;
                lastError = "chain " + c + ": " + e.getMessage();
                written.clear(); // unsure what the kernel holds now: rewrite everything next time
            }
        }
    }

    /** The group's schemata with the chain's L3 mask and MB in its node's domain, the least elsewhere. */
    private String schemata(Path file, int node, long mask, long mb) throws IOException {
        Map<Integer, String> l3 = Resctrl.readLine(file, "L3");
        Map<Integer, String> mbLine = Resctrl.readLine(file, "MB");
        long least = (((1L << minBits) - 1) << lowestBit) & cbmMask;
        StringBuilder sb = new StringBuilder();
        for (String line : HostFiles.read(file).split("\n")) {
            int colon = line.indexOf(':');
            String name = colon < 0 ? "" : line.substring(0, colon).trim();
            if (name.isEmpty()) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append('\n');
            }
            if ("L3".equals(name)) {
                sb.append(domains("L3", l3.keySet(), domainOfNode[node], Long.toHexString(mask),
                        Long.toHexString(least)));
            } else if ("MB".equals(name)) {
                sb.append(domains("MB", mbLine.keySet(), domainOfNode[node], Long.toString(mb),
                        Long.toString(mbMin)));
            } else {
                sb.append(name).append(':').append(line.substring(colon + 1).trim());
            }
        }
        return sb.toString();
    }

    private static String domains(String resource, Iterable<Integer> ids, int home, String mine, String other) {
        StringBuilder sb = new StringBuilder(resource).append(':');
        boolean first = true;
        for (int d : ids) {
            sb.append(first ? "" : ";").append(d).append('=').append(d == home ? mine : other);
            first = false;
        }
        return sb.toString();
    }

    /** The container's cpuset, each file written only when its value changed. */
    private void pin(ContainerCgroup cg, String cpus, String mems) throws IOException {
        Path cf = cg.cpusetFile("cpus");
        if (!cpus.equals(written.get(cf))) {
            CpusetActuator.writeCpus(cg, cpus);
            written.put(cf, cpus);
        }
        Path mf = cg.cpusetFile("mems");
        if (!mems.equals(written.get(mf))) {
            CpusetActuator.writeMems(cg, mems);
            written.put(mf, mems);
        }
    }

    private void write(Path file, String value) throws IOException {
        if (value.equals(written.get(file))) {
            return;
        }
        HostFiles.write(file, value);
        written.put(file, value);
    }

    /**
     * The engine (read its placement and allocations).
     *
     * @return engine
     */
    public NumaSfp engine() {
        return engine;
    }

    /**
     * What start-up found, one line each.
     *
     * @return notes
     */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    /**
     * Kernel writes that failed.
     *
     * @return count
     */
    public long writeErrors() {
        return writeErrors;
    }

    /**
     * The last failed write, for the log.
     *
     * @return text or null
     */
    public String lastError() {
        return lastError;
    }

    /**
     * Decisions made, by kind.
     *
     * @param kind kind
     * @return count
     */
    public long decisions(NumaDecision.Kind kind) {
        return decisions.getOrDefault(kind, 0L);
    }

    /**
     * Prometheus lines: available, decisions by kind, each chain's node, ways and bandwidth,
     * failed writes.
     *
     * @param sb where to append
     */
    public void render(StringBuilder sb) {
        renderAvailable(sb, null);
        sb.append("# HELP srv6int_node_numa_decisions_total NUMASFP decisions by kind\n")
                .append("# TYPE srv6int_node_numa_decisions_total counter\n");
        for (NumaDecision.Kind k : NumaDecision.Kind.values()) {
            sb.append("srv6int_node_numa_decisions_total{kind=\"").append(k.name().toLowerCase(Locale.ROOT))
                    .append("\"} ").append(decisions(k)).append('\n');
        }
        sb.append("# HELP srv6int_chain_numa_node NUMA node of each chain\n")
                .append("# TYPE srv6int_chain_numa_node gauge\n");
        for (String c : engine.chains()) {
            sb.append("srv6int_chain_numa_node{chain=\"").append(c).append("\"} ").append(engine.node(c))
                    .append('\n');
        }
        sb.append("# HELP srv6int_chain_llc_ways LLC ways of each chain's resctrl group\n")
                .append("# TYPE srv6int_chain_llc_ways gauge\n");
        for (String c : engine.chains()) {
            sb.append("srv6int_chain_llc_ways{chain=\"").append(c).append("\"} ")
                    .append(engine.allocation(c).ways()).append('\n');
        }
        sb.append("# HELP srv6int_chain_memory_bandwidth_percent memory bandwidth of each chain's resctrl group\n")
                .append("# TYPE srv6int_chain_memory_bandwidth_percent gauge\n");
        for (String c : engine.chains()) {
            sb.append("srv6int_chain_memory_bandwidth_percent{chain=\"").append(c).append("\"} ")
                    .append(engine.allocation(c).mbPercent()).append('\n');
        }
        sb.append("# HELP srv6int_node_numa_write_errors_total cpuset/resctrl writes of NUMASFP that failed\n")
                .append("# TYPE srv6int_node_numa_write_errors_total counter\n")
                .append("srv6int_node_numa_write_errors_total ").append(writeErrors).append('\n');
    }

    /**
     * The availability gauge alone (for a node where NUMASFP does not run).
     *
     * @param sb where to append
     * @param reason why it is unavailable, null if it runs
     */
    public static void renderAvailable(StringBuilder sb, String reason) {
        sb.append("# HELP srv6int_node_numa_available 1 if NUMASFP runs on this node; reason if not\n")
                .append("# TYPE srv6int_node_numa_available gauge\n")
                .append("srv6int_node_numa_available{reason=\"")
                .append(reason == null ? "" : reason.replace("\\", "\\\\").replace("\"", "\\\""))
                .append("\"} ").append(reason == null ? 1 : 0).append('\n');
    }
}
