// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.BlockingMode;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.Pcaps;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Locale;

/**
 * The traffic half of the wiring cross checks ({@link WiringCrossCheck} and the pods'
 * {@code PodWiringCrossCheck}): a live handle on the switch side of the worker's NIC that sends
 * one frame per SID a bounded number of times and counts what comes back from the pods, by SID
 * (IPv6 destination) and by pod (source MAC). Also counts and prints the checks of a run.
 */
public final class SidRoundTrip implements AutoCloseable {

    private final PcapHandle handle;
    private final byte[][] sids;
    private final byte[][] macs;
    private int passed;
    private int failed;

    private SidRoundTrip(PcapHandle handle, byte[][] sids, byte[][] macs) {
        this.handle = handle;
        this.sids = sids;
        this.macs = macs;
    }

    /**
     * Opens the switch side, capturing only SRv6 frames from the given pods.
     *
     * @param switchSide interface on the switch side of the NIC
     * @param sids       the pods' SIDs, in pod order
     * @param podMacs    the pods' MACs (aa:bb:..), in pod order
     * @return the round trip
     * @throws Exception when the interface or a SID cannot be used
     */
    public static SidRoundTrip open(String switchSide, String[] sids, String[] podMacs) throws Exception {
        PcapNetworkInterface sw = Pcaps.getDevByName(switchSide);
        if (sw == null) {
            throw new IllegalArgumentException("no interface " + switchSide);
        }
        byte[][] s = new byte[sids.length][];
        byte[][] m = new byte[podMacs.length][];
        StringBuilder filter = new StringBuilder("ip6 and ip6[6] == 43 and (");
        for (int i = 0; i < sids.length; i++) {
            s[i] = InetAddress.getByName(sids[i]).getAddress();
        }
        for (int i = 0; i < podMacs.length; i++) {
            m[i] = mac(podMacs[i]);
            filter.append(i > 0 ? " or " : "").append("ether src ").append(podMacs[i]);
        }
        PcapHandle h = sw.openLive(256, PromiscuousMode.PROMISCUOUS, 50);
        try {
            h.setFilter(filter.append(')').toString(), BpfCompileMode.OPTIMIZE);
            // libpcap's read timeout does not fire while nothing arrives (TPACKET_V3): poll instead
            h.setBlockingMode(BlockingMode.NONBLOCKING);
        } catch (Exception e) {
            h.close();
            throw e;
        }
        return new SidRoundTrip(h, s, m);
    }

    /**
     * The SID of pod i, as bytes.
     *
     * @param i pod index
     * @return its SID
     */
    public byte[] sid(int i) {
        return sids[i].clone();
    }

    /**
     * Sends one frame from the switch side.
     *
     * @param frame the frame
     * @throws Exception on a send failure
     */
    public void send(byte[] frame) throws Exception {
        handle.sendPacket(frame);
    }

    /**
     * Sends frames[i] to SID i, count times each, once the datapath follows its rules, and
     * counts what comes back within 1.5 s (200 ms more after all came back, so a duplicate
     * shows as more than count).
     *
     * @param ovs    the OVS whose datapath must settle first
     * @param frames one frame per SID
     * @param count  frames per SID (bounded)
     * @return got[sid][pod]
     * @throws Exception on a capture failure
     */
    public int[][] round(OvsSandbox ovs, byte[][] frames, int count) throws Exception {
        ovs.settle();
        while (handle.getNextRawPacket() != null) {
            // what is left of an earlier round
        }
        for (int n = 0; n < count; n++) {
            for (byte[] f : frames) {
                handle.sendPacket(f);
            }
            if (n % 10 == 9) {
                Thread.sleep(2);
            }
        }
        int[][] got = new int[sids.length][macs.length];
        int total = 0;
        long end = System.nanoTime() + 1_500_000_000L;
        while (System.nanoTime() < end) {
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
                if (++total == frames.length * count) {
                    end = Math.min(end, System.nanoTime() + 200_000_000L);
                }
            }
        }
        return got;
    }

    /**
     * Prints and counts one check.
     *
     * @param what what was checked, with what was seen
     * @param ok   whether it held
     */
    public void check(String what, boolean ok) {
        if (ok) {
            passed++;
            System.out.println("ok   " + what);
        } else {
            failed++;
            System.out.println("FAIL " + what);
        }
    }

    /**
     * Prints the {@code N passed, N failed} line.
     *
     * @return the number of failed checks
     */
    public int summary() {
        System.out.println(passed + " passed, " + failed + " failed");
        return failed;
    }

    @Override
    public void close() {
        handle.close();
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
}
