// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import static org.srv6int.codec.WireFormat.*;

/**
 * Reference SRv6-INT endpoint behaviours, applied in place on an Ethernet frame
 * held in a byte array: End.T.INT (plain, and the SFC-mode departure to and
 * return from a vNF), End.DT.INT and the decapsulation. The P4 program, the
 * testbed twin and the golden vectors follow exactly these steps.
 *
 * <p>Behaviours never rewrite Ethernet addresses (that is the routing step, see
 * {@link #rewriteEthernet}), validate the frame first and return a
 * {@link BehaviourStatus} instead of throwing. Allocation-free; not thread-safe
 * (one instance per thread).
 */
public final class EndpointBehaviours {

    private final Srv6IntPacketView view;
    private DecodeStatus lastDecode = DecodeStatus.OK;
    private long lastVnfLatency;
    private int outputLength;

    /**
     * Creates behaviours that count malformed frames in the given counters.
     *
     * @param errors counters owned by the caller
     */
    public EndpointBehaviours(DecodeErrors errors) {
        view = new Srv6IntPacketView(errors);
    }

    /** Creates behaviours with counters of their own. */
    public EndpointBehaviours() {
        this(new DecodeErrors());
    }

    /**
     * Returns the decode status of the last frame (why it was MALFORMED).
     *
     * @return status
     */
    public DecodeStatus lastDecodeStatus() {
        return lastDecode;
    }

    /**
     * Returns the vNF latency measured by the last successful {@link #sfcReturn}.
     *
     * @return ns, unsigned 32 bits
     */
    public long lastVnfLatency() {
        return lastVnfLatency;
    }

    /**
     * Returns the frame length written by the last successful {@link #decapsulate}.
     *
     * @return bytes
     */
    public int outputLength() {
        return outputLength;
    }

    private boolean decode(byte[] f, int off, int len) {
        lastDecode = view.wrap(f, off, len);
        return lastDecode == DecodeStatus.OK;
    }

    /**
     * Sets the Ethernet addresses of a frame (the routing step after a behaviour).
     *
     * @param f      frame
     * @param off    first byte of the frame
     * @param ethDst next hop's MAC (low 48 bits)
     * @param ethSrc own port's MAC (low 48 bits)
     */
    public static void rewriteEthernet(byte[] f, int off, long ethDst, long ethSrc) {
        Bytes.put48(f, off, ethDst);
        Bytes.put48(f, off + 6, ethSrc);
    }

    /** Segments Left -= 1, destination := Segment List[Segments Left], Hop Limit -= 1. */
    private void advance(byte[] f) {
        int sl = view.segmentsLeft() - 1;
        Bytes.put8(f, view.srhOffset() + 3, sl);
        System.arraycopy(f, view.segmentOffset(sl), f, view.ipv6Offset() + 24, 16);
        Bytes.put8(f, view.ipv6Offset() + 7, view.hopLimit() - 1);
    }

    /**
     * Plain End.T.INT: if I is set, writes own INT metadata (vNF_Latency 0) over
     * Segment List[Segments Left]; then decrements Segments Left, copies the new
     * active segment into the IPv6 destination and decrements the Hop Limit.
     *
     * @param f           frame
     * @param off         first byte
     * @param len         frame length
     * @param deviceId    own Device_ID
     * @param queueId     Q_ID
     * @param queueLength Q_Length
     * @param inTime      In_Time, ns
     * @param portCounter Port_Counter
     * @return status
     */
    public BehaviourStatus endT(byte[] f, int off, int len, int deviceId, int queueId,
                                int queueLength, long inTime, int portCounter) {
        if (!decode(f, off, len)) {
            return BehaviourStatus.MALFORMED;
        }
        if (view.segmentsLeft() < 1) {
            return BehaviourStatus.NO_SEGMENTS_LEFT;
        }
        if (view.hopLimit() <= 1) {
            return BehaviourStatus.HOP_LIMIT_EXCEEDED;
        }
        if (view.isIntOn()) {
            IntMetadata.write(f, view.segmentOffset(view.segmentsLeft()), view.mapInfo(),
                    deviceId, queueId, queueLength, inTime, 0, portCounter);
        }
        advance(f);
        return BehaviourStatus.OK;
    }

    /**
     * End.T.INT in SFC mode, departure to the vNF: stamps Detection Result (the
     * vNF's previous latency) and turns Segment List[Segments Left] into partial
     * INT metadata: Device_ID, In_Time (0 if I is clear) and the departure time
     * parked in the vNF_Latency field; every other field 0. Segments Left, the
     * destination and the Hop Limit are unchanged, so the vNF sees the packet
     * addressed to its own SID.
     *
     * @param f               frame
     * @param off             first byte
     * @param len             frame length
     * @param deviceId        own Device_ID
     * @param inTime          arrival time at this switch, ns
     * @param departTime      departure time to the vNF, ns (mod 2^32)
     * @param detectionResult last latency of this vNF, ns (0 = none yet; saturates)
     * @return status
     */
    public BehaviourStatus sfcDepart(byte[] f, int off, int len, int deviceId, long inTime,
                                     long departTime, long detectionResult) {
        if (!decode(f, off, len)) {
            return BehaviourStatus.MALFORMED;
        }
        if (!view.isSfcMode()) {
            return BehaviourStatus.NOT_SFC_MODE;
        }
        if (view.segmentsLeft() < 1) {
            return BehaviourStatus.NO_SEGMENTS_LEFT;
        }
        Bytes.put32(f, view.intTlvOffset() + 4, IntMetadata.saturate32(detectionResult));
        IntMetadata.write(f, view.segmentOffset(view.segmentsLeft()),
                MAP_DEVICE_ID | MAP_IN_TIME | MAP_VNF_LATENCY, deviceId, 0, 0,
                view.isIntOn() ? inTime : 0, departTime & 0xFFFFFFFFL, 0);
        return BehaviourStatus.OK;
    }

