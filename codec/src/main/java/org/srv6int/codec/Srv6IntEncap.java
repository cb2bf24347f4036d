// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import java.util.ArrayList;
import java.util.List;

import static org.srv6int.codec.WireFormat.*;

/**
 * H.Encaps.INT, the ingress behaviour: pushes Ethernet + IPv6 + SRH with the
 * SRv6-INT TLV in front of an inner IPv4/IPv6 packet, for one segment list of a
 * chain. Immutable and thread-safe once built; {@link #encapsulate} is
 * allocation-free. The ingress is hop 0: its own SID is Segment List[Last Entry]
 * and, when the packet is INT-sampled, is at once overwritten by its INT metadata.
 */
public final class Srv6IntEncap {

    private final byte[] template;
    private final int lastEntry;
    private final int tag;
    private final boolean sfcMode;
    private final int mapInfo;
    private final int hopLimit;
    private final int headerLen;

    private Srv6IntEncap(Builder b) {
        int segments = b.path.size() + 1;
        lastEntry = segments - 1;
        tag = b.tag;
        sfcMode = b.sfcMode;
        mapInfo = b.mapInfo;
        hopLimit = b.hopLimit;
        int srhLen = srhLength(segments);
        headerLen = ETH_LEN + IPV6_LEN + srhLen;
        template = new byte[headerLen];
        Bytes.put16(template, 12, ETHERTYPE_IPV6);
        int ip = ETH_LEN;
        template[ip] = 0x60;
        Bytes.put8(template, ip + 6, PROTO_ROUTING);
        Bytes.put8(template, ip + 7, hopLimit);
        System.arraycopy(b.ingressSid, 0, template, ip + 8, 16);
        // Destination: Segment List[Last Entry - 1], the first endpoint.
        System.arraycopy(b.path.get(0), 0, template, ip + 24, 16);
        int srh = ip + IPV6_LEN;
        Bytes.put8(template, srh + 1, (srhLen - 8) / 8);
        Bytes.put8(template, srh + 2, ROUTING_TYPE_SRH);
        Bytes.put8(template, srh + 3, lastEntry - 1);
        Bytes.put8(template, srh + 4, lastEntry);
        Bytes.put16(template, srh + 6, tag);
        int seg = srh + SRH_FIXED_LEN;
        // Travel order ingress, path[0], ..., path[n-1] is reverse list order.
        System.arraycopy(b.ingressSid, 0, template, seg + SEGMENT_LEN * lastEntry, 16);
        for (int i = 0; i < b.path.size(); i++) {
            System.arraycopy(b.path.get(i), 0, template, seg + SEGMENT_LEN * (lastEntry - 1 - i), 16);
        }
        int tlv = seg + SEGMENT_LEN * segments;
        Bytes.put8(template, tlv, INT_TLV_TYPE);
        Bytes.put8(template, tlv + 1, INT_TLV_VALUE_LEN);
        Bytes.put16(template, tlv + 2, mapInfo);
    }

    /**
     * Returns a new builder.
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the bytes pushed in front of the inner packet (Ethernet + IPv6 + SRH).
     *
     * @return header length
     */
    public int headerLength() {
        return headerLen;
    }

    /**
     * Returns Last Entry of the segment lists this encapsulator builds.
     *
     * @return last entry
     */
    public int lastEntry() {
        return lastEntry;
    }

    /**
     * Returns the chain tag.
     *
     * @return tag
     */
    public int tag() {
        return tag;
    }

    /**
     * Returns the MapInfo put in the TLV.
     *
     * @return map info
     */
    public int mapInfo() {
        return mapInfo;
    }

    /**
     * Tells whether the S flag is set on every packet.
     *
     * @return SFC mode
     */
    public boolean sfcMode() {
        return sfcMode;
    }

    /**
     * Encapsulates an inner packet into {@code out}.
     *
     * @param inner       inner IPv4/IPv6 packet bytes
     * @param innerOff    first byte of the inner IP header
     * @param innerLen    inner packet length
     * @param ethDst      next hop's MAC (low 48 bits)
     * @param ethSrc      the ingress port's MAC (low 48 bits)
     * @param intOn       whether this packet is INT-sampled (sets I and writes hop-0 metadata)
     * @param deviceId    ingress Device_ID
     * @param queueId     Q_ID
     * @param queueLength Q_Length
     * @param inTime      In_Time, ns
     * @param portCounter Port_Counter
     * @param out         destination
     * @param outOff      where the frame goes
     * @return frame length, or -1 if {@code out} is too small or the inner packet
     *         is not IPv4/IPv6 or longer than an IPv6 payload can carry
     */
    public int encapsulate(byte[] inner, int innerOff, int innerLen, long ethDst, long ethSrc,
                           boolean intOn, int deviceId, int queueId, int queueLength, long inTime,
                           int portCounter, byte[] out, int outOff) {
        if (inner == null || out == null || !BufferView.inBounds(inner.length, innerOff, innerLen)
                || innerLen < 1) {
            return -1;
        }
        int version = (inner[innerOff] & 0xFF) >>> 4;
        if (version != 4 && version != 6) {
            return -1;
        }
        int payload = headerLen - ETH_LEN - IPV6_LEN + innerLen;
        int total = headerLen + innerLen;
        if (payload > 0xFFFF || !BufferView.inBounds(out.length, outOff, total)) {
            return -1;
        }
        System.arraycopy(template, 0, out, outOff, headerLen);
        System.arraycopy(inner, innerOff, out, outOff + headerLen, innerLen);
        Bytes.put48(out, outOff, ethDst);
        Bytes.put48(out, outOff + 6, ethSrc);
        int ip = outOff + ETH_LEN;
        int tc = FlowHash.trafficClass(inner, innerOff, innerLen);
        int fl = FlowHash.flowLabel(inner, innerOff, innerLen);
        Bytes.put32(out, ip, (6L << 28) | ((long) tc << 20) | fl);
        Bytes.put16(out, ip + 4, payload);
        int srh = ip + IPV6_LEN;
        Bytes.put8(out, srh, version == 4 ? PROTO_IPV4 : PROTO_IPV6);
        Bytes.put8(out, srh + 5, (intOn ? FLAG_INT : 0) | (sfcMode ? FLAG_SFC : 0));
        if (intOn) {
            IntMetadata.write(out, srh + SRH_FIXED_LEN + SEGMENT_LEN * lastEntry, mapInfo,
                    deviceId, queueId, queueLength, inTime, 0, portCounter);
        }
        return total;
    }

