// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import java.nio.ByteBuffer;

import static org.srv6int.codec.WireFormat.*;

/**
 * Reusable, allocation-free decoder view (flyweight) of an SRv6-INT packet:
 * Ethernet (optional), outer IPv6, SRH with the SRv6-INT TLV, then the inner
 * packet, which may be cut short (a mirrored or captured frame).
 *
 * <p>{@code wrap} validates the headers once and returns a {@link DecodeStatus};
 * it never throws on any bytes and counts each rejection in the
 * {@link DecodeErrors} given at construction. Accessors are valid only after a
 * wrap that returned {@link DecodeStatus#OK}, and read the wrapped buffer
 * directly (the caller must not change it meanwhile). Not thread-safe: one view
 * per thread.
 */
public final class Srv6IntPacketView extends BufferView {

    private final DecodeErrors errors;

    private boolean hasEthernet;
    private int ipOff;
    private int srhOff;
    private int srhLen;
    private int segOff;
    private int tlvOff;
    private int innerOff;
    private int innerEnd;
    private int declaredEnd;
    private int lastEntry;
    private int segmentsLeft;

    /**
     * Creates a view that counts rejections in the given counters.
     *
     * @param errors counters owned by the caller
     */
    public Srv6IntPacketView(DecodeErrors errors) {
        if (errors == null) {
            throw new IllegalArgumentException("errors must not be null");
        }
        this.errors = errors;
    }

    /** Creates a view with counters of its own. */
    public Srv6IntPacketView() {
        this(new DecodeErrors());
    }

    /**
     * Returns the counters this view counts rejections in.
     *
     * @return counters
     */
    public DecodeErrors errors() {
        return errors;
    }

    /**
     * Wraps an Ethernet frame.
     *
     * @param buf bytes
     * @param off first byte of the frame
     * @param len frame length
     * @return OK or the reason of rejection (counted)
     */
    public DecodeStatus wrap(byte[] buf, int off, int len) {
        if (buf == null || !inBounds(buf.length, off, len)) {
            return errors.count(DecodeStatus.TRUNCATED_ETHERNET);
        }
        setArray(buf, off, len);
        return errors.count(decode(true));
    }

    /**
     * Wraps an Ethernet frame held in a ByteBuffer (absolute indices; the
     * buffer's position and limit are not used or changed).
     *
     * @param buf bytes
     * @param off first byte of the frame
     * @param len frame length
     * @return OK or the reason of rejection (counted)
     */
    public DecodeStatus wrap(ByteBuffer buf, int off, int len) {
        if (buf == null || !inBounds(buf.capacity(), off, len)) {
            return errors.count(DecodeStatus.TRUNCATED_ETHERNET);
        }
        setBuffer(buf, off, len);
        return errors.count(decode(true));
    }

    /**
     * Wraps a packet that starts at the IPv6 header (no Ethernet).
     *
     * @param buf bytes
     * @param off first byte of the IPv6 header
     * @param len packet length
     * @return OK or the reason of rejection (counted)
     */
    public DecodeStatus wrapIpv6(byte[] buf, int off, int len) {
        if (buf == null || !inBounds(buf.length, off, len)) {
            return errors.count(DecodeStatus.TRUNCATED_IPV6);
        }
        setArray(buf, off, len);
        return errors.count(decode(false));
    }

    /**
     * Wraps a packet held in a ByteBuffer that starts at the IPv6 header.
     *
     * @param buf bytes
     * @param off first byte of the IPv6 header
     * @param len packet length
     * @return OK or the reason of rejection (counted)
     */
    public DecodeStatus wrapIpv6(ByteBuffer buf, int off, int len) {
        if (buf == null || !inBounds(buf.capacity(), off, len)) {
            return errors.count(DecodeStatus.TRUNCATED_IPV6);
        }
        setBuffer(buf, off, len);
        return errors.count(decode(false));
    }

    /** Decodes the region set by the caller; does not count. */
    DecodeStatus decodeRegion(byte[] a, ByteBuffer b, int off, int len) {
        array = a;
        buffer = b;
        base = off;
        limit = off + len;
        return decode(true);
    }

