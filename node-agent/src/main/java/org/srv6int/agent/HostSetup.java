// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import java.util.Arrays;
import java.util.Collections;
import org.srv6int.agent.AgentConfig.ResourceSettings;
import org.srv6int.agent.actuate.CgroupHierarchy;
import org.srv6int.agent.actuate.CgroupLocator;
import org.srv6int.agent.actuate.ContainerCgroup;
import org.srv6int.agent.actuate.CpuFrequencyActuator;
import org.srv6int.agent.actuate.CpuList;
import org.srv6int.agent.actuate.CpuQuotaActuator;
import org.srv6int.agent.actuate.CpusetActuator;
import org.srv6int.agent.actuate.HostFiles;
import org.srv6int.agent.actuate.LlcActuator;
import org.srv6int.agent.actuate.MemoryBandwidthActuator;
import org.srv6int.agent.actuate.Resctrl;
import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.numa.NumaHost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Start-up on a host: finds each vNF's cgroup, pins vNFs to the NIC's NUMA
 * node, checks which of the four resources the host really offers, reads the
 * current allocations back (restart safety) and builds one
 * {@link ResourcePool} per offered type with its floors, ceilings, step and
 * budget. A type the host lacks, or whose files cannot be read, is left out
 * with the reason; the loop rotates over the others.
 */
public final class HostSetup {

    /**
     * How the pools' actuators are made: CPU quota may go through the API instead of
     * cpu.max, and in recommend mode every actuator only records what it would write.
     */
    public interface Actuation {
        /**
         * The CPU quota actuator of the vNFs.
         *
         * @param cgroups container cgroup per vNF
         * @param periodUs quota period (cpu.max, cpu.cfs_period_us)
         * @return actuator
         */
        ResourceActuator cpu(List<ContainerCgroup> cgroups, long periodUs);

        /**
         * Wraps an actuator (recommend mode: reads pass, writes are only published).
         *
         * @param actuator the real one
         * @return what the pool uses
         */
        ResourceActuator wrap(ResourceActuator actuator);

        /**
         * Whether nothing may be written (no cpuset pinning, no resctrl group or task moves).
         *
         * @return true in recommend mode
         */
        boolean dryRun();
    }

    /** The cgroup's quota written directly, every write applied. */
    public static final Actuation DIRECT = new Actuation() {
        @Override
        public ResourceActuator cpu(List<ContainerCgroup> cgroups, long periodUs) {
            return new CpuQuotaActuator(cgroups, periodUs);
        }

        @Override
        public ResourceActuator wrap(ResourceActuator actuator) {
            return actuator;
        }

        @Override
        public boolean dryRun() {
            return false;
        }
    };

    private final AgentConfig config;
    private final Actuation actuation;
    private final HostFiles host;
    private final CgroupHierarchy hierarchy;
    private final List<String> notes = new ArrayList<>();
    private final Map<ResourceType, String> unavailable = new EnumMap<>(ResourceType.class);
    private final ResourcePool[] pools = new ResourcePool[ResourceType.all().length];
    private final List<ContainerCgroup> cgroups = new ArrayList<>();
    private final List<BitSet> cpus = new ArrayList<>();
    private final long[] held = new long[ResourceType.all().length];
    private final long[] cap = new long[ResourceType.all().length];
    private int nicNode = -1;
    private boolean cgroupsFound;
    private String numaUnavailable = "disabled in config";

    /**
     * Creates the set-up for a config.
     *
     * @param config validated config
     */
    public HostSetup(AgentConfig config) {
        this(config, DIRECT);
    }

    /**
     * Creates the set-up for a config with a choice of actuators.
     *
     * @param config validated config
     * @param actuation how actuators are made
     */
    public HostSetup(AgentConfig config, Actuation actuation) {
        this(config, actuation, null);
    }

