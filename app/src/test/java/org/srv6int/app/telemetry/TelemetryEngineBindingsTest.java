// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfWindow;
import org.junit.Before;
import org.junit.Test;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.testing.TestReports;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * How the engine binds INT entries to replicas when the wire cannot tell them apart: replicas of
 * one vNF behind the same switch (same chain, hop and Device_ID) form one group, and a chain whose
 * bindings put two different vNFs at one hop is refused alone while every other chain keeps
 * working.
 */
public class TelemetryEngineBindingsTest {

    private static final int SOURCE = 0x7f000001;
    private static final int EGRESS = 4;
    private static final int VNF_SWITCH = 2;
    private static final VnfKey VNF = VnfKey.of(SfcId.of(7), 0);
    private static final VnfKey OTHER = VnfKey.of(SfcId.of(7), 1);
    private static final VnfKey VNF8 = VnfKey.of(SfcId.of(8), 0);

    private final AtomicLong clock = new AtomicLong();
    private final TelemetryEngine engine = new TelemetryEngine(TelemetryEngine.Limits.DEFAULT, clock::get);
    private final TestReports chain7 = new TestReports(7, EGRESS, 3);
    private final TestReports chain8 = new TestReports(8, EGRESS, 3);
    private long seq;
    private int counter;

    @Before
    public void setUp() {
        engine.setReporters(Map.of(SOURCE, EGRESS));
    }

    /** Sends {@code n} reports of a chain through its vNF hop, each 10 packets on. */
    private void send(TestReports r, int n, long latency) {
        for (int i = 0; i < n; i++) {
            counter += 10;
            byte[] p = r.payload(seq++, new TestReports.Hop(1, 0, 0, 0, counter),
                                 new TestReports.Hop(VNF_SWITCH, 0, 1_000 + latency, latency, counter),
                                 new TestReports.Hop(EGRESS, 0, 2_000 + latency, 0, counter));
            assertTrue(engine.counters().toString(), engine.onReport(p, 0, p.length, SOURCE));
        }
    }

    private TelemetrySnapshot roll() {
        clock.addAndGet(1_000_000_000L);
        return engine.roll();
    }

    private static VnfWindow window(TelemetrySnapshot s, VnfKey v) {
        return s.vnfs().stream().filter(w -> w.vnf().equals(v)).findFirst()
                .orElseThrow(() -> new AssertionError("no window of " + v + " in " + s.vnfs()));
    }

    @Test
    public void replicasOfOneVnfBehindOneSwitchAreOneGroup() {
        List<String> refused = engine.setBindings(List.of(new HopBinding(7, 1, VNF_SWITCH, VNF, "r1"),
                                                          new HopBinding(7, 1, VNF_SWITCH, VNF, "r2")));
        assertEquals(List.of(), refused);
        send(chain7, 1, 300_000);
        roll();
        send(chain7, 20, 300_000);
        VnfWindow w = window(roll(), VNF);
        assertEquals(20, w.samples());
        assertTrue(String.valueOf(w.p95Nanos()), w.p95Nanos() >= 297_000 && w.p95Nanos() <= 303_000);
        // 20 reports of 10 packets: counted once for the vNF, shown under both members.
        assertEquals(200.0, w.ratePps(), 1e-6);
        assertEquals(Map.of("r1", 200L, "r2", 200L), w.replicaPackets());
        assertEquals(0, engine.counters().bindingsRefused());
        assertEquals(0, engine.counters().unmappedEntries());
    }

    /**
     * One packet of each of {@code flows} flows, {@code rounds} times, interleaved, every packet
     * reported; Port_Counter is the packet's flow cell at each switch (p4src flow_counter.p4).
     */
    private void shortFlows(int[] cells, int flows, int rounds) {
        for (int r = 0; r < rounds; r++) {
            for (int f = 0; f < flows; f++) {
                int cell = chain7.flow(1000 + f) & (cells.length - 1);
                int pc = ++cells[cell] & 0xFFFF;
                byte[] p = chain7.payload(seq++, new TestReports.Hop(1, 0, 0, 0, pc),
                                          new TestReports.Hop(VNF_SWITCH, 0, 1_000, 500, pc),
                                          new TestReports.Hop(EGRESS, 0, 2_000, 0, pc));
                assertTrue(engine.counters().toString(), engine.onReport(p, 0, p.length, SOURCE));
            }
        }
    }

