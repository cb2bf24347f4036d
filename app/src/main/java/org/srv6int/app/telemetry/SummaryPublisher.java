// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes this instance's window summary to the cluster's store on a thread of its own, the
 * window waiting for it at most a bound (one evaluation period). On a real cluster a store write
 * waits while the Raft partition that holds this instance's key elects a new leader (5 s and more
 * on Atomix 3.1.9: docs/cluster.md section 4); the window, and with it the leader's loop round,
 * must not wait with it. A publish still in flight when the next window comes is not queued
 * behind: that window's summary is skipped (the next one replaces it anyway). Late, skipped and
 * failed publishes are counted; a failure within the wait is the caller's, as a direct write's.
 */
final class SummaryPublisher implements AutoCloseable {

    private final ExecutorService thread;
    private final AtomicLong late = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private Future<?> inFlight;

    /**
     * A publisher with its own thread.
     *
     * @param threadName the thread's name
     */
    SummaryPublisher(String threadName) {
        thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Publishes, waiting for the write at most {@code waitMillis}.
     *
     * @param write      the store write
     * @param waitMillis longest wait
     * @throws RuntimeException the write's own failure, when it failed within the wait
     */
    synchronized void publish(Runnable write, long waitMillis) {
        if (inFlight != null && !inFlight.isDone()) {
            skipped.incrementAndGet();
            return;
        }
        inFlight = thread.submit(() -> {
            try {
                write.run();
            } catch (RuntimeException e) {
                failed.incrementAndGet();
                throw e;
            }
        });
        try {
            inFlight.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            late.incrementAndGet();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return publishes the window stopped waiting for (they went on on the publisher's thread) */
    long late() {
        return late.get();
    }

    /** @return windows whose summary was not published because the previous publish was in flight */
    long skipped() {
        return skipped.get();
    }

    /** @return publishes that failed, within the wait or after it */
    long failed() {
        return failed.get();
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
