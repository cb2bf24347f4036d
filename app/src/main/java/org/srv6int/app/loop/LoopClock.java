// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

/**
 * Time source of the global loop; the testbed twin and tests inject simulated time.
 */
public interface LoopClock {

    /** The system clock. */
    LoopClock SYSTEM = new LoopClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }
    };

    /**
     * Returns monotonic time in nanoseconds (only differences matter).
     *
     * @return nanoseconds
     */
    long nanoTime();

    /**
     * Returns wall-clock time for the decision history.
     *
     * @return milliseconds since the epoch
     */
    long currentTimeMillis();
}
