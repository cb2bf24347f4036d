// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.srv6int.agent.actuate.CgroupLocator;
import org.srv6int.agent.actuate.CpuFrequencyActuator;
import org.srv6int.agent.actuate.HostFiles;
import org.srv6int.agent.actuate.Resctrl;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.CfsPeriods;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;

/**
 * One worker's kernel files under a root directory, playing the parts of the kubelet and the
 * kernel: when a pod starts it creates the container's cgroup ({@code cpu.max} = the pod's CPU
 * limit, {@code cpu.stat} counted by the model's {@link CfsPeriods}, cpuset files,
 * {@code cgroup.threads}), its resctrl group ({@code schemata} with {@code L3} and {@code MB} lines)
 * and the cpufreq files of its cores; and it applies what is written there to the vNF model
 * ({@link #readBack()}), as the kernel applies a cgroup or schemata write. Paths come from the
 * node agent's own classes ({@link CgroupLocator}, {@link Resctrl}, {@link CpuFrequencyActuator}),
 * so the agent finds them as on a real worker.
 *
 * <p>Layout choices (docs/twin.md section 2): one NUMA node (0) holds the NIC {@value #IFACE};
 * each pod is pinned to its own {@value #CPUS_PER_POD} logical CPUs of that node, because
 * cpufreq is per core and the paper adjusts each vNF's frequency on its own; the node's
 * 10 cores of CPU quota, the 11 LLC ways ({@code cbm_mask 7ff}), the MBA budget and the
 * frequency budget are budgets of the agent's pools, as in {@link Resource}.
 */
public final class SimulatedWorker {
    /** NIC the switch sends the vNF traffic to. */
    public static final String IFACE = "eth1";
    /** Logical CPUs each pod is pinned to. */
    public static final int CPUS_PER_POD = 10;
    /** Pods one worker can hold in this layout. */
    public static final int MAX_PODS = 16;
    /** cpu.max period written by the kubelet and the agent, µs. */
    public static final long PERIOD_US = 100_000;

    private final Host host;
    private final HostFiles files;
    private final Map<VnfInstance, Pod> pods = new LinkedHashMap<>();
    private boolean dirty;

    /** A pod's identity on this worker and its files. */
    public static final class Pod {
        final VnfInstance instance;
        final String name;
        final String uid;
        final String containerId;
        final int firstCpu;
        final Path cgroup;
        final Path schemata;
        final Path maxFreq;
        // the cpu.stat counters last written (-1: none yet)
        long statPeriods = -1;
        long statThrottled = -1;

        Pod(VnfInstance instance, String name, int index, HostFiles files) {
            this.instance = instance;
            this.name = name;
            this.uid = UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
            String hex = uid.replace("-", "");
            this.containerId = hex + hex;
            this.firstCpu = index * CPUS_PER_POD;
            this.cgroup = files.path(CgroupLocator.CGROUP_ROOT)
                    .resolve(CgroupLocator.candidates(uid, containerId).get(0));
            this.schemata = files.path(Resctrl.RESCTRL_ROOT).resolve(groupName(name)).resolve("schemata");
            this.maxFreq = CpuFrequencyActuator.file(files, firstCpu, "scaling_max_freq");
        }

        /** The replica. */
        public VnfInstance instance() {
            return instance;
        }

        /** vNF name in the agent's config (the replica id in the agent's character set). */
        public String name() {
            return name;
        }

        /** Pod UID. */
        public String uid() {
            return uid;
        }

        /** containerd container id. */
        public String containerId() {
            return containerId;
        }

        /** The pod's cores, a cpu list. */
        public String cpus() {
            return firstCpu + "-" + (firstCpu + CPUS_PER_POD - 1);
        }
    }

