// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of a twin run on stderr, in simulated seconds over all runs: a live bar redrawn with
 * carriage returns on a terminal, one line per finished experiment otherwise (CI logs and files
 * get no CR frames).
 */
final class Progress {
    /** Set by tools/twin from {@code [ -t 2 ]}: {@code bar} or {@code lines}. */
    static final String MODE_PROPERTY = "srv6int.twin.progress";

    /** How progress is shown. */
    enum Mode {
        /** Redrawn bar (a terminal). */
        BAR,
        /** One line per experiment (a log). */
        LINES,
        /** Nothing. */
        QUIET;

        /**
         * The mode for stderr: the launcher's word when it gave one (it can test stderr itself),
         * else a bar only when the JVM has a console.
         */
        static Mode detect() {
            String p = System.getProperty(MODE_PROPERTY, "");
            if ("bar".equals(p)) {
                return BAR;
            }
            if ("lines".equals(p)) {
                return LINES;
            }
            return System.console() != null ? BAR : LINES;
        }
    }

    private final PrintStream err;
    private final double total;
    private final Mode mode;
    private final long startNs = System.nanoTime();
    private double doneBefore;
    private long lastPrintNs;
    private long runStartNs = System.nanoTime();
    private int runs;

    Progress(PrintStream err, double total, Mode mode) {
        this.err = err;
        this.total = total;
        this.mode = mode;
    }

    /** A run reached simulated second simS. */
    void advance(String what, double simS) {
        if (mode != Mode.BAR) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastPrintNs < 200_000_000L) {
            return;
        }
        lastPrintNs = now;
        double f = Math.min(1, (doneBefore + simS) / total);
        int w = 30;
        int k = (int) Math.round(f * w);
        err.print(String.format(Locale.ROOT, "\r[%s%s] %3.0f%% %-36s t=%5.1f s", "#".repeat(k),
                ".".repeat(w - k), f * 100, what, simS));
        err.flush();
    }

    /** A run of durationS simulated seconds finished. */
    void finishRun(String what, double durationS) {
        doneBefore += durationS;
        runs++;
        long now = System.nanoTime();
        if (mode == Mode.LINES) {
            double wall = (now - runStartNs) / 1e9;
            err.println(String.format(Locale.ROOT,
                    "twin: %3.0f%% %s: %.0f s simulated in %.1f s wall (%.1f x real time)",
                    Math.min(1, doneBefore / total) * 100, what, durationS, wall, durationS / Math.max(wall, 1e-9)));
            err.flush();
        }
        runStartNs = now;
    }

    /** All runs finished. */
    void done() {
        if (mode == Mode.BAR) {
            err.print(String.format(Locale.ROOT, "\r[%s] 100%% done%s\n", "#".repeat(30), " ".repeat(48)));
            err.flush();
        } else if (mode == Mode.LINES) {
            err.println(String.format(Locale.ROOT, "twin: done, %d runs, %.0f s simulated in %.1f s wall", runs,
                    doneBefore, (System.nanoTime() - startNs) / 1e9));
            err.flush();
        }
    }
}