    /**
     * Creates the set-up for a config on a cgroup hierarchy chosen before (the agent chooses
     * once at start and logs why).
     *
     * @param config validated config
     * @param actuation how actuators are made
     * @param hierarchy the node's cgroup hierarchy; null: chosen here from the host's mounts
     */
    public HostSetup(AgentConfig config, Actuation actuation, CgroupHierarchy hierarchy) {
        this.config = config;
        this.actuation = actuation;
        this.host = new HostFiles(Path.of(config.hostRoot));
        this.hierarchy = hierarchy != null ? hierarchy : CgroupHierarchy.detect(host, config.cgroupVersion.version());
        Arrays.fill(cap, -1);
    }

    /**
     * Holds part of a type's budget for pods of the node the agent does not manage (their
     * requests, {@code pods.Reservations}): the allocations found are cut to fit the rest, and
     * the pool never hands it out. Call before {@link #run}.
     *
     * @param type resource type
     * @param amount amount, not negative
     * @return this
     */
    public HostSetup hold(ResourceType type, long amount) {
        if (amount < 0) {
            throw new IllegalArgumentException(type + ": held amount " + amount + " is negative");
        }
        held[type.ordinal()] = amount;
        return this;
    }

    /**
     * Caps a type's budget (CPU: the node's allocatable CPU, which the kubelet checks every
     * resize against). Call before {@link #run}.
     *
     * @param type resource type
     * @param max the cap; negative for none
     * @return this
     */
    public HostSetup cap(ResourceType type, long max) {
        cap[type.ordinal()] = max;
        return this;
    }

    /**
     * Runs every start-up step; never throws for a missing resource.
     *
     * @return this
     */
    public HostSetup run() {
        notes.add(hierarchy.describe());
        findNicNode();
        findCgroups();
        resolveCpus();
        if (config.numa.enabled) {
            numaUnavailable = actuation.dryRun() ? "recommend mode (NUMASFP would write cpusets and resctrl)"
                    : NumaHost.unavailableReason(host, nicNode);
            notes.add(numaUnavailable == null ? "NUMASFP: places chains and holds their cpusets, LLC ways and"
                    + " memory bandwidth" : "NUMASFP: NOT available: " + numaUnavailable);
        }
        if (numaUnavailable != null) {
            pin();
        }
        for (ResourceType type : ResourceType.all()) {
            if (!config.settings(type).enabled) {
                unavailable.put(type, "disabled in config");
                continue;
            }
            if (numaUnavailable == null && (type == ResourceType.LLC || type == ResourceType.MEMORY_BANDWIDTH)) {
                unavailable.put(type, "allocated per chain by NUMASFP");
                notes.add(type.label() + ": allocated per chain by NUMASFP, not by the local loop");
                continue;
            }
            try {
                pools[type.ordinal()] = buildPool(type);
                ResourcePool p = pools[type.ordinal()];
                notes.add(type.label() + ": available, step " + p.step() + " " + type.unit() + ", budget "
                        + p.budget() + ", free " + p.free());
            } catch (IOException | RuntimeException e) {
                unavailable.put(type, String.valueOf(e.getMessage()));
                notes.add(type.label() + ": NOT available: " + e.getMessage());
            }
        }
        return this;
    }

    private void findNicNode() {
        if (config.iface == null || config.iface.isEmpty()) {
            notes.add("no iface configured: NUMA node of the NIC unknown");
            return;
        }
        Path f = host.path("/sys/class/net/" + config.iface + "/device/numa_node");
        try {
            nicNode = (int) HostFiles.readLong(f);
            notes.add("NIC " + config.iface + " is on NUMA node " + nicNode);
        } catch (IOException e) {
            notes.add("NUMA node of " + config.iface + " unknown: " + e.getMessage());
        }
    }

    private void findCgroups() {
        CgroupLocator locator = new CgroupLocator(hierarchy);
        boolean all = true;
        for (AgentConfig.Vnf v : config.vnfs) {
            try {
                cgroups.add(locator.locate(v.podUid, v.containerId));
            } catch (IOException e) {
                cgroups.add(null);
                all = false;
                notes.add("vNF " + v.name + ": " + e.getMessage());
            }
        }
        cgroupsFound = all;
    }

