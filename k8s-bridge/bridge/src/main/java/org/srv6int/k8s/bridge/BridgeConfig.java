// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the bridge: namespace of the replicas and the retry budget for API
 * errors. Each operation makes at most {@code maxAttempts} attempts and stops
 * retrying once {@code retryBudget} has elapsed; back-off starts at
 * {@code initialBackoff} and doubles up to {@code maxBackoff}.
 */
public final class BridgeConfig {
    private final String namespace;
    private final int maxAttempts;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Duration retryBudget;
    private final Duration requestTimeout;

    /**
     * Creates a configuration.
     *
     * @param namespace namespace of the replicas
     * @param maxAttempts attempts per operation, at least 1
     * @param initialBackoff first back-off
     * @param maxBackoff largest back-off
     * @param retryBudget total time an operation may spend retrying
     * @param requestTimeout timeout of one API request
     */
    public BridgeConfig(String namespace, int maxAttempts, Duration initialBackoff, Duration maxBackoff,
                        Duration retryBudget, Duration requestTimeout) {
        ReplicaNames.checkChainId(Objects.requireNonNull(namespace, "namespace"));
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
        }
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0
                || retryBudget.isNegative() || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("need 0 <= initialBackoff <= maxBackoff, retryBudget >= 0 "
                    + "and requestTimeout > 0");
        }
        this.namespace = namespace;
        this.maxAttempts = maxAttempts;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.retryBudget = retryBudget;
        this.requestTimeout = requestTimeout;
    }

    /**
     * Defaults for a namespace: 10 attempts, 100 ms doubling to 5 s, 60 s budget,
     * 10 s per request (enough to ride out an API server restart).
     *
     * @param namespace namespace of the replicas
     * @return configuration
     */
    public static BridgeConfig defaults(String namespace) {
        return new BridgeConfig(namespace, 10, Duration.ofMillis(100), Duration.ofSeconds(5),
                Duration.ofSeconds(60), Duration.ofSeconds(10));
    }

    /**
     * Returns the namespace.
     *
     * @return namespace
     */
    public String namespace() {
        return namespace;
    }

    /**
     * Returns the attempts per operation.
     *
     * @return max attempts
     */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * Returns the first back-off.
     *
     * @return initial back-off
     */
    public Duration initialBackoff() {
        return initialBackoff;
    }

    /**
     * Returns the largest back-off.
     *
     * @return max back-off
     */
    public Duration maxBackoff() {
        return maxBackoff;
    }

    /**
     * Returns the total retry time per operation.
     *
     * @return retry budget
     */
    public Duration retryBudget() {
        return retryBudget;
    }

    /**
     * Returns the timeout of one API request.
     *
     * @return request timeout
     */
    public Duration requestTimeout() {
        return requestTimeout;
    }
}
