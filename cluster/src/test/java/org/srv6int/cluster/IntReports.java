// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import java.util.Arrays;
import org.srv6int.codec.IntMetadata;
import org.srv6int.codec.IntReportEncoder;
import org.srv6int.codec.Srv6IntEncap;
import org.srv6int.codec.Srv6IntPacketView;
import org.srv6int.codec.WireFormat;

import java.util.ArrayList;
import java.util.List;

/**
 * (The app's test encoder org.srv6int.app.loop.TestReports, which its test classes do not publish.)
 * Builds INT report payloads (report header + mirrored frame) with the project's codec: an
 * encapsulated packet of a chain whose every hop wrote INT metadata, as the egress mirrors it.
 */
final class IntReports {

    /** Per-hop values of one report: Device_ID, Q_Length, In_Time, vNF_Latency, Port_Counter. */
    public static final class Hop {
        final int device;
        final int queue;
        final long inTime;
        final long latency;
        final int counter;

        public Hop(int device, int queue, long inTime, long latency, int counter) {
            this.device = device;
            this.queue = queue;
            this.inTime = inTime;
            this.latency = latency;
            this.counter = counter;
        }
    }

    private final Srv6IntEncap encap;
    private final IntReportEncoder encoder;
    private final byte[] inner;

    IntReports(int tag, int reporterDevice, int hops) {
        List<byte[]> path = new ArrayList<>();
        for (int i = 1; i < hops; i++) {
            path.add(sid(i));
        }
        encap = Srv6IntEncap.builder().ingressSid(sid(0)).path(path).tag(tag).sfcMode(true)
                .mapInfo(WireFormat.MAP_ALL).build();
        encoder = IntReportEncoder.builder().reporterDeviceId(reporterDevice).build();
        inner = new byte[28];
        inner[0] = 0x45;
        inner[3] = 28;
        inner[8] = 64;
        inner[9] = 17;
    }

    /**
     * Makes the following reports of another flow: the inner packet's UDP source port.
     *
     * @param srcPort UDP source port
     * @return the flow's hash (wire-format 1.6), whose low bits are its Port_Counter cell
     */
    public int flow(int srcPort) {
        inner[20] = (byte) (srcPort >>> 8);
        inner[21] = (byte) srcPort;
        return org.srv6int.codec.FlowHash.hash(inner, 0, inner.length);
    }

    static byte[] sid(int i) {
        byte[] s = new byte[16];
        s[0] = 0x20;
        s[1] = 0x01;
        s[15] = (byte) (i + 1);
        return s;
    }

    /**
     * Builds one report payload.
     *
     * @param seq  Sequence Number
     * @param hops values per hop, ingress first
     * @return payload bytes
     */
    public byte[] payload(long seq, Hop... hops) {
        byte[] frame = new byte[512];
        Hop h0 = hops[0];
        int len = encap.encapsulate(inner, 0, inner.length, 0x0000aabbccddeeL, 0x000011223344L, true,
                                    h0.device, 0, h0.queue, h0.inTime, h0.counter, frame, 0);
        if (len < 0) {
            throw new IllegalStateException("encapsulation failed");
        }
        Srv6IntPacketView v = new Srv6IntPacketView();
        if (!v.wrap(frame, 0, len).isOk()) {
            throw new IllegalStateException("codec rejects its own packet");
        }
        if (v.lastEntry() + 1 != hops.length) {
            throw new IllegalArgumentException("path has " + (v.lastEntry() + 1) + " hops");
        }
        // As the path would: every endpoint wrote its metadata, the egress consumed the last SID.
        frame[v.srhOffset() + 3] = 0;
        for (int h = 1; h < hops.length; h++) {
            Hop x = hops[h];
            IntMetadata.write(frame, v.metadataOffset(h), WireFormat.MAP_ALL, x.device, 0, x.queue, x.inTime,
                              x.latency, x.counter);
        }
        byte[] out = new byte[WireFormat.REPORT_HDR_LEN + len];
        int n = encoder.encodePayload(seq, hops[hops.length - 1].inTime, frame, 0, len, out, 0);
        if (n < 0) {
            throw new IllegalStateException("report encoding failed");
        }
        return Arrays.copyOf(out, n);
    }
}
