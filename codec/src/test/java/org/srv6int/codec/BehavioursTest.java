// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import org.junit.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** Encoders and behaviours, checked field by field through the decoder views. */
public class BehavioursTest {

    private final Srv6IntPacketView v = new Srv6IntPacketView();

    @Test
    public void encapSetsEveryField() {
        byte[] inner = Fixtures.inner();
        byte[] f = Fixtures.encapsulated(false);
        assertEquals(DecodeStatus.OK, v.wrap(f, 0, f.length));
        assertEquals(0x020000000002L, v.ethDst());
        assertEquals(0x28, v.trafficClass());
        assertEquals(FlowHash.flowLabel(inner, 0, inner.length), v.flowLabel());
        assertEquals(8 + 64 + 8 + inner.length, v.payloadLength());
        assertEquals(64, v.hopLimit());
        assertEquals(4, v.srhNextHeader());
        assertEquals(9, v.hdrExtLen());
        assertEquals(3, v.lastEntry());
        assertEquals(2, v.segmentsLeft());
        assertEquals(WireFormat.FLAG_INT, v.flags());
        assertTrue(v.isIntOn());
        assertFalse(v.isSfcMode());
        assertEquals(1, v.tag());
        assertEquals(0x1F, v.mapInfo());
        assertEquals(0, v.detectionResult());
        byte[] a = new byte[16];
        v.copyDst(a, 0);
        assertArrayEquals(Fixtures.SW2, a);
        v.copySrc(a, 0);
        assertArrayEquals(Fixtures.INGRESS, a);
        v.copySegment(0, a, 0);
        assertArrayEquals(Fixtures.DT, a);
        v.copySegment(1, a, 0);
        assertArrayEquals(Fixtures.SW3, a);
        assertEquals(1, v.completedHops());
        assertEquals(1, v.intDeviceId(0));
        assertEquals(2, v.intQueueLength(0));
        assertEquals(1000, v.intInTime(0));
        assertEquals(1, v.intPortCounter(0));
        assertEquals(134, v.innerOffset());
        assertEquals(inner.length, v.innerLength());
        assertFalse(v.isTruncated());
    }

    @Test
    public void encapWithoutIntKeepsIngressSid() {
        byte[] f = Fixtures.encap(true).encapsulate(Fixtures.inner(), 1, 2, null);
        assertEquals(DecodeStatus.OK, v.wrap(f, 0, f.length));
        assertEquals(WireFormat.FLAG_SFC, v.flags());
        byte[] a = new byte[16];
        v.copySegment(3, a, 0);
        assertArrayEquals(Fixtures.INGRESS, a);
    }

    @Test
    public void plainEndTConsumesSegment() {
        byte[] f = Fixtures.encapsulated(false);
        EndpointBehaviours b = new EndpointBehaviours();
        assertEquals(BehaviourStatus.OK, b.endT(f, 0, f.length, 2, 1, 9, 5000, 3));
        v.wrap(f, 0, f.length);
        assertEquals(1, v.segmentsLeft());
        assertEquals(63, v.hopLimit());
        assertEquals(Addresses.ipv6ToString(Fixtures.SW3, 0), Addresses.ipv6ToString(v.dstHi(), v.dstLo()));
        assertEquals(2, v.completedHops());
        assertEquals(2, v.intDeviceId(1));
        assertEquals(1, v.intQueueId(1));
        assertEquals(9, v.intQueueLength(1));
        assertEquals(5000, v.intInTime(1));
        assertEquals(0, v.intVnfLatency(1));
        assertEquals(3, v.intPortCounter(1));
    }

    @Test
    public void sfcStepsMeasureVnfLatencyAcrossWrap() {
        byte[] f = Fixtures.encapsulated(true);
        EndpointBehaviours b = new EndpointBehaviours();
        long depart = 0xFFFFFF00L;
        assertEquals(BehaviourStatus.OK, b.sfcDepart(f, 0, f.length, 2, 0xFFFFFE00L, depart, 1234));
        v.wrap(f, 0, f.length);
        assertEquals(2, v.segmentsLeft());
        assertEquals(64, v.hopLimit());
        assertEquals(1234, v.detectionResult());
        byte[] dst = new byte[16];
        v.copyDst(dst, 0);
        assertArrayEquals(Fixtures.SW2, dst);
        assertEquals(BehaviourStatus.OK, b.sfcReturn(f, 0, f.length, 2, 0, 7, 0x100, 1));
        assertEquals(0x200, b.lastVnfLatency());
        v.wrap(f, 0, f.length);
        assertEquals(1, v.segmentsLeft());
        assertEquals(0x200, v.intVnfLatency(1));
        assertEquals(0xFFFFFE00L, v.intInTime(1));
        assertEquals(7, v.intQueueLength(1));
        assertEquals(1234, v.detectionResult());
    }

