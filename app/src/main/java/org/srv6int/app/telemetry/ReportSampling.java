// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.ReportTap;

import java.util.function.LongSupplier;

/**
 * Sampling of accepted reports for the per-report export, one per engine: one in
 * {@code tap.sampleEvery()}, then a token bucket of {@code perSecond}. Touched only by the
 * engine's receive thread once published (the engine's volatile field publishes the settings).
 */
final class ReportSampling {
    final ReportTap tap;
    private final int every;
    private final double perNano;
    private final double burst;
    private int countdown;
    private double tokens;
    // clock reading of the last candidate: the sampled report's receive time
    long last;
    private boolean started;

    ReportSampling(ReportTap tap, double perSecond) {
        this.tap = tap;
        this.every = Math.max(1, tap.sampleEvery());
        this.perNano = perSecond / 1e9;
        this.burst = Math.max(1, perSecond / 10); // at most 100 ms of the rate at once
        this.countdown = every;
    }

    /** One in {@code every}, then a token bucket; reads the clock only for a candidate. */
    boolean take(LongSupplier clock) {
        if (--countdown > 0) {
            return false;
        }
        countdown = every;
        long now = clock.getAsLong();
        if (!started) {
            started = true;
            tokens = burst;
        } else {
            tokens = Math.min(burst, tokens + (now - last) * perNano);
        }
        last = now;
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }
}
