package org.srv6int.k8s.agent.wiring;

import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.BlockingMode;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.Pcaps;
import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.srv6int.k8s.agent.ReplayFixture;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The wiring crossed by traffic, run by {@code tests/ci.d/45-ovs.sh} inside a
 * network namespace standing for the worker: a private userspace OVS
 * ({@link OvsSandbox}), a veth pair standing for the NIC and the switch behind
 * it, and two pod namespaces each running {@code tools/wiring/pod-echo}
 * (returns what it receives, with its own MAC as source). SRv6-INT frames
 * (the codec's encoders, via {@link ReplayFixture}) are sent from the switch
 * side to each SID; a frame counts as delivered when it comes back from the
 * pod that owns the SID. Then: unwire one SID, flush the rules, restart
 * {@code ovs-vswitchd}, and check what arrives each time.
 *
 * <p>usage: {@code WiringCrossCheck DIR BRIDGE NIC SWITCH_SIDE SID_A POD_A MAC_A SID_B POD_B MAC_B};
 * prints one line per check and {@code N passed, N failed}; exit 1 on a failure.
 */
public final class WiringCrossCheck {

    /** Frames sent to each SID per round (bounded). */
    static final int COUNT = 50;

    private final PcapHandle handle;
    private final byte[][] sids = new byte[2][];
    private final byte[][] macs = new byte[2][];
    private final String[] pods = new String[2];
    private int passed;
    private int failed;

    private WiringCrossCheck(PcapHandle handle) {
        this.handle = handle;
    }

    /**
     * Runs the check.
     *
     * @param args see the class comment
     * @throws Exception on a setup failure
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 10) {
            System.err.println("usage: WiringCrossCheck DIR BRIDGE NIC SWITCH_SIDE SID_A POD_A MAC_A SID_B POD_B MAC_B");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        String bridge = args[1];
        String nic = args[2];
        PcapNetworkInterface sw = Pcaps.getDevByName(args[3]);
        if (sw == null) {
            throw new IllegalArgumentException("no interface " + args[3]);
        }
        int failed;
        try (OvsSandbox ovs = OvsSandbox.start(dir, null);
             PcapHandle h = sw.openLive(256, PromiscuousMode.PROMISCUOUS, 50)) {
            WiringCrossCheck c = new WiringCrossCheck(h);
            for (int i = 0; i < 2; i++) {
                c.sids[i] = InetAddress.getByName(args[4 + 3 * i]).getAddress();
                c.pods[i] = args[5 + 3 * i];
                c.macs[i] = mac(args[6 + 3 * i]);
            }
            h.setFilter("ip6 and ip6[6] == 43 and (ether src " + args[6] + " or ether src " + args[9] + ")",
                    BpfCompileMode.OPTIMIZE);
            // libpcap's read timeout does not fire while nothing arrives (TPACKET_V3): poll instead
            h.setBlockingMode(BlockingMode.NONBLOCKING);
            c.run(ovs, new OvsSidWiring(ovs.commands(), bridge, "netdev"), nic, args[4], args[7]);
            failed = c.failed;
            System.out.println(c.passed + " passed, " + c.failed + " failed");
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    private void run(OvsSandbox ovs, OvsSidWiring w, String nic, String sidA, String sidB) throws Exception {
        w.wire(sidA, pods[0], nic);
        OvsSidWiring.Reconciled r = w.wire(sidB, pods[1], nic);
        check("wired both SIDs, nothing broken: " + r, r.broken().isEmpty() && w.rules().size() == 4);
        int[][] got = round(ovs);
        check("SID A delivered to pod A and back: " + got[0][0] + "/" + COUNT, got[0][0] == COUNT);
        check("SID B delivered to pod B and back: " + got[1][1] + "/" + COUNT, got[1][1] == COUNT);
        check("no SID reached the other pod: " + got[0][1] + ", " + got[1][0], got[0][1] == 0 && got[1][0] == 0);

        r = w.unwire(sidB);
        check("unwire B removed 2 rules and its port: " + r, r.removed() == 2 && r.portsRemoved() == 1);
        got = round(ovs);
        check("after unwire, SID B is delivered nowhere: " + (got[1][0] + got[1][1]), got[1][0] + got[1][1] == 0);
        check("after unwire, SID A still delivered: " + got[0][0] + "/" + COUNT, got[0][0] == COUNT);

        ovs.commands().ofctl(List.of("del-flows", w.bridge()), null);
        got = round(ovs);
        check("flushed rules: SID A delivered nowhere: " + (got[0][0] + got[0][1]), got[0][0] + got[0][1] == 0);
        r = w.reconcile();
        check("reconcile after the flush added 2 rules: " + r, r.added() == 2 && r.removed() == 0);
        got = round(ovs);
        check("after repair, SID A delivered: " + got[0][0] + "/" + COUNT, got[0][0] == COUNT);

        ovs.restartSwitch();
        got = round(ovs);
        check("ovs-vswitchd restarted: SID A delivered nowhere: " + (got[0][0] + got[0][1]),
                got[0][0] + got[0][1] == 0);
        r = w.reconcile();
        check("reconcile after the restart added 2 rules: " + r, r.added() == 2 && r.removed() == 0);
        got = round(ovs);
        check("after repair, SID A delivered: " + got[0][0] + "/" + COUNT, got[0][0] == COUNT);
        r = w.reconcile();
        check("reconcile again changes nothing: " + r, r.added() == 0 && r.removed() == 0);
        check("no OVS errors counted: " + w.errors(), w.errors() == 0);
    }

    /**
     * Sends COUNT frames to each SID from the switch side and counts what
     * comes back, by SID (IPv6 destination) and by pod (source MAC), once the
     * datapath follows the rules.
     *
     * @return got[sid][pod]
     */
    private int[][] round(OvsSandbox ovs) throws Exception {
        ovs.settle();
        byte[][] frames = new byte[2][];
        for (int i = 0; i < 2; i++) {
            frames[i] = ReplayFixture.frame(sids[i], 1, true, 1_000_000 + i);
        }
        while (handle.getNextRawPacket() != null) {
            // drop what is left of an earlier round
        }
        for (int n = 0; n < COUNT; n++) {
            handle.sendPacket(frames[0]);
            handle.sendPacket(frames[1]);
            if (n % 10 == 9) {
                Thread.sleep(2);
            }
        }
        int[][] got = new int[2][2];
        int total = 0;
        long end = System.nanoTime() + 1_500_000_000L;
        while (System.nanoTime() < end && total < 2 * COUNT) {
            byte[] f = handle.getNextRawPacket();
            if (f == null) {
                Thread.sleep(1);
                continue;
            }
            if (f.length < 54) {
                continue;
            }
            int pod = indexOf(macs, Arrays.copyOfRange(f, 6, 12));
            int sid = indexOf(sids, Arrays.copyOfRange(f, 14 + 24, 14 + 40));
            if (pod >= 0 && sid >= 0) {
                got[sid][pod]++;
                total++;
            }
        }
        if (total == 2 * COUNT) {
            Thread.sleep(200); // anything extra (a duplicate) would show as more than COUNT
            for (byte[] f; (f = handle.getNextRawPacket()) != null; ) {
                if (f.length >= 54) {
                    int pod = indexOf(macs, Arrays.copyOfRange(f, 6, 12));
                    int sid = indexOf(sids, Arrays.copyOfRange(f, 14 + 24, 14 + 40));
                    if (pod >= 0 && sid >= 0) {
                        got[sid][pod]++;
                    }
                }
            }
        }
        return got;
    }

    private static int indexOf(byte[][] options, byte[] value) {
        for (int i = 0; i < options.length; i++) {
            if (Arrays.equals(options[i], value)) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] mac(String text) {
        String[] p = text.toLowerCase(Locale.ROOT).split(":");
        if (p.length != 6) {
            throw new IllegalArgumentException("not a MAC: " + text);
        }
        byte[] b = new byte[6];
        for (int i = 0; i < 6; i++) {
            b[i] = (byte) Integer.parseInt(p[i], 16);
        }
        return b;
    }

    private void check(String what, boolean ok) {
        if (ok) {
            passed++;
            System.out.println("ok   " + what);
        } else {
            failed++;
            System.out.println("FAIL " + what);
        }
    }
}
