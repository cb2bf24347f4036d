// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;
import org.srv6int.agent.actuate.CgroupHierarchy;
import org.srv6int.agent.actuate.CgroupLocator;
import org.srv6int.agent.actuate.CgroupVersion;
import org.srv6int.agent.actuate.ContainerCgroup;
import org.srv6int.agent.actuate.HostFiles;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** Start-up on fake trees of both cgroup hierarchies: every check runs on v2 and on v1. */
@RunWith(Parameterized.class)
public class HostSetupTest {

    /**
     * The hierarchies.
     *
     * @return v1, v2
     */
    @Parameters(name = "cgroup {0}")
    public static List<CgroupVersion> versions() {
        return List.of(CgroupVersion.V2, CgroupVersion.V1);
    }

    private final CgroupVersion version;

    public HostSetupTest(CgroupVersion version) {
        this.version = version;
    }

    static final String CG_A = FakeHost.containerCgroup(true, FakeHost.UID_A, FakeHost.ID_A);
    static final String CG_B = FakeHost.containerCgroup(false, FakeHost.UID_B, FakeHost.ID_B);

    static final String UID_A = FakeHost.UID_A;
    static final String UID_B = FakeHost.UID_B;
    static final String ID_A = FakeHost.ID_A;
    static final String ID_B = FakeHost.ID_B;

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    static FakeHost fullHost(Path root) {
        return FakeHost.worker(root);
    }

    private FakeHost worker() {
        return FakeHost.worker(tmp.getRoot().toPath(), version);
    }

    private FakeHost bare() {
        return new FakeHost(tmp.getRoot().toPath(), version);
    }

    static AgentConfig config(Path root) throws IOException {
        AgentConfig c = new AgentConfig();
        c.node = "worker1";
        c.iface = "eth1";
        c.hostRoot = root.toString();
        c.decisionLog = "";
        c.metricsAddress = "127.0.0.1:0";
        c.vnfs.add(vnf("fwd", "fc00:2::10", 1, 1, UID_A, "containerd://" + ID_A, "2-3"));
        c.vnfs.add(vnf("snort", "fc00:2::11", 2, 1, UID_B, ID_B, "4-5,12"));
        c.validate();
        return c;
    }

    static AgentConfig.Vnf vnf(String name, String sid, int chain, int index, String uid, String id, String cpus) {
        AgentConfig.Vnf v = new AgentConfig.Vnf();
        v.name = name;
        v.sid = sid;
        v.chainId = chain;
        v.vnfIndex = index;
        v.lmaxNs = 1_000_000;
        v.podUid = uid;
        v.containerId = id;
        v.cpus = cpus;
        return v;
    }

    static String l3(FakeHost h, String schemata) {
        for (String line : h.read(schemata).split("\n")) {
            if (line.trim().startsWith("L3:")) {
                return line.trim();
            }
        }
        return null;
    }

