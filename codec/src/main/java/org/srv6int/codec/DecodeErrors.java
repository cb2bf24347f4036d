// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of rejected inputs, one per {@link DecodeStatus} reason. The caller
 * owns an instance (per collector, per agent...) and passes it to the views;
 * counting is thread-safe and does not allocate once a counter is warm.
 */
public final class DecodeErrors {

    private static final DecodeStatus[] REASONS = DecodeStatus.values();

    private final LongAdder[] counts = new LongAdder[REASONS.length];

    /** Creates counters all at zero. */
    public DecodeErrors() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /**
     * Counts one rejection; {@link DecodeStatus#OK} is ignored.
     *
     * @param status outcome of a wrap
     * @return the same status, so a caller can write {@code return errors.count(s)}
     */
    public DecodeStatus count(DecodeStatus status) {
        if (status != DecodeStatus.OK) {
            counts[status.ordinal()].increment();
        }
        return status;
    }

    /**
     * Returns how many inputs were rejected for a reason.
     *
     * @param reason a reason
     * @return count
     */
    public long get(DecodeStatus reason) {
        return counts[reason.ordinal()].sum();
    }

    /**
     * Returns the number of rejected inputs over every reason.
     *
     * @return total count
     */
    public long total() {
        long t = 0;
        for (LongAdder a : counts) {
            t += a.sum();
        }
        return t;
    }

    /**
     * Returns a copy of the non-zero counters, for display.
     *
     * @return reason to count
     */
    public Map<DecodeStatus, Long> snapshot() {
        Map<DecodeStatus, Long> m = new EnumMap<>(DecodeStatus.class);
        for (DecodeStatus r : REASONS) {
            long v = counts[r.ordinal()].sum();
            if (v != 0) {
                m.put(r, v);
            }
        }
        return m;
    }

    /** Resets every counter to zero. */
    public void reset() {
        for (LongAdder a : counts) {
            a.reset();
        }
    }

    @Override
    public String toString() {
        return "DecodeErrors" + snapshot();
    }
}
