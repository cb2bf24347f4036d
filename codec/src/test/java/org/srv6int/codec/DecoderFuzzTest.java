// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import org.junit.Test;
import org.srv6int.codec.tool.VectorGenerator;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * Deterministic mutation fuzzing of the decoders and behaviours, seeded from the
 * golden vectors: bit flips, byte sets, truncation, extension, insertion and
 * deletion, and edits of every length/count field to boundary values. Nothing may
 * escape, and every rejection must come back with a reason that is counted.
 */
public class DecoderFuzzTest {

    private static final int INPUTS = 1_000_000;
    private static final long SEED = 0x5256_3649_4E54L;

    private final DecodeErrors errors = new DecodeErrors();
    private final Srv6IntPacketView packet = new Srv6IntPacketView(errors);
    private final IntReportView report = new IntReportView(errors);
    private final EndpointBehaviours behaviours = new EndpointBehaviours(new DecodeErrors());
    private final byte[] out = new byte[4096];
    private final ByteBuffer direct = ByteBuffer.allocateDirect(4096);
    private long rejected;
    private long accepted;
    private long sink;
    private final IntMetadataVisitor visitor = (h, d, q, ql, in, lat, pc) -> sink += h + d + q + ql + in + lat + pc;

    /** Offsets of the length and count fields in the seeds (frame offsets). */
    private static final int[] SRV6_FIELDS = {12, 13, 14, 18, 19, 20, 54, 55, 56, 57, 58, 59, 126, 127, 128, 129};
    private static final int[] REPORT_FIELDS = {12, 13, 14, 16, 17, 23, 38, 39, 42, 43, 54, 55,
                                                58 + 18, 58 + 19, 58 + 20, 58 + 55, 58 + 57, 58 + 58, 58 + 127};

    @Test
    public void mutatedInputsNeverEscapeAndAreAlwaysCounted() {
        List<byte[]> seeds = new ArrayList<>();
        for (VectorGenerator.Vector v : VectorGenerator.generate()) {
            seeds.add(v.bytes());
        }
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (int i = 0; i < INPUTS; i++) {
            byte[] seed = seeds.get(rnd.nextInt(seeds.size()));
            byte[] m = mutate(seed, rnd);
            exercise(m);
            if ((i & 7) == 0) {
                viaDirectBuffer(m);
            }
        }
        assertEquals(rejected, errors.total());
        assertTrue("some mutants must still decode", accepted > INPUTS / 20);
        assertTrue("most reasons must be hit, got " + errors.snapshot(), errors.snapshot().size() >= 20);
        assertTrue(sink != 42);
    }

    private void check(DecodeStatus s, long before) {
        assertNotNull(s);
        if (s.isOk()) {
            assertEquals(before, errors.total());
            accepted++;
        } else {
            assertEquals(before + 1, errors.total());
            rejected++;
        }
    }

    private void exercise(byte[] m) {
        long before = errors.total();
        DecodeStatus s = packet.wrap(m, 0, m.length);
        check(s, before);
        if (s.isOk()) {
            readAll(packet);
        }
        before = errors.total();
        check(packet.wrapIpv6(m, 14, Math.max(0, m.length - 14)), before);
        before = errors.total();
        s = report.wrapFrame(m, 0, m.length);
        check(s, before);
        if (s.isOk()) {
            sink += report.sequenceNumber() + report.egressTimestamp() + report.originalLength()
                    + report.reporterDeviceId() + report.udpDstPort() + report.ipv4Src();
            report.visitIntMetadata(visitor);
            readAll(report.packet());
        }
        before = errors.total();
        check(report.wrapPayload(m, Math.min(42, m.length), Math.max(0, m.length - 42)), before);
        // Behaviours on a copy: they validate first and must never throw either.
        byte[] c = m.clone();
        behaviours.sfcDepart(c, 0, c.length, 2, 1, 2, 3);
        behaviours.sfcReturn(c, 0, c.length, 2, 0, 1, 9, 1);
        behaviours.endT(c, 0, c.length, 3, 0, 1, 9, 1);
        behaviours.endDt(c, 0, c.length, 4, 0, 1, 9, 1);
        behaviours.decapsulate(c, 0, c.length, 1, 2, out, 0);
    }

