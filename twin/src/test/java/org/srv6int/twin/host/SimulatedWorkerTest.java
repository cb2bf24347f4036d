// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.host;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import java.util.List;
import org.srv6int.agent.actuate.CgroupLocator;
import org.srv6int.agent.actuate.ContainerCgroup;
import org.srv6int.agent.actuate.CpuQuotaActuator;
import org.srv6int.agent.actuate.HostFiles;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.CfsPeriods;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;
import org.srv6int.twin.model.VnfType;

/** A simulated worker's files: created in the agent's layout, and the only source of the model's allocations. */
public class SimulatedWorkerTest {
    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static String read(Path p) throws Exception {
        return HostFiles.read(p);
    }

    @Test
    public void podsGetTheKernelFilesOfTheirAllocationWhereTheAgentLooks() throws Exception {
        Host h = new Host("worker1", "sw2");
        h.addInstance("vnf3", VnfType.SNORT, new Allocation(4.5, 4, 40, 2100), 0);
        h.addInstance("vnf1", VnfType.FWD, new Allocation(0.5, 1, 10, 1500), 0);
        SimulatedWorker w = new SimulatedWorker(h, tmp.getRoot().toPath());
        assertEquals(2, w.pods().size());
        SimulatedWorker.Pod snort = w.pods().get(0);
        assertEquals("vnf3.worker1", snort.name());
        HostFiles files = new HostFiles(w.root());
        Path cg = new CgroupLocator(files).locate(snort.uid(), "containerd://" + snort.containerId()).dir();
        assertEquals("450000 100000", read(cg.resolve("cpu.max")));
        assertEquals("L3:0=f\nMB:0=40", read(files.path("/sys/fs/resctrl/srv6int-vnf3.worker1/schemata")));
        assertEquals("L3:0=10\nMB:0=10", read(files.path("/sys/fs/resctrl/srv6int-vnf1.worker1/schemata")));
        assertEquals("2100000", read(files.path("/sys/devices/system/cpu/cpu9/cpufreq/scaling_max_freq")));
        assertEquals("1500000", read(files.path("/sys/devices/system/cpu/cpu10/cpufreq/scaling_max_freq")));
        assertEquals("10-19", w.pods().get(1).cpus());
        assertEquals("7ff", read(files.path("/sys/fs/resctrl/info/L3/cbm_mask")));
    }

    @Test
    public void theModelTakesAllocationsFromTheFilesOnly() throws Exception {
        Host h = new Host("worker1", "sw2");
        VnfInstance snort = h.addInstance("vnf3", VnfType.SNORT, new Allocation(4.5, 4, 40, 2100), 0);
        SimulatedWorker w = new SimulatedWorker(h, tmp.getRoot().toPath());
        HostFiles files = new HostFiles(w.root());
        SimulatedWorker.Pod p = w.pods().get(0);
        Path cg = new CgroupLocator(files).locate(p.uid(), p.containerId()).dir();
        HostFiles.write(cg.resolve("cpu.max"), "200000 100000");
        HostFiles.write(files.path("/sys/fs/resctrl/srv6int-vnf3.worker1/schemata"), "L3:0=3\nMB:0=70");
        HostFiles.write(files.path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq"), "1800000");
        w.apply();
        assertEquals("nothing applied before a write is signalled", 4.5, snort.allocation().get(Resource.CPU_QUOTA), 0);
        w.markDirty();
        w.apply();
        assertEquals(2.0, snort.allocation().get(Resource.CPU_QUOTA), 1e-9);
        assertEquals(2.0, snort.allocation().get(Resource.LLC_WAYS), 0);
        assertEquals(70.0, snort.allocation().get(Resource.MEM_BW_PCT), 0);
        assertEquals(1800.0, snort.allocation().get(Resource.CPU_FREQ_MHZ), 0);
        HostFiles.write(cg.resolve("cpu.max"), "max 100000");
        w.markDirty();
        w.apply();
        assertEquals("no limit = every core of its cpuset", SimulatedWorker.CPUS_PER_POD,
                snort.allocation().get(Resource.CPU_QUOTA), 0);
        // the kubelet re-creating a pod with a new limit (VPA)
        w.setCpuLimit(snort, 3.25);
        w.apply();
        assertEquals("325000 100000", HostFiles.read(cg.resolve("cpu.max")));
        assertEquals(3.25, snort.allocation().get(Resource.CPU_QUOTA), 1e-9);
    }

    @Test
    public void aPodStartedLaterGetsItsFilesAndABadFileIsAClearError() throws Exception {
        Host h = new Host("worker2", "sw3");
        h.addInstance("vnf2", VnfType.NDPI, new Allocation(2.5, 4, 30, 2000), 0);
        SimulatedWorker w = new SimulatedWorker(h, tmp.getRoot().toPath());
        VnfInstance replica = h.addInstance("vnf3", VnfType.SNORT, new Allocation(3.0, 4, 30, 2000), 3);
        w.apply();
        assertEquals(2, w.pods().size());
        assertEquals("vnf3.worker2", w.pods().get(1).name());
        assertEquals(3.0, replica.allocation().get(Resource.CPU_QUOTA), 1e-9);
        HostFiles files = new HostFiles(w.root());
        assertEquals("L3:0=f0\nMB:0=30", HostFiles.read(files.path("/sys/fs/resctrl/srv6int-vnf3.worker2/schemata")));
        Path schemata = files.path("/sys/fs/resctrl/srv6int-vnf2.worker2/schemata");
        Files.writeString(schemata, "MB:0=30\n");
        w.markDirty();
        try {
            w.apply();
            fail("a schemata without L3 was accepted");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("vnf2.worker2")
                    && e.getMessage().contains("no L3 line"));
        }
    }