    private DecodeStatus decode(boolean ethernet) {
        hasEthernet = ethernet;
        int p = base;
        if (ethernet) {
            if (limit - p < ETH_LEN) {
                return DecodeStatus.TRUNCATED_ETHERNET;
            }
            if (u16(p + 12) != ETHERTYPE_IPV6) {
                return DecodeStatus.UNSUPPORTED_ETHERTYPE;
            }
            p += ETH_LEN;
        }
        ipOff = p;
        if (limit - p < IPV6_LEN) {
            return DecodeStatus.TRUNCATED_IPV6;
        }
        if ((u8(p) >>> 4) != 6) {
            return DecodeStatus.BAD_IPV6_VERSION;
        }
        if (u8(p + 6) != PROTO_ROUTING) {
            return DecodeStatus.NO_ROUTING_HEADER;
        }
        int payloadLen = u16(p + 4);
        p += IPV6_LEN;
        srhOff = p;
        if (limit - p < SRH_FIXED_LEN) {
            return DecodeStatus.TRUNCATED_SRH;
        }
        if (u8(p + 2) != ROUTING_TYPE_SRH) {
            return DecodeStatus.BAD_ROUTING_TYPE;
        }
        int hel = u8(p + 1);
        srhLen = SRH_FIXED_LEN + 8 * hel;
        if (limit - p < srhLen) {
            return DecodeStatus.SRH_LENGTH_PAST_BUFFER;
        }
        if (payloadLen < srhLen) {
            return DecodeStatus.PAYLOAD_LENGTH_SHORTER_THAN_SRH;
        }
        segmentsLeft = u8(p + 3);
        lastEntry = u8(p + 4);
        segOff = p + SRH_FIXED_LEN;
        int segEnd = segOff + SEGMENT_LEN * (lastEntry + 1);
        int srhEnd = p + srhLen;
        if (segEnd > srhEnd) {
            return DecodeStatus.LAST_ENTRY_PAST_LIST;
        }
        if (segmentsLeft > lastEntry) {
            return DecodeStatus.SEGMENTS_LEFT_PAST_LAST_ENTRY;
        }
        tlvOff = -1;
        int t = segEnd;
        while (t < srhEnd) {
            int type = u8(t);
            if (type == TLV_PAD1) {
                t++;
                continue;
            }
            if (srhEnd - t < 2 || srhEnd - t - 2 < u8(t + 1)) {
                return DecodeStatus.TLV_LENGTH_PAST_END;
            }
            int tlen = u8(t + 1);
            if (type == INT_TLV_TYPE) {
                if (tlen != INT_TLV_VALUE_LEN) {
                    return DecodeStatus.BAD_INT_TLV_LENGTH;
                }
                if (tlvOff >= 0) {
                    return DecodeStatus.DUPLICATE_INT_TLV;
                }
                tlvOff = t;
            } else if (type != TLV_PADN) {
                return DecodeStatus.UNKNOWN_TLV;
            }
            t += 2 + tlen;
        }
        if (tlvOff < 0) {
            return DecodeStatus.MISSING_INT_TLV;
        }
        if ((u16(tlvOff + 2) & ~MAP_ALL) != 0) {
            return DecodeStatus.MAPINFO_BITS_WITHOUT_FIELD;
        }
        innerOff = srhEnd;
        declaredEnd = ipOff + IPV6_LEN + payloadLen;
        innerEnd = Math.min(declaredEnd, limit);
        return DecodeStatus.OK;
    }

    // ---- layout ----

    /**
     * Tells whether the wrapped bytes start with an Ethernet header.
     *
     * @return true for {@code wrap}, false for {@code wrapIpv6}
     */
    public boolean hasEthernet() {
        return hasEthernet;
    }

    /**
     * Returns the absolute index of the IPv6 header in the wrapped buffer.
     *
     * @return index
     */
    public int ipv6Offset() {
        return ipOff;
    }

    /**
     * Returns the absolute index of the SRH in the wrapped buffer.
     *
     * @return index
     */
    public int srhOffset() {
        return srhOff;
    }

    /**
     * Returns the SRH length in bytes, {@code 8 * (Hdr Ext Len + 1)}.
     *
     * @return length
     */
    public int srhLength() {
        return srhLen;
    }

    /**
     * Returns the absolute index of the SRv6-INT TLV (its Type byte).
     *
     * @return index
     */
    public int intTlvOffset() {
        return tlvOff;
    }

    /**
     * Returns the absolute index of the inner packet.
     *
     * @return index
     */
    public int innerOffset() {
        return innerOff;
    }

    /**
     * Returns how many bytes of the inner packet are in the buffer.
     *
     * @return available inner bytes (less than declared if truncated)
     */
    public int innerAvailable() {
        return innerEnd - innerOff;
    }

    /**
     * Returns the inner packet length the IPv6 Payload Length declares.
     *
     * @return declared inner length
     */
    public int innerLength() {
        return declaredEnd - innerOff;
    }

    /**
     * Tells whether the buffer ends before the IPv6 payload does (a mirrored
     * or captured frame cut short).
     *
     * @return true when truncated
     */
    public boolean isTruncated() {
        return declaredEnd > limit;
    }