    /**
     * End.T.INT in SFC mode, return from the vNF: latency := now - parked
     * departure time (mod 2^32, see {@link #lastVnfLatency()}; the caller stores
     * it in the vNF's register), then finishes as plain End.T.INT with
     * vNF_Latency = latency and In_Time = the parked arrival time. With I clear
     * only Device_ID and vNF_Latency are filled.
     *
     * @param f           frame as the vNF returned it
     * @param off         first byte
     * @param len         frame length
     * @param deviceId    own Device_ID
     * @param queueId     Q_ID
     * @param queueLength Q_Length
     * @param now         return time, ns
     * @param portCounter Port_Counter
     * @return status
     */
    public BehaviourStatus sfcReturn(byte[] f, int off, int len, int deviceId, int queueId,
                                     int queueLength, long now, int portCounter) {
        if (!decode(f, off, len)) {
            return BehaviourStatus.MALFORMED;
        }
        if (!view.isSfcMode()) {
            return BehaviourStatus.NOT_SFC_MODE;
        }
        if (view.segmentsLeft() < 1) {
            return BehaviourStatus.NO_SEGMENTS_LEFT;
        }
        if (view.hopLimit() <= 1) {
            return BehaviourStatus.HOP_LIMIT_EXCEEDED;
        }
        int slot = view.segmentOffset(view.segmentsLeft());
        long arrival = Bytes.get32(f, slot + MD_IN_TIME);
        long depart = Bytes.get32(f, slot + MD_VNF_LATENCY);
        long latency = (now - depart) & 0xFFFFFFFFL;
        lastVnfLatency = latency;
        int map = view.isIntOn() ? view.mapInfo() : view.mapInfo() & (MAP_DEVICE_ID | MAP_VNF_LATENCY);
        IntMetadata.write(f, slot, map, deviceId, queueId, queueLength, arrival, latency, portCounter);
        advance(f);
        return BehaviourStatus.OK;
    }

    /**
     * End.DT.INT, first half: if I is set, writes own INT metadata over Segment
     * List[0]. The frame is then what the egress mirrors into the report
     * ({@link IntReportEncoder}) and what {@link #decapsulate} strips.
     *
     * @param f           frame
     * @param off         first byte
     * @param len         frame length
     * @param deviceId    own Device_ID
     * @param queueId     Q_ID
     * @param queueLength Q_Length
     * @param inTime      In_Time, ns
     * @param portCounter Port_Counter
     * @return status
     */
    public BehaviourStatus endDt(byte[] f, int off, int len, int deviceId, int queueId,
                                 int queueLength, long inTime, int portCounter) {
        if (!decode(f, off, len)) {
            return BehaviourStatus.MALFORMED;
        }
        if (view.segmentsLeft() != 0) {
            return BehaviourStatus.SEGMENTS_LEFT_NOT_ZERO;
        }
        if (view.isIntOn()) {
            IntMetadata.write(f, view.segmentOffset(0), view.mapInfo(),
                    deviceId, queueId, queueLength, inTime, 0, portCounter);
        }
        return BehaviourStatus.OK;
    }

    /**
     * End.DT.INT, second half: strips Ethernet + IPv6 + SRH and writes a new
     * Ethernet frame with the inner packet (unchanged) into {@code out}; its
     * length is {@link #outputLength()}.
     *
     * @param f      encapsulated frame
     * @param off    first byte
     * @param len    frame length
     * @param ethDst next hop's MAC
     * @param ethSrc own port's MAC
     * @param out    destination (may not overlap f)
     * @param outOff where the frame goes
     * @return status
     */
    public BehaviourStatus decapsulate(byte[] f, int off, int len, long ethDst, long ethSrc,
                                       byte[] out, int outOff) {
        if (!decode(f, off, len)) {
            return BehaviourStatus.MALFORMED;
        }
        if (view.segmentsLeft() != 0) {
            return BehaviourStatus.SEGMENTS_LEFT_NOT_ZERO;
        }
        int inner = view.innerAvailable();
        if (out == null || !BufferView.inBounds(out.length, outOff, ETH_LEN + inner)) {
            return BehaviourStatus.BUFFER_TOO_SMALL;
        }
        rewriteEthernet(out, outOff, ethDst, ethSrc);
        Bytes.put16(out, outOff + 12,
                view.srhNextHeader() == PROTO_IPV4 ? ETHERTYPE_IPV4 : ETHERTYPE_IPV6);
        System.arraycopy(f, view.innerOffset(), out, outOff + ETH_LEN, inner);
        outputLength = ETH_LEN + inner;
        return BehaviourStatus.OK;
    }
}
