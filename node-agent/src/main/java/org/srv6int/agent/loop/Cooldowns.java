// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The freeing cool-downs of the local loop: after a reverted free of a type, a vNF gives none of
 * it for a number of its own windows, doubling on reverts in a row up to a cap, ending at a time
 * cap too, and a long good stretch resets the doubling (docs/node-agent.md section 2). Counts the
 * vNFs' windows, which every cool-down counts down.
 *
 * <p>Not thread-safe: the loop's thread only.
 */
final class Cooldowns {

    /** "No time cap". */
    static final long NONE = Long.MIN_VALUE;

    private static final int TYPES = ResourceType.all().length;

    private final SlackPolicy policy;
    private final LongSupplier clock;
    // per vNF: its windows so far
    private final long[] seen;
    // per vNF x type: the window count at which the cool-down ends, its time cap (NONE: none), reverts in a row
    private final long[] coolEnd;
    private final long[] coolEndNanos;
    private final int[] reverts;

    Cooldowns(int vnfs, SlackPolicy policy, LongSupplier clock) {
        this.policy = policy;
        this.clock = clock;
        this.seen = new long[vnfs];
        this.coolEnd = new long[vnfs * TYPES];
        this.coolEndNanos = new long[vnfs * TYPES];
        this.reverts = new int[vnfs * TYPES];
        Arrays.fill(coolEndNanos, NONE);
    }

    /** A window of vNF i closed. */
    void window(int i) {
        seen[i]++;
    }

    /**
     * A reverted free of a type: no freeing of it from the vNF for a cool-down that grows on reverts in a row.
     *
     * @return the cool-down, windows
     */
    int start(int i, ResourceType type) {
        int k = i * TYPES + type.ordinal();
        long now = clock.getAsLong();
        expire(i, type, now);
        int reset = policy.cooldownResetWindows();
        if (reverts[k] > 0 && seen[i] - coolEnd[k] >= reset) {
            reverts[k] = 0; // a long good stretch since the last cool-down ended
        }
        reverts[k] = Math.min(reverts[k] + 1, 64);
        int windows = policy.cooldownAfter(reverts[k]);
        coolEnd[k] = seen[i] + windows;
        long cap = policy.cooldownCapAfter(reverts[k]);
        coolEndNanos[k] = cap > 0 ? now + cap : NONE;
        return windows;
    }

    /** A cool-down whose time cap passed ends now, in windows too (so the reset counts from here). */
    void expire(int i, ResourceType type, long now) {
        int k = i * TYPES + type.ordinal();
        if (coolEnd[k] > seen[i] && passed(coolEndNanos[k], now)) {
            coolEnd[k] = seen[i];
        }
    }

    /** Windows left before vNF i may give the type again, 0 when it may. */
    int left(int i, ResourceType type) {
        int k = i * TYPES + type.ordinal();
        if (passed(coolEndNanos[k], clock.getAsLong())) {
            return 0; // its time cap passed
        }
        return (int) Math.max(0, coolEnd[k] - seen[i]);
    }

    /** Reverted frees of a type in a row as counted at the last one. */
    int revertsInARow(int i, ResourceType type) {
        return reverts[i * TYPES + type.ordinal()];
    }

    /** Whether a time cap (NONE: none) has passed; nanoTime may be negative, so no sentinel compares. */
    static boolean passed(long until, long now) {
        return until != NONE && now - until >= 0;
    }
}
