// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.VnfWindow;
import org.junit.After;
import org.junit.Test;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.testing.TestReports;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The multi-core collector: N receive threads on SO_REUSEPORT sockets of one port, each with its
 * own engine shard, merged at the window's end. The merged window must be the window one engine
 * would have produced from the same reports (histograms added, not percentiles averaged), every
 * datagram must be counted once, and reports of a switch another instance masters are counted
 * and dropped.
 */
public class MultiCoreCollectorTest {

    private static final int VNF_SWITCH = 2;
    private static final int REPORTERS = 16;
    private static final int REPORTS_EACH = 200;

    private final AtomicLong clock = new AtomicLong();
    private final List<DatagramChannel> senders = new ArrayList<>();
    private UdpCollector collector;

    @After
    public void tearDown() throws IOException {
        if (collector != null) {
            collector.close();
        }
        for (DatagramChannel c : senders) {
            c.close();
        }
    }

    private static int ipv4(int lastOctet) {
        return 0x7f000000 | lastOctet;
    }

    private static int tag(int reporter) {
        return 100 + reporter;
    }

    private static VnfKey vnf(int reporter) {
        return VnfKey.of(SfcId.of(tag(reporter)), 0);
    }

    private static int device(int reporter) {
        return 10 + reporter;
    }

    /** Reporter r (127.0.0.(r+1), Device_ID 10+r) is the egress of chain 100+r, whose vNF is at hop 1. */
    private static void configure(TelemetryShards shards, Set<Integer> elsewhere) {
        Map<Integer, Integer> allow = new HashMap<>();
        List<HopBinding> bindings = new ArrayList<>();
        for (int r = 0; r < REPORTERS; r++) {
            allow.put(ipv4(r + 1), device(r));
            bindings.add(new HopBinding(tag(r), 1, VNF_SWITCH, vnf(r), "r" + r));
        }
        shards.setReporters(allow, elsewhere);
        assertEquals(List.of(), shards.setBindings(bindings));
    }

    /** Report i of reporter r: a latency from a seeded spread, 10 packets on. */
    private static byte[] report(TestReports enc, int i, long latency) {
        int counter = (i * 10) & 0xFFFF;
        return enc.payload(i, new TestReports.Hop(1, 0, 0, 0, counter),
                           new TestReports.Hop(VNF_SWITCH, i % 7, 1_000 + latency, latency, counter),
                           new TestReports.Hop(3, 0, 2_000 + latency, 0, counter));
    }

    private static long[] latencies(int r) {
        Random rnd = new Random(r);
        long[] l = new long[REPORTS_EACH];
        for (int i = 0; i < l.length; i++) {
            l[i] = 50_000 + rnd.nextInt(900_000);
        }
        return l;
    }

