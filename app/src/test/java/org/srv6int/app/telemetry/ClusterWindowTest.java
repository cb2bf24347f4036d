// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfWindow;
import org.junit.Test;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.testing.TestReports;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Cluster-wide windows: every instance publishes a summary of its window and adds the others'
 * fresh ones, so any instance's window (the leader's loop reads its own) is the union of the
 * cluster's reports; stale, undecodable or unreachable summaries are left out and said so.
 */
public class ClusterWindowTest {

    private static final int VNF_SWITCH = 2;
    private static final int A = 0x0a000001;
    private static final int B = 0x0a000002;
    private static final VnfKey VNF7 = VnfKey.of(SfcId.of(7), 0);
    private static final VnfKey VNF8 = VnfKey.of(SfcId.of(8), 0);

    private final AtomicLong clock = new AtomicLong();
    private final AtomicLong wall = new AtomicLong(1_000_000);
    private final Map<String, byte[]> store = new LinkedHashMap<>();

    /** The in-memory stand-in of the summary store, with an instance's own clock and node id. */
    private final class Exchange implements SummaryExchange {
        final String node;
        boolean down;

        Exchange(String node) {
            this.node = node;
        }

        @Override
        public String localNode() {
            return node;
        }

        @Override
        public long nowMillis() {
            return wall.get();
        }

        @Override
        public long staleAfterMillis() {
            return 1500;
        }

        @Override
        public List<byte[]> exchange(byte[] local) {
            if (down) {
                throw new IllegalStateException("store unreachable");
            }
            store.put(node, local);
            return new ArrayList<>(store.values());
        }
    }

    /** Switch A (10.0.0.1, Device_ID 1) reports chain 7, switch B (10.0.0.2, Device_ID 2) chain 8. */
    private TelemetryShards instance(Set<Integer> elsewhere) {
        TelemetryShards s = new TelemetryShards(1, TelemetryEngine.Limits.DEFAULT, clock::get);
        s.setReporters(Map.of(A, 1, B, 2), elsewhere);
        s.setBindings(List.of(new HopBinding(7, 1, VNF_SWITCH, VNF7, "a0"),
                              new HopBinding(8, 1, VNF_SWITCH, VNF8, "b0")));
        return s;
    }

    private static void send(TelemetryShards to, int source, TestReports enc, int from, int n, long seed) {
        Random rnd = new Random(seed);
        for (int i = from; i < from + n; i++) {
            long lat = 20_000 + rnd.nextInt(500_000);
            int counter = i * 4;
            byte[] p = enc.payload(i, new TestReports.Hop(1, 0, 0, 0, counter),
                                   new TestReports.Hop(VNF_SWITCH, 3, 1_000 + lat, lat, counter),
                                   new TestReports.Hop(3, 0, 2_000 + lat, 0, counter));
            to.shard(0).onReport(p, 0, p.length, source);
        }
    }

    private static VnfWindow vnf(TelemetrySnapshot s, VnfKey k) {
        return s.vnfs().stream().filter(w -> w.vnf().equals(k)).findFirst().orElseThrow();
    }

    @Test
    public void eachInstanceCollectsItsSwitchesAndAnyWindowIsTheUnion() {
        // One: masters switch A; two: masters B. Both get every report (a switch re-pointed late).
        TelemetryShards one = instance(Set.of(B));
        TelemetryShards two = instance(Set.of(A));
        TelemetryShards all = instance(Set.of());
        TestReports enc7 = new TestReports(7, 1, 3);
        TestReports enc8 = new TestReports(8, 2, 3);
        for (TelemetryShards s : List.of(one, two, all)) {
            send(s, A, enc7, 0, 300, 7);
            send(s, B, enc8, 0, 200, 8);
        }
        assertEquals(200, one.counters().notMaster());
        assertEquals(300, two.counters().notMaster());
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        Exchange x1 = new Exchange("onos-1");
        Exchange x2 = new Exchange("onos-2");
        two.roll(x2);
        wall.addAndGet(200);
        TelemetrySnapshot leader = one.roll(x1);
        TelemetrySnapshot reference = all.roll();

        // No report counted twice, none missing: the leader's window is the single collector's.
        for (VnfKey k : List.of(VNF7, VNF8)) {
            VnfWindow u = vnf(leader, k);
            VnfWindow r = vnf(reference, k);
            assertEquals(r.samples(), u.samples());
            assertEquals(r.p50Nanos(), u.p50Nanos());
            assertEquals(r.p95Nanos(), u.p95Nanos());
            assertEquals(r.p99Nanos(), u.p99Nanos());
            assertEquals(r.maxNanos(), u.maxNanos());
            assertEquals(r.ratePps(), u.ratePps(), 1e-9);
            assertEquals(r.replicaPackets(), u.replicaPackets());
        }
        assertEquals(300, vnf(leader, VNF7).samples());
        assertEquals(200, vnf(leader, VNF8).samples());
        assertEquals(reference.chains().toString(), leader.chains().toString());
        assertEquals(reference.hops().toString(), leader.hops().toString());
        assertEquals("[onos-1 age=0ms used " + leader.peers().get(0).bytes() + "B lost=0, onos-2 age=200ms used "
                             + leader.peers().get(1).bytes() + "B lost=0]", leader.peers().toString());
        // Summaries, not samples: a few hundred bytes for two vNFs, whatever the report count.
        assertTrue(leader.peers().toString(), leader.peers().get(1).bytes() < 1024);
    }

    @Test
    public void staleBrokenOrUnreachableSummariesAreLeftOutAndSaidSo() {
        TelemetryShards one = instance(Set.of(B));
        TelemetryShards two = instance(Set.of(A));
        send(one, A, new TestReports(7, 1, 3), 0, 50, 1);
        send(two, B, new TestReports(8, 2, 3), 0, 50, 2);
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        Exchange x1 = new Exchange("onos-1");
        two.roll(new Exchange("onos-2"));

        // Two stops publishing: after 1.5 s its last window is stale.
        wall.addAndGet(1600);
        TelemetrySnapshot s = one.roll(x1);
        assertEquals(0, vnf(s, VNF8).samples());
        assertEquals(50, vnf(s, VNF7).samples());
        assertFalse(s.peers().get(1).used());
        assertEquals(1600, s.peers().get(1).ageMillis());

        // Corrupt entries (a fresh one cut short, garbage) are counted and change nothing.
        send(two, B, new TestReports(8, 2, 3), 50, 10, 5);
        two.roll(new Exchange("onos-2"));
        byte[] fresh = store.get("onos-2");
        store.put("onos-2", Arrays.copyOf(fresh, fresh.length - 20));
        store.put("onos-3", new byte[] {1, 2, 3});
        send(one, A, new TestReports(7, 1, 3), 50, 10, 3);
        TelemetrySnapshot t = one.roll(x1);
        assertEquals(2, one.summariesRejected());
        assertEquals(10, vnf(t, VNF7).samples());
        assertEquals(0, vnf(t, VNF8).samples());

        // The store is unreachable: the window is this instance's own, the failure counted.
        x1.down = true;
        send(one, A, new TestReports(7, 1, 3), 60, 5, 4);
        TelemetrySnapshot u = one.roll(x1);
        assertEquals(1, one.exchangeFailures());
        assertEquals(5, vnf(u, VNF7).samples());
        assertEquals(1, u.peers().size());
    }
}