    private BitSet nodeCpus() throws IOException {
        return CpuList.parse(HostFiles.read(host.path("/sys/devices/system/node/node" + nicNode + "/cpulist")));
    }

    private void resolveCpus() {
        BitSet node = null;
        if (nicNode >= 0) {
            try {
                node = nodeCpus();
            } catch (IOException | IllegalArgumentException e) {
                notes.add("cpulist of NUMA node " + nicNode + " unreadable: " + e.getMessage());
            }
        }
        for (int i = 0; i < config.vnfs.size(); i++) {
            AgentConfig.Vnf v = config.vnfs.get(i);
            BitSet set = v.cpus != null ? CpuList.parse(v.cpus) : node != null ? (BitSet) node.clone() : null;
            if (set == null && cgroups.get(i) != null) {
                try {
                    set = CpusetActuator.effectiveCpus(cgroups.get(i));
                } catch (IOException e) {
                    set = null;
                }
            }
            if (set != null && node != null && v.cpus != null) {
                BitSet outside = (BitSet) set.clone();
                outside.andNot(node);
                if (!outside.isEmpty()) {
                    notes.add("vNF " + v.name + ": cpus " + CpuList.format(outside) + " are not on the NIC's node "
                            + nicNode + "; using the others");
                    set.and(node);
                    if (set.isEmpty()) {
                        set = (BitSet) node.clone();
                    }
                }
            }
            cpus.add(set == null ? new BitSet() : set);
        }
    }

    private void pin() {
        if (!config.pinToNicNode || nicNode < 0 || actuation.dryRun()) {
            notes.add("cpuset pinning skipped (" + (nicNode < 0 ? "NIC node unknown"
                    : actuation.dryRun() ? "recommend mode" : "disabled") + ")");
            return;
        }
        for (int i = 0; i < config.vnfs.size(); i++) {
            ContainerCgroup cg = cgroups.get(i);
            if (cg == null || cpus.get(i).isEmpty()) {
                continue;
            }
            try {
                CpusetActuator.pin(cg, CpuList.format(cpus.get(i)), Integer.toString(nicNode));
                notes.add("vNF " + config.vnfs.get(i).name + " pinned to cpus " + CpuList.format(cpus.get(i))
                        + ", mems " + nicNode);
            } catch (IOException e) {
                notes.add("vNF " + config.vnfs.get(i).name + ": cpuset pinning failed: " + e.getMessage());
            }
        }
    }

    private List<Path> resctrlGroups(Resctrl resctrl) throws IOException {
        List<Path> groups = new ArrayList<>();
        for (int i = 0; i < config.vnfs.size(); i++) {
            String name = "srv6int-" + config.vnfs.get(i).name;
            if (actuation.dryRun()) {
                Path g = host.path(Resctrl.RESCTRL_ROOT).resolve(name);
                groups.add(Files.isDirectory(g) ? g : host.path(Resctrl.RESCTRL_ROOT));
                continue; // read the group if a previous run made it, else the default group; create nothing
            }
            Path g = resctrl.group(name);
            if (cgroups.get(i) != null) {
                try {
                    Resctrl.assignThreads(g, cgroups.get(i));
                } catch (IOException e) {
                    notes.add("vNF " + config.vnfs.get(i).name + ": threads not moved to " + g + ": "
                            + e.getMessage());
                }
            }
            groups.add(g);
        }
        return groups;
    }

