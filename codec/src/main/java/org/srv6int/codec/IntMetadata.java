// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import java.util.Objects;

import static org.srv6int.codec.WireFormat.*;

/**
 * One INT metadata entry (16 bytes, written over a consumed segment): the same
 * bytes as the P4 {@code int_metadata_t} header. Immutable value; the static
 * {@link #write} is the allocation-free form the behaviours use.
 */
public final class IntMetadata {

    private final int deviceId;
    private final int queueId;
    private final int queueLength;
    private final long inTime;
    private final long vnfLatency;
    private final int portCounter;

    /**
     * Creates an entry; values are truncated to their field widths.
     *
     * @param deviceId    Device_ID (16 bits)
     * @param queueId     Q_ID (8 bits)
     * @param queueLength Q_Length, packets (24 bits)
     * @param inTime      In_Time, ns (taken mod 2^32)
     * @param vnfLatency  vNF_Latency, ns (saturated at 2^32-1)
     * @param portCounter Port_Counter (taken mod 2^16)
     */
    public IntMetadata(int deviceId, int queueId, int queueLength, long inTime,
                       long vnfLatency, int portCounter) {
        this.deviceId = deviceId & 0xFFFF;
        this.queueId = queueId & 0xFF;
        this.queueLength = queueLength & 0xFFFFFF;
        this.inTime = inTime & 0xFFFFFFFFL;
        this.vnfLatency = saturate32(vnfLatency);
        this.portCounter = portCounter & 0xFFFF;
    }

    /**
     * Returns v clamped to 0..2^32-1 (latencies saturate instead of wrapping).
     *
     * @param v value
     * @return clamped value
     */
    public static long saturate32(long v) {
        return v < 0 ? 0 : Math.min(v, 0xFFFFFFFFL);
    }

    /**
     * Writes an entry, zeroing every field whose MapInfo bit is clear.
     *
     * @param buf         destination
     * @param off         first byte of the 16-byte entry
     * @param mapInfo     which fields to fill
     * @param deviceId    Device_ID
     * @param queueId     Q_ID
     * @param queueLength Q_Length
     * @param inTime      In_Time, ns (mod 2^32)
     * @param vnfLatency  vNF_Latency, ns (saturated)
     * @param portCounter Port_Counter (mod 2^16)
     */
    public static void write(byte[] buf, int off, int mapInfo, int deviceId, int queueId,
                             int queueLength, long inTime, long vnfLatency, int portCounter) {
        boolean q = (mapInfo & MAP_QUEUE) != 0;
        Bytes.put16(buf, off + MD_DEVICE_ID, (mapInfo & MAP_DEVICE_ID) != 0 ? deviceId : 0);
        Bytes.put8(buf, off + MD_Q_ID, q ? queueId : 0);
        Bytes.put24(buf, off + MD_Q_LENGTH, q ? queueLength : 0);
        Bytes.put32(buf, off + MD_IN_TIME, (mapInfo & MAP_IN_TIME) != 0 ? inTime : 0);
        Bytes.put32(buf, off + MD_VNF_LATENCY,
                (mapInfo & MAP_VNF_LATENCY) != 0 ? saturate32(vnfLatency) : 0);
        Bytes.put16(buf, off + MD_PORT_COUNTER, (mapInfo & MAP_PORT_COUNTER) != 0 ? portCounter : 0);
    }

    /**
     * Writes this entry, zeroing every field whose MapInfo bit is clear.
     *
     * @param buf     destination
     * @param off     first byte of the 16-byte entry
     * @param mapInfo which fields to fill
     */
    public void writeTo(byte[] buf, int off, int mapInfo) {
        write(buf, off, mapInfo, deviceId, queueId, queueLength, inTime, vnfLatency, portCounter);
    }

    /**
     * Reads an entry.
     *
     * @param buf source
     * @param off first byte of the 16-byte entry
     * @return entry
     */
    public static IntMetadata read(byte[] buf, int off) {
        return new IntMetadata(Bytes.get16(buf, off + MD_DEVICE_ID), Bytes.get8(buf, off + MD_Q_ID),
                (Bytes.get8(buf, off + MD_Q_LENGTH) << 16) | Bytes.get16(buf, off + MD_Q_LENGTH + 1),
                Bytes.get32(buf, off + MD_IN_TIME), Bytes.get32(buf, off + MD_VNF_LATENCY),
                Bytes.get16(buf, off + MD_PORT_COUNTER));
    }

    /**
     * Returns Device_ID.
     *
     * @return device id
     */
    public int deviceId() {
        return deviceId;
    }

    /**
     * Returns Q_ID.
     *
     * @return queue id
     */
    public int queueId() {
        return queueId;
    }

    /**
     * Returns Q_Length.
     *
     * @return queue length, packets
     */
    public int queueLength() {
        return queueLength;
    }

    /**
     * Returns In_Time.
     *
     * @return ns mod 2^32
     */
    public long inTime() {
        return inTime;
    }

    /**
     * Returns vNF_Latency.
     *
     * @return ns
     */
    public long vnfLatency() {
        return vnfLatency;
    }

    /**
     * Returns Port_Counter.
     *
     * @return packets mod 2^16
     */
    public int portCounter() {
        return portCounter;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof IntMetadata)) {
            return false;
        }
        IntMetadata m = (IntMetadata) o;
        return deviceId == m.deviceId && queueId == m.queueId && queueLength == m.queueLength
                && inTime == m.inTime && vnfLatency == m.vnfLatency && portCounter == m.portCounter;
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, queueId, queueLength, inTime, vnfLatency, portCounter);
    }

    @Override
    public String toString() {
        return "IntMetadata{deviceId=" + deviceId + ", qId=" + queueId + ", qLength=" + queueLength
                + ", inTime=" + inTime + ", vnfLatency=" + vnfLatency + ", portCounter=" + portCounter + '}';
    }
}
