// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * Report sequence accounting: gaps, wrap at 2^32, reordering, duplicates, reporter restart.
 */
public class SequenceTrackerTest {

    @Test
    public void gapsAreLostAndLateArrivalsUncountThem() {
        SequenceTracker t = new SequenceTracker();
        assertEquals(SequenceTracker.RESYNC, t.accept(10));
        assertEquals(SequenceTracker.IN_ORDER, t.accept(11));
        assertEquals(SequenceTracker.IN_ORDER, t.accept(15));
        assertEquals(3, t.lost());
        assertEquals(SequenceTracker.LATE, t.accept(13));
        assertEquals(2, t.lost());
        assertEquals(SequenceTracker.DUPLICATE, t.accept(13));
        assertEquals(SequenceTracker.DUPLICATE, t.accept(15));
        assertEquals(2, t.lost());
        assertEquals(1, t.late());
        assertEquals(2, t.duplicates());
        assertEquals(4, t.received());
    }

    @Test
    public void wrapsAtTwoToThe32() {
        SequenceTracker t = new SequenceTracker();
        t.accept(0xFFFFFFFE);
        assertEquals(SequenceTracker.IN_ORDER, t.accept(0xFFFFFFFF));
        assertEquals(SequenceTracker.IN_ORDER, t.accept(0));
        assertEquals(SequenceTracker.IN_ORDER, t.accept(2));
        assertEquals(1, t.lost());
        assertEquals(SequenceTracker.LATE, t.accept(1));
        assertEquals(0, t.lost());
    }

    @Test
    public void restartResynchronisesWithoutCountingLoss() {
        SequenceTracker t = new SequenceTracker();
        t.accept(5_000_000);
        t.accept(5_000_001);
        assertEquals(SequenceTracker.RESYNC, t.accept(0));
        assertEquals(SequenceTracker.IN_ORDER, t.accept(1));
        assertEquals(0, t.lost());
        assertEquals(2, t.resyncs());
    }

    @Test
    public void tooOldIsDroppedAndItsLossStays() {
        SequenceTracker t = new SequenceTracker();
        t.accept(0);
        t.accept(200);
        assertEquals(199, t.lost());
        assertEquals(SequenceTracker.DUPLICATE, t.accept(100));
        assertEquals(199, t.lost());
    }
}