    // ---- Ethernet ----

    /**
     * Returns the destination MAC as the low 48 bits of a long (needs Ethernet).
     *
     * @return MAC
     */
    public long ethDst() {
        return u48(base);
    }

    /**
     * Returns the source MAC as the low 48 bits of a long (needs Ethernet).
     *
     * @return MAC
     */
    public long ethSrc() {
        return u48(base + 6);
    }

    // ---- IPv6 ----

    /**
     * Returns the IPv6 Traffic Class.
     *
     * @return traffic class
     */
    public int trafficClass() {
        return (u16(ipOff) >>> 4) & 0xFF;
    }

    /**
     * Returns the IPv6 Flow Label (20 bits).
     *
     * @return flow label
     */
    public int flowLabel() {
        return u24(ipOff + 1) & 0xFFFFF;
    }

    /**
     * Returns the IPv6 Payload Length.
     *
     * @return payload length
     */
    public int payloadLength() {
        return u16(ipOff + 4);
    }

    /**
     * Returns the IPv6 Hop Limit.
     *
     * @return hop limit
     */
    public int hopLimit() {
        return u8(ipOff + 7);
    }

    /**
     * Returns the high 64 bits of the IPv6 source address.
     *
     * @return bits 0..63
     */
    public long srcHi() {
        return u64(ipOff + 8);
    }

    /**
     * Returns the low 64 bits of the IPv6 source address.
     *
     * @return bits 64..127
     */
    public long srcLo() {
        return u64(ipOff + 16);
    }

    /**
     * Returns the high 64 bits of the IPv6 destination (the active segment).
     *
     * @return bits 0..63
     */
    public long dstHi() {
        return u64(ipOff + 24);
    }

    /**
     * Returns the low 64 bits of the IPv6 destination (the active segment).
     *
     * @return bits 64..127
     */
    public long dstLo() {
        return u64(ipOff + 32);
    }

    /**
     * Copies the IPv6 source address.
     *
     * @param dst    destination array
     * @param dstOff where the 16 bytes go
     */
    public void copySrc(byte[] dst, int dstOff) {
        copy(ipOff + 8, dst, dstOff, 16);
    }

    /**
     * Copies the IPv6 destination address.
     *
     * @param dst    destination array
     * @param dstOff where the 16 bytes go
     */
    public void copyDst(byte[] dst, int dstOff) {
        copy(ipOff + 24, dst, dstOff, 16);
    }

    // ---- SRH ----

    /**
     * Returns the SRH Next Header (4 inner IPv4, 41 inner IPv6).
     *
     * @return next header
     */
    public int srhNextHeader() {
        return u8(srhOff);
    }

    /**
     * Returns the SRH Hdr Ext Len.
     *
     * @return Hdr Ext Len
     */
    public int hdrExtLen() {
        return u8(srhOff + 1);
    }

    /**
     * Returns Segments Left.
     *
     * @return segments left
     */
    public int segmentsLeft() {
        return segmentsLeft;
    }

    /**
     * Returns Last Entry.
     *
     * @return last entry
     */
    public int lastEntry() {
        return lastEntry;
    }

    /**
     * Returns the SRH Flags byte.
     *
     * @return flags
     */
    public int flags() {
        return u8(srhOff + 5);
    }

    /**
     * Tells whether the INT flag is set.
     *
     * @return true if INT is on for this packet
     */
    public boolean isIntOn() {
        return (flags() & FLAG_INT) != 0;
    }

    /**
     * Tells whether the SFC-mode flag is set.
     *
     * @return true if the chain's vNF latency is measured
     */
    public boolean isSfcMode() {
        return (flags() & FLAG_SFC) != 0;
    }

    /**
     * Returns the Tag (chain id).
     *
     * @return tag
     */
    public int tag() {
        return u16(srhOff + 6);
    }

    /**
     * Returns the absolute index of Segment List[i] in the buffer.
     *
     * @param i segment index, 0..Last Entry
     * @return index, or -1 if i is out of range
     */
    public int segmentOffset(int i) {
        return i < 0 || i > lastEntry ? -1 : segOff + SEGMENT_LEN * i;
    }

    /**
     * Returns the high 64 bits of Segment List[i] (0 if i is out of range).
     *
     * @param i segment index
     * @return bits 0..63
     */
    public long segmentHi(int i) {
        int o = segmentOffset(i);
        return o < 0 ? 0 : u64(o);
    }

    /**
     * Returns the low 64 bits of Segment List[i] (0 if i is out of range).
     *
     * @param i segment index
     * @return bits 64..127
     */
    public long segmentLo(int i) {
        int o = segmentOffset(i);
        return o < 0 ? 0 : u64(o + 8);
    }

