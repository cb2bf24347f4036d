// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A rate-limited work queue of keys with client-go's semantics (workqueue.TypedRateLimitingInterface):
 * a key is queued at most once however often it is added; a key being processed is not handed to a
 * second worker, and if it is added meanwhile it is queued again when {@link #done} is called; a
 * failed key comes back after an exponential per-key back-off ({@link #addRateLimited}) until
 * {@link #forget} resets it.
 *
 * @param <K> key type (the controller's {@code namespace/name})
 */
public final class WorkQueue<K> implements AutoCloseable {

    private final ArrayDeque<K> queue = new ArrayDeque<>();
    private final Set<K> dirty = new HashSet<>();
    private final Set<K> processing = new HashSet<>();
    private final Map<K, Integer> failures = new HashMap<>();
    private final long baseNanos;
    private final long maxNanos;
    private final ScheduledExecutorService delays;
    private boolean shutDown;

    /**
     * Creates a queue.
     *
     * @param base first back-off of a failing key (client-go: 5 ms)
     * @param max  longest back-off (client-go: 1000 s)
     */
    public WorkQueue(Duration base, Duration max) {
        this.baseNanos = Math.max(1, base.toNanos());
        this.maxNanos = Math.max(baseNanos, max.toNanos());
        this.delays = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "srv6int-crd-queue-delays");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Queues a key unless it is queued already.
     *
     * @param key key
     */
    public synchronized void add(K key) {
        if (shutDown || !dirty.add(key)) {
            return;
        }
        if (!processing.contains(key)) {
            queue.add(key);
            notifyAll();
        }
    }

    /**
     * Queues a key after a delay.
     *
     * @param key   key
     * @param delay delay; zero or less queues it now
     */
    public void addAfter(K key, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            add(key);
            return;
        }
        synchronized (this) {
            if (shutDown) {
                return;
            }
        }
        delays.schedule(() -> add(key), delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Queues a key after its back-off, which doubles with each call until {@link #forget}.
     *
     * @param key key
     * @return the back-off used
     */
    public Duration addRateLimited(K key) {
        int n;
        synchronized (this) {
            n = failures.merge(key, 1, Integer::sum) - 1;
        }
        long nanos = baseNanos;
        for (int i = 0; i < n && nanos < maxNanos; i++) {
            nanos = nanos > maxNanos / 2 ? maxNanos : nanos * 2;
        }
        Duration d = Duration.ofNanos(nanos);
        addAfter(key, d);
        return d;
    }

    /**
     * Resets a key's back-off (it synced).
     *
     * @param key key
     */
    public synchronized void forget(K key) {
        failures.remove(key);
    }

    /**
     * Returns how often a key failed since its last {@link #forget}.
     *
     * @param key key
     * @return failures
     */
    public synchronized int requeues(K key) {
        return failures.getOrDefault(key, 0);
    }

    /**
     * Takes the next key, waiting for one; the caller must call {@link #done} with it.
     *
     * @return key, or empty once the queue is shut down
     * @throws InterruptedException if interrupted while waiting
     */
    public synchronized Optional<K> get() throws InterruptedException {
        while (queue.isEmpty() && !shutDown) {
            wait();
        }
        if (shutDown) {
            return Optional.empty();
        }
        K key = queue.poll();
        processing.add(key);
        dirty.remove(key);
        return Optional.of(key);
    }

    /**
     * Ends the processing of a key; if it was added meanwhile it is queued again.
     *
     * @param key key from {@link #get}
     */
    public synchronized void done(K key) {
        processing.remove(key);
        if (dirty.contains(key)) {
            queue.add(key);
            notifyAll();
        }
    }

    /**
     * Returns how many keys wait.
     *
     * @return queued keys
     */
    public synchronized int length() {
        return queue.size();
    }

    @Override
    public void close() {
        synchronized (this) {
            shutDown = true;
            notifyAll();
        }
        delays.shutdownNow();
    }
}
