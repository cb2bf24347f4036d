// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import java.nio.ByteBuffer;

import static org.srv6int.codec.WireFormat.*;

/**
 * Reusable, allocation-free decoder view of an INT report: either the UDP
 * payload (report header + mirrored frame, what a collector's socket receives)
 * or the whole report frame (Ethernet / IPv4 / UDP / payload). The mirrored
 * frame is decoded by an embedded {@link Srv6IntPacketView}, see {@link #packet()}.
 *
 * <p>Never throws on any bytes; each rejection is counted once in the
 * {@link DecodeErrors} given at construction. Not thread-safe.
 */
public final class IntReportView extends BufferView {

    private final DecodeErrors errors;
    private final Srv6IntPacketView packet;

    private boolean hasFrame;
    private int ipOff;
    private int udpOff;
    private int hdrOff;
    private int payloadEnd;

    /**
     * Creates a view that counts rejections in the given counters.
     *
     * @param errors counters owned by the caller
     */
    public IntReportView(DecodeErrors errors) {
        if (errors == null) {
            throw new IllegalArgumentException("errors must not be null");
        }
        this.errors = errors;
        this.packet = new Srv6IntPacketView(errors);
    }

    /** Creates a view with counters of its own. */
    public IntReportView() {
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
     * Wraps a UDP payload: report header + mirrored frame.
     *
     * @param buf bytes
     * @param off first byte of the report header
     * @param len payload length
     * @return OK or the reason of rejection (counted)
     */
    public DecodeStatus wrapPayload(byte[] buf, int off, int len) {
        if (buf == null || !inBounds(buf.length, off, len)) {
            return errors.count(DecodeStatus.TRUNCATED_REPORT_HEADER);
        }
        setArray(buf, off, len);
        hasFrame = false;
        return errors.count(decodePayload(base, limit));
    }

    /**
     * Wraps a UDP payload held in a ByteBuffer (absolute indices).
     *
     * @param buf bytes
     * @param off first byte of the report header
     * @param len payload length
     * @return OK or the reason of rejection (counted)
     */
    public DecodeStatus wrapPayload(ByteBuffer buf, int off, int len) {
        if (buf == null || !inBounds(buf.capacity(), off, len)) {
            return errors.count(DecodeStatus.TRUNCATED_REPORT_HEADER);
        }
        setBuffer(buf, off, len);
        hasFrame = false;
        return errors.count(decodePayload(base, limit));
    }

    /**
     * Wraps a whole report frame: Ethernet / IPv4 / UDP / report.
     *
     * @param buf bytes
     * @param off first byte of the Ethernet header
     * @param len frame length
     * @return OK or the reason of rejection (counted)
     */
    public DecodeStatus wrapFrame(byte[] buf, int off, int len) {
        if (buf == null || !inBounds(buf.length, off, len)) {
            return errors.count(DecodeStatus.TRUNCATED_ETHERNET);
        }
        setArray(buf, off, len);
        return errors.count(decodeFrame());
    }

    /**
     * Wraps a whole report frame held in a ByteBuffer (absolute indices).
     *
     * @param buf bytes
     * @param off first byte of the Ethernet header
     * @param len frame length
     * @return OK or the reason of rejection (counted)
     */
    public DecodeStatus wrapFrame(ByteBuffer buf, int off, int len) {
        if (buf == null || !inBounds(buf.capacity(), off, len)) {
            return errors.count(DecodeStatus.TRUNCATED_ETHERNET);
        }
        setBuffer(buf, off, len);
        return errors.count(decodeFrame());
    }

    private DecodeStatus decodeFrame() {
        hasFrame = true;
        int p = base;
        if (limit - p < ETH_LEN) {
            return DecodeStatus.TRUNCATED_ETHERNET;
        }
        if (u16(p + 12) != ETHERTYPE_IPV4) {
            return DecodeStatus.UNSUPPORTED_ETHERTYPE;
        }
        p += ETH_LEN;
        ipOff = p;
        if (limit - p < IPV4_LEN) {
            return DecodeStatus.TRUNCATED_IPV4;
        }
        int vihl = u8(p);
        int ihl = 4 * (vihl & 0x0F);
        int total = u16(p + 2);
        if ((vihl >>> 4) != 4 || ihl < IPV4_LEN || total < ihl || total > limit - p) {
            return DecodeStatus.BAD_IPV4_HEADER;
        }
        if (u8(p + 9) != PROTO_UDP) {
            return DecodeStatus.NOT_UDP;
        }
        int ipEnd = p + total;
        p += ihl;
        udpOff = p;
        if (ipEnd - p < UDP_LEN) {
            return DecodeStatus.TRUNCATED_UDP;
        }
        int udpLen = u16(p + 4);
        if (udpLen < UDP_LEN || udpLen > ipEnd - p) {
            return DecodeStatus.BAD_UDP_LENGTH;
        }
        return decodePayload(p + UDP_LEN, p + udpLen);
    }

    private DecodeStatus decodePayload(int start, int end) {
        hdrOff = start;
        payloadEnd = end;
        if (end - start < REPORT_HDR_LEN) {
            return DecodeStatus.TRUNCATED_REPORT_HEADER;
        }
        int vh = u8(start);
        if ((vh >>> 4) != REPORT_VERSION) {
            return DecodeStatus.BAD_REPORT_VERSION;
        }
        if ((vh & 0x0F) != REPORT_HDR_LEN / 4) {
            return DecodeStatus.BAD_REPORT_HDR_LEN;
        }
        int mirrored = end - start - REPORT_HDR_LEN;
        int orig = u16(start + 12);
        boolean truncated = (u8(start + 1) & REPORT_FLAG_TRUNCATED) != 0;
        if (truncated ? orig <= mirrored : orig != mirrored) {
            return DecodeStatus.BAD_ORIGINAL_LENGTH;
        }
        DecodeStatus s = packet.decodeRegion(array, buffer, start + REPORT_HDR_LEN, mirrored);
        if (s != DecodeStatus.OK) {
            return s;
        }
        if (packet.segmentsLeft() != 0) {
            return DecodeStatus.REPORT_SEGMENTS_LEFT_NOT_ZERO;
        }
        return DecodeStatus.OK;
    }

    /**
     * Returns the decoded mirrored frame (valid after an OK wrap).
     *
     * @return packet view over the mirrored frame
     */
    public Srv6IntPacketView packet() {
        return packet;
    }

    // ---- frame (only after wrapFrame) ----

    /**
     * Tells whether the view wraps a whole frame (wrapFrame) or a UDP payload.
     *
     * @return true after wrapFrame
     */
    public boolean hasFrame() {
        return hasFrame;
    }

    /**
     * Returns the IPv4 source address (wrapFrame only).
     *
     * @return address as an unsigned int in a long
     */
    public long ipv4Src() {
        return u32(ipOff + 12);
    }

    /**
     * Returns the IPv4 destination address (wrapFrame only).
     *
     * @return address as an unsigned int in a long
     */
    public long ipv4Dst() {
        return u32(ipOff + 16);
    }

    /**
     * Returns the absolute index of the IPv4 header (wrapFrame only).
     *
     * @return index
     */
    public int ipv4Offset() {
        return ipOff;
    }

    /**
     * Returns the absolute index of the UDP header (wrapFrame only).
     *
     * @return index
     */
    public int udpOffset() {
        return udpOff;
    }

    /**
     * Returns the UDP source port (wrapFrame only).
     *
     * @return port
     */
    public int udpSrcPort() {
        return u16(udpOff);
    }

    /**
     * Returns the UDP destination port (wrapFrame only).
     *
     * @return port
     */
    public int udpDstPort() {
        return u16(udpOff + 2);
    }

    // ---- report header ----

    /**
     * Returns the absolute index of the report header.
     *
     * @return index
     */
    public int headerOffset() {
        return hdrOff;
    }

    /**
     * Returns the report header Version.
     *
     * @return version
     */
    public int version() {
        return u8(hdrOff) >>> 4;
    }

    /**
     * Returns the report header HdrLen, in 4-byte words.
     *
     * @return header length in words
     */
    public int hdrLenWords() {
        return u8(hdrOff) & 0x0F;
    }

    /**
     * Returns the report header Flags.
     *
     * @return flags
     */
    public int reportFlags() {
        return u8(hdrOff + 1);
    }

    /**
     * Tells whether the mirrored frame was truncated.
     *
     * @return truncated flag
     */
    public boolean isMirrorTruncated() {
        return (reportFlags() & REPORT_FLAG_TRUNCATED) != 0;
    }

    /**
     * Returns the Reporter Device_ID.
     *
     * @return device id
     */
    public int reporterDeviceId() {
        return u16(hdrOff + 2);
    }

    /**
     * Returns the Sequence Number (unsigned 32 bits).
     *
     * @return sequence number
     */
    public long sequenceNumber() {
        return u32(hdrOff + 4);
    }

    /**
     * Returns the Egress Timestamp, ns mod 2^32.
     *
     * @return timestamp
     */
    public long egressTimestamp() {
        return u32(hdrOff + 8);
    }

    /**
     * Returns the Original Length of the mirrored frame.
     *
     * @return bytes before truncation
     */
    public int originalLength() {
        return u16(hdrOff + 12);
    }

    /**
     * Returns the absolute index of the mirrored frame.
     *
     * @return index
     */
    public int mirroredOffset() {
        return hdrOff + REPORT_HDR_LEN;
    }

    /**
     * Returns the length of the mirrored frame carried in the report.
     *
     * @return bytes
     */
    public int mirroredLength() {
        return payloadEnd - hdrOff - REPORT_HDR_LEN;
    }

    // ---- INT metadata ----

    /**
     * Returns the number of INT metadata entries: every segment, since the
     * egress wrote its own into Segment List[0].
     *
     * @return Last Entry + 1
     */
    public int hopCount() {
        return packet.lastEntry() + 1;
    }

    /**
     * Visits every INT metadata entry in hop order (ingress first), allocation-free.
     *
     * @param visitor receives each entry
     * @return number of entries visited
     */
    public int visitIntMetadata(IntMetadataVisitor visitor) {
        return packet.visitIntMetadata(visitor, packet.lastEntry() + 1);
    }
}
