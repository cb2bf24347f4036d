// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.testing.TestReports;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.api.model.TelemetrySnapshot;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real telemetry windows from the collector's engine: chain 7 with one vNF (replica r1 behind
 * switch 2) reported by switch 4; each window gets {@code n} INT reports encoded by the codec.
 */
final class Windows {

    static final int CHAIN = 7;
    static final VnfKey VNF = VnfKey.of(SfcId.of(CHAIN), 0);
    private static final int SOURCE = 0x7f000001;
    private static final int EGRESS = 4;

    private final AtomicLong clock = new AtomicLong();
    private final TelemetryEngine engine = new TelemetryEngine(TelemetryEngine.Limits.DEFAULT, clock::get);
    private final TestReports reports = new TestReports(CHAIN, EGRESS, 3);
    private long seq;
    private int counter;

    Windows() {
        engine.setReporters(Map.of(SOURCE, EGRESS));
        engine.setBindings(List.of(new HopBinding(CHAIN, 1, 2, VNF, "r1")));
    }

    /** @return the engine the reports go through */
    TelemetryEngine engine() {
        return engine;
    }

    /**
     * Closes a one-second window with {@code n} reports whose vNF latency is {@code latencyNs}.
     *
     * @param n         reports
     * @param latencyNs vNF latency
     * @return the window
     */
    TelemetrySnapshot next(int n, long latencyNs) {
        for (int i = 0; i < n; i++) {
            counter += 10;
            byte[] p = reports.payload(seq++, new TestReports.Hop(1, 0, 0, 0, counter),
                                       new TestReports.Hop(2, 0, 1_000 + latencyNs, latencyNs, counter),
                                       new TestReports.Hop(EGRESS, 0, 2_000 + latencyNs, 0, counter));
            if (!engine.onReport(p, 0, p.length, SOURCE)) {
                throw new IllegalStateException("report refused: " + engine.counters());
            }
        }
        clock.addAndGet(1_000_000_000L);
        return engine.roll();
    }
}
