// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import org.slf4j.Logger;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures of a request repeated every few hundred milliseconds (a view's reads, a leader's
 * heartbeats), counted, and logged once per streak: its first failure, then how many failed and for
 * how long once one answers again. A cut or a re-election fails every try for seconds; a log line
 * per try would bury the lines that say what happened.
 */
final class FailureStreak {
    private final Logger log;
    private final String name;
    private final String what;
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong streak = new AtomicLong();
    // the current streak's first failure (System.nanoTime), 0: none
    private final AtomicLong failingSince = new AtomicLong();

    /**
     * Creates the count.
     *
     * @param log  where to log
     * @param name whose requests (the view's name)
     * @param what the requests, plural ("reads of the leaderships")
     */
    FailureStreak(Logger log, String name, String what) {
        this.log = log;
        this.name = name;
        this.what = what;
    }

    void failed(Throwable e) {
        failures.incrementAndGet();
        streak.incrementAndGet();
        if (failingSince.compareAndSet(0, System.nanoTime())) {
            log.warn("{}: {} fail (logged once until one answers): {}", name, what, e.toString());
        }
    }

    void answered() {
        long since = failingSince.getAndSet(0);
        if (since != 0) {
            log.warn("{}: {} answer again after {} failed over {} ms", name, what, streak.getAndSet(0),
                     (System.nanoTime() - since) / 1_000_000);
        }
    }

    /** Failures since the start. */
    long failures() {
        return failures.get();
    }
}
