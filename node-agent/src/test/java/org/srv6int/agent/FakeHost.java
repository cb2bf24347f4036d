// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.srv6int.agent.actuate.CgroupVersion;
import org.srv6int.agent.actuate.ContainerCgroup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds a fake host tree in a temporary directory whose files have exactly
 * the formats the kernel uses (cgroup v2 or v1, resctrl, cpufreq, NUMA sysfs), so
 * the actuators run unchanged against it. On v1 the tree is a hybrid host's
 * (this project's CI machines): {@code cpu,cpuacct} and {@code cpuset} mounted
 * separately, and a {@code unified} cgroup2 mount without controllers. What the fake cannot do is the
 * kernel's side effects (mkdir in resctrl populating a group, rejecting a
 * value): groups are pre-created like a previous run would have left them.
 */
public final class FakeHost {

    /** Systemd cgroup driver layout. */
    public static final boolean SYSTEMD = true;
    /** Cgroupfs cgroup driver layout. */
    public static final boolean CGROUPFS = false;

    /** Pod UID of the worker preset's first vNF (systemd driver). */
    public static final String UID_A = "2f0e8a4c-1b7d-4e0a-9c1e-5d6f7a8b9c0d";
    /** Pod UID of the worker preset's second vNF (cgroupfs driver). */
    public static final String UID_B = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    /** Container id of the first vNF. */
    public static final String ID_A = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
    /** Container id of the second vNF. */
    public static final String ID_B = "0f9e8d7c6b5a49382716f5e4d3c2b1a00f9e8d7c6b5a49382716f5e4d3c2b1a0";

    /** The v1 cpu controller's mount (combined with cpuacct, as most distributions mount it). */
    public static final String V1_CPU = "/sys/fs/cgroup/cpu,cpuacct";
    /** The v1 cpuset controller's mount. */
    public static final String V1_CPUSET = "/sys/fs/cgroup/cpuset";

    private final Path root;
    private final CgroupVersion version;

    /**
     * Starts a cgroup v2 tree.
     *
     * @param root temp directory
     */
    public FakeHost(Path root) {
        this(root, CgroupVersion.V2);
    }

    /**
     * Starts a tree.
     *
     * @param root temp directory
     * @param version cgroup hierarchy of the host
     */
    public FakeHost(Path root, CgroupVersion version) {
        this.root = root;
        this.version = version;
        if (version == CgroupVersion.V2) {
            file("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc");
        } else {
            file("/sys/fs/cgroup/unified/cgroup.controllers", "");
            file(V1_CPU + "/cpu.cfs_period_us", "100000");
            file(V1_CPU + "/cpu.cfs_quota_us", "-1");
            file(V1_CPU + "/cgroup.procs", "1");
            file(V1_CPUSET + "/cpuset.cpus", "0-39");
            file(V1_CPUSET + "/cpuset.mems", "0-1");
            file(V1_CPUSET + "/cpuset.effective_cpus", "0-39");
            file(V1_CPUSET + "/cpuset.effective_mems", "0-1");
        }
        file("/sys/devices/system/cpu/online", "0-39");
    }

    /**
     * The cgroup hierarchy of the tree.
     *
     * @return v1 or v2
     */
    public CgroupVersion version() {
        return version;
    }

    /**
     * A worker like the paper's: two NUMA nodes of 10 cores (+HT), NIC eth1 on
     * node 0, vNF "fwd" (systemd driver) and "snort" (cgroupfs driver), resctrl
     * with their groups, cpufreq on every core.
     *
     * @param root temp directory
     * @return the tree
     */
    public static FakeHost worker(Path root) {
        return worker(root, CgroupVersion.V2);
    }

    /**
     * The worker preset on a cgroup hierarchy.
     *
     * @param root temp directory
     * @param version cgroup v1 or v2
     * @return the tree
     */
    public static FakeHost worker(Path root, CgroupVersion version) {
        return new FakeHost(root, version).numa("eth1")
                .container(SYSTEMD, UID_A, ID_A, "4242", "4243")
                .container(CGROUPFS, UID_B, ID_B, "5151")
                .resctrl("srv6int-fwd", "srv6int-snort")
                .cpufreq(0, 39);
    }

    /**
     * The root.
     *
     * @return root dir
     */
    public Path root() {
        return root;
    }

    /**
     * Path of a host file in the tree.
     *
     * @param hostPath absolute host path
     * @return path
     */
    public Path path(String hostPath) {
        return root.resolve(hostPath.substring(1));
    }

