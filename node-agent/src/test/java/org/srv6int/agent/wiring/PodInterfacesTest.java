// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import org.junit.Before;
import org.junit.Test;
import org.srv6int.agent.FakeHost;
import org.srv6int.agent.actuate.HostFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The host-side interface lookup on a tree laid out as the kernel shows it (the real
 * kernel's case runs in tests/ci.d/45-ovs.sh, PodWiringCrossCheck): two pods whose eth0
 * both have ifindex 2 (ifindexes repeat across namespaces), their veth peers on the host.
 */
public class PodInterfacesTest {

    private static final String CG = "/sys/fs/cgroup/kubepods/pod1/c1";
    private FakeHost host;
    private PodInterfaces finder;

    @Before
    public void tree() throws IOException {
        host = new FakeHost(Files.createTempDirectory("podif"));
        iface("/proc/100/root/sys/class/net/eth0", 2, 7);   // pod A's eth0, peer 7
        iface("/proc/200/root/sys/class/net/eth0", 2, 8);   // pod B's eth0, peer 8
        iface("/sys/class/net/vethA", 7, 2);
        iface("/sys/class/net/vethB", 8, 2);
        iface("/sys/class/net/cni0", 5, 5);                 // a bridge: its own iflink
        iface("/sys/class/net/decoy", 9, 2);                // peered with an eth0 of ifindex 2 elsewhere
        finder = new PodInterfaces(new HostFiles(host.root()), "eth0");
    }

    private void iface(String dir, long ifindex, long iflink) {
        host.file(dir + "/ifindex", Long.toString(ifindex));
        host.file(dir + "/iflink", Long.toString(iflink));
    }

    private Path cgroup(String procs) {
        host.file(CG + "/cgroup.procs", procs);
        return host.path(CG);
    }

    @Test
    public void findsEachPodsOwnPeer() throws IOException {
        assertEquals("vethA", finder.hostSide(cgroup("100\n")));
        assertEquals("vethB", finder.hostSide(cgroup("200\n")));
    }

    @Test
    public void aProcessThatIsGoneIsSkipped() throws IOException {
        assertEquals("vethB", finder.hostSide(cgroup("999\n200\n")));
    }

    @Test
    public void badCasesSayWhy() {
        expect(cgroup(""), "no process");
        expect(cgroup("0\n0\n"), "hostPID"); // PIDs of another PID namespace read as 0
        expect(cgroup("999\n"), "not readable through process 999");
        iface("/proc/300/root/sys/class/net/eth0", 3, 3);
        expect(cgroup("300\n"), "not a veth");
        iface("/proc/400/root/sys/class/net/eth0", 2, 42);
        expect(cgroup("400\n"), "no interface with ifindex 42");
        // ifindex 9 exists on the host but is peered with another namespace's ifindex 2, not this 4
        iface("/proc/500/root/sys/class/net/eth0", 4, 9);
        expect(cgroup("500\n"), "no interface with ifindex 9");
    }

    @Test(expected = IllegalArgumentException.class)
    public void aBadInterfaceNameIsRefused() {
        new PodInterfaces(new HostFiles(host.root()), "../eth0");
    }

    private void expect(Path cg, String words) {
        try {
            fail("found " + finder.hostSide(cg));
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(words));
        }
    }
}
