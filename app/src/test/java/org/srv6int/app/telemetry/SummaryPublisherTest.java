// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.junit.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The window's summary publish ({@link SummaryPublisher}): done within the call when the store
 * answers, not waited for past the bound when it does not, never queued twice, failures the
 * caller's. Waits are deadlines, not timings (loaded CI).
 */
public class SummaryPublisherTest {

    private static final long DEADLINE_S = 30;

    @Test
    public void aWriteThatAnswersIsDoneWhenPublishReturns() {
        AtomicInteger writes = new AtomicInteger();
        try (SummaryPublisher p = new SummaryPublisher("test-publish")) {
            for (int i = 0; i < 20; i++) {
                p.publish(writes::incrementAndGet, TimeUnit.SECONDS.toMillis(DEADLINE_S));
                assertEquals(i + 1, writes.get());
            }
            assertEquals(0, p.late());
            assertEquals(0, p.skipped());
            assertEquals(0, p.failed());
        }
    }

    @Test
    public void aWriteThatWaitsOnTheStoreDoesNotHoldTheWindowAndIsNotQueuedTwice() throws Exception {
        CountDownLatch storeAnswers = new CountDownLatch(1);
        AtomicInteger writes = new AtomicInteger();
        try (SummaryPublisher p = new SummaryPublisher("test-publish")) {
            p.publish(() -> {
                try {
                    storeAnswers.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                writes.incrementAndGet();
            }, 50);
            // the call came back though the write still waits
            assertEquals(0, writes.get());
            assertEquals(1, p.late());
            // windows while it waits: skipped at once, never run after it
            for (int i = 0; i < 5; i++) {
                p.publish(writes::incrementAndGet, TimeUnit.SECONDS.toMillis(DEADLINE_S));
            }
            assertEquals(5, p.skipped());
            assertEquals(0, writes.get());
            storeAnswers.countDown();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
            while (writes.get() < 1) {
                if (System.nanoTime() > end) {
                    fail("the waiting write never finished");
                }
                Thread.sleep(10);
            }
            // the next window publishes again, within the call
            p.publish(writes::incrementAndGet, TimeUnit.SECONDS.toMillis(DEADLINE_S));
            assertEquals(2, writes.get());
            assertEquals(5, p.skipped());
        }
    }

    @Test
    public void aWriteThatFailsWithinTheWaitFailsTheCallAndIsCounted() {
        try (SummaryPublisher p = new SummaryPublisher("test-publish")) {
            try {
                p.publish(() -> {
                    throw new IllegalStateException("store unavailable");
                }, TimeUnit.SECONDS.toMillis(DEADLINE_S));
                fail("the failure is the caller's");
            } catch (IllegalStateException e) {
                assertEquals("store unavailable", e.getMessage());
            }
            assertEquals(1, p.failed());
            assertTrue(p.late() == 0 && p.skipped() == 0);
        }
    }
}
