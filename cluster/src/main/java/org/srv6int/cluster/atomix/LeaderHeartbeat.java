// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Keeps a leader's Raft sessions alive on the partitions that hold the topics it leads, by a
 * command that changes nothing there: running again for a topic it is already a candidate of
 * (Atomix's elector takes a second registration of the same session as a duplicate: no event, no
 * new term). A Raft command refreshes its session on the servers as a keep-alive does.
 *
 * <p>Why the keep-alives alone are not enough (Atomix 3.1.9, {@code RaftSessionManager}): after a
 * keep-alive fails, the next comes only {@code session timeout - 2.5 s} after the failed one, and
 * its first try can wait out the 5 s request timeout at a cut-off Raft leader; the servers count
 * from the last keep-alive or the partition's new Raft leader's first entry, so a keep-alive that
 * failed within 2.5 s before that entry lets the session expire, whatever its timeout. So when a
 * <em>follower</em> member that leads a Raft partition is cut off, the leader's session in that
 * partition can expire once the partition has a new Raft leader, its candidacies go, and the
 * leadership moves (c2, session 17 and 18). Commands are sent every {@link #EVERY_MS} and retried
 * at once on another member, so one lands well inside the timeout.
 */
final class LeaderHeartbeat {

    /** How often each led topic is commanded. */
    static final long EVERY_MS = 2_000;
    /** After this, a beat that has not answered no longer holds back the next. */
    static final long TIMEOUT_MS = 15_000;

    private final Function<String, CompletableFuture<?>> beat;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicLong sent = new AtomicLong();
    private final FailureStreak failures;
    private long last = Long.MIN_VALUE;

    /**
     * Beats with the given command.
     *
     * @param name for the log
     * @param beat the command for one topic (a run of this member for it)
     */
    LeaderHeartbeat(String name, Function<String, CompletableFuture<?>> beat) {
        this.beat = beat;
        this.failures = new FailureStreak(LoggerFactory.getLogger(LeaderHeartbeat.class), name, "leader's heartbeats");
    }

    /**
     * Beats every led topic if {@link #EVERY_MS} passed since the last beats; one beat in flight
     * per topic at most.
     *
     * @param nowNanos  System.nanoTime()
     * @param ledTopics the topics this member leads, as it learnt them (read only when beats are due)
     */
    synchronized void tick(long nowNanos, Supplier<Collection<String>> ledTopics) {
        if (last != Long.MIN_VALUE && nowNanos - last < TimeUnit.MILLISECONDS.toNanos(EVERY_MS)) {
            return;
        }
        last = nowNanos;
        for (String topic : ledTopics.get()) {
            if (!inFlight.add(topic)) {
                continue;
            }
            sent.incrementAndGet();
            CompletableFuture<?> f;
            try {
                f = beat.apply(topic);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.orTimeout(TIMEOUT_MS, TimeUnit.MILLISECONDS).whenComplete((v, e) -> {
                inFlight.remove(topic);
                if (e != null) {
                    failures.failed(e);
                } else {
                    failures.answered();
                }
            });
        }
    }

    /**
     * Beats sent since the start.
     *
     * @return count
     */
    long sent() {
        return sent.get();
    }

    /**
     * Beats that failed or timed out since the start.
     *
     * @return count
     */
    long failures() {
        return failures.failures();
    }
}
