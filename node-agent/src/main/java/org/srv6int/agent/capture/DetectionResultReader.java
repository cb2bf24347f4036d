// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.capture;

import org.srv6int.codec.DecodeErrors;
import org.srv6int.codec.DecodeStatus;
import org.srv6int.codec.Srv6IntPacketView;
import org.srv6int.agent.obs.AgentMetrics;
import org.srv6int.agent.obs.AgentMetrics.Packet;

import java.util.List;

/**
 * Turns a captured frame into (vNF, Detection Result) with the codec's
 * allocation-free view: the vNF is the one whose SID equals the IPv6
 * destination (wire-format §2). Every frame is counted by outcome; nothing
 * throws. Not thread-safe: one per capture thread.
 */
public final class DetectionResultReader {

    private final Srv6IntPacketView view;
    private final DecodeErrors errors;
    private final long[] sidHi;
    private final long[] sidLo;
    private final AgentMetrics metrics;
    private int vnf = -1;
    private long latencyNs;

    /**
     * Creates a reader.
     *
     * @param sids each vNF's SID, 16 bytes, by vNF index
     * @param metrics packet counters
     */
    public DetectionResultReader(List<byte[]> sids, AgentMetrics metrics) {
        this.errors = new DecodeErrors();
        this.view = new Srv6IntPacketView(errors);
        this.metrics = metrics;
        this.sidHi = new long[sids.size()];
        this.sidLo = new long[sids.size()];
        for (int i = 0; i < sids.size(); i++) {
            byte[] s = sids.get(i);
            if (s.length != 16) {
                throw new IllegalArgumentException("SID " + i + " is not 16 bytes");
            }
            sidHi[i] = be64(s, 0);
            sidLo[i] = be64(s, 8);
        }
    }

    private static long be64(byte[] b, int off) {
        long v = 0;
        for (int k = 0; k < 8; k++) {
            v = (v << 8) | (b[off + k] & 0xFF);
        }
        return v;
    }

    /**
     * Reads one Ethernet frame.
     *
     * @param frame bytes
     * @param len captured length
     * @return true if it yielded a latency sample ({@link #vnf()}, {@link #latencyNs()})
     */
    public boolean read(byte[] frame, int len) {
        vnf = -1;
        if (view.wrap(frame, 0, len) != DecodeStatus.OK) {
            metrics.packet(Packet.MALFORMED);
            return false;
        }
        if (!view.isSfcMode()) {
            metrics.packet(Packet.NOT_SFC);
            return false;
        }
        long hi = view.dstHi();
        long lo = view.dstLo();
        int found = -1;
        for (int i = 0; i < sidHi.length; i++) {
            if (sidHi[i] == hi && sidLo[i] == lo) {
                found = i;
                break;
            }
        }
        if (found < 0) {
            metrics.packet(Packet.UNKNOWN_VNF);
            return false;
        }
        long latency = view.detectionResult();
        if (latency == 0) {
            metrics.packet(Packet.NO_MEASUREMENT);
            return false;
        }
        metrics.packet(Packet.MATCHED);
        vnf = found;
        latencyNs = latency;
        return true;
    }

    /**
     * vNF of the last sample.
     *
     * @return index, -1 if the last frame gave none
     */
    public int vnf() {
        return vnf;
    }

    /**
     * Detection Result of the last sample.
     *
     * @return ns
     */
    public long latencyNs() {
        return latencyNs;
    }

    /**
     * The codec's rejection counters.
     *
     * @return counters
     */
    public DecodeErrors errors() {
        return errors;
    }
}