    private ResourcePool buildPool(ResourceType type) throws IOException {
        int n = config.vnfs.size();
        ResourceSettings s = config.settings(type);
        long[] hwFloor = new long[n];
        long[] hwCeiling = new long[n];
        long step;
        long budget;
        ResourceActuator actuator;
        switch (type) {
            case CPU_QUOTA: {
                if (!cgroupsFound) {
                    throw new IOException("not every vNF's cgroup was found");
                }
                for (ContainerCgroup cg : cgroups) {
                    if (!Files.isRegularFile(cg.quotaFile())) {
                        throw new IOException(cg.dir() + ": no " + cg.quotaFile().getFileName() + " (cpu controller "
                                + "not enabled)");
                    }
                }
                BitSet union = new BitSet();
                for (int i = 0; i < n; i++) {
                    int count = cpus.get(i).cardinality();
                    if (count == 0) {
                        throw new IOException("vNF " + config.vnfs.get(i).name + ": cpus unknown");
                    }
                    union.or(cpus.get(i));
                    hwFloor[i] = CpuQuotaActuator.MIN_QUOTA_US * 1000 / config.cpuPeriodUs;
                    hwCeiling[i] = 1000L * count;
                }
                step = 100;
                budget = 1000L * union.cardinality();
                actuator = actuation.cpu(cgroups, config.cpuPeriodUs);
                break;
            }
            case LLC: {
                Resctrl r = new Resctrl(host);
                if (!r.hasL3()) {
                    throw new IOException("no resctrl L3 (not mounted or no CAT): " + Resctrl.RESCTRL_ROOT
                            + "/info/L3 missing");
                }
                LlcActuator a = new LlcActuator(r, resctrlGroups(r));
                for (int i = 0; i < n; i++) {
                    hwFloor[i] = a.minBits();
                    hwCeiling[i] = a.totalWays();
                }
                step = 1;
                budget = a.totalWays();
                actuator = a;
                break;
            }
            case MEMORY_BANDWIDTH: {
                Resctrl r = new Resctrl(host);
                if (!r.hasMb()) {
                    throw new IOException("no resctrl MB (not mounted or no MBA): " + Resctrl.RESCTRL_ROOT
                            + "/info/MB missing");
                }
                MemoryBandwidthActuator a = new MemoryBandwidthActuator(r, resctrlGroups(r));
                long gran = a.granularity();
                for (int i = 0; i < n; i++) {
                    hwFloor[i] = roundUp(a.minBandwidth(), gran);
                    hwCeiling[i] = MemoryBandwidthActuator.MAX_PERCENT;
                }
                step = gran;
                budget = MemoryBandwidthActuator.MAX_PERCENT * n;
                actuator = a;
                if (s.step != null) {
                    s.step = roundUp(s.step, gran);
                }
                break;
            }
            case CPU_FREQUENCY: {
                CpuFrequencyActuator a = new CpuFrequencyActuator(host, cpus);
                budget = 0;
                for (int i = 0; i < n; i++) {
                    if (cpus.get(i).isEmpty()) {
                        throw new IOException("vNF " + config.vnfs.get(i).name + ": cpus unknown");
                    }
                    try {
                        hwFloor[i] = a.hardwareFloor(i);
                        hwCeiling[i] = a.hardwareCeiling(i);
                    } catch (IOException e) {
                        throw new IOException("no cpufreq for vNF " + config.vnfs.get(i).name + ": "
                                + e.getMessage(), e);
                    }
                    budget += hwCeiling[i];
                }
                step = 100_000;
                actuator = a;
                break;
            }
            default:
                throw new IllegalStateException(type.toString());
        }
        long[] floor = new long[n];
        long[] ceiling = new long[n];
        long[] initial = new long[n];
        long[] kept = new long[n];
        for (int i = 0; i < n; i++) {
            floor[i] = Math.max(hwFloor[i], s.floor != null ? s.floor : hwFloor[i]);
            ceiling[i] = Math.min(hwCeiling[i], s.ceiling != null ? s.ceiling : hwCeiling[i]);
            if (ceiling[i] < floor[i]) {
                throw new IOException("vNF " + config.vnfs.get(i).name + ": ceiling " + ceiling[i]
                        + " below floor " + floor[i]);
            }
            Long wanted = config.vnfs.get(i).initial.get(type);
            initial[i] = Math.max(floor[i], Math.min(ceiling[i], wanted != null ? wanted : actuator.read(i)));
            Long request = config.vnfs.get(i).cpuRequestMillis;
            kept[i] = type == ResourceType.CPU_QUOTA && request != null ? Math.max(floor[i], request) : floor[i];
        }
        long total = s.budget != null ? s.budget : budget;
        long max = cap[type.ordinal()];
        if (max >= 0 && max < total) {
            notes.add(type.label() + ": budget " + total + " capped at the node's allocatable " + max);
            total = max;
        }
        long hold = held[type.ordinal()];
        if (type != ResourceType.LLC) {
            // CPU quotas above the cores, MB shares or frequencies above a node budget are an
            // over-commit the loop would keep (its moves conserve the sum): a new replica's
            // resctrl group may hold any MB share. LLC masks found overlapping are the
            // unpartitioned default and are left to the loop (nothing is added while free < 0).
            // First every vNF down to its request (what its pod was promised), then to the floors.
            long over = fitToBudget(type, initial, kept, total - hold, 0);
            if (over > 0) {
                fitToBudget(type, initial, floor, total - hold, over);
            }
        }
        ResourcePool pool = new ResourcePool(actuation.wrap(actuator), s.step != null ? s.step : step,
                total, hold, floor, ceiling, initial);
        pool.applyAll(); // the host now holds exactly what the loop believes
        return pool;
    }

