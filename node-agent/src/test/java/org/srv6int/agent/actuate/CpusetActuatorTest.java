// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;
import org.srv6int.agent.FakeHost;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** NUMA pinning on fake trees of both hierarchies. */
@RunWith(Parameterized.class)
public class CpusetActuatorTest {

    /**
     * The hierarchies.
     *
     * @return v2, v1
     */
    @Parameters(name = "cgroup {0}")
    public static List<CgroupVersion> versions() {
        return List.of(CgroupVersion.V2, CgroupVersion.V1);
    }

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private final CgroupVersion version;

    public CpusetActuatorTest(CgroupVersion version) {
        this.version = version;
    }

    @Test
    public void pinsCpusAndMemsAndReadsTheEffectiveCpus() throws IOException {
        FakeHost h = new FakeHost(tmp.getRoot().toPath(), version).cgroupAt("cg");
        ContainerCgroup cg = h.cgroup("cg");
        assertEquals("0-39", CpuList.format(CpusetActuator.effectiveCpus(cg)));
        CpusetActuator.pin(cg, "2-3", "1");
        assertEquals("2-3", h.cpuset("cg", "cpus"));
        assertEquals("1", h.cpuset("cg", "mems"));
        assertEquals("1", CpuList.format(CpusetActuator.mems(cg)));
        if (version == CgroupVersion.V1) {
            assertEquals("pages follow mems as on v2", "1", h.read(h.cpusetDir("cg") + "/cpuset.memory_migrate"));
        }
        h.file(h.cpusetDir("cg") + (version == CgroupVersion.V2 ? "/cpuset.cpus.effective" : "/cpuset.effective_cpus"),
                "x-y");
        try {
            CpusetActuator.effectiveCpus(cg);
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("x-y"));
        }
    }

    @Test
    public void noCpusetControllerIsAnIoErrorThatSaysWhy() throws IOException {
        FakeHost h = new FakeHost(tmp.getRoot().toPath(), version).cgroupAt("cg");
        ContainerCgroup cg = h.cgroup("cg");
        if (version == CgroupVersion.V2) {
            // the parent does not enable cpuset: the container's directory has no cpuset files
            for (String f : new String[] {"cpus", "mems", "cpus.effective", "mems.effective"}) {
                Files.delete(h.path(h.cpusetDir("cg") + "/cpuset." + f));
            }
        } else {
            cg = ContainerCgroup.v1(cg.dir(), null); // no cpuset mount
        }
        try {
            CpusetActuator.pin(cg, "2-3", "0");
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(version == CgroupVersion.V2
                    ? "subtree_control" : "no cpuset controller"));
        }
        try {
            CpusetActuator.effectiveCpus(cg);
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("cpuset"));
        }
    }
}
