// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import org.junit.Test;
import org.srv6int.agent.FakeHost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Threads into a resctrl group by id. A reader in another PID namespace sees a
 * container's threads as 0 (measured: `unshare --pid --fork --mount-proc cat
 * cgroup.threads` of a cgroup holding a host process reads "0"), and resctrl takes
 * a written 0 as the writer itself: no 0 is ever written.
 */
public class ResctrlTest {

    private static final String CG = "/sys/fs/cgroup/kubepods.slice/pod1/c1";

    @Test
    public void threadsOfAnotherPidNamespaceAreNeverWrittenAsZero() throws IOException {
        FakeHost host = new FakeHost(Files.createTempDirectory("resctrl"));
        host.file("/sys/fs/resctrl/srv6int-a/tasks", "");
        Path group = host.path("/sys/fs/resctrl/srv6int-a");
        host.file(CG + "/cgroup.threads", "0\n0\n");
        try {
            Resctrl.assignThreads(group, ContainerCgroup.v2(host.path(CG)));
            fail("threads of another PID namespace moved");
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("2 threads read as 0")
                    && e.getMessage().contains("hostPID"));
        }
        assertEquals("nothing written (0 would move the agent itself)", "", host.read(
                "/sys/fs/resctrl/srv6int-a/tasks"));
        host.file(CG + "/cgroup.threads", "4242\n");
        assertEquals(1, Resctrl.assignThreads(group, ContainerCgroup.v2(host.path(CG))));
        assertEquals("4242", host.read("/sys/fs/resctrl/srv6int-a/tasks").trim());
    }
}
