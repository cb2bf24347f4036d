// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import org.srv6int.codec.IntMetadataVisitor;
import org.srv6int.codec.IntReportView;

/**
 * One decoded INT report, copied out of the codec's view for the per-report export: the reporter,
 * its sequence number, the chain (SRH Tag) and each hop's INT metadata. Immutable once built.
 */
public final class SampledReport {

    private final int reporterDeviceId;
    private final long sequence;
    private final int chainTag;
    private final long receivedNanos;
    private final int[] device;
    private final long[] inTime;
    private final long[] vnfLatency;
    private final int[] queueLength;
    private final int[] portCounter;

    private SampledReport(int reporterDeviceId, long sequence, int chainTag, long receivedNanos, int hops) {
        this.reporterDeviceId = reporterDeviceId;
        this.sequence = sequence;
        this.chainTag = chainTag;
        this.receivedNanos = receivedNanos;
        device = new int[hops];
        inTime = new long[hops];
        vnfLatency = new long[hops];
        queueLength = new int[hops];
        portCounter = new int[hops];
    }

    /**
     * Copies a decoded report.
     *
     * @param r             the codec's view of an accepted report
     * @param receivedNanos collector clock when it was received
     * @return the copy
     */
    public static SampledReport of(IntReportView r, long receivedNanos) {
        int hops = Math.max(0, r.hopCount());
        SampledReport s = new SampledReport(r.reporterDeviceId(), r.sequenceNumber(), r.packet().tag(),
                                            receivedNanos, hops);
        r.visitIntMetadata(new IntMetadataVisitor() {
            @Override
            public void onEntry(int hop, int deviceId, int queueId, int qLength, long in, long latency, int counter) {
                if (hop >= 0 && hop < hops) {
                    s.device[hop] = deviceId;
                    s.inTime[hop] = in;
                    s.vnfLatency[hop] = latency;
                    s.queueLength[hop] = qLength;
                    s.portCounter[hop] = counter;
                }
            }
        });
        return s;
    }

    /** @return INT Device_ID of the reporting switch */
    public int reporterDeviceId() {
        return reporterDeviceId;
    }

    /** @return the report's sequence number */
    public long sequence() {
        return sequence;
    }

    /** @return chain id (SRH Tag) */
    public int chainTag() {
        return chainTag;
    }

    /** @return collector's monotonic clock at reception, ns */
    public long receivedNanos() {
        return receivedNanos;
    }

    /** @return hops with INT metadata */
    public int hops() {
        return device.length;
    }

    /**
     * Returns a hop's Device_ID.
     *
     * @param hop hop index
     * @return Device_ID
     */
    public int deviceId(int hop) {
        return device[hop];
    }

    /**
     * Returns a hop's In_Time.
     *
     * @param hop hop index
     * @return In_Time, ns (32-bit wrap as on the wire)
     */
    public long inTime(int hop) {
        return inTime[hop];
    }

    /**
     * Returns a hop's vNF_Latency.
     *
     * @param hop hop index
     * @return vNF latency, ns (0 where the hop is no vNF)
     */
    public long vnfLatency(int hop) {
        return vnfLatency[hop];
    }

    /**
     * Returns a hop's queue occupancy.
     *
     * @param hop hop index
     * @return queue length
     */
    public int queueLength(int hop) {
        return queueLength[hop];
    }

    /**
     * Returns a hop's Port_Counter.
     *
     * @param hop hop index
     * @return port counter
     */
    public int portCounter(int hop) {
        return portCounter[hop];
    }
}
