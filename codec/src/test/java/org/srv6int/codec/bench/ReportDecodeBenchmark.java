// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.srv6int.codec.DecodeErrors;
import org.srv6int.codec.DecodeStatus;
import org.srv6int.codec.IntMetadata;
import org.srv6int.codec.IntMetadataVisitor;
import org.srv6int.codec.IntReportView;
import org.srv6int.codec.Srv6IntPacketView;
import org.srv6int.codec.tool.VectorGenerator;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Decoding a full 4-hop INT report (the UDP payload of golden vector
 * sfc-7-sw4-report) and visiting all its INT metadata: the flyweight view
 * against a naive ByteBuffer + objects parser, plus the node agent's peek at a
 * captured frame (IPv6 destination, Tag, Flags, Detection Result).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ReportDecodeBenchmark {

    private byte[] payload;
    private byte[] toVnf;
    private final IntReportView view = new IntReportView(new DecodeErrors());
    private final Srv6IntPacketView packet = new Srv6IntPacketView(new DecodeErrors());
    private long sum;
    private final IntMetadataVisitor visitor = (hop, dev, qid, qlen, in, lat, pc) ->
            sum += dev + qid + qlen + in + lat + pc + hop;

    private static byte[] vector(String name) {
        for (VectorGenerator.Vector v : VectorGenerator.generate()) {
            if (v.name().equals(name)) {
                return v.bytes();
            }
        }
        throw new IllegalStateException("no vector " + name);
    }

    /** Loads the vectors; the report's UDP payload starts after Ethernet/IPv4/UDP. */
    @Setup
    public void setup() {
        byte[] frame = vector("sfc-7-sw4-report");
        payload = Arrays.copyOfRange(frame, 42, frame.length);
        toVnf = vector("sfc-2-sw2-to-vnf1");
        if (view.wrapPayload(payload, 0, payload.length) != DecodeStatus.OK
                || flyweightReport() != naiveReport()) {
            throw new IllegalStateException("flyweight and naive parsers disagree");
        }
    }

    /**
     * Flyweight: wrap (validates every header) and visit the 4 entries.
     *
     * @return checksum of the fields
     */
    @Benchmark
    public long flyweightReport() {
        sum = 0;
        if (view.wrapPayload(payload, 0, payload.length) != DecodeStatus.OK) {
            return -1;
        }
        sum += view.sequenceNumber() + view.reporterDeviceId() + view.packet().tag()
                + view.packet().detectionResult();
        view.visitIntMetadata(visitor);
        return sum;
    }

    /**
     * Baseline: ByteBuffer and fresh objects.
     *
     * @return checksum of the same fields
     */
    @Benchmark
    public long naiveReport() {
        NaiveReportParser.Report r = NaiveReportParser.parse(payload);
        long s = r.header.sequence + r.header.reporter + r.tag + r.detectionResult;
        for (int hop = 0; hop < r.metadata.size(); hop++) {
            IntMetadata m = r.metadata.get(hop);
            s += m.deviceId() + m.queueId() + m.queueLength() + m.inTime() + m.vnfLatency()
                    + m.portCounter() + hop;
        }
        return s;
    }

    /**
     * Node agent: pull IPv6 destination, Tag, Flags and Detection Result out of a captured frame.
     *
     * @return checksum
     */
    @Benchmark
    public long agentPeek() {
        if (packet.wrap(toVnf, 0, toVnf.length) != DecodeStatus.OK) {
            return -1;
        }
        return packet.dstHi() ^ packet.dstLo() ^ packet.tag() ^ packet.flags() ^ packet.detectionResult();
    }
}
