// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * When the {@link ChainController} writes an object's status: only when the status the app
 * reports differs from the stored one; a change of substance (a new digest) at most once per
 * window, a change of measurements only (same digest) at most once per measurement interval, so
 * a hundred chains whose p95 moves every window cost about ten writes a second, not a hundred.
 * What it remembers is lost with leadership (the new leader writes once and paces from there).
 */
final class StatusPacer {

    /** What is remembered of an object between syncs. */
    private static final class Seen {
        String digest;
        long lastWriteNanos;
        long admittedNanos;
        boolean written;
    }

    private final long windowNanos;
    private final long measurementNanos;
    private final LongSupplier nanos;
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();

    /**
     * Creates a pacer.
     *
     * @param window              shortest time between two writes of an object
     * @param measurementInterval shortest time between two writes whose only change is a measurement
     * @param nanos               monotonic clock, nanoseconds
     */
    StatusPacer(Duration window, Duration measurementInterval, LongSupplier nanos) {
        this.windowNanos = window.toNanos();
        this.measurementNanos = measurementInterval.toNanos();
        this.nanos = nanos;
    }

    /**
     * Decides whether a sync writes the status now. A write that then fails is not recorded (no
     * {@link #wrote}), so the next sync writes it. The work queue syncs one key at a time.
     *
     * @param key     {@code namespace/name}
     * @param differs whether the reported status differs from the stored one
     * @param digest  the report's digest of substance (measurements left out)
     * @return whether to write now
     */
    boolean admit(String key, boolean differs, String digest) {
        Seen s = seen.computeIfAbsent(key, k -> new Seen());
        if (!differs) {
            s.digest = digest;
            return false;
        }
        long now = nanos.getAsLong();
        boolean news = !digest.equals(s.digest);
        long wait = news ? windowNanos : measurementNanos;
        if (s.written && now - s.lastWriteNanos < wait) {
            return false; // the ticker brings the key back; written once the interval has passed
        }
        s.admittedNanos = now;
        return true;
    }

    /**
     * Records the status write {@link #admit} allowed, as made at the time it allowed it.
     *
     * @param key    {@code namespace/name}
     * @param digest the digest written
     */
    void wrote(String key, String digest) {
        Seen s = seen.computeIfAbsent(key, k -> new Seen());
        s.written = true;
        s.lastWriteNanos = s.admittedNanos;
        s.digest = digest;
    }

    /**
     * Forgets an object (gone, or released by its finalizer).
     *
     * @param key {@code namespace/name}
     */
    void forget(String key) {
        seen.remove(key);
    }
}
