// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import static org.srv6int.codec.WireFormat.*;

/**
 * The ingress's flow hash: CRC-32 (IEEE 802.3, the same as BMv2's {@code crc32}
 * and {@link java.util.zip.CRC32}) over the inner packet's 5-tuple
 * {@code src address | dst address | protocol (8 bits) | src port (16) | dst port (16)},
 * ports 0 unless TCP/UDP in a first fragment. The outer Flow Label is its low
 * 20 bits; the replica pick uses its low bits as the flow's bucket ({@link #bucket}).
 * Allocation-free.
 */
public final class FlowHash {

    private static final int[] TABLE = new int[256];

    static {
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
            }
            TABLE[n] = c;
        }
    }

    private FlowHash() {
    }

    private static int update(int crc, byte[] b, int off, int len) {
        int c = crc;
        for (int i = off; i < off + len; i++) {
            c = TABLE[(c ^ b[i]) & 0xFF] ^ (c >>> 8);
        }
        return c;
    }

    private static int update(int crc, int v) {
        return TABLE[(crc ^ v) & 0xFF] ^ (crc >>> 8);
    }

    /**
     * Hashes the 5-tuple of an inner IPv4 or IPv6 packet.
     *
     * @param pkt bytes
     * @param off first byte of the IP header
     * @param len bytes available
     * @return CRC-32 of the 5-tuple, or 0 if the packet is not IPv4/IPv6 or too short
     */
    public static int hash(byte[] pkt, int off, int len) {
        if (len < 1) {
            return 0;
        }
        int version = (pkt[off] & 0xFF) >>> 4;
        int proto;
        int addrOff;
        int addrLen;
        int l4;
        boolean firstFragment;
        if (version == 4 && len >= IPV4_LEN) {
            proto = pkt[off + 9] & 0xFF;
            addrOff = off + 12;
            addrLen = 8;
            l4 = off + 4 * (pkt[off] & 0x0F);
            firstFragment = (Bytes.get16(pkt, off + 6) & 0x1FFF) == 0;
        } else if (version == 6 && len >= IPV6_LEN) {
            proto = pkt[off + 6] & 0xFF;
            addrOff = off + 8;
            addrLen = 32;
            l4 = off + IPV6_LEN;
            firstFragment = true;
        } else {
            return 0;
        }
        int c = update(0xFFFFFFFF, pkt, addrOff, addrLen);
        c = update(c, proto);
        int sport = 0;
        int dport = 0;
        if ((proto == PROTO_TCP || proto == PROTO_UDP) && firstFragment && l4 + 4 <= off + len) {
            sport = Bytes.get16(pkt, l4);
            dport = Bytes.get16(pkt, l4 + 2);
        }
        c = update(c, sport >>> 8);
        c = update(c, sport);
        c = update(c, dport >>> 8);
        c = update(c, dport);
        return ~c;
    }

    /**
     * Returns a flow's bucket in its chain's bucket table: the low bits of
     * {@link #hash}, {@code hash & (buckets - 1)} (the P4 program's slice
     * {@code flow_hash[BITS-1:0]}).
     *
     * @param flowHash the flow's {@link #hash}
     * @param buckets  bucket count, a power of two
     * @return bucket, 0..buckets-1
     * @throws IllegalArgumentException if buckets is not a positive power of two
     */
    public static int bucket(int flowHash, int buckets) {
        if (buckets <= 0 || Integer.bitCount(buckets) != 1) {
            throw new IllegalArgumentException("bucket count must be a power of two, got " + buckets);
        }
        return flowHash & (buckets - 1);
    }

    /**
     * Returns the Flow Label of the outer IPv6 header: the low 20 bits of {@link #hash}.
     *
     * @param pkt bytes
     * @param off first byte of the inner IP header
     * @param len bytes available
     * @return flow label
     */
    public static int flowLabel(byte[] pkt, int off, int len) {
        return hash(pkt, off, len) & 0xFFFFF;
    }

    /**
     * Returns the inner packet's DSCP/ECN byte (IPv4 TOS or IPv6 Traffic Class),
     * which the ingress copies into the outer Traffic Class.
     *
     * @param pkt bytes
     * @param off first byte of the inner IP header
     * @param len bytes available
     * @return traffic class, 0 if unknown
     */
    public static int trafficClass(byte[] pkt, int off, int len) {
        if (len < 2) {
            return 0;
        }
        int version = (pkt[off] & 0xFF) >>> 4;
        if (version == 4) {
            return pkt[off + 1] & 0xFF;
        }
        if (version == 6) {
            return (Bytes.get16(pkt, off) >>> 4) & 0xFF;
        }
        return 0;
    }
}
