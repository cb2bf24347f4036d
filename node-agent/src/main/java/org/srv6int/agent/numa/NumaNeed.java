// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.numa;

import java.util.Locale;

/**
 * LLC ways and memory-bandwidth percent of a chain, the paper's tuple (l<sub>i</sub>, m<sub>i</sub>).
 */
public final class NumaNeed {

    /** Nothing. */
    public static final NumaNeed ZERO = new NumaNeed(0, 0);

    private final int ways;
    private final int mbPercent;

    /**
     * Creates a tuple.
     *
     * @param ways LLC ways
     * @param mbPercent memory bandwidth, percent of the node's
     */
    public NumaNeed(int ways, int mbPercent) {
        if (ways < 0 || mbPercent < 0) {
            throw new IllegalArgumentException("negative need " + ways + " ways, " + mbPercent + " %");
        }
        this.ways = ways;
        this.mbPercent = mbPercent;
    }

    /**
     * LLC ways.
     *
     * @return ways
     */
    public int ways() {
        return ways;
    }

    /**
     * Memory bandwidth.
     *
     * @return percent
     */
    public int mbPercent() {
        return mbPercent;
    }

    /**
     * Whether this fits into what is left.
     *
     * @param left free ways and bandwidth
     * @return true if both fit
     */
    public boolean fitsIn(NumaNeed left) {
        return ways <= left.ways && mbPercent <= left.mbPercent;
    }

    /**
     * Element-wise maximum (the paper's Max_alloc of co-located vNFs sharing one LLC).
     *
     * @param o other
     * @return max of each resource
     */
    public NumaNeed max(NumaNeed o) {
        return new NumaNeed(Math.max(ways, o.ways), Math.max(mbPercent, o.mbPercent));
    }

    /**
     * Element-wise sum.
     *
     * @param o other
     * @return sum
     */
    public NumaNeed plus(NumaNeed o) {
        return new NumaNeed(ways + o.ways, mbPercent + o.mbPercent);
    }

    /**
     * Element-wise difference, floored at zero.
     *
     * @param o other
     * @return difference
     */
    public NumaNeed minus(NumaNeed o) {
        return new NumaNeed(Math.max(0, ways - o.ways), Math.max(0, mbPercent - o.mbPercent));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NumaNeed && ((NumaNeed) o).ways == ways && ((NumaNeed) o).mbPercent == mbPercent;
    }

    @Override
    public int hashCode() {
        return ways * 1031 + mbPercent;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "(%d ways, %d%% MB)", ways, mbPercent);
    }
}
