// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs one API operation with exponential back-off on errors that may pass
 * (HTTP 5xx and 429, timeouts, refused or reset connections) within the budget of
 * {@link BridgeConfig}. Other errors (4xx: invalid object, forbidden, ...) fail at
 * once. Operations must be idempotent: a retried create can meet the object the
 * failed attempt made, which callers handle as 409 AlreadyExists.
 */
final class Retrier {
    private static final Logger log = LoggerFactory.getLogger(Retrier.class);

    private final BridgeConfig config;

    Retrier(BridgeConfig config) {
        this.config = config;
    }

    <T> T call(String what, Supplier<T> op) {
        final long start = System.nanoTime();
        final long deadline = start + config.retryBudget().toNanos();
        long backoff = config.initialBackoff().toNanos();
        int attempt = 0;
        // Set once the API server was unreachable: a kube-apiserver that has just
        // (re)started answers 401/403 until its authenticator and RBAC caches sync.
        boolean serverWasDown = false;
        while (true) {
            attempt++;
            KubernetesClientException failure;
            try {
                return op.get();
            } catch (KubernetesClientException e) {
                failure = e;
            }
            final int code = failure.getCode();
            final boolean authWhileStarting = serverWasDown && (code == 401 || code == 403);
            final boolean retryable = isRetryable(failure) || authWhileStarting;
            serverWasDown |= code <= 0 && retryable;
            final long now = System.nanoTime();
            final long sleep = jitter(backoff);
            if (!retryable || attempt >= config.maxAttempts() || now + sleep > deadline) {
                String why = retryable
                        ? (attempt >= config.maxAttempts() ? "attempts exhausted" : "retry budget exhausted")
                        : "not retryable";
                throw new BridgeException(String.format("%s failed after %d attempt(s) in %.1f s (%s): %s",
                        what, attempt, (now - start) / 1e9, why, describe(failure)), attempt, code, failure);
            }
            log.warn("{}: attempt {} failed ({}), retrying in {} ms", what, attempt, describe(failure),
                    sleep / 1_000_000);
            try {
                Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new BridgeException(what + " interrupted after " + attempt + " attempt(s)",
                        attempt, code, failure);
            }
            backoff = Math.min(backoff * 2, config.maxBackoff().toNanos());
        }
    }

    /** Equal jitter: between half and all of the back-off, so retrying clients spread out. */
    private static long jitter(long backoff) {
        if (backoff <= 1) {
            return backoff;
        }
        long half = backoff / 2;
        return half + ThreadLocalRandom.current().nextLong(backoff - half + 1);
    }

    static boolean isRetryable(KubernetesClientException e) {
        int code = e.getCode();
        if (code >= 500 || code == 429) {
            return true;
        }
        if (code > 0) {
            return false;
        }
        if (e instanceof Fabric8VnfReplicaManager.TransientConditionException) {
            return true;
        }
        // No HTTP status (fabric8 reports 0 or -1): the request never got an answer.
        // Retry transport failures only (refused/reset connections, timeouts).
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            String cls = t.getClass().getName();
            if (t instanceof IOException || t instanceof TimeoutException || cls.contains("Timeout")
                    || cls.startsWith("io.netty.") || cls.startsWith("io.vertx.")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    static String describe(KubernetesClientException e) {
        StringBuilder sb = new StringBuilder();
        if (e.getCode() > 0) {
            sb.append("HTTP ").append(e.getCode()).append(' ');
        }
        sb.append(e.getMessage());
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != e) {
            sb.append(" (cause: ").append(root.getClass().getSimpleName()).append(": ")
                    .append(root.getMessage()).append(')');
        }
        return sb.toString();
    }
}