    /**
     * Never over-commits a budget: when the allocations found exceed it (less what is held for
     * other pods), the last vNFs (the newest pods; a restart lists them by creation time) are cut
     * toward a lower bound.
     *
     * @param lower per-vNF bound of the cut (the request, or the floor)
     * @param last 0 on the first pass; else what the previous pass left over (said once here)
     * @return what is still over after the cuts
     */
    private long fitToBudget(ResourceType type, long[] initial, long[] lower, long budget, long last) {
        long over = -budget;
        for (long v : initial) {
            over += v;
        }
        for (int i = initial.length - 1; i >= 0 && over > 0; i--) {
            long cut = Math.min(over, initial[i] - lower[i]);
            if (cut > 0) {
                notes.add("vNF " + config.vnfs.get(i).name + ": " + type.label() + " cut from " + initial[i]
                        + " to " + (initial[i] - cut) + " " + type.unit() + " to stay within the budget " + budget
                        + (last > 0 ? ", below its request" : ""));
                initial[i] -= cut;
                over -= cut;
            }
        }
        if (over > 0 && last > 0) {
            notes.add(type.label() + ": the floors alone exceed the budget " + budget + " by " + over);
        }
        return over;
    }

    private static long roundUp(long v, long gran) {
        return (v + gran - 1) / gran * gran;
    }

    /**
     * Pools indexed by type ordinal, null where unavailable.
     *
     * @return pools
     */
    public ResourcePool[] pools() {
        return pools.clone();
    }

    /**
     * Why each missing type is missing.
     *
     * @return reasons
     */
    public Map<ResourceType, String> unavailable() {
        return new EnumMap<>(unavailable);
    }

    /**
     * What start-up found and did, one line each.
     *
     * @return notes
     */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    /**
     * Why NUMASFP does not run on this host.
     *
     * @return reason ("disabled in config" when off), null when it runs
     */
    public String numaUnavailable() {
        return numaUnavailable;
    }

    /**
     * Container cgroup of each vNF.
     *
     * @return cgroups, null where not found
     */
    public List<ContainerCgroup> cgroups() {
        return Collections.unmodifiableList(new ArrayList<>(cgroups));
    }

    /**
     * The cgroup hierarchy the set-up wrote.
     *
     * @return hierarchy
     */
    public CgroupHierarchy hierarchy() {
        return hierarchy;
    }

    /**
     * NUMA node of the NIC.
     *
     * @return node, or -1 if unknown
     */
    public int nicNode() {
        return nicNode;
    }

    /**
     * Cores of each vNF.
     *
     * @return cpu sets
     */
    public List<BitSet> cpus() {
        return List.copyOf(cpus);
    }
}