    @Test
    public void cpuStatShowsTheModelsThrottledPeriodsToTheAgentsActuator() throws Exception {
        Host h = new Host("worker1", "sw2");
        VnfInstance snort = h.addInstance("vnf3", VnfType.SNORT, new Allocation(4.5, 4, 40, 2100), 0);
        SimulatedWorker w = new SimulatedWorker(h, tmp.getRoot().toPath());
        HostFiles files = new HostFiles(w.root());
        SimulatedWorker.Pod p = w.pods().get(0);
        Path cg = new CgroupLocator(files).locate(p.uid(), p.containerId()).dir();
        CpuQuotaActuator quota = new CpuQuotaActuator(List.of(ContainerCgroup.v2(cg)), SimulatedWorker.PERIOD_US);
        assertEquals(0, quota.throttling(0)[0]);
        CfsPeriods cfs = snort.cfs();
        for (int k = 0; k < 100; k++) { // one 100 ms period, twice the work its quota serves
            cfs.tick(0, 10, 5, 4.5, 0.001);
        }
        w.apply();
        long[] stat = quota.throttling(0);
        assertEquals(1, stat[0]);
        assertEquals(1, stat[1]);
        // the agent writes a 50 ms period: the model's periods follow the file
        HostFiles.write(cg.resolve("cpu.max"), "200000 50000");
        w.markDirty();
        w.apply();
        for (int k = 0; k < 100; k++) { // two periods, the second under its quota
            cfs.tick(0, k < 50 ? 10 : 1, 5, 4, 0.001);
        }
        w.apply();
        stat = quota.throttling(0);
        assertEquals(3, stat[0]);
        assertEquals(2, stat[1]);
    }

    @Test
    public void aDeletedPodLeavesTheWorkerAndItsCoresGoToTheNextPod() {
        Host h = new Host("worker1", "sw2");
        h.addInstance("vnf3", VnfType.SNORT, new Allocation(1, 2, 20, 2100), 0);
        VnfInstance fwd = h.addInstance("vnf1", VnfType.FWD, new Allocation(0.5, 1, 10, 1500), 0);
        SimulatedWorker w = new SimulatedWorker(h, tmp.getRoot().toPath());
        assertEquals(2, w.pods().size());
        assertTrue(h.removeInstance(h.instances().get(0).id()));
        assertTrue("a scale-in is a change", w.sync());
        assertEquals(1, w.pods().size());
        assertEquals(fwd, w.pods().get(0).instance());
        h.addInstance("vnf3", VnfType.SNORT, new Allocation(1, 2, 20, 2100), 0);
        assertTrue(w.sync());
        assertEquals("the freed cores", "0-9", w.pods().get(1).cpus());
        assertEquals("10-19", w.pods().get(0).cpus());
    }
}