    @Test
    public void manyShortFlowsAreCountedFromTheirOwnFlowsPortCounters() {
        engine.setBindings(List.of(new HopBinding(7, 1, VNF_SWITCH, VNF, "r1")));
        int[] cells = new int[4096];
        // 251 flows of 4 packets: each cell's first report sets its baseline (the first window)...
        shortFlows(cells, 251, 4);
        roll();
        // ...and from then on every packet counts, though consecutive reports are of other flows.
        shortFlows(cells, 251, 4);
        TelemetrySnapshot s = roll();
        VnfWindow w = window(s, VNF);
        assertEquals(1004.0, w.ratePps(), 1e-6);
        assertEquals(Map.of("r1", 1004L), w.replicaPackets());
        assertEquals(0, engine.counters().staleCounters());
    }

    @Test
    public void aReplicaLeavingItsGroupCountsAloneFromAFreshBaseline() {
        engine.setBindings(List.of(new HopBinding(7, 1, VNF_SWITCH, VNF, "r1"),
                                   new HopBinding(7, 1, VNF_SWITCH, VNF, "r2")));
        send(chain7, 5, 100_000);
        roll();
        // r1 goes; r2 was not the group's counting slot, so it must not count from a stale baseline.
        engine.setBindings(List.of(new HopBinding(7, 1, VNF_SWITCH, VNF, "r2")));
        counter += 30_000;
        send(chain7, 4, 100_000);
        VnfWindow w = window(roll(), VNF);
        assertEquals(Map.of("r2", 30L), w.replicaPackets());
    }

    @Test
    public void aChainWithTwoVnfsAtOneHopIsRefusedAloneAndKeepsItsBindings() {
        engine.setBindings(List.of(new HopBinding(7, 1, VNF_SWITCH, VNF, "r1")));
        List<String> refused = engine.setBindings(List.of(new HopBinding(7, 1, VNF_SWITCH, VNF, "r1"),
                                                          new HopBinding(7, 1, VNF_SWITCH, OTHER, "o1"),
                                                          new HopBinding(8, 1, VNF_SWITCH, VNF8, "e1")));
        assertEquals(refused.toString(), 1, refused.size());
        assertTrue(refused.get(0), refused.get(0).startsWith("chain 7:")
                && refused.get(0).contains("keeps its previous bindings"));
        assertEquals(1, engine.counters().bindingsRefused());
        send(chain7, 1, 200_000);
        send(chain8, 1, 400_000);
        roll();
        send(chain7, 10, 200_000);
        send(chain8, 10, 400_000);
        TelemetrySnapshot s = roll();
        // Chain 7 still on its old binding, chain 8 on its new one; nothing of either unmapped.
        assertEquals(10, window(s, VNF).samples());
        assertEquals(10, window(s, VNF8).samples());
        assertTrue(s.vnfs().stream().noneMatch(w -> w.vnf().equals(OTHER)));
        assertEquals(0, engine.counters().unmappedEntries());
    }

    @Test
    public void aRefusedChainWithoutPreviousBindingsStaysUnbound() {
        List<String> refused = engine.setBindings(List.of(new HopBinding(7, 1, VNF_SWITCH, VNF, "r1"),
                                                          new HopBinding(7, 1, VNF_SWITCH, OTHER, "o1")));
        assertEquals(1, refused.size());
        assertTrue(refused.get(0), refused.get(0).contains("stays unbound"));
        send(chain7, 3, 200_000);
        TelemetrySnapshot s = roll();
        assertTrue(s.vnfs().toString(), s.vnfs().isEmpty());
        assertEquals(3, engine.counters().unknownChain());
    }
}