    /**
     * Writes a kernel-style file (value + newline).
     *
     * @param hostPath absolute host path
     * @param value content without the newline
     * @return this
     */
    public FakeHost file(String hostPath, String value) {
        try {
            Path p = path(hostPath);
            Files.createDirectories(p.getParent());
            Files.write(p, (value + "\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * Reads a file of the tree, trimmed.
     *
     * @param hostPath absolute host path
     * @return content
     */
    public String read(String hostPath) {
        try {
            return new String(Files.readAllBytes(path(hostPath)), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Two NUMA nodes of 10 cores + 10 hyperthreads each (the paper's workers), NIC on node 0.
     *
     * @param iface NIC name
     * @return this
     */
    public FakeHost numa(String iface) {
        file("/sys/devices/system/node/node0/cpulist", "0-9,20-29");
        file("/sys/devices/system/node/node1/cpulist", "10-19,30-39");
        file("/sys/devices/system/node/online", "0-1");
        file("/sys/class/net/" + iface + "/device/numa_node", "0");
        return this;
    }

    /**
     * cgroup path of a container (relative to /sys/fs/cgroup) for a driver, burstable QoS.
     *
     * @param systemd driver
     * @param podUid pod UID with dashes
     * @param containerId bare container id
     * @return relative path
     */
    public static String containerCgroup(boolean systemd, String podUid, String containerId) {
        return systemd
                ? "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + podUid.replace('-', '_')
                + ".slice/cri-containerd-" + containerId + ".scope"
                : "kubepods/burstable/pod" + podUid + "/" + containerId;
    }

    /**
     * A container cgroup as the kubelet and containerd leave it (no CPU limit).
     *
     * @param systemd driver
     * @param podUid pod UID
     * @param containerId bare id
     * @param threads thread ids in it
     * @return this
     */
    public FakeHost container(boolean systemd, String podUid, String containerId, String... threads) {
        return cgroupAt(containerCgroup(systemd, podUid, containerId), threads);
    }

    /**
     * A container cgroup at a path relative to the hierarchy's root: on v2 one directory
     * (cpu.max "max", cpuset files empty, effective ones the host's); on v1 the cpu
     * controller's (quota -1) and the cpuset controller's (cpus/mems copied from the
     * parent, as runc sets them: v1 refuses tasks in an empty cpuset).
     *
     * @param relative path under the hierarchy's root
     * @param threads thread ids in it
     * @return this
     */
    public FakeHost cgroupAt(String relative, String... threads) {
        String procs = threads.length > 0 ? threads[0] : "";
        if (version == CgroupVersion.V2) {
            String dir = "/sys/fs/cgroup/" + relative;
            file(dir + "/cpu.max", "max 100000");
            file(dir + "/cpu.weight", "100");
            file(dir + "/cpuset.cpus", "");
            file(dir + "/cpuset.cpus.effective", "0-39");
            file(dir + "/cpuset.mems", "");
            file(dir + "/cpuset.mems.effective", "0-1");
            file(dir + "/cgroup.procs", procs);
            file(dir + "/cgroup.threads", String.join("\n", threads));
            return this;
        }
        String cpu = V1_CPU + "/" + relative;
        file(cpu + "/cpu.cfs_quota_us", "-1");
        file(cpu + "/cpu.cfs_period_us", "100000");
        file(cpu + "/cpu.shares", "1024");
        file(cpu + "/cgroup.procs", procs);
        file(cpu + "/tasks", String.join("\n", threads));
        String set = V1_CPUSET + "/" + relative;
        file(set + "/cpuset.cpus", "0-39");
        file(set + "/cpuset.mems", "0-1");
        file(set + "/cpuset.effective_cpus", "0-39");
        file(set + "/cpuset.effective_mems", "0-1");
        file(set + "/cpuset.memory_migrate", "0");
        file(set + "/cgroup.procs", procs);
        file(set + "/tasks", String.join("\n", threads));
        return this;
    }

    /**
     * Host path of a cgroup's directory for the cpu controller (the unified one on v2).
     *
     * @param relative path under the hierarchy's root
     * @return absolute host path
     */
    public String cpuDir(String relative) {
        return (version == CgroupVersion.V2 ? "/sys/fs/cgroup" : V1_CPU) + "/" + relative;
    }

    /**
     * Host path of a cgroup's directory for the cpuset controller (the unified one on v2).
     *
     * @param relative path under the hierarchy's root
     * @return absolute host path
     */
    public String cpusetDir(String relative) {
        return (version == CgroupVersion.V2 ? "/sys/fs/cgroup" : V1_CPUSET) + "/" + relative;
    }

    /**
     * The cgroup the agent should find for a relative path.
     *
     * @param relative path under the hierarchy's root
     * @return expected cgroup
     */
    public ContainerCgroup cgroup(String relative) {
        return version == CgroupVersion.V2 ? ContainerCgroup.v2(path(cpuDir(relative)))
                : ContainerCgroup.v1(path(cpuDir(relative)), path(cpusetDir(relative)));
    }

    /**
     * A container's cgroup the agent should find.
     *
     * @param systemd driver
     * @param podUid pod UID
     * @param containerId bare id
     * @return expected cgroup
     */
    public ContainerCgroup cgroup(boolean systemd, String podUid, String containerId) {
        return cgroup(containerCgroup(systemd, podUid, containerId));
    }

    /**
     * The CPU quota of a cgroup in cpu.max's format whatever the hierarchy ("max 100000",
     * "150000 100000"; on v1 from cpu.cfs_quota_us, -1 read as "max", and cpu.cfs_period_us).
     *
     * @param relative path under the hierarchy's root
     * @return quota and period
     */
    public String cpuMax(String relative) {
        String dir = cpuDir(relative);
        if (version == CgroupVersion.V2) {
            return read(dir + "/cpu.max");
        }
        String quota = read(dir + "/cpu.cfs_quota_us");
        return (quota.startsWith("-") ? "max" : quota) + " " + read(dir + "/cpu.cfs_period_us");
    }

    /**
     * Sets the CPU quota of a cgroup from a value in cpu.max's format.
     *
     * @param relative path under the hierarchy's root
     * @param cpuMax "$QUOTA $PERIOD" or "max $PERIOD"
     * @return this
     */
    public FakeHost cpuMax(String relative, String cpuMax) {
        String dir = cpuDir(relative);
        if (version == CgroupVersion.V2) {
            return file(dir + "/cpu.max", cpuMax);
        }
        String[] p = cpuMax.split(" ");
        file(dir + "/cpu.cfs_quota_us", "max".equals(p[0]) ? "-1" : p[0]);
        return file(dir + "/cpu.cfs_period_us", p[1]);
    }

    /**
     * The cpu.stat of a cgroup in the hierarchy's format (v1: {@code throttled_time} ns; v2: usage and
     * {@code throttled_usec}), with these period counts.
     *
     * @param relative path under the hierarchy's root
     * @param periods nr_periods
     * @param throttled nr_throttled
     * @return this
     */
    public FakeHost cpuStat(String relative, long periods, long throttled) {
        String dir = cpuDir(relative);
        if (version == CgroupVersion.V2) {
            return file(dir + "/cpu.stat", "usage_usec 123456\nuser_usec 100000\nsystem_usec 23456\nnr_periods "
                    + periods + "\nnr_throttled " + throttled + "\nthrottled_usec " + throttled * 20_000 + "\n");
        }
        return file(dir + "/cpu.stat", "nr_periods " + periods + "\nnr_throttled " + throttled + "\nthrottled_time "
                + throttled * 20_000_000L + "\n");
    }

    /**
     * A cpuset file of a cgroup.
     *
     * @param relative path under the hierarchy's root
     * @param name "cpus" or "mems"
     * @return content
     */
    public String cpuset(String relative, String name) {
        return read(cpusetDir(relative) + "/cpuset." + name);
    }

    /**
     * Writes a cpuset file of a cgroup.
     *
     * @param relative path under the hierarchy's root
     * @param name "cpus" or "mems"
     * @param value content
     * @return this
     */
    public FakeHost cpuset(String relative, String name, String value) {
        return file(cpusetDir(relative) + "/cpuset." + name, value);
    }

    /**
     * resctrl mounted with L3 CAT (20 ways) and MBA (granularity 10 %), two domains.
     *
     * @param groups names of control groups already present
     * @return this
     */
    public FakeHost resctrl(String... groups) {
        file("/sys/fs/resctrl/info/L3/cbm_mask", "fffff");
        file("/sys/fs/resctrl/info/L3/min_cbm_bits", "1");
        file("/sys/fs/resctrl/info/L3/num_closids", "16");
        file("/sys/fs/resctrl/info/L3/shareable_bits", "0");
        file("/sys/fs/resctrl/info/MB/bandwidth_gran", "10");
        file("/sys/fs/resctrl/info/MB/min_bandwidth", "10");
        file("/sys/fs/resctrl/info/MB/num_closids", "8");
        file("/sys/fs/resctrl/info/MB/delay_linear", "1");
        file("/sys/fs/resctrl/schemata", "L3:0=fffff;1=fffff\nMB:0=100;1=100");
        file("/sys/fs/resctrl/tasks", "1");
        for (String g : groups) {
            group(g);
        }
        return this;
    }

    /**
     * A resctrl control group as mkdir makes it (full mask, full bandwidth).
     *
     * @param name group name
     * @return this
     */
    public FakeHost group(String name) {
        String dir = "/sys/fs/resctrl/" + name;
        file(dir + "/schemata", "L3:0=fffff;1=fffff\nMB:0=100;1=100");
        file(dir + "/tasks", "");
        file(dir + "/cpus", "00000000,00000000");
        file(dir + "/cpus_list", "");
        file(dir + "/mode", "shareable");
        return this;
    }

    /**
     * cpufreq on cores lo..hi (800 MHz - 3 GHz, at the maximum).
     *
     * @param lo first core
     * @param hi last core
     * @return this
     */
    public FakeHost cpufreq(int lo, int hi) {
        for (int c = lo; c <= hi; c++) {
            String dir = "/sys/devices/system/cpu/cpu" + c + "/cpufreq";
            file(dir + "/cpuinfo_min_freq", "800000");
            file(dir + "/cpuinfo_max_freq", "3000000");
            file(dir + "/scaling_min_freq", "800000");
            file(dir + "/scaling_max_freq", "3000000");
            file(dir + "/scaling_governor", "performance");
            file(dir + "/scaling_driver", "intel_pstate");
        }
        return this;
    }
}
