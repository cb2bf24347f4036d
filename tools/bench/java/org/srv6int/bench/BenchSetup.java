// SPDX-License-Identifier: Apache-2.0
package org.srv6int.bench;

import org.srv6int.app.testing.TestReports;

import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.telemetry.TelemetryShards;

import java.nio.ByteBuffer;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * What every collector benchmark shares: chain 7 (ingress 1, vNF on switch 2, egress 4), the
 * report stream of the end-to-end test, an engine with the egress's address 127.0.0.1 on the
 * allow-list.
 */
final class BenchSetup {

    static final int TAG = 7;
    static final VnfKey VNF = VnfKey.of(SfcId.of(TAG), 0);
    static final TestReports REPORTS = new TestReports(TAG, 4, 3);

    private BenchSetup() {
    }

    static TelemetryEngine engine(LongSupplier clock) throws Exception {
        TelemetryEngine e = new TelemetryEngine(TelemetryEngine.Limits.DEFAULT, clock);
        e.setReporters(Map.of(ByteBuffer.wrap(InetAddress.getByName("127.0.0.1").getAddress()).getInt(), 4));
        e.setBindings(List.of(new HopBinding(TAG, 1, 2, VNF, "r0")));
        return e;
    }

    /**
     * Shards of a collector whose allow-list has {@code flows} reporters 127.0.0.1, .2, ...,
     * all with the egress's Device_ID (the sender's flows replay one report stream each).
     */
    static TelemetryShards shards(LongSupplier clock, int threads, int flows) throws Exception {
        TelemetryShards s = new TelemetryShards(threads, TelemetryEngine.Limits.DEFAULT, clock);
        Map<Integer, Integer> allow = new HashMap<>();
        int base = ByteBuffer.wrap(InetAddress.getByName("127.0.0.1").getAddress()).getInt();
        for (int i = 0; i < flows; i++) {
            allow.put(base + i, 4);
        }
        s.setReporters(allow, Set.of());
        s.setBindings(List.of(new HopBinding(TAG, 1, 2, VNF, "r0")));
        return s;
    }

    /** Report i of the stream: latency 300..700 us, Port_Counter +8 per report. */
    static byte[] report(long seq) {
        long lat = 300_000 + (seq * 7919) % 400_000;
        int pc = (int) (seq * 8) & 0xFFFF;
        long t = seq * 1000;
        return REPORTS.payload(seq, new TestReports.Hop(1, 3, t, 0, pc),
                               new TestReports.Hop(2, (int) (seq % 50), t + 2000 + lat, lat, pc),
                               new TestReports.Hop(4, 1, t + 9000 + lat, 0, pc));
    }
}
