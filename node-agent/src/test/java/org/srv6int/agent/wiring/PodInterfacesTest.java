// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import org.junit.After;
import org.junit.Assume;
import org.junit.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The host-side interface lookup. Without root: the network-status annotation and the
 * kernel's link messages as bytes. As root, on the real kernel: pod network namespaces
 * (unnamed: each held by an {@code unshare --net} process, gone with it) whose {@code net1}
 * is a veth with its peer in this namespace, as a CNI leaves them; the lookup finds each
 * pod's host veth by MAC and name, by netlink only. Host veths are named {@code hpd} (host
 * peer discovery) and 5 random hex digits, so runs side by side do not collide. The same
 * lookup with only CAP_NET_ADMIN in a PID namespace of its own runs in tests/ci.d/45-ovs.sh
 * ({@link PodInterfacesCheck}).
 */
public class PodInterfacesTest {

    private final List<Process> holders = new ArrayList<>();
    private final List<String> hostLinks = new ArrayList<>();
    private final String prefix = String.format("hpd%05x", ThreadLocalRandom.current().nextInt(0x100000));

    private static String status(String iface, String mac) {
        return "[{\"name\":\"cbr0\",\"interface\":\"eth0\",\"ips\":[\"10.244.1.7\"],\"mac\":\"0a:58:0a:f4:01:07\","
                + "\"default\":true,\"dns\":{}},{\"name\":\"srv6int-sfc/sfc-net\",\"interface\":\"" + iface
                + "\",\"mac\":\"" + mac + "\",\"dns\":{}}]";
    }

    @Test
    public void theMacComesFromTheNetworkStatus() throws IOException {
        PodInterfaces net1 = new PodInterfaces("net1");
        assertEquals("02:00:00:aa:bb:01", net1.mac(status("net1", "02:00:00:AA:BB:01")));
        assertEquals("0a:58:0a:f4:01:07", new PodInterfaces("eth0").mac(status("net1", "02:00:00:aa:bb:01")));
    }

    @Test
    public void aMissingOrUselessNetworkStatusSaysWhy() {
        PodInterfaces net1 = new PodInterfaces("net1");
        expectStatus(net1, null, "annotation k8s.v1.cni.cncf.io/network-status missing");
        expectStatus(net1, " ", "missing");
        expectStatus(net1, "[{\"interface\":", "is not JSON");
        expectStatus(net1, "{\"interface\":\"net1\"}", "not a list of networks");
        expectStatus(net1, status("net2", "02:00:00:aa:bb:01"), "names no interface net1 (the pod's networks: "
                + "[eth0, net2])");
        expectStatus(net1, status("net1", ""), "net1 has no MAC ('')");
        expectStatus(net1, status("net1", "02:00:00:aa:bb"), "net1 has no MAC ('02:00:00:aa:bb')");
    }

    private static void expectStatus(PodInterfaces p, String status, String words) {
        try {
            fail("found " + p.mac(status));
        } catch (PodInterfaces.LookupException e) {
            assertEquals(PodInterfaces.Failure.NO_NETWORK_STATUS, e.failure());
            assertTrue(e.getMessage(), e.getMessage().contains(words));
        }
    }

    @Test(expected = IllegalArgumentException.class)
    public void aBadInterfaceNameIsRefused() {
        new PodInterfaces("../eth0");
    }

