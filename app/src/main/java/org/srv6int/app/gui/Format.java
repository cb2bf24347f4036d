// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import org.srv6int.app.api.model.ChainState;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Number formatting shared by badges and panels (fixed locale: the GUI's text
 * must not change with the server's locale).
 */
final class Format {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

    private Format() {
    }

    /** Wall-clock time of day, UTC. */
    static String time(long millis) {
        return TIME.format(Instant.ofEpochMilli(millis));
    }

    /**
     * A chain's liveness as one line: state and since when, and for a DOWN chain the marker the
     * overlay's script colours red, the reason and the last hop seen.
     */
    static String liveness(ChainState s) {
        StringBuilder b = new StringBuilder(s.liveness().name());
        if (s.sinceMillis() > 0) {
            b.append(" since ").append(time(s.sinceMillis()));
        }
        if (s.liveness() == ChainState.Liveness.DOWN) {
            b.append(' ').append(DOWN_TAG).append(": ").append(s.reason())
                    .append("; last hop seen: ").append(s.lastHopSeen());
        }
        return b.toString();
    }

    /** Marker of a DOWN chain's text (srv6intTopo.js colours such rows red). */
    static final String DOWN_TAG = "[down]";
    /** Marker of a dead replica (srv6intTopo.js colours such rows red). */
    static final String DEAD_TAG = "[dead]";

    /** Latency in ns as µs below 1 ms, else ms. */
    static String latency(long ns) {
        if (ns < 0) {
            return "n/a";
        }
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%d µs", Math.round(ns / 1e3));
        }
        return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
    }

    /** Packet rate (the INT reports' Port_Counter gives packets, not bytes). */
    static String packetRate(double pps) {
        if (pps < 0 || Double.isNaN(pps)) {
            return "n/a";
        }
        if (pps >= 1e6) {
            return String.format(Locale.ROOT, "%.2f Mpps", pps / 1e6);
        }
        if (pps >= 1e3) {
            return String.format(Locale.ROOT, "%.1f kpps", pps / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f pps", pps);
    }

    /** Share as a whole percentage. */
    static String percent(double share) {
        return String.format(Locale.ROOT, "%d%%", Math.round(share * 100));
    }
}
