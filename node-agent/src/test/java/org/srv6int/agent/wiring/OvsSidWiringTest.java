// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import org.junit.Assume;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The wiring against a real Open vSwitch (userspace datapath, private
 * sandbox; skipped with the reason where it cannot run: not root or OVS not
 * installed), and its errors where OVS is absent. Traffic through the wired
 * bridge is shown by {@code tests/ci.d/45-ovs.sh} (WiringCrossCheck).
 */
public class OvsSidWiringTest {

    private static final String SID_A = "fc00:2::10";
    private static final String SID_B = "fc00:2::20";

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder(Path.of("/tmp").toFile());

    @Test
    public void absentOvsIsAClearCountedErrorAndTheWishIsKept() throws Exception {
        OvsCommands none = new OvsCommands(tmp.newFolder("no-ovs").toPath(), null, Duration.ofSeconds(2));
        OvsSidWiring w = new OvsSidWiring(none, "br-sfc", "system");
        OvsException e = Expect.thrown(OvsException.class, () -> w.wire(SID_A, "veth0", "eth1"));
        assertTrue(e.getMessage(), e.getMessage().contains("is openvswitch-switch installed?"));
        assertEquals(1, w.errors());
        assertEquals(Map.of("fc00:2:0:0:0:0:0:10", "veth0"), w.wired());
    }

    @Test
    public void anAbsentDatabaseIsAClearCountedError() throws Exception {
        Assume.assumeTrue("ovs-vsctl not installed", Files.exists(Path.of("/usr/bin/ovs-vsctl")));
        OvsCommands dead = new OvsCommands(null, tmp.newFolder("empty").toPath(), Duration.ofSeconds(1));
        OvsSidWiring w = new OvsSidWiring(dead, "br-sfc", "netdev");
        OvsException e = Expect.thrown(OvsException.class, w::reconcile);
        assertTrue(e.getMessage(), e.getMessage().contains("ovs-vsctl"));
        assertTrue(e.getMessage(), e.getMessage().contains("database connection failed"));
        assertEquals(1, w.errors());
    }