    /**
     * Creates the worker's static files (cgroup root, NUMA node, NIC, resctrl info and root
     * group).
     *
     * @param host the modelled worker
     * @param root directory that stands for the worker's "/"
     */
    public SimulatedWorker(Host host, Path root) {
        this.host = host;
        this.files = new HostFiles(root);
        file(CgroupLocator.CGROUP_ROOT + "/cgroup.controllers", "cpuset cpu io memory pids");
        file("/sys/devices/system/cpu/online", "0-" + (MAX_PODS * CPUS_PER_POD - 1));
        file("/sys/devices/system/node/online", "0");
        file("/sys/devices/system/node/node0/cpulist", "0-" + (MAX_PODS * CPUS_PER_POD - 1));
        file("/sys/class/net/" + IFACE + "/device/numa_node", "0");
        String info = Resctrl.RESCTRL_ROOT + "/info/";
        file(info + "L3/cbm_mask", Long.toHexString((1L << (int) Resource.LLC_WAYS.pool()) - 1));
        file(info + "L3/min_cbm_bits", Long.toString(Math.round(Resource.LLC_WAYS.min())));
        file(info + "MB/bandwidth_gran", Long.toString(Math.round(Resource.MEM_BW_PCT.step())));
        file(info + "MB/min_bandwidth", Long.toString(Math.round(Resource.MEM_BW_PCT.min())));
        file(Resctrl.RESCTRL_ROOT + "/schemata", schemata(fullMask(), 100));
        file(Resctrl.RESCTRL_ROOT + "/tasks", "1");
        sync();
    }

    private static long fullMask() {
        return (1L << (int) Resource.LLC_WAYS.pool()) - 1;
    }

    private static String schemata(long mask, long mbPct) {
        return "L3:0=" + Long.toHexString(mask) + "\nMB:0=" + mbPct;
    }

    /**
     * The resctrl group name the agent uses for a vNF.
     *
     * @param vnfName vNF name in the agent's config
     * @return group directory name
     */
    public static String groupName(String vnfName) {
        return "srv6int-" + vnfName;
    }

    /** The modelled worker. */
    public Host host() {
        return host;
    }

    /** Directory that stands for "/". */
    public Path root() {
        return files.root();
    }

    /** Pods with files, in start order. */
    public List<Pod> pods() {
        return new ArrayList<>(pods.values());
    }

    /**
     * Creates the files of pods the model started since the last call (the kubelet starting
     * the container with the pod's limits) and forgets pods the model deleted (a scale-in: the
     * kubelet removes the container; its cores go to the next pod).
     *
     * @return true if a pod was added or removed
     */
    public boolean sync() {
        boolean changed = pods.keySet().removeIf(i -> host.instance(i.id()) != i);
        for (VnfInstance i : host.instances()) {
            if (!pods.containsKey(i)) {
                startPod(i);
                changed = true;
            }
        }
        return changed;
    }

    private void startPod(VnfInstance i) {
        if (pods.size() >= MAX_PODS) {
            throw new IllegalStateException(host.name() + ": more than " + MAX_PODS + " pods");
        }
        String name = i.id().replace('@', '.').replace('#', '-');
        int index = 0; // the first cores no pod holds
        while (index < MAX_PODS && holds(index)) {
            index++;
        }
        Pod p = new Pod(i, name, index, files);
        Allocation a = i.allocation();
        String cg = CgroupLocator.CGROUP_ROOT + "/" + CgroupLocator.candidates(p.uid, p.containerId).get(0);
        file(cg + "/cpu.max", quota(a.get(Resource.CPU_QUOTA)) + " " + PERIOD_US);
        file(cg + "/cpu.weight", "100");
        file(cg + "/cpu.stat", i.cfs().cpuStat());
        file(cg + "/cpuset.cpus", "");
        file(cg + "/cpuset.cpus.effective", p.cpus());
        file(cg + "/cpuset.mems", "");
        file(cg + "/cgroup.threads", Integer.toString(1000 + 10 * pods.size()));
        // a new group gets the ways after the pods before it; the agent re-lays the masks out at start
        int ways = (int) Math.round(a.get(Resource.LLC_WAYS));
        int used = 0;
        for (Pod q : pods.values()) {
            used += (int) Math.round(q.instance.allocation().get(Resource.LLC_WAYS));
        }
        int total = (int) Resource.LLC_WAYS.pool();
        int start = Math.max(0, Math.min(used, total - ways));
        String group = Resctrl.RESCTRL_ROOT + "/" + groupName(name);
        file(group + "/schemata", schemata((((1L << ways) - 1) << start) & fullMask(),
                Math.round(a.get(Resource.MEM_BW_PCT))));
        file(group + "/tasks", "");
        for (int c = p.firstCpu; c < p.firstCpu + CPUS_PER_POD; c++) {
            String dir = CpuFrequencyActuator.CPU_ROOT + "/cpu" + c + "/cpufreq/";
            file(dir + "cpuinfo_min_freq", Long.toString(khz(Resource.CPU_FREQ_MHZ.min())));
            file(dir + "cpuinfo_max_freq", Long.toString(khz(Resource.CPU_FREQ_MHZ.max())));
            file(dir + "scaling_min_freq", Long.toString(khz(Resource.CPU_FREQ_MHZ.min())));
            file(dir + "scaling_max_freq", Long.toString(khz(a.get(Resource.CPU_FREQ_MHZ))));
            file(dir + "scaling_driver", "intel_pstate");
        }
        pods.put(i, p);
    }

