// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import org.junit.Test;

import java.time.Duration;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The controller's work queue keeps client-go's promises: dedup, one worker per key, back-off. */
public class WorkQueueTest {

    @Test
    public void aKeyIsQueuedOnceAndNotHandedOutTwiceWhileProcessed() throws Exception {
        try (WorkQueue<String> q = new WorkQueue<>(Duration.ofMillis(5), Duration.ofSeconds(1))) {
            q.add("a");
            q.add("a");
            q.add("b");
            assertEquals(2, q.length());
            assertEquals(Optional.of("a"), q.get());
            q.add("a"); // while processing: held back until done
            assertEquals(1, q.length());
            assertEquals(Optional.of("b"), q.get());
            assertEquals(0, q.length());
            q.done("a");
            assertEquals(1, q.length());
            assertEquals(Optional.of("a"), q.get());
            q.done("a");
            q.done("b");
            assertEquals(0, q.length());
        }
    }

    @Test
    public void failuresBackOffExponentiallyUpToTheMaximumUntilForgotten() throws Exception {
        try (WorkQueue<String> q = new WorkQueue<>(Duration.ofMillis(5), Duration.ofMillis(40))) {
            assertEquals(Duration.ofMillis(5), q.addRateLimited("k"));
            assertEquals(Duration.ofMillis(10), q.addRateLimited("k"));
            assertEquals(Duration.ofMillis(20), q.addRateLimited("k"));
            assertEquals(Duration.ofMillis(40), q.addRateLimited("k"));
            assertEquals(Duration.ofMillis(40), q.addRateLimited("k"));
            assertEquals(5, q.requeues("k"));
            q.forget("k");
            assertEquals(0, q.requeues("k"));
            assertEquals(Duration.ofMillis(5), q.addRateLimited("k"));
            long t0 = System.nanoTime();
            assertEquals(Optional.of("k"), q.get()); // the delayed adds arrive, as one key
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L);
        }
    }

    @Test
    public void shutDownEndsWaitingWorkers() throws Exception {
        WorkQueue<String> q = new WorkQueue<>(Duration.ofMillis(5), Duration.ofSeconds(1));
        Thread t = new Thread(() -> q.close());
        t.start();
        assertEquals(Optional.empty(), q.get());
        t.join();
    }
}