    @Test
    public void locatorFindsBothCgroupDriversAndEveryQosClass() throws IOException {
        FakeHost h = bare()
                .container(FakeHost.SYSTEMD, UID_A, ID_A)
                .container(FakeHost.CGROUPFS, UID_B, ID_B);
        h.cgroupAt("kubepods.slice/kubepods-pod" + UID_B.replace('-', '_') + ".slice/crio-abc.scope");
        h.cgroupAt("kubepods/besteffort/pod" + UID_A + "/cafe");
        CgroupLocator loc = new CgroupLocator(new HostFiles(h.root()));
        assertEquals(version, loc.hierarchy().version());
        assertEquals(h.cgroup(true, UID_A, ID_A), loc.locate(UID_A, "containerd://" + ID_A));
        assertEquals(h.cgroup(false, UID_B, ID_B), loc.locate(UID_B, ID_B));
        ContainerCgroup crio = loc.locate(UID_B, "cri-o://abc");
        assertTrue(crio.dir().endsWith("crio-abc.scope"));
        assertEquals(version == CgroupVersion.V1 ? h.path(FakeHost.V1_CPUSET + "/kubepods.slice/kubepods-pod"
                + UID_B.replace('-', '_') + ".slice/crio-abc.scope") : crio.dir(), crio.cpusetDir());
        assertEquals(h.cgroup("kubepods/besteffort/pod" + UID_A + "/cafe"), loc.locate(UID_A, "containerd://cafe"));
        try {
            loc.locate(UID_A, "deadbeef");
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("deadbeef"));
        }
    }

    @Test
    public void setupOffersAllFourResourcesPinsToTheNicNodeAndClampsToCeilings() throws IOException {
        FakeHost h = worker();
        AgentConfig c = config(h.root());
        c.vnfs.get(0).initial.put(ResourceType.LLC, 4L);
        c.vnfs.get(1).initial.put(ResourceType.LLC, 6L);
        c.vnfs.get(1).initial.put(ResourceType.MEMORY_BANDWIDTH, 50L);
        c.vnfs.get(0).initial.put(ResourceType.CPU_FREQUENCY, 2_000_000L);
        HostSetup s = new HostSetup(c).run();
        assertTrue(s.unavailable().toString(), s.unavailable().isEmpty());
        assertEquals(0, s.nicNode());
        assertEquals(version, s.hierarchy().version());
        // cpuset: cpu 12 is on node 1, so snort keeps 4-5 only
        assertEquals("2-3", h.cpuset(CG_A, "cpus"));
        assertEquals("0", h.cpuset(CG_A, "mems"));
        assertEquals("4-5", h.cpuset(CG_B, "cpus"));
        if (version == CgroupVersion.V1) {
            // v2 moves the pages when mems changes; v1 only with memory_migrate
            assertEquals("1", h.read(h.cpusetDir(CG_A) + "/cpuset.memory_migrate"));
        }
        assertTrue(s.notes().toString(), s.notes().toString().contains("cpus 12 are not on the NIC's node 0"));
        // cpu.max was "max": clamped to the ceiling (2 cpus = 2000 millicores) and written back
        ResourcePool cpu = s.pools()[ResourceType.CPU_QUOTA.ordinal()];
        assertEquals(2000, cpu.allocation(0));
        assertEquals("200000 100000", h.cpuMax(CG_A));
        assertEquals("200000 100000", h.cpuMax(CG_B));
        assertEquals(4000, cpu.budget());
        // LLC: contiguous, non-overlapping masks from the lowest way, in every domain
        assertEquals("L3:0=f;1=f", l3(h, "/sys/fs/resctrl/srv6int-fwd/schemata"));
        assertEquals("L3:0=3f0;1=3f0", l3(h, "/sys/fs/resctrl/srv6int-snort/schemata"));
        assertEquals(10, s.pools()[ResourceType.LLC.ordinal()].free());
        // threads moved into the resctrl groups (one write per thread id; the fake keeps the last)
        assertEquals("4243", h.read("/sys/fs/resctrl/srv6int-fwd/tasks"));
        // MB read back 100 for fwd, configured 50 for snort; granularity 10, floor 10
        ResourcePool mb = s.pools()[ResourceType.MEMORY_BANDWIDTH.ordinal()];
        assertEquals(100, mb.allocation(0));
        assertEquals(50, mb.allocation(1));
        assertEquals(10, mb.step());
        assertEquals(10, mb.floor(0));
        // cpufreq: every core of the vNF, within cpuinfo limits
        assertEquals("2000000", h.read("/sys/devices/system/cpu/cpu2/cpufreq/scaling_max_freq"));
        assertEquals("2000000", h.read("/sys/devices/system/cpu/cpu3/cpufreq/scaling_max_freq"));
        assertEquals("3000000", h.read("/sys/devices/system/cpu/cpu4/cpufreq/scaling_max_freq"));
        ResourcePool f = s.pools()[ResourceType.CPU_FREQUENCY.ordinal()];
        assertEquals(800_000, f.floor(0));
        assertEquals(3_000_000, f.ceiling(0));
    }

    /**
     * Issue 22: CPU held for the node's other pods is kept out of the pool, and when the quotas
     * found do not fit the rest every vNF is cut to its pod's request before the newest goes
     * below its own (before: the newest alone, toward its floor).
     */
    @Test
    public void heldCpuIsKeptOutAndANewVnfKeepsItsRequestWhenCutToFit() throws IOException {
        FakeHost h = worker();
        AgentConfig c = config(h.root());
        for (AgentConfig.Vnf v : c.vnfs) {
            v.initial.put(ResourceType.CPU_QUOTA, 2000L); // 4000 of the 4 cores
        }
        c.vnfs.get(1).cpuRequestMillis = 1500L;
        HostSetup s = new HostSetup(c).hold(ResourceType.CPU_QUOTA, 1000).run();
        ResourcePool cpu = s.pools()[ResourceType.CPU_QUOTA.ordinal()];
        assertEquals(4000, cpu.budget());
        assertEquals(1000, cpu.held());
        assertEquals("the newest vNF keeps its request", 1500, cpu.allocation(1));
        assertEquals("the older one, promised nothing, gives the rest", 1500, cpu.allocation(0));
        assertEquals(0, cpu.free());
        assertEquals("150000 100000", h.cpuMax(CG_B));
        // the node's allocatable CPU caps the budget (the kubelet checks every resize against it)
        HostSetup capped = new HostSetup(c).cap(ResourceType.CPU_QUOTA, 3500).run();
        ResourcePool p = capped.pools()[ResourceType.CPU_QUOTA.ordinal()];
        assertEquals(3500, p.budget());
        assertEquals(1500, p.allocation(1));
        assertEquals(2000, p.allocation(0));
        assertTrue(capped.notes().toString(), capped.notes().toString().contains("capped at the node's allocatable"));
    }

    @Test
    public void aVnfAskedToKeepANegativeRequestIsRefusedByName() {
        try {
            AgentConfig c = config(tmp.getRoot().toPath());
            c.vnfs.get(1).cpuRequestMillis = -1L;
            c.validate();
            fail("validated");
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("vnfs[1].cpuRequestMillis"));
        }
    }

    @Test
    public void restartReadsTheAllocationsBackFromTheFiles() throws IOException {
        FakeHost h = worker();
        AgentConfig c = config(h.root());
        h.cpuMax(CG_A, "70000 100000");                                // 700 millicores
        h.file("/sys/fs/resctrl/srv6int-fwd/schemata", "    L3:0=ff0;1=ff0\n    MB:0=30;1=30");
        h.file("/sys/fs/resctrl/srv6int-snort/schemata", "L3:0=3;1=3\nMB:0=20;1=20");
        h.file("/sys/devices/system/cpu/cpu3/cpufreq/scaling_max_freq", "2400000"); // crash mid-write
        HostSetup s = new HostSetup(c).run();
        ResourcePool[] p = s.pools();
        assertEquals(700, p[ResourceType.CPU_QUOTA.ordinal()].allocation(0));
        assertEquals("70000 100000", h.cpuMax(CG_A));
        assertEquals(8, p[ResourceType.LLC.ordinal()].allocation(0));
        assertEquals(2, p[ResourceType.LLC.ordinal()].allocation(1));
        assertEquals(30, p[ResourceType.MEMORY_BANDWIDTH.ordinal()].allocation(0));
        assertEquals(20, p[ResourceType.MEMORY_BANDWIDTH.ordinal()].allocation(1));
        // the highest core value wins and is applied to every core of the vNF
        assertEquals(3_000_000, p[ResourceType.CPU_FREQUENCY.ordinal()].allocation(0));
        assertEquals("3000000", h.read("/sys/devices/system/cpu/cpu3/cpufreq/scaling_max_freq"));
        // re-laid out from the lowest way
        assertEquals("L3:0=ff;1=ff", l3(h, "/sys/fs/resctrl/srv6int-fwd/schemata"));
        assertEquals("L3:0=300;1=300", l3(h, "/sys/fs/resctrl/srv6int-snort/schemata"));
    }

    @Test
    public void hostWithoutResctrlOrCpufreqOffersCpuQuotaOnlyAndSaysWhy() throws IOException {
        FakeHost h = bare().numa("eth1")
                .container(FakeHost.SYSTEMD, UID_A, ID_A)
                .container(FakeHost.CGROUPFS, UID_B, ID_B);
        HostSetup s = new HostSetup(config(h.root())).run();
        Map<ResourceType, String> missing = s.unavailable();
        assertNotNull(s.pools()[ResourceType.CPU_QUOTA.ordinal()]);
        assertNull(s.pools()[ResourceType.LLC.ordinal()]);
        assertTrue(missing.get(ResourceType.LLC), missing.get(ResourceType.LLC).contains("info/L3"));
        assertTrue(missing.get(ResourceType.MEMORY_BANDWIDTH).contains("info/MB"));
        assertTrue(missing.get(ResourceType.CPU_FREQUENCY).contains("no cpufreq"));
    }

    /**
     * No cpuset controller for the containers (v2: not enabled in the parent's subtree_control;
     * v1: not mounted): the CPU quota is still offered, pinning says why it failed.
     */
    @Test
    public void withoutACpusetControllerTheQuotaStaysAndPinningSaysWhy() throws IOException {
        FakeHost h = bare().numa("eth1")
                .container(FakeHost.SYSTEMD, UID_A, ID_A)
                .container(FakeHost.CGROUPFS, UID_B, ID_B);
        if (version == CgroupVersion.V2) {
            for (String cg : new String[] {CG_A, CG_B}) {
                for (String f : new String[] {"cpus", "mems", "cpus.effective", "mems.effective"}) {
                    Files.delete(h.path(h.cpusetDir(cg) + "/cpuset." + f));
                }
            }
        } else {
            deleteTree(h.path(FakeHost.V1_CPUSET));
        }
        HostSetup s = new HostSetup(config(h.root())).run();
        assertNotNull(s.unavailable().toString(), s.pools()[ResourceType.CPU_QUOTA.ordinal()]);
        assertEquals("200000 100000", h.cpuMax(CG_A));
        String notes = s.notes().toString();
        assertTrue(notes, notes.contains("vNF fwd: cpuset pinning failed"));
        assertTrue(notes, notes.contains(version == CgroupVersion.V2 ? "subtree_control" : "no cpuset controller"));
        if (version == CgroupVersion.V1) {
            assertTrue(notes, notes.contains("cpuset not mounted"));
        }
    }

    /** The choice is made once by the agent and handed to every set-up; the config can force it. */
    @Test
    public void aHierarchyChosenBeforeIsUsedAndTheConfigCanForceOne() throws IOException {
        FakeHost h = worker();
        AgentConfig c = config(h.root());
        CgroupHierarchy chosen = CgroupHierarchy.detect(new HostFiles(h.root()), null, "");
        HostSetup s = new HostSetup(c, HostSetup.DIRECT, chosen).run();
        assertEquals(chosen, s.hierarchy());
        assertEquals(version, s.hierarchy().version());
        CgroupVersion other = version == CgroupVersion.V2 ? CgroupVersion.V1 : CgroupVersion.V2;
        c.cgroupVersion = AgentConfig.CgroupSetting.valueOf(other.name());
        HostSetup forced = new HostSetup(c).run();
        assertEquals(other, forced.hierarchy().version());
        assertTrue(forced.notes().toString(), forced.notes().toString().contains("no cgroup for pod"));
        assertNull("the other hierarchy's files are not there", forced.pools()[ResourceType.CPU_QUOTA.ordinal()]);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(p);
            }
        }
    }

    @Test
    public void configuredFloorsAndCeilingsNarrowTheHardwareLimits() throws IOException {
        FakeHost h = worker();
        AgentConfig c = config(h.root());
        AgentConfig.ResourceSettings cpu = new AgentConfig.ResourceSettings();
        cpu.floor = 300L;
        cpu.ceiling = 1500L;
        cpu.step = 250L;
        c.resources.put(ResourceType.CPU_QUOTA, cpu);
        AgentConfig.ResourceSettings mb = new AgentConfig.ResourceSettings();
        mb.step = 15L; // rounded up to the 10 % granularity
        mb.floor = 5L; // raised to min_bandwidth
        c.resources.put(ResourceType.MEMORY_BANDWIDTH, mb);
        AgentConfig.ResourceSettings freq = new AgentConfig.ResourceSettings();
        freq.enabled = false;
        c.resources.put(ResourceType.CPU_FREQUENCY, freq);
        HostSetup s = new HostSetup(c).run();
        ResourcePool p = s.pools()[ResourceType.CPU_QUOTA.ordinal()];
        assertEquals(300, p.floor(0));
        assertEquals(1500, p.ceiling(0));
        assertEquals(1500, p.allocation(0));
        assertEquals(250, p.step());
        assertEquals(20, s.pools()[ResourceType.MEMORY_BANDWIDTH.ordinal()].step());
        assertEquals(10, s.pools()[ResourceType.MEMORY_BANDWIDTH.ordinal()].floor(0));
        assertNull(s.pools()[ResourceType.CPU_FREQUENCY.ordinal()]);
        assertEquals("disabled in config", s.unavailable().get(ResourceType.CPU_FREQUENCY));
    }
}
