// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Whether more CPU quota can help a vNF over its bound: only if the quota held it back. At
 * every window of a vNF the gate reads the quota's throttling counters (cgroup {@code cpu.stat},
 * {@link ResourcePool#throttling}) and keeps the share of the vNF's enforcement periods it was
 * throttled in over its last two windows (a window's latencies include packets queued in the one
 * before), or over {@link RaisePolicy#throttleSpanNanos()} if they are shorter: the kernel counts
 * a period only when it ends, so two windows of a few milliseconds (a fast vNF, N samples) mostly
 * see no period at all, which says nothing; over the span, no period means the vNF was idle. A
 * vNF over its bound with a share under {@link RaisePolicy#minThrottledShare()} was waiting for
 * a core, for the data path or for a neighbour, not for its quota: Algorithm 1 does not raise it
 * (docs/node-agent.md section 2, "Raise only when throttled").
 *
 * <p>Without the signal (the gate off, an actuator without counters, the vNF's first window)
 * nothing changes: the listing's raise. An unreadable {@code cpu.stat} does the same and is
 * counted ({@link LoopListener#onThrottleUnread}); it never stops the loop.
 *
 * <p>Not thread-safe: the loop's thread only.
 */
final class ThrottleGate {

    private final double minShare;
    private final long spanNanos;
    private final LongSupplier clock;
    private final LoopListener listener;
    // per vNF: its reads, oldest first, {time ns, periods, throttled}; as far back as the share needs
    private final List<ArrayDeque<long[]>> reads;
    // per vNF: throttled periods and periods over its last two windows, or its span (-1: no signal)
    private final long[] throttled;
    private final long[] periods;

    ThrottleGate(int vnfs, double minShare, long spanNanos, LongSupplier clock, LoopListener listener) {
        this.minShare = minShare;
        this.spanNanos = spanNanos;
        this.clock = clock;
        this.listener = listener;
        this.reads = new ArrayList<>(vnfs);
        for (int i = 0; i < vnfs; i++) {
            reads.add(new ArrayDeque<>());
        }
        this.throttled = new long[vnfs];
        this.periods = new long[vnfs];
        Arrays.fill(periods, -1);
    }

    /** A window of vNF i closed: reads its counters from the CPU pool (null: the host has none). */
    void window(int i, ResourcePool cpu) {
        periods[i] = -1;
        if (minShare <= 0 || cpu == null) {
            return;
        }
        ArrayDeque<long[]> past = reads.get(i);
        long[] c;
        try {
            c = cpu.throttling(i);
        } catch (IOException | RuntimeException e) {
            past.clear(); // no baseline across a gap
            listener.onThrottleUnread(i, String.valueOf(e.getMessage()));
            return;
        }
        if (c == null) {
            return;
        }
        long[] now = {clock.getAsLong(), c[0], c[1]};
        long[] last = past.peekLast();
        if (last != null && (now[1] < last[1] || now[2] < last[2])) {
            past.clear(); // the counters went back (a new cgroup)
        }
        past.addLast(now);
        while (past.size() > 3 && spanCovered(second(past), now)) {
            past.removeFirst(); // older than the span needs
        }
        // the base: two windows back, or further back until the share covers the span (or the oldest read)
        Iterator<long[]> back = past.descendingIterator();
        back.next();
        long[] base = null;
        for (int k = 1; back.hasNext(); k++) {
            base = back.next();
            if (k >= 2 && spanCovered(base, now)) {
                break;
            }
        }
        if (base == null || now[1] == base[1] && !spanCovered(base, now)) {
            return; // the first read, or no period ended in too short a time to call the vNF idle: no signal
        }
        periods[i] = now[1] - base[1];
        throttled[i] = Math.min(now[2] - base[2], periods[i]);
    }

    /** The read after the oldest kept. */
    private static long[] second(ArrayDeque<long[]> past) {
        Iterator<long[]> it = past.iterator();
        it.next();
        return it.next();
    }

    private boolean spanCovered(long[] base, long[] now) {
        return now[0] - base[0] >= spanNanos;
    }

    /**
     * Why a raise of CPU quota cannot help vNF i, from its last window.
     *
     * @return the reason, or null if it may help (throttled, or no signal)
     */
    String notThrottled(int i) {
        if (periods[i] < 0 || throttled(i)) {
            return null;
        }
        return "not throttled: " + throttled[i] + " of " + periods[i] + " quota periods in its last two windows"
                + (spanNanos > 0 ? " (at least " + spanNanos / 1_000_000 + " ms)" : "")
                + " (under " + Math.round(minShare * 100) + " %): the violation is not its quota";
    }

    /**
     * Whether vNF i's quota throttled it in its last two windows (then it has no CPU to give, whatever its slack).
     *
     * @return false without a signal
     */
    boolean throttled(int i) {
        return periods[i] > 0 && (double) throttled[i] / periods[i] >= minShare;
    }

    /**
     * The share behind a raise, for the decision log.
     *
     * @return e.g. "throttled 3 of 4 periods", or "" without a signal
     */
    String describe(int i) {
        return periods[i] < 0 ? "" : "throttled " + throttled[i] + " of " + periods[i] + " periods";
    }
}
