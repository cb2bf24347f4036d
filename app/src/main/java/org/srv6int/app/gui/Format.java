package org.srv6int.app.gui;

import java.util.Locale;

/**
 * Number formatting shared by badges and panels (fixed locale: the GUI's text
 * must not change with the server's locale).
 */
final class Format {
    private Format() {
    }

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

    /** Bit rate in decimal units (network convention). */
    static String bitRate(double bps) {
        if (bps < 0 || Double.isNaN(bps)) {
            return "n/a";
        }
        if (bps >= 1e9) {
            return String.format(Locale.ROOT, "%.2f Gb/s", bps / 1e9);
        }
        if (bps >= 1e6) {
            return String.format(Locale.ROOT, "%.1f Mb/s", bps / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f kb/s", bps / 1e3);
    }

    /** Share as a whole percentage. */
    static String percent(double share) {
        return String.format(Locale.ROOT, "%d%%", Math.round(share * 100));
    }
}
