// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The life of a pair of fabric8 informers that together answer a question of the bridge
 * ({@link ReplicaWatch}, {@link NodeCapacityWatch}): started on first use, each a LIST then a WATCH
 * that fabric8 resumes after a closed connection and re-lists after {@code 410 Gone}; established
 * once both listed and while both watch. A 401/403 (RBAC) stops them with a WARN, once, and a clear
 * {@link #problem()}; the next query at least {@code restartAfter} later starts them again, so
 * applying the RBAC heals it without a restart. Subclasses keep their state under this object's lock.
 */
abstract class InformerWatch implements AutoCloseable {
    private final Duration restartAfter;
    private SharedIndexInformer<?> first;
    private SharedIndexInformer<?> second;
    private boolean synced;
    private boolean closed;
    private volatile KubernetesClientException refused;
    private volatile long refusedAtNanos;
    private volatile String lastError;

    InformerWatch(Duration restartAfter) {
        this.restartAfter = restartAfter;
    }

    /**
     * Makes the two informers, not started, with the subclass's handlers; its state starts afresh.
     * Called under this object's lock.
     *
     * @return the two informers
     */
    abstract SharedIndexInformer<?>[] makeInformers();

    /** Both informers listed: the subclass may compare its state with theirs (under the lock). */
    void onSynced() {
    }

    /**
     * Why the subclass cannot answer although both informers watch (e.g. its handler still taking in
     * their first list), or null. Called under the lock.
     *
     * @return the reason, or null
     */
    String catchingUp() {
        return null;
    }

    /**
     * The informers were refused: the subclass says so (a WARN naming what it needs), once per refusal.
     * Called without the lock, on a fabric8 thread.
     *
     * @param error the refusal
     */
    abstract void onRefused(String error);

    /** Starts the informers if they are not running (first use, or a refusal long enough ago). */
    final synchronized void ensureStarted() {
        if (closed || (first != null && refused == null)) {
            return;
        }
        if (refused != null && System.nanoTime() - refusedAtNanos < restartAfter.toNanos()) {
            return;
        }
        stopInformers();
        refused = null;
        synced = false;
        SharedIndexInformer<?>[] made = makeInformers();
        first = made[0];
        second = made[1];
        SharedIndexInformer<?> a = first;
        a.exceptionHandler(this::retry);
        second.exceptionHandler(this::retry);
        // Async: not on the fabric8 thread that completed the start.
        CompletableFuture.allOf(a.start().toCompletableFuture(), second.start().toCompletableFuture())
                .whenCompleteAsync((v, t) -> {
                    if (t == null) {
                        synced(a);
                    }
                });
    }

    private synchronized void synced(SharedIndexInformer<?> a) {
        if (a != first) {
            return; // informers of an earlier start
        }
        onSynced();
        synced = true;
        notifyAll();
    }

    // Retries everything (fabric8 backs off) but a refusal, which retrying cannot fix.
    private boolean retry(boolean started, Throwable t) {
        KubernetesClientException k = find(t);
        lastError = k != null ? Retrier.describe(k) : String.valueOf(t);
        if (k != null && (k.getCode() == 401 || k.getCode() == 403)) {
            // No lock here: fabric8 may call this holding its reflector's lock, which stopping an
            // informer (under this object's lock) takes. Waiters see it at their next wake-up.
            if (refused == null) {
                refusedAtNanos = System.nanoTime();
                refused = k;
                onRefused(lastError);
            }
            return false;
        }
        return !ExceptionHandler.isDeserializationException(t);
    }

    private static KubernetesClientException find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof KubernetesClientException && ((KubernetesClientException) c).getCode() > 0) {
                return (KubernetesClientException) c;
            }
        }
        return null;
    }

    /** The refusal (401/403) that stopped the informers, or null. */
    final KubernetesClientException refused() {
        return refused;
    }

    /** Both informers listed, not refused, both watching (caller holds the lock). */
    final boolean watching() {
        return synced && refused == null && first != null && first.isWatching() && second.isWatching();
    }

    /** Why the answer is unknown now, or null if the watch is established. */
    final synchronized String problem() {
        if (refused != null) {
            return "watch refused: " + Retrier.describe(refused);
        }
        if (watching()) {
            return catchingUp();
        }
        return (first == null ? "watch not started" : synced ? "watch reconnecting" : "watch not synced yet")
                + (lastError == null ? "" : " (last error " + lastError + ")");
    }

    private void stopInformers() {
        if (first != null) {
            first.stop();
            second.stop();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        stopInformers();
        first = null;
        second = null;
        notifyAll();
    }

    /** What an object's event means to a subclass: changed (or added), or deleted. */
    interface Change<T> {
        void apply(T obj, boolean deleted);
    }

    /** An informer's events as {@link Change}s. */
    static final class Handler<T> implements ResourceEventHandler<T> {
        private final Change<T> change;

        Handler(Change<T> change) {
            this.change = change;
        }

        @Override
        public void onAdd(T obj) {
            change.apply(obj, false);
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            change.apply(newObj, false);
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            change.apply(obj, true);
        }
    }
}