    /** The ByteBuffer path (direct, at an offset) must give the same verdicts and values. */
    private void viaDirectBuffer(byte[] m) {
        int off = 3;
        direct.clear();
        direct.position(off);
        direct.put(m);
        long before = errors.total();
        DecodeStatus a = packet.wrap(m, 0, m.length);
        check(a, before);
        long fromArray = a.isOk() ? packet.dstLo() ^ packet.detectionResult() ^ packet.intInTime(0) : 0;
        before = errors.total();
        DecodeStatus b = packet.wrap(direct, off, m.length);
        check(b, before);
        assertEquals(a, b);
        if (b.isOk()) {
            assertEquals(fromArray, packet.dstLo() ^ packet.detectionResult() ^ packet.intInTime(0));
            readAll(packet);
        }
        before = errors.total();
        a = report.wrapFrame(m, 0, m.length);
        check(a, before);
        before = errors.total();
        b = report.wrapFrame(direct, off, m.length);
        check(b, before);
        assertEquals(a, b);
        if (b.isOk()) {
            report.visitIntMetadata(visitor);
        }
    }

    private void readAll(Srv6IntPacketView v) {
        sink += v.ethDst() + v.trafficClass() + v.flowLabel() + v.hopLimit() + v.dstHi() + v.dstLo()
                + v.srcLo() + v.tag() + v.flags() + v.mapInfo() + v.detectionResult() + v.innerAvailable()
                + v.innerLength() + v.segmentHi(v.segmentsLeft()) + v.segmentLo(v.lastEntry());
        v.visitIntMetadata(visitor, v.lastEntry() + 1);
        for (int h = -1; h <= v.lastEntry() + 1; h++) {
            sink += v.intDeviceId(h) + v.intInTime(h) + v.intVnfLatency(h) + v.intQueueLength(h)
                    + v.intPortCounter(h) + v.intQueueId(h);
        }
        assertTrue(v.innerAvailable() >= 0);
    }

    static byte[] mutate(byte[] seed, SplittableRandom r) {
        byte[] m = seed.clone();
        int edits = 1 + r.nextInt(3);
        for (int e = 0; e < edits; e++) {
            if (m.length == 0) {
                return m;
            }
            switch (r.nextInt(8)) {
                case 0: // bit flip
                    int bit = r.nextInt(m.length * 8);
                    m[bit >>> 3] ^= (byte) (1 << (bit & 7));
                    break;
                case 1: // random byte set
                    m[r.nextInt(m.length)] = (byte) r.nextInt(256);
                    break;
                case 2: // truncation
                    m = Arrays.copyOf(m, r.nextInt(m.length + 1));
                    break;
                case 3: // extension with random bytes
                    int n = m.length;
                    m = Arrays.copyOf(m, n + 1 + r.nextInt(64));
                    for (int i = n; i < m.length; i++) {
                        m[i] = (byte) r.nextInt(256);
                    }
                    break;
                case 4: // insertion or deletion inside the headers
                    m = r.nextBoolean() ? insert(m, r) : delete(m, r);
                    break;
                default: // a length / count field set to a boundary value
                    int[] fields = seed.length > 13 && seed[12] == 0x08 ? REPORT_FIELDS : SRV6_FIELDS;
                    int at = fields[r.nextInt(fields.length)];
                    if (at < m.length) {
                        int old = m[at] & 0xFF;
                        int[] choices = {0, 1, 0xFF, 0x7F, 0x80, old + 1, old - 1, old + 8, old - 8, r.nextInt(256)};
                        m[at] = (byte) choices[r.nextInt(choices.length)];
                    }
            }
        }
        return m;
    }

    private static byte[] insert(byte[] m, SplittableRandom r) {
        int at = r.nextInt(Math.min(m.length, 160) + 1);
        int k = 1 + r.nextInt(16);
        byte[] x = new byte[m.length + k];
        System.arraycopy(m, 0, x, 0, at);
        for (int i = 0; i < k; i++) {
            x[at + i] = (byte) r.nextInt(256);
        }
        System.arraycopy(m, at, x, at + k, m.length - at);
        return x;
    }

    private static byte[] delete(byte[] m, SplittableRandom r) {
        int at = r.nextInt(Math.min(m.length, 160));
        int k = Math.min(1 + r.nextInt(16), m.length - at);
        byte[] x = new byte[m.length - k];
        System.arraycopy(m, 0, x, 0, at);
        System.arraycopy(m, at + k, x, at, m.length - at - k);
        return x;
    }
}
