// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.agent.FakeHost;

import java.nio.file.Path;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/** The hierarchy is chosen from the mounts (mountinfo as the kernel writes it), else from the files. */
public class CgroupHierarchyTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    /** This project's CI machines: v1 controllers mounted one by one, a cgroup2 "unified" without controllers. */
    private static String hybrid(String prefix) {
        String p = prefix + "/sys/fs/cgroup";
        return "31 23 0:28 / " + p + " rw,relatime - tmpfs tmpfs rw,mode=755\n"
                + "32 31 0:29 / " + p + "/cpu rw,relatime - cgroup cgroup rw,cpu\n"
                + "33 31 0:30 / " + p + "/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
                + "34 31 0:31 / " + p + "/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
                + "35 31 0:32 / " + p + "/memory rw,relatime - cgroup cgroup rw,memory\n"
                + "40 31 0:37 / " + p + "/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd\n"
                + "41 31 0:38 / " + p + "/unified rw,relatime - cgroup2 cgroup2 rw\n";
    }

    private HostFiles host() {
        return new HostFiles(tmp.getRoot().toPath());
    }

    private Path p(String hostPath) {
        return host().path(hostPath);
    }

    @Test
    public void aHybridHostWithoutCpuInTheUnifiedMountIsV1() {
        new FakeHost(tmp.getRoot().toPath(), CgroupVersion.V1); // unified/cgroup.controllers empty
        CgroupHierarchy h = CgroupHierarchy.detect(host(), null, hybrid(tmp.getRoot().toString()));
        assertEquals(CgroupVersion.V1, h.version());
        assertEquals(p("/sys/fs/cgroup/cpu"), h.cpuRoot());
        assertEquals(p("/sys/fs/cgroup/cpuset"), h.cpusetRoot());
        assertTrue(h.reason(), h.reason().contains("has no cpu controller"));
        assertTrue(h.reason(), h.reason().contains("mountinfo"));
    }

    @Test
    public void aUnifiedMountWithTheCpuControllerIsV2EvenBesideV1Mounts() {
        FakeHost f = new FakeHost(tmp.getRoot().toPath(), CgroupVersion.V1);
        f.file("/sys/fs/cgroup/unified/cgroup.controllers", "cpuset cpu io memory pids");
        CgroupHierarchy h = CgroupHierarchy.detect(host(), null, hybrid(tmp.getRoot().toString()));
        assertEquals(CgroupVersion.V2, h.version());
        assertEquals(p("/sys/fs/cgroup/unified"), h.cpuRoot());
    }

    @Test
    public void aPureV2HostIsV2AndTheAgentsOwnCgroupMountIsIgnored() {
        new FakeHost(tmp.getRoot().toPath());
        String root = tmp.getRoot().toString();
        String mi = "1200 1100 0:26 /../../.. /sys/fs/cgroup ro,nosuid - cgroup2 cgroup cgroup2 rw\n"
                + "1201 1100 0:26 / " + root + "/sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 "
                + "rw,nsdelegate,memory_recursiveprot\n";
        CgroupHierarchy h = CgroupHierarchy.detect(host(), null, mi);
        assertEquals(CgroupVersion.V2, h.version());
        assertEquals(p("/sys/fs/cgroup"), h.cpuRoot());
        assertEquals(p("/sys/fs/cgroup"), h.cpusetRoot());
        assertTrue(h.reason(), h.reason().contains("has the cpu controller"));
    }

    @Test
    public void combinedCpuCpuacctMountsAndEscapedPathsAreRead() {
        String root = tmp.getRoot().toString();
        String mi = "32 31 0:29 / " + root + "/sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
                + "34 31 0:31 / " + root + "/sys/fs/cgroup/my\\040cpuset rw - cgroup cgroup rw,cpuset\n";
        CgroupHierarchy h = CgroupHierarchy.detect(host(), null, mi);
        assertEquals(CgroupVersion.V1, h.version());
        assertEquals(p("/sys/fs/cgroup/cpu,cpuacct"), h.cpuRoot());
        assertEquals(p("/sys/fs/cgroup/my cpuset"), h.cpusetRoot());
        assertTrue(h.reason(), h.reason().contains("no cgroup2 mount") || !h.reason().contains("cgroup2 mount /"));
    }

    @Test
    public void v1WithoutACpusetMountStillOffersTheQuotaAndSaysPinningIsOff() {
        String root = tmp.getRoot().toString();
        String mi = "32 31 0:29 / " + root + "/sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n";
        CgroupHierarchy h = CgroupHierarchy.detect(host(), null, mi);
        assertEquals(CgroupVersion.V1, h.version());
        assertNull(h.cpusetRoot());
        assertTrue(h.reason(), h.reason().contains("cpuset NOT mounted"));
    }

    @Test
    public void withoutMountsTheFilesDecideOnBothFakeTrees() {
        new FakeHost(tmp.getRoot().toPath(), CgroupVersion.V1);
        CgroupHierarchy v1 = CgroupHierarchy.detect(host(), null, "");
        assertEquals(CgroupVersion.V1, v1.version());
        assertEquals(p(FakeHost.V1_CPU), v1.cpuRoot());
        assertEquals(p(FakeHost.V1_CPUSET), v1.cpusetRoot());
        assertTrue(v1.reason(), v1.reason().contains("no cgroup mount under it in mountinfo"));
        CgroupHierarchy unreadable = CgroupHierarchy.detect(host(), null, null);
        assertEquals(CgroupVersion.V1, unreadable.version());
        assertTrue(unreadable.reason(), unreadable.reason().contains("mountinfo unreadable"));
    }

    @Test
    public void aV2FakeTreeIsV2AndNothingAtAllIsV2AsBefore() throws Exception {
        Path other = tmp.newFolder("empty").toPath();
        CgroupHierarchy none = CgroupHierarchy.detect(new HostFiles(other), null, "");
        assertEquals(CgroupVersion.V2, none.version());
        assertTrue(none.reason(), none.reason().contains("no cpu controller found"));
        new FakeHost(tmp.getRoot().toPath());
        assertEquals(CgroupVersion.V2, CgroupHierarchy.detect(host(), null, "").version());
    }

    @Test
    public void theConfigForcesAVersion() {
        new FakeHost(tmp.getRoot().toPath(), CgroupVersion.V1);
        String mi = hybrid(tmp.getRoot().toString());
        CgroupHierarchy v2 = CgroupHierarchy.detect(host(), CgroupVersion.V2, mi);
        assertEquals(CgroupVersion.V2, v2.version());
        assertEquals(p("/sys/fs/cgroup/unified"), v2.cpuRoot());
        assertTrue(v2.reason(), v2.reason().startsWith("cgroupVersion V2 configured"));
        CgroupHierarchy v1 = CgroupHierarchy.detect(host(), CgroupVersion.V1, "");
        assertEquals(CgroupVersion.V1, v1.version());
        assertEquals(p(FakeHost.V1_CPU), v1.cpuRoot());
    }

    @Test
    public void theDaemonSetsViewUnderHostIsMappedThroughTheHostRoot() {
        // mount points as the agent's container sees the host's tree bind-mounted at hostRoot
        new FakeHost(tmp.getRoot().toPath(), CgroupVersion.V1);
        CgroupHierarchy h = CgroupHierarchy.detect(host(), null, hybrid("/elsewhere")
                + hybrid(tmp.getRoot().toString()));
        assertEquals(CgroupVersion.V1, h.version());
        assertEquals(p("/sys/fs/cgroup/cpu"), h.cpuRoot());
    }
}
