// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

/**
 * Per-reporter report sequence tracking (mod 2^32) with a 64-report reorder window, like an
 * anti-replay window: a gap counts its reports as lost; a late report inside the window
 * un-counts one lost report; a repeat inside the window is a duplicate; a jump of more than
 * 2^16 either way is taken as a reporter restart and re-synchronises without counting losses.
 * Single writer (the receiver thread); counters are plain fields read racily by monitors (a
 * slightly stale count is fine; a fence per report is not).
 */
public final class SequenceTracker {

    /** Accepted, in order or after a gap. */
    public static final int IN_ORDER = 0;
    /** Accepted, arrived late inside the reorder window. */
    public static final int LATE = 1;
    /** Dropped: already seen, or older than the reorder window. */
    public static final int DUPLICATE = 2;
    /** Accepted, sequence re-synchronised (reporter restart or first report). */
    public static final int RESYNC = 3;

    private static final int WINDOW = 64;
    private static final int MAX_JUMP = 1 << 16;

    private boolean started;
    private int highest;
    private long seenMask;
    private long received;
    private long lost;
    private long late;
    private long duplicates;
    private long resyncs;

    /**
     * Accounts one report.
     *
     * @param seq the report's Sequence Number (as a signed int, compared mod 2^32)
     * @return {@link #IN_ORDER}, {@link #LATE}, {@link #DUPLICATE} or {@link #RESYNC}
     */
    public int accept(int seq) {
        if (!started) {
            started = true;
            highest = seq;
            seenMask = 1L;
            received++;
            resyncs++;
            return RESYNC;
        }
        int d = seq - highest;
        if (d > 0 && d <= MAX_JUMP) {
            lost += d - 1;
            seenMask = d >= WINDOW ? 1L : (seenMask << d) | 1L;
            highest = seq;
            received++;
            return IN_ORDER;
        }
        if (d <= 0 && d > -WINDOW) {
            long bit = 1L << -d;
            if ((seenMask & bit) != 0) {
                duplicates++;
                return DUPLICATE;
            }
            seenMask |= bit;
            if (lost > 0) {
                lost--;
            }
            late++;
            received++;
            return LATE;
        }
        if (d <= 0 && d > -MAX_JUMP) {
            // Too old to tell a late report from a replay: drop it, its loss stays counted.
            duplicates++;
            return DUPLICATE;
        }
        highest = seq;
        seenMask = 1L;
        received++;
        resyncs++;
        return RESYNC;
    }

    /** @return reports accepted */
    public long received() {
        return received;
    }

    /** @return reports missing from the sequence (net of late arrivals) */
    public long lost() {
        return lost;
    }

    /** @return reports accepted out of order */
    public long late() {
        return late;
    }

    /** @return reports dropped as repeats or too old */
    public long duplicates() {
        return duplicates;
    }

    /** @return re-synchronisations (first report included) */
    public long resyncs() {
        return resyncs;
    }
}