    /**
     * Convenience form of {@link #encapsulate(byte[], int, int, long, long, boolean, int, int,
     * int, long, int, byte[], int)} that allocates the frame.
     *
     * @param inner           inner IPv4/IPv6 packet
     * @param ethDst          next hop's MAC
     * @param ethSrc          ingress port's MAC
     * @param ingressMetadata hop-0 INT metadata, or null if the packet is not INT-sampled
     * @return the frame
     * @throws IllegalArgumentException if the inner packet is not IPv4/IPv6 or too long
     */
    public byte[] encapsulate(byte[] inner, long ethDst, long ethSrc, IntMetadata ingressMetadata) {
        byte[] out = new byte[headerLen + inner.length];
        IntMetadata m = ingressMetadata == null ? new IntMetadata(0, 0, 0, 0, 0, 0) : ingressMetadata;
        int n = encapsulate(inner, 0, inner.length, ethDst, ethSrc, ingressMetadata != null,
                m.deviceId(), m.queueId(), m.queueLength(), m.inTime(), m.portCounter(), out, 0);
        if (n < 0) {
            throw new IllegalArgumentException("inner packet is not IPv4/IPv6 or too long");
        }
        return out;
    }

    /** Builder of {@link Srv6IntEncap}. */
    public static final class Builder {
        private byte[] ingressSid;
        private final List<byte[]> path = new ArrayList<>();
        private int tag;
        private boolean sfcMode;
        private int mapInfo = MAP_ALL;
        private int hopLimit = DEFAULT_HOP_LIMIT;

        private Builder() {
        }

        private static byte[] check(byte[] sid) {
            if (sid == null || sid.length != 16) {
                throw new IllegalArgumentException("a SID is 16 bytes");
            }
            return sid.clone();
        }

        /**
         * Sets the ingress switch's own SID (IPv6 source and Segment List[Last Entry]).
         *
         * @param sid 16 bytes
         * @return this
         */
        public Builder ingressSid(byte[] sid) {
            ingressSid = check(sid);
            return this;
        }

        /**
         * Sets the SIDs after the ingress, in travel order; the last one is the
         * egress's End.DT.INT SID.
         *
         * @param sids 16-byte SIDs
         * @return this
         */
        public Builder path(List<byte[]> sids) {
            path.clear();
            for (byte[] s : sids) {
                path.add(check(s));
            }
            return this;
        }

        /**
         * Sets the Tag (chain id).
         *
         * @param t 0..65535
         * @return this
         */
        public Builder tag(int t) {
            if (t < 0 || t > 0xFFFF) {
                throw new IllegalArgumentException("tag is 16 bits");
            }
            tag = t;
            return this;
        }

        /**
         * Sets the S flag (the chain has vNFs whose latency is measured).
         *
         * @param on SFC mode
         * @return this
         */
        public Builder sfcMode(boolean on) {
            sfcMode = on;
            return this;
        }

        /**
         * Sets MapInfo, the chain's INT field set (default all five fields).
         *
         * @param m bits 0..4 only
         * @return this
         */
        public Builder mapInfo(int m) {
            if ((m & ~MAP_ALL) != 0) {
                throw new IllegalArgumentException("MapInfo uses bits 0..4 only");
            }
            mapInfo = m;
            return this;
        }

        /**
         * Sets the outer Hop Limit (default 64).
         *
         * @param h 1..255
         * @return this
         */
        public Builder hopLimit(int h) {
            if (h < 1 || h > 255) {
                throw new IllegalArgumentException("hop limit is 1..255");
            }
            hopLimit = h;
            return this;
        }

        /**
         * Builds the encapsulator.
         *
         * @return encapsulator
         * @throws IllegalArgumentException if the ingress SID or the path is missing,
         *                                  or the segment list is longer than an SRH holds
         */
        public Srv6IntEncap build() {
            if (ingressSid == null || path.isEmpty()) {
                throw new IllegalArgumentException("ingress SID and a non-empty path are required");
            }
            if (path.size() + 1 > 127) {
                throw new IllegalArgumentException("an SRH holds at most 127 segments with the TLV");
            }
            return new Srv6IntEncap(this);
        }
    }
}
