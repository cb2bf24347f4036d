// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.util.Objects;

/**
 * Settings of the OTLP export of the metrics (netcfg {@code apps/org.srv6int.app/export}, field
 * {@code otlp}): where to push (OTLP/HTTP protobuf), how often, how long one push may take, and
 * how many pushes may wait while the collector is slow.
 */
public final class OtlpSettings {

    /** Default push interval. */
    public static final int DEFAULT_INTERVAL_MS = 10_000;
    /** Default timeout of one push (connect and response). */
    public static final int DEFAULT_TIMEOUT_MS = 5_000;
    /** Default capacity of the hand-off queue, in pushes (each one full set of metrics). */
    public static final int DEFAULT_QUEUE_BATCHES = 4;

    private final String endpoint;
    private final int intervalMs;
    private final int timeoutMs;
    private final int queueBatches;
    private final OtlpSecurity security;

    /**
     * Creates settings.
     *
     * @param endpoint     OTLP/HTTP metrics URL, e.g. {@code http://collector:4318/v1/metrics}
     * @param intervalMs   push interval
     * @param timeoutMs    timeout of one push
     * @param queueBatches capacity of the hand-off queue
     */
    public OtlpSettings(String endpoint, int intervalMs, int timeoutMs, int queueBatches) {
        this(endpoint, intervalMs, timeoutMs, queueBatches, null);
    }

    /**
     * Creates settings with headers and TLS.
     *
     * @param endpoint     OTLP/HTTP metrics URL
     * @param intervalMs   push interval
     * @param timeoutMs    timeout of one push
     * @param queueBatches capacity of the hand-off queue
     * @param security     headers and TLS, or null for none
     */
    public OtlpSettings(String endpoint, int intervalMs, int timeoutMs, int queueBatches, OtlpSecurity security) {
        this.endpoint = Objects.requireNonNull(endpoint);
        this.intervalMs = intervalMs;
        this.timeoutMs = timeoutMs;
        this.queueBatches = queueBatches;
        this.security = security;
    }

    /**
     * Settings with defaults for everything but the endpoint.
     *
     * @param endpoint OTLP/HTTP metrics URL
     * @return settings
     */
    public static OtlpSettings of(String endpoint) {
        return new OtlpSettings(endpoint, DEFAULT_INTERVAL_MS, DEFAULT_TIMEOUT_MS, DEFAULT_QUEUE_BATCHES);
    }

    /** @return OTLP/HTTP metrics URL */
    public String endpoint() {
        return endpoint;
    }

    /** @return push interval in ms */
    public int intervalMs() {
        return intervalMs;
    }

    /** @return timeout of one push in ms */
    public int timeoutMs() {
        return timeoutMs;
    }

    /** @return capacity of the hand-off queue in pushes */
    public int queueBatches() {
        return queueBatches;
    }

    /** @return headers and TLS, or null for none */
    public OtlpSecurity security() {
        return security;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof OtlpSettings)) {
            return false;
        }
        OtlpSettings s = (OtlpSettings) o;
        return endpoint.equals(s.endpoint) && intervalMs == s.intervalMs && timeoutMs == s.timeoutMs
                && queueBatches == s.queueBatches && Objects.equals(security, s.security);
    }

    @Override
    public int hashCode() {
        return Objects.hash(endpoint, intervalMs, timeoutMs, queueBatches, security);
    }

    @Override
    public String toString() {
        return "otlp " + endpoint + " every " + intervalMs + " ms (timeout " + timeoutMs + " ms, queue "
                + queueBatches + (security == null ? "" : ", " + security) + ")";
    }
}
