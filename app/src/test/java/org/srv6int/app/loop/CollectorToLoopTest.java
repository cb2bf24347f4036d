// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.TestReports;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;

import org.srv6int.app.api.model.NodeResources;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.telemetry.TelemetryShards;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.telemetry.UdpCollector;
import org.srv6int.app.api.model.VnfWindow;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * A report stream built from the golden vector sfc-7-sw4-report (chain 1, vNF 1 behind SW2,
 * vNF 2 behind SW3, reporter SW4) with varied latencies and counters, sent through a real UDP
 * socket on 127.0.0.1, drives the telemetry windows and the global loop (simulated time) to the
 * exact n, the exact platform calls and the exact group update for vNF 1 while vNF 2 stays
 * within its bound; lost, forged and repeated reports are counted and change nothing.
 */
public class CollectorToLoopTest {

    private static final int TAG = GoldenReports.TAG;
    private static final int INGRESS = 1;
    private static final int VNF_SWITCH = 2;
    private static final int VNF2_SWITCH = 3;
    private static final int EGRESS = GoldenReports.REPORTER;
    private static final long SEC = TimeUnit.SECONDS.toNanos(1);
    private static final long LMAX = 600_000;

    private final VnfKey vnf = VnfKey.of(SfcId.of(TAG), 0);
    private final VnfKey vnf2 = VnfKey.of(SfcId.of(TAG), 1);
    private final FakePorts.Clock clock = new FakePorts.Clock();
    private final LongSupplier engineClock = () -> clock.nanos;
    private TelemetryShards engine;
    private UdpCollector collector;
    private DatagramChannel sender;
    private DatagramChannel forger;
    private GoldenReports reports;
    private long seq;
    private int counter = 65_000;
    private long sent;

