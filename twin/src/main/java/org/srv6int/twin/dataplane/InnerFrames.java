// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import org.srv6int.app.api.model.FlowClassifier;

/**
 * The plain IPv4/UDP frames a host behind a chain's ingress port sends (before the ingress
 * encapsulates them), for the twin's probes and flow traffic alike.
 */
public final class InnerFrames {

    /** Ethernet header length. */
    public static final int ETH = 14;

    private InnerFrames() {
    }

    /**
     * An Ethernet/IPv4/UDP frame matching the classifier: addresses picked inside its prefixes,
     * ports its own where it names them, else the given ones; payload left zero.
     *
     * @param c          the chain's classifier (IPv4)
     * @param dstMac     destination MAC (6 bytes)
     * @param srcMacLast last byte of the source MAC (02:00:00:00:00:xx)
     * @param length     frame length, at least ETH + 28
     * @param srcPick    which host of the source prefix
     * @param dstPick    which host of the destination prefix
     * @param srcPort    source port where the classifier leaves it open
     * @param dstPort    destination port where the classifier leaves it open
     * @return the frame
     */
    public static byte[] ipv4Udp(FlowClassifier c, byte[] dstMac, int srcMacLast, int length,
                                 int srcPick, int dstPick, int srcPort, int dstPort) {
        byte[] b = new byte[length];
        System.arraycopy(dstMac, 0, b, 0, 6);
        b[6] = 0x02;
        b[11] = (byte) srcMacLast;
        b[12] = 0x08;
        int ip = ETH;
        b[ip] = 0x45;
        put16(b, ip + 2, b.length - ETH);
        b[ip + 8] = 64;
        b[ip + 9] = (byte) c.ipProto();
        put32(b, ip + 12, host(c.srcPrefix().address().getIp4Address().toInt(), c.srcPrefix().prefixLength(), srcPick));
        put32(b, ip + 16, host(c.dstPrefix().address().getIp4Address().toInt(), c.dstPrefix().prefixLength(), dstPick));
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += ((b[ip + i] & 0xFF) << 8) | (b[ip + i + 1] & 0xFF);
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        put16(b, ip + 10, ~(sum + (sum >>> 16)) & 0xFFFF);
        int udp = ip + 20;
        put16(b, udp, c.l4SrcPort() != FlowClassifier.ANY ? c.l4SrcPort() : srcPort);
        put16(b, udp + 2, c.l4DstPort() != FlowClassifier.ANY ? c.l4DstPort() : dstPort);
        put16(b, udp + 4, b.length - udp);
        return b;
    }

    /** A host address in the prefix (network and broadcast avoided). */
    private static int host(int net, int len, int pick) {
        int span = len >= 31 ? 1 : (1 << (32 - len)) - 2;
        int mask = len == 0 ? 0 : -1 << (32 - len);
        return len >= 31 ? net : (net & mask) + 1 + Math.floorMod(pick, span);
    }

    private static void put16(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    private static void put32(byte[] b, int off, int v) {
        put16(b, off, v >>> 16);
        put16(b, off + 2, v);
    }
}
