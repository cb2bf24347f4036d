// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

import java.io.IOException;
import java.util.Arrays;

/**
 * Whether more CPU quota can help a vNF over its bound: only if the quota held it back. At
 * every window of a vNF the gate reads the quota's throttling counters (cgroup {@code cpu.stat},
 * {@link ResourcePool#throttling}) and keeps the share of the vNF's enforcement periods it was
 * throttled in over its last two windows (a window's latencies include packets queued in the one
 * before). A vNF over its bound with a share under {@link RaisePolicy#minThrottledShare()} was
 * waiting for a core, for the data path or for a neighbour, not for its quota: Algorithm 1 does
 * not raise it (docs/node-agent.md section 2, "Raise only when throttled").
 *
 * <p>Without the signal (the gate off, an actuator without counters, the vNF's first window)
 * nothing changes: the listing's raise. An unreadable {@code cpu.stat} does the same and is
 * counted ({@link LoopListener#onThrottleUnread}); it never stops the loop.
 *
 * <p>Not thread-safe: the loop's thread only.
 */
final class ThrottleGate {

    private final double minShare;
    private final LoopListener listener;
    // per vNF: counters at its last two windows' ends, {periods, throttled} each; reads so far (0-2)
    private final long[][] last;
    private final long[][] before;
    private final int[] reads;
    // per vNF: throttled periods and periods over its last two windows (-1: no signal)
    private final long[] throttled;
    private final long[] periods;

    ThrottleGate(int vnfs, double minShare, LoopListener listener) {
        this.minShare = minShare;
        this.listener = listener;
        this.last = new long[vnfs][];
        this.before = new long[vnfs][];
        this.reads = new int[vnfs];
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
        long[] now;
        try {
            now = cpu.throttling(i);
        } catch (IOException | RuntimeException e) {
            reads[i] = 0; // no baseline across a gap
            listener.onThrottleUnread(i, String.valueOf(e.getMessage()));
            return;
        }
        if (now == null) {
            return;
        }
        long[] base = reads[i] >= 2 ? before[i] : last[i];
        if (base != null && reads[i] > 0 && now[0] >= base[0] && now[1] >= base[1]) {
            periods[i] = now[0] - base[0];
            throttled[i] = Math.min(now[1] - base[1], periods[i]);
        } else {
            reads[i] = 0; // first read, or the counters went back (a new cgroup)
        }
        before[i] = last[i];
        last[i] = now;
        reads[i] = Math.min(reads[i] + 1, 2);
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
