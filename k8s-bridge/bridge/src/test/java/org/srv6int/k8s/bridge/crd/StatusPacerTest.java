// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import org.junit.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The status-write rate limit of the {@link ChainController} on a clock the test moves: no write
 * when nothing changed, a measurement-only change at most once per measurement interval (the
 * bound that keeps a hundred chains at about ten writes a second), a change of substance at most
 * once per window, a failed write retried at the next sync.
 */
public class StatusPacerTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLong now = new AtomicLong(-5 * SECOND); // a monotonic clock may be negative
    private final StatusPacer pacer = new StatusPacer(Duration.ofSeconds(1), Duration.ofSeconds(10), now::get);

    /** A sync: admit, and when admitted, the write succeeds. */
    private boolean sync(String key, boolean differs, String digest) {
        boolean w = pacer.admit(key, differs, digest);
        if (w) {
            pacer.wrote(key, digest);
        }
        return w;
    }

    @Test
    public void nothingChangedIsNeverWritten() {
        for (int i = 0; i < 100; i++) {
            assertFalse(sync("ns/a", false, "Ready/1"));
            now.addAndGet(SECOND);
        }
    }

    @Test
    public void aHundredChainsWhoseP95MovesEveryWindowWriteOncePerChainPerTenSeconds() {
        int chains = 100;
        int writes = 0;
        int[] perChain = new int[chains];
        for (int window = 0; window < 60; window++) { // 60 s, every chain synced once a window
            for (int c = 0; c < chains; c++) {
                if (sync("ns/c" + c, true, "Ready/1")) {
                    writes++;
                    perChain[c]++;
                }
            }
            now.addAndGet(SECOND);
        }
        // the first write of each at once, then one per 10 s: t = 0, 10, ..., 50
        assertEquals(chains * 6, writes);
        for (int c = 0; c < chains; c++) {
            assertEquals("chain " + c, 6, perChain[c]);
        }
    }

    @Test
    public void aMeasurementOnlyChangeWaitsTheIntervalThenIsWritten() {
        assertTrue(sync("ns/a", true, "Ready/1"));
        now.addAndGet(10 * SECOND - 1);
        assertFalse(sync("ns/a", true, "Ready/1"));
        now.addAndGet(1);
        assertTrue(sync("ns/a", true, "Ready/1"));
    }

    @Test
    public void aChangeOfSubstanceIsWrittenAfterOneWindowNotTen() {
        assertTrue(sync("ns/a", true, "Ready/1"));
        now.addAndGet(SECOND / 2);
        assertFalse("at most one write a window", sync("ns/a", true, "Degraded/1"));
        now.addAndGet(SECOND / 2);
        assertTrue(sync("ns/a", true, "Degraded/1"));
        now.addAndGet(SECOND);
        assertFalse("then only measurements change", sync("ns/a", true, "Degraded/1"));
    }

    @Test
    public void aFailedWriteIsRetriedAtTheNextSync() {
        assertTrue(pacer.admit("ns/a", true, "Ready/1")); // the patch then fails: no wrote()
        now.addAndGet(SECOND);
        assertTrue(sync("ns/a", true, "Ready/1"));
        now.addAndGet(SECOND);
        assertFalse(sync("ns/a", true, "Ready/1"));
    }

    @Test
    public void aStatusAlreadyStoredRecordsItsDigestSoMeasurementsAreThenPaced() {
        // a new leader finds the status stored: nothing written, the digest remembered
        assertFalse(sync("ns/a", false, "Ready/1"));
        now.addAndGet(SECOND);
        assertTrue("first write of this instance", sync("ns/a", true, "Ready/1"));
        now.addAndGet(SECOND);
        assertFalse(sync("ns/a", true, "Ready/1"));
    }

    @Test
    public void aForgottenObjectStartsAfresh() {
        assertTrue(sync("ns/a", true, "Ready/1"));
        pacer.forget("ns/a");
        assertTrue(sync("ns/a", true, "Ready/1"));
    }
}