    /**
     * Copies Segment List[i] (a SID, or INT metadata once consumed).
     *
     * @param i      segment index, 0..Last Entry
     * @param dst    destination array
     * @param dstOff where the 16 bytes go
     * @return false if i is out of range (nothing copied)
     */
    public boolean copySegment(int i, byte[] dst, int dstOff) {
        int o = segmentOffset(i);
        if (o < 0) {
            return false;
        }
        copy(o, dst, dstOff, SEGMENT_LEN);
        return true;
    }

    /**
     * Returns the SRv6-INT TLV's MapInfo.
     *
     * @return map info
     */
    public int mapInfo() {
        return u16(tlvOff + 2);
    }

    /**
     * Returns the Detection Result, ns (unsigned 32 bits).
     *
     * @return detection result
     */
    public long detectionResult() {
        return u32(tlvOff + 4);
    }

    // ---- INT metadata, by hop (hop 0 = ingress = Segment List[Last Entry]) ----

    /**
     * Returns the number of hops whose INT metadata is complete in transit:
     * {@code Last Entry - Segments Left} (at the egress, after End.DT.INT wrote
     * its own entry, use {@link #lastEntry()} + 1).
     *
     * @return completed hops
     */
    public int completedHops() {
        return lastEntry - segmentsLeft;
    }

    /**
     * Returns the absolute index of the INT metadata of a hop.
     *
     * @param hop 0..Last Entry
     * @return index, or -1 if out of range
     */
    public int metadataOffset(int hop) {
        return segmentOffset(lastEntry - hop);
    }

    /**
     * Returns Device_ID of a hop's INT metadata (0 if hop is out of range).
     *
     * @param hop hop index
     * @return Device_ID
     */
    public int intDeviceId(int hop) {
        int o = metadataOffset(hop);
        return o < 0 ? 0 : u16(o + MD_DEVICE_ID);
    }

    /**
     * Returns Q_ID of a hop's INT metadata (0 if hop is out of range).
     *
     * @param hop hop index
     * @return Q_ID
     */
    public int intQueueId(int hop) {
        int o = metadataOffset(hop);
        return o < 0 ? 0 : u8(o + MD_Q_ID);
    }

    /**
     * Returns Q_Length of a hop's INT metadata (0 if hop is out of range).
     *
     * @param hop hop index
     * @return Q_Length, packets
     */
    public int intQueueLength(int hop) {
        int o = metadataOffset(hop);
        return o < 0 ? 0 : u24(o + MD_Q_LENGTH);
    }

    /**
     * Returns In_Time of a hop's INT metadata (0 if hop is out of range).
     *
     * @param hop hop index
     * @return In_Time, ns mod 2^32
     */
    public long intInTime(int hop) {
        int o = metadataOffset(hop);
        return o < 0 ? 0 : u32(o + MD_IN_TIME);
    }

    /**
     * Returns vNF_Latency of a hop's INT metadata (0 if hop is out of range).
     *
     * @param hop hop index
     * @return vNF_Latency, ns
     */
    public long intVnfLatency(int hop) {
        int o = metadataOffset(hop);
        return o < 0 ? 0 : u32(o + MD_VNF_LATENCY);
    }

    /**
     * Returns Port_Counter of a hop's INT metadata (0 if hop is out of range).
     *
     * @param hop hop index
     * @return Port_Counter
     */
    public int intPortCounter(int hop) {
        int o = metadataOffset(hop);
        return o < 0 ? 0 : u16(o + MD_PORT_COUNTER);
    }

    /**
     * Visits the INT metadata of hops 0..hops-1 in hop order, allocation-free.
     *
     * @param visitor receives each entry
     * @param hops    how many hops (clamped to Last Entry + 1)
     * @return number of entries visited
     */
    public int visitIntMetadata(IntMetadataVisitor visitor, int hops) {
        int n = Math.min(Math.max(hops, 0), lastEntry + 1);
        for (int h = 0; h < n; h++) {
            int o = segOff + SEGMENT_LEN * (lastEntry - h);
            // Two 64-bit reads per entry; field layout as in WireFormat.MD_*.
            long hi = u64(o);
            long lo = u64(o + 8);
            visitor.onEntry(h, (int) (hi >>> 48), (int) (hi >>> 40) & 0xFF, (int) (hi >>> 16) & 0xFFFFFF,
                    ((hi & 0xFFFF) << 16) | (lo >>> 48), (lo >>> 16) & 0xFFFFFFFFL, (int) lo & 0xFFFF);
        }
        return n;
    }
}
