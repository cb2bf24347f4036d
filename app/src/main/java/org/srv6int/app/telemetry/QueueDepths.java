// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The switches' egress queue depths from INT metadata: the last and the window's largest per
 * Device_ID. One writer (the engine's receive thread, lazy stores); the window roll reads and
 * resets the maxima from another thread.
 */
final class QueueDepths {
    private static final int DEVICES = 1 << 16;

    private final AtomicIntegerArray last = new AtomicIntegerArray(DEVICES);
    private final AtomicIntegerArray max = new AtomicIntegerArray(DEVICES);
    private final AtomicLongArray seen = new AtomicLongArray(DEVICES / 64);

    /** Records one queue depth of a switch (Device_ID 0..65535). */
    void record(int dev, int depth) {
        last.lazySet(dev, depth);
        int m = max.get(dev);
        if (depth > m) {
            max.compareAndSet(dev, m, depth);
        }
        int w = dev >>> 6;
        long bit = 1L << (dev & 63);
        long s = seen.get(w);
        if ((s & bit) == 0) {
            seen.compareAndSet(w, s, s | bit);
        }
    }

    /** Adds every switch seen so far to the closed window and restarts the maxima. */
    void rollInto(WindowMerge into) {
        for (int w = 0; w < DEVICES / 64; w++) {
            long bits = seen.get(w);
            while (bits != 0) {
                int dev = w * 64 + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                into.queue(dev, last.get(dev), max.getAndSet(dev, 0));
            }
        }
    }
}
