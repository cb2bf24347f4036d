// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.obs;

import java.util.function.IntConsumer;
import java.net.URI;
import java.util.function.Supplier;

/**
 * When the agent sends its pool report ({@link PoolReport}) to the app: every interval, and at the
 * next tick after the pools changed (pods came or went, the CPU held for other pods changed). One
 * report at a time: while one is in flight a due report waits for it, then goes with the figures
 * of that tick, so reports reach the app in the order their figures were read and a slow app never
 * piles them up. A failed POST (5xx, refused connection, time-out) is not repeated with its old
 * figures: the next interval's report carries fresh ones. Called on the loop's thread only; the
 * POST runs off it ({@link EscalationClient#post}), so nothing here blocks the loop.
 */
public final class PoolReporter {

    private final EscalationClient client;
    private final URI url;
    private final long intervalNanos;
    private final IntConsumer outcomes;
    private long due;
    private boolean changed = true;
    // Set by the loop's thread when it sends, cleared by the client's thread when the answer is in.
    private volatile boolean inFlight;

    /**
     * Creates the reporter; the first report goes at the first tick.
     *
     * @param client        the agent's client to the app
     * @param url           the app's pool-report URL
     * @param intervalNanos period, &gt; 0
     * @param outcomes      receives SENT, FAILED or REJECTED once per report
     */
    public PoolReporter(EscalationClient client, URI url, long intervalNanos, IntConsumer outcomes) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("pool report interval must be > 0");
        }
        this.client = client;
        this.url = url;
        this.intervalNanos = intervalNanos;
        this.outcomes = outcomes;
    }

    /** The pools changed: report at the next tick (or once the report in flight is answered). */
    public void changed() {
        changed = true;
    }

    /**
     * Sends a report when one is due and none is in flight.
     *
     * @param nowNanos the loop's clock
     * @param body     the report's body, read now (on the loop's thread)
     * @return true if a report was sent
     */
    public boolean tick(long nowNanos, Supplier<String> body) {
        if (inFlight || (!changed && nowNanos - due < 0)) {
            return false;
        }
        changed = false;
        due = nowNanos + intervalNanos;
        inFlight = true;
        client.post(url, body.get(), o -> {
            inFlight = false;
            outcomes.accept(o);
        });
        return true;
    }
}
