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
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The CPU quota actuator on fake trees of both hierarchies: cpu.max (v2), cpu.cfs_quota_us/period_us (v1). */
@RunWith(Parameterized.class)
public class CpuQuotaActuatorTest {

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

    public CpuQuotaActuatorTest(CgroupVersion version) {
        this.version = version;
    }

    private FakeHost host() {
        return new FakeHost(tmp.getRoot().toPath(), version).cgroupAt("cg");
    }

    @Test
    public void parsesNoLimitAndQuotasAndWritesQuotaAndPeriod() throws IOException {
        FakeHost h = host();
        CpuQuotaActuator a = new CpuQuotaActuator(List.of(h.cgroup("cg")), 100_000);
        assertEquals("no limit reads as the largest value", Long.MAX_VALUE, a.read(0));
        a.write(0, 1500, new long[] {1500});
        assertEquals("150000 100000", h.cpuMax("cg"));
        assertEquals(1500, a.read(0));
        h.cpuMax("cg", "25000 50000");
        assertEquals(500, a.read(0));
        a.write(0, 1, new long[] {1});
        assertEquals("the kernel's least quota", "1000 100000", h.cpuMax("cg"));
    }

    @Test
    public void aPeriodOtherThanTheConfiguredOneIsRewrittenWithTheQuota() throws IOException {
        FakeHost h = host();
        CpuQuotaActuator a = new CpuQuotaActuator(List.of(h.cgroup("cg")), 50_000);
        a.write(0, 700, new long[] {700}); // from "max 100000"
        assertEquals("35000 50000", h.cpuMax("cg"));
        h.cpuMax("cg", "300000 200000"); // 1500 m with another period
        a.write(0, 400, new long[] {400});
        assertEquals("20000 50000", h.cpuMax("cg"));
        assertEquals(400, a.read(0));
    }

    @Test
    public void malformedFilesAndVanishedCgroupsAreIoErrorsNamingTheFile() throws IOException {
        FakeHost h = host();
        CpuQuotaActuator a = new CpuQuotaActuator(List.of(h.cgroup("cg")), 100_000);
        String file = version == CgroupVersion.V2 ? "cpu.max" : "cpu.cfs_quota_us";
        h.file(h.cpuDir("cg") + "/" + file, "garbage");
        try {
            a.read(0);
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(file));
        }
        CpuQuotaActuator gone = new CpuQuotaActuator(List.of(h.cgroup("nope")), 100_000);
        try {
            gone.write(0, 100, new long[] {100});
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("no such kernel file"));
        }
        try {
            gone.read(0);
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("nope"));
        }
    }

    @Test
    public void aZeroPeriodIsRefusedOnRead() throws IOException {
        FakeHost h = host();
        h.cpuMax("cg", "1000 0");
        try {
            new CpuQuotaActuator(List.of(h.cgroup("cg")), 100_000).read(0);
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("bad period"));
        }
    }
}
