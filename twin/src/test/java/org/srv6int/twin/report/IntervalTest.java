// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;

/** Mean and Student-t 95 % interval, NaN counted apart. */
public class IntervalTest {
    @Test
    public void threeValues() {
        Interval i = Interval.of(List.of(1.0, 2.0, 3.0));
        assertEquals(2.0, i.mean, 1e-12);
        // sd 1, t(0.975, 2) = 4.303
        assertEquals(4.303 / Math.sqrt(3), i.halfWidth, 1e-9);
        assertEquals(3, i.n);
        assertEquals(0, i.missing);
    }

    @Test
    public void nanIsMissingNotZero() {
        Interval i = Interval.of(List.of(4.0, Double.NaN, 6.0));
        assertEquals(5.0, i.mean, 1e-12);
        assertEquals(2, i.n);
        assertEquals(1, i.missing);
        assertEquals(12.706 * Math.sqrt(2) / Math.sqrt(2), i.halfWidth, 1e-9);
    }

    @Test
    public void oneOrNoValueHasNoInterval() {
        assertTrue(Double.isNaN(Interval.of(List.of(7.0)).halfWidth));
        assertEquals(7.0, Interval.of(List.of(7.0)).mean, 0);
        assertTrue(Double.isNaN(Interval.of(List.of(Double.NaN)).mean));
    }

    @Test
    public void manySeedsUseTheNormalQuantile() {
        assertEquals(1.96, Interval.t975(40), 0);
        assertEquals(2.042, Interval.t975(30), 0);
    }
}