    @Test
    public void sfcWithIntClearFillsOnlyDeviceAndLatency() {
        byte[] f = Fixtures.encap(true).encapsulate(Fixtures.inner(), 1, 2, null);
        EndpointBehaviours b = new EndpointBehaviours();
        assertEquals(BehaviourStatus.OK, b.sfcDepart(f, 0, f.length, 2, 100, 200, 0));
        assertEquals(BehaviourStatus.OK, b.sfcReturn(f, 0, f.length, 2, 3, 4, 900, 5));
        v.wrap(f, 0, f.length);
        assertEquals(2, v.intDeviceId(1));
        assertEquals(700, v.intVnfLatency(1));
        assertEquals(0, v.intInTime(1));
        assertEquals(0, v.intQueueLength(1));
        assertEquals(0, v.intPortCounter(1));
    }

    @Test
    public void behavioursRejectWrongState() {
        EndpointBehaviours b = new EndpointBehaviours();
        byte[] plain = Fixtures.encapsulated(false);
        assertEquals(BehaviourStatus.NOT_SFC_MODE, b.sfcDepart(plain, 0, plain.length, 2, 1, 2, 3));
        assertEquals(BehaviourStatus.SEGMENTS_LEFT_NOT_ZERO, b.endDt(plain, 0, plain.length, 4, 0, 0, 1, 1));
        byte[] egress = Fixtures.atEgress();
        assertEquals(BehaviourStatus.NO_SEGMENTS_LEFT, b.endT(egress, 0, egress.length, 2, 0, 0, 0, 0));
        byte[] junk = new byte[10];
        assertEquals(BehaviourStatus.MALFORMED, b.endT(junk, 0, junk.length, 2, 0, 0, 0, 0));
        assertEquals(DecodeStatus.TRUNCATED_ETHERNET, b.lastDecodeStatus());
        byte[] hl = Fixtures.encap(false).encapsulate(Fixtures.inner(), 1, 2, null);
        hl[14 + 7] = 1;
        assertEquals(BehaviourStatus.HOP_LIMIT_EXCEEDED, b.endT(hl, 0, hl.length, 2, 0, 0, 0, 0));
        assertEquals(BehaviourStatus.BUFFER_TOO_SMALL,
                b.decapsulate(egress, 0, egress.length, 1, 2, new byte[20], 0));
    }

    @Test
    public void decapsulateRestoresInnerPacket() {
        byte[] f = Fixtures.atEgress();
        EndpointBehaviours b = new EndpointBehaviours();
        byte[] out = new byte[200];
        assertEquals(BehaviourStatus.OK, b.decapsulate(f, 0, f.length, 0xAAL, 0xBBL, out, 0));
        byte[] inner = Fixtures.inner();
        assertEquals(14 + inner.length, b.outputLength());
        assertEquals(WireFormat.ETHERTYPE_IPV4, Bytes.get16(out, 12));
        for (int i = 0; i < inner.length; i++) {
            assertEquals(inner[i], out[14 + i]);
        }
    }

    @Test
    public void reportCarriesEveryHop() {
        byte[] r = Fixtures.reportFrame();
        IntReportView rv = new IntReportView();
        assertEquals(DecodeStatus.OK, rv.wrapFrame(r, 0, r.length));
        assertEquals(Addresses.ipv4("10.0.100.4"), rv.ipv4Src());
        assertEquals(Addresses.ipv4("10.0.100.1"), rv.ipv4Dst());
        assertEquals(32770, rv.udpSrcPort());
        assertEquals(32766, rv.udpDstPort());
        assertEquals(0, Bytes.fold(Bytes.sum16(r, rv.ipv4Offset(), 20)) & 0xFFFF);
        assertEquals(1, rv.version());
        assertEquals(4, rv.hdrLenWords());
        assertEquals(4, rv.reporterDeviceId());
        assertEquals(7, rv.sequenceNumber());
        assertEquals(4100, rv.egressTimestamp());
        assertFalse(rv.isMirrorTruncated());
        assertEquals(rv.mirroredLength(), rv.originalLength());
        assertEquals(4, rv.hopCount());
        List<String> seen = new ArrayList<>();
        assertEquals(4, rv.visitIntMetadata((hop, dev, q, ql, in, lat, pc) ->
                seen.add(hop + ":" + dev + ":" + ql + ":" + in + ":" + lat)));
        assertEquals("[0:1:2:1000:0, 1:2:3:2000:500, 2:3:4:3000:700, 3:4:5:4000:0]", seen.toString());
        assertEquals(700, rv.packet().detectionResult());
    }

    @Test
    public void reportTruncatesMirror() {
        byte[] f = Fixtures.atEgress();
        IntReportEncoder e = IntReportEncoder.builder().reporterDeviceId(4).maxMirrorLength(140).build();
        byte[] out = new byte[e.maxPayloadLength()];
        int n = e.encodePayload(1, 2, f, 0, f.length, out, 0);
        assertEquals(16 + 140, n);
        IntReportView rv = new IntReportView();
        assertEquals(DecodeStatus.OK, rv.wrapPayload(out, 0, n));
        assertTrue(rv.isMirrorTruncated());
        assertEquals(f.length, rv.originalLength());
        assertTrue(rv.packet().isTruncated());
        assertEquals(6, rv.packet().innerAvailable());
        assertEquals(-1, e.encodePayload(1, 2, f, 0, f.length, new byte[10], 0));
    }