    private boolean holds(int index) {
        for (Pod q : pods.values()) {
            if (q.firstCpu == index * CPUS_PER_POD) {
                return true;
            }
        }
        return false;
    }

    private static long quota(double cores) {
        return Math.round(cores * PERIOD_US);
    }

    private static long khz(double mhz) {
        return Math.round(mhz * 1000);
    }

    /**
     * The kubelet re-creating an evicted pod's container with a new CPU limit (VPA): writes
     * its {@code cpu.max}.
     *
     * @param i the replica
     * @param cores new limit, cores
     */
    public void setCpuLimit(VnfInstance i, double cores) {
        Pod p = pods.get(i);
        if (p == null) {
            throw new IllegalArgumentException(i.id() + " has no pod on " + host.name());
        }
        try {
            HostFiles.write(p.cgroup.resolve("cpu.max"), quota(cores) + " " + PERIOD_US);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        dirty = true;
    }

    /** Someone wrote the files (the agent's actuators): apply them at the next {@link #apply()}. */
    public void markDirty() {
        dirty = true;
    }

    /**
     * Creates new pods' files and, if anything was written since the last call, applies the
     * files to the model. Called every tick.
     */
    public void apply() {
        if (sync() || dirty) {
            readBack();
        }
        writeCpuStat();
    }

    /**
     * The kernel's side of {@code cpu.stat}: writes a pod's counters when a period of its model
     * ({@link VnfInstance#cfs()}) moved them, so the agent reads what the kernel would show.
     */
    private void writeCpuStat() {
        for (Pod p : pods.values()) {
            CfsPeriods c = p.instance.cfs();
            if (c.periods() != p.statPeriods || c.throttled() != p.statThrottled) {
                p.statPeriods = c.periods();
                p.statThrottled = c.throttled();
                try {
                    HostFiles.write(p.cgroup.resolve("cpu.stat"), c.cpuStat());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    /**
     * Applies every pod's files to its modelled allocation (the kernel enforcing cpu.max,
     * the CAT mask, the MBA throttle and the frequency cap).
     */
    public void readBack() {
        dirty = false;
        for (Pod p : pods.values()) {
            Allocation a = p.instance.allocation();
            try {
                String[] cpuMax = cpuMax(p.cgroup.resolve("cpu.max"));
                long period = Long.parseLong(cpuMax[1]);
                a.set(Resource.CPU_QUOTA, "max".equals(cpuMax[0]) ? CPUS_PER_POD
                        : (double) Long.parseLong(cpuMax[0]) / period);
                p.instance.cfs().period(period / 1e6);
                Map<Integer, String> l3 = Resctrl.readLine(p.schemata, "L3");
                a.set(Resource.LLC_WAYS, Long.bitCount(Long.parseLong(l3.values().iterator().next(), 16)));
                Map<Integer, String> mb = Resctrl.readLine(p.schemata, "MB");
                a.set(Resource.MEM_BW_PCT, Long.parseLong(mb.values().iterator().next()));
                a.set(Resource.CPU_FREQ_MHZ, HostFiles.readLong(p.maxFreq) / 1000.0);
            } catch (IOException | NumberFormatException e) {
                throw new IllegalStateException(host.name() + ": unreadable kernel file of " + p.name + ": "
                        + e.getMessage(), e);
            }
        }
    }

    /** cpu.max "$QUOTA $PERIOD" ("max": every core the pod is pinned to), read once. */
    private static String[] cpuMax(Path f) throws IOException {
        String[] parts = HostFiles.read(f).split("\\s+");
        if (parts.length != 2) {
            throw new IOException(f + ": expected '$MAX $PERIOD'");
        }
        return parts;
    }

    private void file(String hostPath, String value) {
        try {
            Path p = files.path(hostPath);
            Files.createDirectories(p.getParent());
            Files.write(p, (value + "\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s at %s (%d pods)", host.name(), files.root(), pods.size());
    }
}