    /** A veth as the kernel reports it in a dump, then the dump's end, in one datagram. */
    @Test
    public void linkMessagesAreReadAsTheKernelWritesThem() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(512).order(ByteOrder.nativeOrder());
        int start = b.position();
        b.putInt(0).putShort((short) 16).putShort((short) 2).putInt(7).putInt(0); // RTM_NEWLINK, NLM_F_MULTI
        b.put((byte) 0).put((byte) 0).putShort((short) 1).putInt(31).putInt(0x1003).putInt(0);
        attr(b, 3, "hpd1\0".getBytes(StandardCharsets.US_ASCII));
        attr(b, 1, new byte[]{0x6e, 0x11, 0x02, 0x34, 0x41, (byte) 0xda});
        attr(b, 5, intBytes(2));
        attr(b, 37, intBytes(4));
        ByteBuffer info = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder());
        attr(info, 1, "veth\0".getBytes(StandardCharsets.US_ASCII));
        attr(b, 18 | 0x8000, info.array()); // IFLA_LINKINFO with NLA_F_NESTED
        b.putInt(start, b.position() - start);
        b.putInt(20).putShort((short) 3).putShort((short) 2).putInt(7).putInt(0).putInt(0); // NLMSG_DONE
        b.flip();
        List<RtNetlink.Link> out = new ArrayList<>();
        assertTrue("the dump is complete", RtNetlink.parse(b, 7, "dump", out));
        assertEquals(1, out.size());
        RtNetlink.Link l = out.get(0);
        assertEquals("hpd1", l.name());
        assertEquals(31, l.index());
        assertEquals("6e:11:02:34:41:da", l.mac());
        assertEquals("veth", l.kind());
        assertEquals(2, l.peerIndex());
        assertEquals(Integer.valueOf(4), l.peerNetnsid());
    }

    @Test
    public void theKernelsRefusalIsAnErrorNamingTheCapability() {
        ByteBuffer b = ByteBuffer.allocate(36).order(ByteOrder.nativeOrder());
        b.putInt(36).putShort((short) 2).putShort((short) 0).putInt(9).putInt(0).putInt(-13); // NLMSG_ERROR, -EACCES
        b.putInt(32).putShort((short) 18).putShort((short) 1).putInt(9).putInt(0); // the request's header
        b.flip();
        try {
            RtNetlink.parse(b, 9, "link 2 of nsid 0", new ArrayList<>());
            fail("no error");
        } catch (RtNetlink.NetlinkError e) {
            assertEquals(13, e.errno);
            assertTrue(e.getMessage(),
                    e.getMessage().contains("link 2 of nsid 0: EACCES (the agent needs CAP_NET_ADMIN)"));
        }
    }

    private static void attr(ByteBuffer b, int type, byte[] v) {
        b.putShort((short) (4 + v.length)).putShort((short) type).put(v);
        while (b.position() % 4 != 0) {
            b.put((byte) 0);
        }
    }

    private static byte[] intBytes(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(v).array();
    }

    // --- the real kernel (root)

    private static void assumeRoot() {
        Assume.assumeTrue("real netns and veths need root (the lookup itself needs only CAP_NET_ADMIN)",
                "root".equals(System.getProperty("user.name")));
        Assume.assumeTrue("ip (iproute2) or unshare missing", Files.isExecutable(Path.of("/usr/bin/unshare"))
                && (Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip"))
                || Files.isExecutable(Path.of("/usr/bin/ip"))));
    }

    /** A pod's network namespace: held by a sleeping process of its own, gone when it is killed. */
    private long podNamespace() throws Exception {
        Process p = new ProcessBuilder("unshare", "--net", "sleep", "600").redirectErrorStream(true).start();
        holders.add(p);
        // the namespace exists once the process runs sleep (unshare execs it)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Path comm = Path.of("/proc/" + p.pid() + "/comm");
        while (System.nanoTime() < deadline) {
            if (Files.exists(comm) && Files.readString(comm).trim().equals("sleep")) {
                return p.pid();
            }
            Thread.sleep(10);
        }
        throw new IOException("unshare --net did not start");
    }

    /** A veth whose host end is {@code host} here and whose other end is {@code podIf} with {@code mac} in the pod. */
    private String veth(String suffix, long pod, String podIf, String mac) throws Exception {
        String host = prefix + suffix;
        ip("link", "add", host, "type", "veth", "peer", "name", podIf, "address", mac, "netns", Long.toString(pod));
        hostLinks.add(host);
        return host;
    }

    private static void ip(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(cmd + ": " + out);
        }
    }

    @After
    public void cleanUp() throws Exception {
        for (String l : hostLinks) {
            try {
                ip("link", "del", l); // usually gone with its pod's namespace already
            } catch (IOException e) {
                // gone
            }
        }
        for (Process p : holders) {
            p.destroyForcibly();
            p.waitFor(20, TimeUnit.SECONDS);
        }
    }

    @Test
    public void eachPodsHostVethIsFoundByNetlink() throws Exception {
        assumeRoot();
        long a = podNamespace();
        long b = podNamespace();
        long decoy = podNamespace();
        String macA = "02:00:5e:" + prefix.substring(3, 5) + ":" + prefix.substring(5, 7) + ":a1";
        String macB = "02:00:5e:" + prefix.substring(3, 5) + ":" + prefix.substring(5, 7) + ":b2";
        String hostA = veth("a", a, "net1", macA);
        String hostB = veth("b", b, "net1", macB);
        veth("d", decoy, "eth0", macA); // A's MAC on another name: not A's net1
        ip("link", "add", prefix + "x", "type", "veth", "peer", "name", prefix + "y"); // both ends here
        hostLinks.add(prefix + "x");
        PodInterfaces net1 = new PodInterfaces("net1");
        assertEquals(hostA, net1.hostSide(status("net1", macA.toUpperCase(Locale.ROOT))));
        assertEquals(hostB, net1.hostSide(status("net1", macB)));
        assertEquals("the decoy is found by its own name", prefix + "d",
                new PodInterfaces("eth0").hostSide("[{\"interface\":\"eth0\",\"mac\":\"" + macA + "\"}]"));

        String nobody = "02:00:5e:" + prefix.substring(3, 5) + ":" + prefix.substring(5, 7) + ":c3";
        PodInterfaces.LookupException e = lookupFails(net1, status("net1", nobody));
        assertEquals(PodInterfaces.Failure.NO_PEER, e.failure());
        assertTrue(e.getMessage(), e.getMessage().contains("no host veth is peered with a net1 of MAC " + nobody));

        // the same MAC on two pods' net1 (a copied annotation, a MAC set by hand): neither is wired
        long twin = podNamespace();
        String hostTwin = veth("t", twin, "net1", macB);
        e = lookupFails(net1, status("net1", macB));
        assertEquals(PodInterfaces.Failure.AMBIGUOUS, e.failure());
        assertTrue(e.getMessage(), e.getMessage().contains(hostB) && e.getMessage().contains(hostTwin));

        // a pod gone: its namespace and with it both ends of its veth
        holders.get(0).destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        PodInterfaces.LookupException gone = null;
        while (System.nanoTime() < deadline && gone == null) {
            try {
                net1.hostSide(status("net1", macA));
                Thread.sleep(20); // the kernel tears a namespace down asynchronously
            } catch (PodInterfaces.LookupException x) {
                gone = x;
            }
        }
        assertTrue("A's veth went with its namespace: " + gone, gone != null
                && gone.failure() == PodInterfaces.Failure.NO_PEER);
    }

    @Test
    public void aPeerThatIsGoneIsNoLinkNotAnError() throws Exception {
        assumeRoot();
        long a = podNamespace();
        String host = veth("g", a, "net1", "02:00:5e:00:00:01");
        try (RtNetlink nl = RtNetlink.open()) {
            RtNetlink.Link h = null;
            for (RtNetlink.Link l : nl.links()) {
                if (l.name().equals(host)) {
                    h = l;
                }
            }
            assertTrue("the host end is listed with the peer's nsid: " + h, h != null && h.peerNetnsid() != null);
            assertEquals("net1", nl.link(h.peerNetnsid(), h.peerIndex()).name());
            assertNull("no such ifindex in the pod", nl.link(h.peerNetnsid(), h.peerIndex() + 1000));
            // a namespace torn down between the dump and the request: its nsid names nothing any more
            assertNull("no namespace with that nsid", nl.link(1_000_000, 1));
        }
    }

    private static PodInterfaces.LookupException lookupFails(PodInterfaces p, String status) {
        try {
            fail("found " + p.hostSide(status));
            return null;
        } catch (PodInterfaces.LookupException e) {
            return e;
        }
    }
}