    @Before
    public void setUp() throws Exception {
        reports = new GoldenReports();
        engine = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, engineClock);
        engine.setReporters(Map.of(ipv4("127.0.0.1"), EGRESS), Set.of());
        engine.setBindings(List.of(new HopBinding(TAG, 1, VNF_SWITCH, vnf, "r0"),
                                   new HopBinding(TAG, 2, VNF2_SWITCH, vnf2, "v2r0")));
        collector = new UdpCollector(engine, 1, new InetSocketAddress("127.0.0.1", 0), 4 << 20);
        sender = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        sender.connect(collector.localAddress());
        forger = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.2", 0));
        forger.connect(collector.localAddress());
    }

    @After
    public void tearDown() throws Exception {
        collector.close();
        sender.close();
        forger.close();
    }

    private static int ipv4(String a) throws Exception {
        return ByteBuffer.wrap(InetAddress.getByName(a).getAddress()).getInt();
    }

    /** Sends one window's worth of reports: {@code count} reports carrying {@code packets} packets. */
    private void window(int count, int packetsPerReport, long latency) throws Exception {
        for (int i = 0; i < count; i++) {
            counter = (counter + packetsPerReport) & 0xFFFF;
            // Varied latencies, all inside one HdrHistogram bucket of the target value.
            long lat = latency - (i % 5) * 100;
            long t = 1_000_000L * i;
            byte[] p = reports.payload(seq++,
                                       new TestReports.Hop(INGRESS, 3, t, 0, counter),
                                       new TestReports.Hop(VNF_SWITCH, 5 + i % 3, t + 2_000 + lat, lat, counter),
                                       new TestReports.Hop(VNF2_SWITCH, 2, t + 60_000 + lat, 50_000 + i, counter),
                                       new TestReports.Hop(EGRESS, 1, t + 90_000 + lat, 0, counter));
            sender.write(ByteBuffer.wrap(p));
            sent++;
        }
        awaitAccounted();
    }

    private void awaitAccounted() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            CollectorCounters c = engine.counters();
            if (c.datagrams() >= sent) {
                return;
            }
            Thread.sleep(2);
        }
        throw new AssertionError("collector did not receive " + sent + " datagrams: " + engine.counters());
    }

    private VnfWindow roll(TestLoop loop, FakePorts.Routing routing) {
        clock.nanos += SEC;
        TelemetrySnapshot s = engine.roll();
        VnfWindow w = s.vnfs().get(0);
        VnfWindow w2 = s.vnfs().get(1);
        assertEquals(vnf2, w2.vnf());
        loop.round(List.of(new VnfObservation(vnf, LMAX, w.ratePps(), w.p95Nanos(), w.samples(),
                                             routing.active(), w.replicaPackets()),
                          new VnfObservation(vnf2, LMAX, w2.ratePps(), w2.p95Nanos(), w2.samples(),
                                             List.of("v2r0"), w2.replicaPackets())));
        return w;
    }

    @Test
    public void violationPersistingPastTHatScalesOutToExactN() throws Exception {
        FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
        platform.nodes.add(new NodeResources("worker-1", 4000, 8L << 30));
        platform.nodes.add(new NodeResources("worker-2", 8000, 16L << 30));
        platform.nodes.add(new NodeResources("worker-3", 2000, 32L << 30));
        FakePorts.Routing routing = new FakePorts.Routing("r0");
        TestLoop loop = new TestLoop(LoopParams.builder().maxReplicas(16)
                .demandLatency(LoopParams.DemandLatency.MEASURED).build(), clock, platform, routing);

        // Healthy window: 100 reports 10 packets apart (the first only sets the Port_Counter
        // baseline, so 990 packets in 1 s), p95 about 400 us (< Lmax 600 us).
        window(100, 10, 400_000);
        VnfWindow healthy = roll(loop, routing);
        assertEquals(100, healthy.samples());
        assertEquals(990.0, healthy.ratePps(), 1e-9);
        assertTrue(healthy.p95Nanos() >= 400_000 && healthy.p95Nanos() < 404_000);

        // Violation: 2000 pps at about 700 us. C_i / C* = 2000*0.70 / (990*0.40) = 3.54 -> n = 4.
        // A gap of 3 sequence numbers (lost reports), forged and repeated reports on the way.
        seq += 3;
        byte[] forged = reports.payload(seq + 1000,
                                        new TestReports.Hop(INGRESS, 3, 0, 0, 1),
                                        new TestReports.Hop(VNF_SWITCH, 900, 50_000_000, 50_000_000, 2),
                                        new TestReports.Hop(VNF2_SWITCH, 900, 55_000_000, 50_000_000, 2),
                                        new TestReports.Hop(EGRESS, 1, 60_000_000, 0, 3));
        forger.write(ByteBuffer.wrap(forged));
        sent++;
        byte[] wrongDevice = forged.clone();
        wrongDevice[2] = 0;
        wrongDevice[3] = 9; // Reporter Device_ID 9, not SW4's 4
        sender.write(ByteBuffer.wrap(wrongDevice));
        sent++;
        byte[] replay = forged.clone();
        replay[4] = (byte) ((seq - 4) >>> 24);
        replay[5] = (byte) ((seq - 4) >>> 16);
        replay[6] = (byte) ((seq - 4) >>> 8);
        replay[7] = (byte) (seq - 4);
        sender.write(ByteBuffer.wrap(replay));
        sent++;
        long t0 = clock.nanos;
        int windows = 0;
        while (routing.calls.isEmpty() && windows < 10) {
            window(100, 20, 700_000);
            VnfWindow w = roll(loop, routing);
            windows++;
            assertEquals("forged and repeated reports add no sample", 100, w.samples());
            assertTrue("forged latency must not show: " + w, w.maxNanos() < 800_000);
            assertEquals(2000.0, w.ratePps(), 1e-9);
        }
        // Violation first seen at the first violating window (t0 + 1 s); acted on once it has
        // persisted more than t-hat = 4 s, i.e. at t0 + 6 s.
        assertEquals(6, windows);
        assertEquals(t0 + 6 * SEC, clock.nanos);
        assertEquals(List.of("nodeFreeResources",
                             "create 1/0 on worker-2", "create 1/0 on worker-1", "create 1/0 on worker-3"),
                     platform.calls);
        assertEquals(List.of("add 1/0 [r1, r2, r3] -> weights {r0=1, r1=1, r2=1, r3=1}"), routing.calls);
        List<LoopDecision> h = loop.history();
        assertEquals(1, h.size());
        LoopDecision d = h.get(0);
        assertEquals("only vNF 1 violates; vNF 2 runs at about 50 us", vnf, d.vnf());
        assertEquals(LoopDecision.Action.SCALE_OUT, d.action());
        assertEquals(LoopDecision.Outcome.SUCCEEDED, d.outcome());
        assertEquals(4.0, d.inputs().get(GlobalLoop.IN_N), 0);
        assertEquals(1, d.replicasBefore());
        assertEquals(4, d.replicasAfter());
        assertEquals(990.0, d.inputs().get(GlobalLoop.IN_R_STAR), 1e-9);

        CollectorCounters c = engine.counters();
        assertEquals(3, c.lost());
        assertEquals(1, c.forgedSource());
        assertEquals(1, c.forgedDevice());
        assertEquals(1, c.duplicates());
        assertEquals(100 + 100 * windows, c.accepted());
        assertEquals(0, c.malformed());

        // Cool-down: the violation goes on, but no second action within 10 s of the first.
        window(100, 20, 700_000);
        roll(loop, routing);
        assertEquals(1, loop.history().size());
    }

    @Test
    public void malformedReportIsCountedAndChangesNothing() throws Exception {
        byte[] p = reports.payload(0, new TestReports.Hop(INGRESS, 3, 0, 0, 1),
                                   new TestReports.Hop(VNF_SWITCH, 1, 5, 5, 2),
                                   new TestReports.Hop(VNF2_SWITCH, 1, 7, 5, 2),
                                   new TestReports.Hop(EGRESS, 1, 9, 0, 3));
        p[0] = 0x24; // version 2
        sender.write(ByteBuffer.wrap(p));
        sender.write(ByteBuffer.wrap(new byte[3]));
        sent += 2;
        awaitAccounted();
        CollectorCounters c = engine.counters();
        assertEquals(2, c.malformed());
        assertEquals(0, c.accepted());
        clock.nanos += SEC;
        assertEquals(0, engine.roll().vnfs().get(0).samples());
        assertEquals(0, engine.roll().vnfs().get(1).samples());
    }
}