    @Test
    public void aProgramThatHangsIsKilledAtTheBound() throws Exception {
        Path bin = tmp.newFolder("hung").toPath();
        Path vsctl = bin.resolve("ovs-vsctl");
        Files.writeString(vsctl, "#!/bin/sh\nexec sleep 30\n");
        Assume.assumeTrue("cannot make a script executable here", vsctl.toFile().setExecutable(true));
        OvsCommands hung = new OvsCommands(bin, null, Duration.ofSeconds(1));
        long t0 = System.nanoTime();
        OvsException e = Expect.thrown(OvsException.class, () -> hung.vsctl(List.of("show")));
        assertTrue(e.getMessage(), e.getMessage().contains("no answer within 1 s"));
        assertTrue("killed after about 2 s", System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    public void badInputChangesNothing() throws Exception {
        // no OVS behind it: the one accepted wish fails at OVS (counted) and is kept
        OvsCommands none = new OvsCommands(tmp.newFolder("no-ovs").toPath(), null, Duration.ofSeconds(1));
        OvsSidWiring w = new OvsSidWiring(none, "br-sfc", "netdev");
        Expect.thrown(IllegalArgumentException.class, () -> w.wire("10.0.0.1", "veth0", "eth1"));
        Expect.thrown(IllegalArgumentException.class, () -> w.wire(SID_A, "veth0,actions=drop", "eth1"));
        Expect.thrown(IllegalArgumentException.class, () -> w.wire(SID_A, "a-name-longer-than-15", "eth1"));
        Expect.thrown(IllegalArgumentException.class, () -> w.wire(SID_A, "eth1", "eth1"));
        Expect.thrown(IllegalArgumentException.class, () -> w.wire(SID_A, "veth0", "br-sfc"));
        Expect.thrown(IllegalArgumentException.class, () -> new OvsSidWiring(none, "br-sfc", "dpdk"));
        assertTrue(w.wired().isEmpty());
        assertEquals(0, w.errors());
        Expect.thrown(OvsException.class, () -> w.wire(SID_A, "veth0", "eth1"));
        // one pod interface cannot return through two switch ports; a pod interface is no switch port
        Expect.thrown(IllegalArgumentException.class, () -> w.wire(SID_B, "veth0", "eth2"));
        Expect.thrown(IllegalArgumentException.class, () -> w.wire(SID_B, "veth1", "veth0"));
        Expect.thrown(IllegalArgumentException.class, () -> w.wire(SID_B, "eth1", "eth2"));
        assertEquals(Map.of("fc00:2:0:0:0:0:0:10", "veth0"), w.wired());
        assertEquals(1, w.errors());
    }

    @Test
    public void wiresUnwiresAndRepairsOnARealSwitch() throws Exception {
        String why = OvsSandbox.unavailable();
        Assume.assumeTrue("real OVS: " + why, why == null);
        String tag = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF));
        String br = "wb" + tag;
        String nic = "wn" + tag;
        String podA = "wa" + tag;
        String podB = "wc" + tag;
        try (OvsSandbox ovs = OvsSandbox.start(tmp.newFolder("ovs").toPath(), "srv6int-t" + tag)) {
            String nic2 = "wm" + tag;
            String podC = "wd" + tag;
            for (String l : List.of(nic, podA, podB, nic2, podC)) {
                ovs.ip("link", "add", l, "type", "veth", "peer", "name", l + "p");
                ovs.ip("link", "set", l, "up");
            }
            OvsSidWiring w = new OvsSidWiring(ovs.commands(), br, "netdev");
            OvsSidWiring.Reconciled r = w.wire(SID_A, podA, nic);
            assertEquals(2, r.added());
            r = w.wire(SID_B, podB, nic);
            assertEquals(2, r.added());
            assertEquals(0, r.removed());
            int pNic = ofport(ovs, nic);
            int pA = ofport(ovs, podA);
            int pB = ofport(ovs, podB);
            assertEquals(Set.of(
                    rule(200, "ipv6,in_port=" + pNic + ",ipv6_dst=" + SID_A, "output:" + pA),
                    rule(200, "ipv6,in_port=" + pNic + ",ipv6_dst=" + SID_B, "output:" + pB),
                    rule(100, "in_port=" + pA, "output:" + pNic),
                    rule(100, "in_port=" + pB, "output:" + pNic)), w.rules());
            assertEquals("secure", vsctl(ovs, "get", "Bridge", br, "fail_mode"));
            assertEquals("netdev", vsctl(ovs, "get", "Bridge", br, "datapath_type"));

            // idempotent
            r = w.reconcile();
            assertEquals(0, r.added());
            assertEquals(0, r.removed());

            // someone else's rule stays; a stale rule under our cookie (a crash mid-change) goes
            ovs.commands().ofctl(List.of("add-flow", br, "cookie=0x77,priority=5,in_port=" + pNic
                    + ",actions=drop"), null);
            ovs.commands().ofctl(List.of("add-flow", br, "cookie=0x" + Long.toHexString(OvsSidWiring.COOKIE)
                    + ",priority=200,ipv6,in_port=" + pNic + ",ipv6_dst=fc00:2::99,actions=output:" + pA), null);
            r = w.reconcile();
            assertEquals(0, r.added());
            assertEquals(1, r.removed());
            assertTrue(ovs.commands().ofctl(List.of("dump-flows", br, "cookie=0x77/-1"), null)
                    .contains("priority=5"));

            // unwire: its two rules and its port go, the other SID stays
            r = w.unwire(SID_B);
            assertEquals(2, r.removed());
            assertEquals(1, r.portsRemoved());
            assertEquals(Set.of(
                    rule(200, "ipv6,in_port=" + pNic + ",ipv6_dst=" + SID_A, "output:" + pA),
                    rule(100, "in_port=" + pA, "output:" + pNic)), w.rules());
            assertFalse(vsctl(ovs, "list-ports", br).contains(podB));

            // a flush, then an ovs-vswitchd restart: reconcile puts the rules back
            ovs.commands().ofctl(List.of("del-flows", br), null);
            assertTrue(w.rules().isEmpty());
            assertEquals(2, w.reconcile().added());
            ovs.restartSwitch();
            assertEquals(2, w.reconcile().added());
            assertEquals(2, w.rules().size());

            // the agent restarts: a new wiring told (by the pods) that only SID A is here finds B's
            // tagged port and its rules left by the old one, and removes them
            assertEquals(2, w.wire(SID_B, podB, nic).added());
            OvsSidWiring restarted = new OvsSidWiring(ovs.commands(), br, "netdev");
            r = restarted.wire(SID_A, podA, nic);
            assertEquals(r.toString(), 0, r.added());
            assertEquals(r.toString(), 2, r.removed());
            assertEquals(r.toString(), 1, r.portsRemoved());
            assertEquals(2, restarted.rules().size());

            // an interface that does not exist is reported, counted, and does not disturb the rest
            long errors = w.errors();
            r = w.wire(SID_B, "wx" + tag, nic);
            assertTrue(r.toString(), r.broken().containsKey("wx" + tag));
            assertEquals(errors + 1, w.errors());
            assertEquals(2, w.rules().size());
            assertEquals(4 + 2 + 2 + 2, w.rulesAdded());

            // a replica behind a second NIC (another switch port) arrives and returns there
            r = w.wire("fc00:3::30", podC, nic2);
            assertEquals(r.toString(), 2, r.added());
            int pNic2 = ofport(ovs, nic2);
            int pC = ofport(ovs, podC);
            Set<OpenFlowRule> rules = w.rules();
            assertTrue(rules.toString(), rules.contains(
                    rule(200, "ipv6,in_port=" + pNic2 + ",ipv6_dst=fc00:3::30", "output:" + pC)));
            assertTrue(rules.toString(), rules.contains(rule(100, "in_port=" + pC, "output:" + pNic2)));
            assertEquals(4, rules.size());
        }
    }

    private static OpenFlowRule rule(int priority, String match, String actions) {
        return OpenFlowRule.parseDumpLine("cookie=0x1, priority=" + priority + "," + match + " actions=" + actions);
    }

    private static int ofport(OvsSandbox ovs, String iface) throws OvsException {
        return Integer.parseInt(vsctl(ovs, "get", "Interface", iface, "ofport"));
    }

    private static String vsctl(OvsSandbox ovs, String... args) throws OvsException {
        return ovs.commands().vsctl(List.of(args)).strip();
    }
}
