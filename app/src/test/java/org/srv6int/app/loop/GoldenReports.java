// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.TestReports;

import org.srv6int.codec.IntMetadata;
import org.srv6int.codec.IntReportView;
import org.srv6int.codec.WireFormat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A report stream built from the golden vector {@code tests/vectors/sfc-7-sw4-report.json}
 * (chain 1: SW1 → SW2/vNF 1 → SW3/vNF 2 → SW4, reporter SW4): each report is the vector's UDP
 * payload with the Sequence Number and the INT metadata of every hop rewritten; the offsets come
 * from the codec's view of the vector.
 */
public final class GoldenReports {

    /** The vector's chain tag. */
    public static final int TAG = 1;
    /** The vector's reporter (SW4). */
    public static final int REPORTER = 4;

    private final byte[] payload;
    private final int[] entryOffset;

    /**
     * Loads the vector.
     *
     * @throws IOException if the vector file cannot be read
     */
    public GoldenReports() throws IOException {
        Path p = Path.of("..", "tests", "vectors", "sfc-7-sw4-report.json");
        String json = Files.readString(p, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"hex\"\\s*:\\s*\"([0-9a-f]+)\"").matcher(json);
        if (!m.find()) {
            throw new IOException("no hex in " + p);
        }
        String hex = m.group(1);
        byte[] frame = new byte[hex.length() / 2];
        for (int i = 0; i < frame.length; i++) {
            frame[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        IntReportView v = new IntReportView();
        if (!v.wrapFrame(frame, 0, frame.length).isOk()) {
            throw new IOException("the codec rejects the golden vector");
        }
        int start = v.headerOffset();
        payload = Arrays.copyOfRange(frame, start, v.mirroredOffset() + v.mirroredLength());
        entryOffset = new int[v.hopCount()];
        for (int h = 0; h < entryOffset.length; h++) {
            entryOffset[h] = v.packet().metadataOffset(h) - start;
        }
    }

    /** @return INT metadata entries per report (4: SW1, SW2, SW3, SW4) */
    public int hops() {
        return entryOffset.length;
    }

    /**
     * Builds one report payload.
     *
     * @param seq  Sequence Number
     * @param hops per hop: Device_ID, Q_Length, In_Time, vNF_Latency, Port_Counter
     * @return UDP payload
     */
    public byte[] payload(long seq, TestReports.Hop... hops) {
        if (hops.length != entryOffset.length) {
            throw new IllegalArgumentException("the vector has " + entryOffset.length + " hops");
        }
        byte[] out = payload.clone();
        out[4] = (byte) (seq >>> 24);
        out[5] = (byte) (seq >>> 16);
        out[6] = (byte) (seq >>> 8);
        out[7] = (byte) seq;
        for (int h = 0; h < hops.length; h++) {
            TestReports.Hop x = hops[h];
            IntMetadata.write(out, entryOffset[h], WireFormat.MAP_ALL, x.device, 0, x.queue, x.inTime, x.latency,
                              x.counter);
        }
        return out;
    }
}