    @Test
    public void threadsShareThePortAndTheMergedWindowEqualsOneEnginesWindow() throws Exception {
        TelemetryShards shards = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, clock::get);
        configure(shards, Set.of());
        collector = new UdpCollector(shards, 2, new InetSocketAddress("127.0.0.1", 0), 4 << 20);
        assertEquals(2, shards.size());
        assertEquals(2, collector.threads());
        // The reference: one engine fed the same reports in process.
        TelemetryShards reference = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, clock::get);
        configure(reference, Set.of());

        long sent = 0;
        List<TestReports> encoders = new ArrayList<>();
        List<long[]> latency = new ArrayList<>();
        for (int r = 0; r < REPORTERS; r++) {
            // Each reporter its own address and source port: the kernel hashes it to one socket.
            DatagramChannel s = DatagramChannel.open().bind(new InetSocketAddress("127.0.0." + (r + 1), 0));
            senders.add(s);
            s.connect(collector.localAddress());
            encoders.add(new TestReports(tag(r), device(r), 3));
            latency.add(latencies(r));
        }
        for (int i = 0; i < REPORTS_EACH; i++) {
            for (int r = 0; r < REPORTERS; r++) {
                byte[] p = report(encoders.get(r), i, latency.get(r)[i]);
                senders.get(r).write(ByteBuffer.wrap(p));
                assertTrue(reference.shard(0).onReport(p, 0, p.length, ipv4(r + 1)));
                sent++;
            }
            if (i % 20 == 19) {
                awaitDatagrams(shards, sent);
            }
        }
        awaitDatagrams(shards, sent);
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        TelemetrySnapshot merged = shards.roll();
        TelemetrySnapshot single = reference.roll();

        CollectorCounters total = merged.counters();
        assertEquals(sent, total.datagrams());
        assertEquals(sent, total.accepted());
        assertEquals(0, total.lost());
        assertEquals(REPORTERS, total.resyncs());
        List<CollectorCounters> perThread = shards.shardCounters();
        assertEquals(sent, perThread.get(0).datagrams() + perThread.get(1).datagrams());
        // 16 flows hashed over 2 sockets all landing in one: probability 2^-15.
        assertTrue("both receive threads work: " + perThread,
                   perThread.get(0).datagrams() > 0 && perThread.get(1).datagrams() > 0);

        assertEquals(single.vnfs().size(), merged.vnfs().size());
        for (int i = 0; i < single.vnfs().size(); i++) {
            VnfWindow a = single.vnfs().get(i);
            VnfWindow b = merged.vnfs().get(i);
            assertEquals(a.vnf(), b.vnf());
            assertEquals(REPORTS_EACH, b.samples());
            assertEquals(a.p50Nanos(), b.p50Nanos());
            assertEquals(a.p95Nanos(), b.p95Nanos());
            assertEquals(a.p99Nanos(), b.p99Nanos());
            assertEquals(a.maxNanos(), b.maxNanos());
            assertEquals(a.ratePps(), b.ratePps(), 1e-9);
            assertEquals(a.replicaPackets(), b.replicaPackets());
        }
        assertEquals(single.chains().toString(), merged.chains().toString());
        assertEquals(single.hops().toString(), merged.hops().toString());
    }

    @Test
    public void oneVnfsSamplesSplitOverShardsMergeIntoExactPercentiles() {
        TelemetryShards shards = new TelemetryShards(2, TelemetryEngine.Limits.DEFAULT, clock::get);
        TelemetryShards reference = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, clock::get);
        configure(shards, Set.of());
        configure(reference, Set.of());
        TestReports enc = new TestReports(tag(0), device(0), 3);
        long[] lat = latencies(0);
        // The first half reaches shard 0, the second shard 1 (as after a socket count change).
        for (int i = 0; i < REPORTS_EACH; i++) {
            byte[] p = report(enc, i, lat[i]);
            assertTrue(shards.shard(i < REPORTS_EACH / 2 ? 0 : 1).onReport(p, 0, p.length, ipv4(1)));
            assertTrue(reference.shard(0).onReport(p, 0, p.length, ipv4(1)));
        }
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        VnfWindow merged = shards.roll().vnfs().get(0);
        VnfWindow single = reference.roll().vnfs().get(0);
        assertEquals(REPORTS_EACH, merged.samples());
        assertEquals(single.p50Nanos(), merged.p50Nanos());
        assertEquals(single.p95Nanos(), merged.p95Nanos());
        assertEquals(single.p99Nanos(), merged.p99Nanos());
        assertEquals(single.maxNanos(), merged.maxNanos());
        // Port_Counter: the second shard's first report only sets its baseline (one delta of 10).
        assertEquals(single.ratePps() - 10, merged.ratePps(), 1e-9);
        assertEquals(2, shards.counters().resyncs());
    }

    @Test
    public void reportsOfASwitchAnotherInstanceMastersAreCountedAndDropped() {
        TelemetryShards shards = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, clock::get);
        configure(shards, Set.of(ipv4(2)));
        TestReports mine = new TestReports(tag(0), device(0), 3);
        TestReports theirs = new TestReports(tag(1), device(1), 3);
        for (int i = 0; i < 10; i++) {
            byte[] p = report(mine, i, 100_000);
            assertTrue(shards.shard(0).onReport(p, 0, p.length, ipv4(1)));
            byte[] q = report(theirs, i, 100_000);
            assertEquals(false, shards.shard(0).onReport(q, 0, q.length, ipv4(2)));
        }
        CollectorCounters c = shards.counters();
        assertEquals(20, c.datagrams());
        assertEquals(10, c.accepted());
        assertEquals(10, c.notMaster());
        assertEquals(0, c.forgedSource());
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        TelemetrySnapshot s = shards.roll();
        assertEquals(10, s.vnfs().stream().filter(w -> w.vnf().equals(vnf(0))).findFirst().get().samples());
        assertEquals(0, s.vnfs().stream().filter(w -> w.vnf().equals(vnf(1))).findFirst().get().samples());

        // Mastership comes here: the switch starts afresh (its reports sent elsewhere are not lost).
        configure(shards, Set.of());
        byte[] q = report(theirs, 500, 100_000);
        assertTrue(shards.shard(0).onReport(q, 0, q.length, ipv4(2)));
        assertEquals(0, shards.counters().lost());
    }

    @Test
    public void aSwitchBackFromAnotherInstanceCountsNoPacketsItSentThere() {
        TelemetryShards shards = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, clock::get);
        TestReports enc = new TestReports(tag(1), device(1), 3);
        configure(shards, Set.of());
        for (int i = 0; i < 5; i++) {
            byte[] p = report(enc, i, 100_000);
            assertTrue(shards.shard(0).onReport(p, 0, p.length, ipv4(2)));
        }
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        assertEquals(40L, (long) window(shards.roll(), 1).replicaPackets().get("r1"));
        // Its mastership goes elsewhere for 300 reports (3000 packets), then comes back.
        configure(shards, Set.of(ipv4(2)));
        configure(shards, Set.of());
        for (int i = 305; i < 310; i++) {
            byte[] p = report(enc, i, 100_000);
            assertTrue(shards.shard(0).onReport(p, 0, p.length, ipv4(2)));
        }
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        // The first report back sets the baseline: 4 deltas of 10, not 3000 packets counted here.
        assertEquals(40L, (long) window(shards.roll(), 1).replicaPackets().get("r1"));
        assertEquals(0, shards.counters().lost());
    }

    private static VnfWindow window(TelemetrySnapshot s, int reporter) {
        return s.vnfs().stream().filter(w -> w.vnf().equals(vnf(reporter))).findFirst().orElseThrow();
    }

    @Test
    public void aPortAnotherCollectorHoldsIsRefusedNotShared() throws Exception {
        TelemetryShards shards = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, clock::get);
        collector = new UdpCollector(shards, 2, new InetSocketAddress("127.0.0.1", 0), 1 << 20);
        TelemetryShards other = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, clock::get);
        try (UdpCollector second = new UdpCollector(other, 2, collector.localAddress(), 1 << 20)) {
            fail("a second collector joined port " + second.localAddress().getPort());
        } catch (IOException expected) {
            // Address in use: the operator sees it instead of half the reports vanishing.
        }
        assertTrue(collector.kernelDrops() >= 0);
    }

    @Test
    public void moreThreadsKeepTheCountersMonotonic() throws Exception {
        TelemetryShards shards = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, clock::get);
        configure(shards, Set.of());
        TestReports enc = new TestReports(tag(0), device(0), 3);
        for (int i = 0; i < 5; i++) {
            byte[] p = report(enc, i, 100_000);
            shards.shard(0).onReport(p, 0, p.length, ipv4(1));
        }
        shards.ensure(3);
        assertEquals(3, shards.size());
        assertEquals(5, shards.counters().accepted());
        // A shard added later has the configuration already.
        byte[] p = report(enc, 5, 100_000);
        assertTrue(shards.shard(2).onReport(p, 0, p.length, ipv4(1)));
        assertEquals(6, shards.counters().accepted());
    }

    private static void awaitDatagrams(TelemetryShards shards, long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (shards.counters().datagrams() < n) {
            if (System.nanoTime() > deadline) {
                fail("collector received " + shards.counters().datagrams() + " of " + n + " datagrams");
            }
            Thread.sleep(1);
        }
    }
}