    @Test
    public void byteBufferViewsAgreeWithArrays() {
        byte[] r = Fixtures.reportFrame();
        ByteBuffer direct = ByteBuffer.allocateDirect(r.length + 10);
        direct.position(10);
        direct.put(r);
        IntReportView a = new IntReportView();
        IntReportView b = new IntReportView();
        assertEquals(DecodeStatus.OK, a.wrapFrame(r, 0, r.length));
        assertEquals(DecodeStatus.OK, b.wrapFrame(direct, 10, r.length));
        assertEquals(a.sequenceNumber(), b.sequenceNumber());
        for (int h = 0; h < 4; h++) {
            assertEquals(a.packet().intInTime(h), b.packet().intInTime(h));
            assertEquals(a.packet().intVnfLatency(h), b.packet().intVnfLatency(h));
        }
        byte[] s1 = new byte[16];
        byte[] s2 = new byte[16];
        a.packet().copyDst(s1, 0);
        b.packet().copyDst(s2, 0);
        assertArrayEquals(s1, s2);
        ByteBuffer heap = ByteBuffer.wrap(new byte[r.length + 3], 3, r.length).slice();
        heap.put(r);
        assertEquals(DecodeStatus.OK, b.wrapFrame(heap, 0, r.length));
        assertEquals(a.egressTimestamp(), b.egressTimestamp());
        byte[] f = Fixtures.encapsulated(false);
        assertEquals(DecodeStatus.OK, new Srv6IntPacketView().wrapIpv6(ByteBuffer.wrap(f), 14, f.length - 14));
    }

    @Test
    public void intMetadataMasksByMapInfoAndSaturates() {
        byte[] b = new byte[16];
        IntMetadata.write(b, 0, WireFormat.MAP_DEVICE_ID | WireFormat.MAP_VNF_LATENCY, 7, 1, 2, 3, 1L << 40, 5);
        IntMetadata m = IntMetadata.read(b, 0);
        assertEquals(new IntMetadata(7, 0, 0, 0, 0xFFFFFFFFL, 0), m);
        new IntMetadata(0xFFFF, 0xFF, 0xFFFFFF, 0x1FFFFFFFFL, 12, 0x1FFFF).writeTo(b, 0, WireFormat.MAP_ALL);
        assertEquals(new IntMetadata(0xFFFF, 0xFF, 0xFFFFFF, 0xFFFFFFFFL, 12, 0xFFFF), IntMetadata.read(b, 0));
    }

    @Test
    public void flowHashIsCrc32OfFiveTuple() {
        byte[] p = Fixtures.inner();
        CRC32 c = new CRC32();
        c.update(p, 12, 8);
        c.update(new byte[] {17, 0x13, (byte) 0x88, 0x17, 0x70});
        assertEquals((int) c.getValue(), FlowHash.hash(p, 0, p.length));
        assertEquals(0, FlowHash.hash(new byte[] {0x10}, 0, 1));
    }

    @Test
    public void bucketIsLowBitsOfFlowHash() {
        byte[] p = Fixtures.inner();
        CRC32 c = new CRC32();
        c.update(p, 12, 8);
        c.update(new byte[] {17, 0x13, (byte) 0x88, 0x17, 0x70});
        assertEquals((int) c.getValue() & 0xFF, FlowHash.bucket(FlowHash.hash(p, 0, p.length), 256));
        assertEquals((int) c.getValue() & 0x3, FlowHash.bucket((int) c.getValue(), 4));
        assertEquals(0, FlowHash.bucket(-1, 1));
    }

    @Test(expected = IllegalArgumentException.class)
    public void bucketCountMustBeAPowerOfTwo() {
        FlowHash.bucket(7, 48);
    }

    @Test
    public void addressesRoundTrip() {
        for (String s : new String[] {"fc00:0:1::1", "::", "::1", "2001:db8::1:0:0:1", "1:2:3:4:5:6:7:8",
                                      "fc00:0:4::d4"}) {
            assertEquals(s, Addresses.ipv6ToString(Addresses.ipv6(s), 0));
        }
        assertEquals("02:00:00:00:00:0a", Addresses.macToString(Addresses.mac("02:00:00:00:00:0A")));
        assertEquals("10.0.100.1", Addresses.ipv4ToString(Addresses.ipv4("10.0.100.1")));
        assertArrayEquals(new byte[] {1, (byte) 0xab}, Addresses.fromHex("0x01:AB"));
    }

    @Test(expected = IllegalArgumentException.class)
    public void badIpv6Rejected() {
        Addresses.ipv6("fc00::1::2");
    }
}
