// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.bench;

import org.srv6int.codec.IntMetadata;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Baseline for the benchmark: the straightforward way to parse a report's UDP
 * payload, a ByteBuffer and fresh objects for every header, segment and INT
 * metadata entry. Same checks as the flyweight on valid input.
 */
final class NaiveReportParser {

    private NaiveReportParser() {
    }

    /** Parsed report header. */
    static final class Header {
        final int version;
        final int flags;
        final int reporter;
        final long sequence;
        final long egressTs;
        final int originalLength;

        Header(int version, int flags, int reporter, long sequence, long egressTs, int originalLength) {
            this.version = version;
            this.flags = flags;
            this.reporter = reporter;
            this.sequence = sequence;
            this.egressTs = egressTs;
            this.originalLength = originalLength;
        }
    }

    /** Parsed report. */
    static final class Report {
        final Header header;
        final byte[] src;
        final byte[] dst;
        final int tag;
        final int flags;
        final List<byte[]> segments;
        final int mapInfo;
        final long detectionResult;
        final List<IntMetadata> metadata;

        Report(Header header, byte[] src, byte[] dst, int tag, int flags, List<byte[]> segments,
               int mapInfo, long detectionResult, List<IntMetadata> metadata) {
            this.header = header;
            this.src = src;
            this.dst = dst;
            this.tag = tag;
            this.flags = flags;
            this.segments = segments;
            this.mapInfo = mapInfo;
            this.detectionResult = detectionResult;
            this.metadata = metadata;
        }
    }

    static Report parse(byte[] payload) {
        ByteBuffer b = ByteBuffer.wrap(payload);
        int vh = b.get() & 0xFF;
        if (vh != 0x14) {
            throw new IllegalArgumentException("bad report header");
        }
        Header h = new Header(vh >>> 4, b.get() & 0xFF, b.getShort() & 0xFFFF, b.getInt() & 0xFFFFFFFFL,
                b.getInt() & 0xFFFFFFFFL, b.getShort() & 0xFFFF);
        b.getShort();
        b.position(b.position() + 12);
        if ((b.getShort() & 0xFFFF) != 0x86DD) {
            throw new IllegalArgumentException("not IPv6");
        }
        b.position(b.position() + 6);
        if ((b.get() & 0xFF) != 43) {
            throw new IllegalArgumentException("no SRH");
        }
        b.get();
        byte[] src = new byte[16];
        b.get(src);
        byte[] dst = new byte[16];
        b.get(dst);
        int srhStart = b.position();
        b.get();
        int hel = b.get() & 0xFF;
        if ((b.get() & 0xFF) != 4) {
            throw new IllegalArgumentException("not an SRH");
        }
        int sl = b.get() & 0xFF;
        int le = b.get() & 0xFF;
        int flags = b.get() & 0xFF;
        int tag = b.getShort() & 0xFFFF;
        if (sl > le || 16 * (le + 1) + 8 > 8 * hel || srhStart + 8 + 8 * hel > payload.length) {
            throw new IllegalArgumentException("bad SRH lengths");
        }
        List<byte[]> segments = new ArrayList<>();
        for (int i = 0; i <= le; i++) {
            byte[] s = new byte[16];
            b.get(s);
            segments.add(s);
        }
        if ((b.get() & 0xFF) != 252 || (b.get() & 0xFF) != 6) {
            throw new IllegalArgumentException("no SRv6-INT TLV");
        }
        int mapInfo = b.getShort() & 0xFFFF;
        long dr = b.getInt() & 0xFFFFFFFFL;
        List<IntMetadata> md = new ArrayList<>();
        for (int hop = 0; hop <= le; hop++) {
            ByteBuffer e = ByteBuffer.wrap(segments.get(le - hop));
            int dev = e.getShort() & 0xFFFF;
            int qid = e.get() & 0xFF;
            int qlen = ((e.get() & 0xFF) << 16) | (e.getShort() & 0xFFFF);
            md.add(new IntMetadata(dev, qid, qlen, e.getInt() & 0xFFFFFFFFL, e.getInt() & 0xFFFFFFFFL,
                    e.getShort() & 0xFFFF));
        }
        return new Report(h, src, dst, tag, flags, segments, mapInfo, dr, md);
    }
}
