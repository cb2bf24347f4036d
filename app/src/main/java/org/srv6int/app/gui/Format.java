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
