// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import static org.srv6int.codec.WireFormat.*;

/**
 * Builds INT reports at the egress: the report header plus the mirrored frame
 * (cut to the configured length), alone (the UDP payload) or inside
 * Ethernet / IPv4 / UDP. IPv4: no options, Identification 0, DF set, TTL 64,
 * header checksum filled; UDP checksum 0. Immutable; encoding is allocation-free.
 */
public final class IntReportEncoder {

    private final int reporterDeviceId;
    private final int maxMirrorLength;
    private final long ethDst;
    private final long ethSrc;
    private final long ipv4Src;
    private final long ipv4Dst;
    private final int udpSrcPort;
    private final int udpDstPort;

    private IntReportEncoder(Builder b) {
        reporterDeviceId = b.reporterDeviceId;
        maxMirrorLength = b.maxMirrorLength;
        ethDst = b.ethDst;
        ethSrc = b.ethSrc;
        ipv4Src = b.ipv4Src;
        ipv4Dst = b.ipv4Dst;
        udpSrcPort = b.udpSrcPort >= 0 ? b.udpSrcPort : REPORT_UDP_PORT + reporterDeviceId % 1000;
        udpDstPort = b.udpDstPort;
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
     * Returns the largest UDP payload this encoder makes.
     *
     * @return bytes
     */
    public int maxPayloadLength() {
        return REPORT_HDR_LEN + maxMirrorLength;
    }

    /**
     * Returns the largest frame this encoder makes.
     *
     * @return bytes
     */
    public int maxFrameLength() {
        return ETH_LEN + IPV4_LEN + UDP_LEN + maxPayloadLength();
    }

    /**
     * Returns the UDP source port used in frames.
     *
     * @return port
     */
    public int udpSrcPort() {
        return udpSrcPort;
    }

    /**
     * Writes the report header and the (possibly cut) mirrored frame.
     *
     * @param sequence  Sequence Number (mod 2^32)
     * @param egressTs  Egress Timestamp, ns (mod 2^32)
     * @param frame     mirrored frame (after End.DT.INT wrote its INT metadata)
     * @param off       first byte of the mirrored frame
     * @param len       its length
     * @param out       destination
     * @param outOff    where the payload goes
     * @return payload length, or -1 if {@code out} is too small or the arguments are out of range
     */
    public int encodePayload(long sequence, long egressTs, byte[] frame, int off, int len,
                             byte[] out, int outOff) {
        if (frame == null || out == null || !BufferView.inBounds(frame.length, off, len) || len > 0xFFFF) {
            return -1;
        }
        int mirrored = Math.min(len, maxMirrorLength);
        int total = REPORT_HDR_LEN + mirrored;
        if (!BufferView.inBounds(out.length, outOff, total)) {
            return -1;
        }
        Bytes.put8(out, outOff, (REPORT_VERSION << 4) | (REPORT_HDR_LEN / 4));
        Bytes.put8(out, outOff + 1, mirrored < len ? REPORT_FLAG_TRUNCATED : 0);
        Bytes.put16(out, outOff + 2, reporterDeviceId);
        Bytes.put32(out, outOff + 4, sequence);
        Bytes.put32(out, outOff + 8, egressTs);
        Bytes.put16(out, outOff + 12, len);
        Bytes.put16(out, outOff + 14, 0);
        System.arraycopy(frame, off, out, outOff + REPORT_HDR_LEN, mirrored);
        return total;
    }

    /**
     * Writes a whole report frame: Ethernet / IPv4 / UDP / report header / mirrored frame.
     *
     * @param sequence Sequence Number
     * @param egressTs Egress Timestamp, ns
     * @param frame    mirrored frame
     * @param off      first byte of the mirrored frame
     * @param len      its length
     * @param out      destination
     * @param outOff   where the frame goes
     * @return frame length, or -1 if {@code out} is too small
     */
    public int encodeFrame(long sequence, long egressTs, byte[] frame, int off, int len,
                           byte[] out, int outOff) {
        int hdr = ETH_LEN + IPV4_LEN + UDP_LEN;
        if (out == null || outOff < 0 || outOff > out.length - hdr) {
            return -1;
        }
        int payload = encodePayload(sequence, egressTs, frame, off, len, out, outOff + hdr);
        if (payload < 0) {
            return -1;
        }
        Bytes.put48(out, outOff, ethDst);
        Bytes.put48(out, outOff + 6, ethSrc);
        Bytes.put16(out, outOff + 12, ETHERTYPE_IPV4);
        int ip = outOff + ETH_LEN;
        Bytes.put8(out, ip, 0x45);
        Bytes.put8(out, ip + 1, 0);
        Bytes.put16(out, ip + 2, IPV4_LEN + UDP_LEN + payload);
        Bytes.put16(out, ip + 4, 0);
        Bytes.put16(out, ip + 6, 0x4000);
        Bytes.put8(out, ip + 8, DEFAULT_HOP_LIMIT);
        Bytes.put8(out, ip + 9, PROTO_UDP);
        Bytes.put16(out, ip + 10, 0);
        Bytes.put32(out, ip + 12, ipv4Src);
        Bytes.put32(out, ip + 16, ipv4Dst);
        Bytes.put16(out, ip + 10, Bytes.fold(Bytes.sum16(out, ip, IPV4_LEN)));
        int udp = ip + IPV4_LEN;
        Bytes.put16(out, udp, udpSrcPort);
        Bytes.put16(out, udp + 2, udpDstPort);
        Bytes.put16(out, udp + 4, UDP_LEN + payload);
        Bytes.put16(out, udp + 6, 0);
        return hdr + payload;
    }

    /** Builder of {@link IntReportEncoder}. */
    public static final class Builder {
        private int reporterDeviceId;
        private int maxMirrorLength = REPORT_DEFAULT_MIRROR_LEN;
        private long ethDst;
        private long ethSrc;
        private long ipv4Src;
        private long ipv4Dst;
        private int udpSrcPort = -1;
        private int udpDstPort = REPORT_UDP_PORT;

        private Builder() {
        }

        /**
         * Sets the Reporter Device_ID (the egress switch).
         *
         * @param id 0..65535
         * @return this
         */
        public Builder reporterDeviceId(int id) {
            if (id < 0 || id > 0xFFFF) {
                throw new IllegalArgumentException("device id is 16 bits");
            }
            reporterDeviceId = id;
            return this;
        }

        /**
         * Sets the largest mirrored frame (default 256).
         *
         * @param n bytes, 1..65535
         * @return this
         */
        public Builder maxMirrorLength(int n) {
            if (n < 1 || n > 0xFFFF - REPORT_HDR_LEN - UDP_LEN - IPV4_LEN) {
                throw new IllegalArgumentException("mirror length out of range");
            }
            maxMirrorLength = n;
            return this;
        }

        /**
         * Sets the Ethernet addresses of report frames.
         *
         * @param dst collector next hop's MAC (low 48 bits)
         * @param src the reporter's MAC (low 48 bits)
         * @return this
         */
        public Builder ethernet(long dst, long src) {
            ethDst = dst;
            ethSrc = src;
            return this;
        }

        /**
         * Sets the IPv4 addresses of report frames.
         *
         * @param src the reporter's report address (unsigned int)
         * @param dst the collector's address (unsigned int)
         * @return this
         */
        public Builder ipv4(long src, long dst) {
            ipv4Src = src & 0xFFFFFFFFL;
            ipv4Dst = dst & 0xFFFFFFFFL;
            return this;
        }

        /**
         * Sets the UDP destination port (default 32766).
         *
         * @param port 1..65535
         * @return this
         */
        public Builder udpDstPort(int port) {
            if (port < 1 || port > 0xFFFF) {
                throw new IllegalArgumentException("port out of range");
            }
            udpDstPort = port;
            return this;
        }

        /**
         * Sets the UDP source port (default 32766 + Device_ID mod 1000).
         *
         * @param port 1..65535
         * @return this
         */
        public Builder udpSrcPort(int port) {
            if (port < 1 || port > 0xFFFF) {
                throw new IllegalArgumentException("port out of range");
            }
            udpSrcPort = port;
            return this;
        }

        /**
         * Builds the encoder.
         *
         * @return encoder
         */
        public IntReportEncoder build() {
            return new IntReportEncoder(this);
        }
    }
}
