// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.util.Objects;

/**
 * Settings of the Kafka export (netcfg {@code apps/org.srv6int.app/export}, field {@code kafka}):
 * where to publish, how much to hold, and whether (and how many) per-report records to publish.
 */
public final class KafkaSettings {

    /** Default topic prefix: topics are {@code <prefix>.chain-summary} and {@code <prefix>.vnf-summary}. */
    public static final String DEFAULT_TOPIC_PREFIX = "srv6int";
    /** Default capacity of each hand-off queue, in records. */
    public static final int DEFAULT_QUEUE_RECORDS = 10_000;
    /** Default producer buffer (buffer.memory). */
    public static final long DEFAULT_BUFFER_BYTES = 4L << 20;
    /** Default max.block.ms: how long the export thread may wait in send(). */
    public static final int DEFAULT_MAX_BLOCK_MS = 100;
    /** Default delivery.timeout.ms: how long a summary is retried before it is counted failed. */
    public static final int DEFAULT_DELIVERY_TIMEOUT_MS = 120_000;

    private final String bootstrapServers;
    private final String topicPrefix;
    private final int queueRecords;
    private final long bufferBytes;
    private final int maxBlockMs;
    private final int deliveryTimeoutMs;
    private final IntReportSettings intReports;
    private final KafkaSecurity security;

    /**
     * Creates settings.
     *
     * @param bootstrapServers  bootstrap.servers, host:port[,host:port...]
     * @param topicPrefix       prefix of the topics
     * @param queueRecords      capacity of each hand-off queue
     * @param bufferBytes       producer buffer.memory
     * @param maxBlockMs        producer max.block.ms
     * @param deliveryTimeoutMs producer delivery.timeout.ms
     */
    public KafkaSettings(String bootstrapServers, String topicPrefix, int queueRecords, long bufferBytes,
                         int maxBlockMs, int deliveryTimeoutMs) {
        this(bootstrapServers, topicPrefix, queueRecords, bufferBytes, maxBlockMs, deliveryTimeoutMs, null);
    }

    /**
     * Creates settings with per-report records.
     *
     * @param bootstrapServers  bootstrap.servers, host:port[,host:port...]
     * @param topicPrefix       prefix of the topics
     * @param queueRecords      capacity of each summary hand-off queue
     * @param bufferBytes       producer buffer.memory
     * @param maxBlockMs        producer max.block.ms
     * @param deliveryTimeoutMs producer delivery.timeout.ms
     * @param intReports        per-report records, null for none
     */
    public KafkaSettings(String bootstrapServers, String topicPrefix, int queueRecords, long bufferBytes,
                         int maxBlockMs, int deliveryTimeoutMs, IntReportSettings intReports) {
        this(bootstrapServers, topicPrefix, queueRecords, bufferBytes, maxBlockMs, deliveryTimeoutMs, intReports, null);
    }

    /**
     * Creates settings with TLS (and SASL).
     *
     * @param bootstrapServers  host:port list
     * @param topicPrefix       topic prefix
     * @param queueRecords      hand-off queue bound per kind
     * @param bufferBytes       producer buffer
     * @param maxBlockMs        how long a send may block
     * @param deliveryTimeoutMs delivery time-out
     * @param intReports        per-report records, or null
     * @param security          TLS and SASL, or null for plain TCP
     */
    public KafkaSettings(String bootstrapServers, String topicPrefix, int queueRecords, long bufferBytes,
                         int maxBlockMs, int deliveryTimeoutMs, IntReportSettings intReports, KafkaSecurity security) {
        this.security = security;
        this.intReports = intReports;
        this.bootstrapServers = Objects.requireNonNull(bootstrapServers);
        this.topicPrefix = Objects.requireNonNull(topicPrefix);
        this.queueRecords = queueRecords;
        this.bufferBytes = bufferBytes;
        this.maxBlockMs = maxBlockMs;
        this.deliveryTimeoutMs = deliveryTimeoutMs;
    }

    /**
     * Settings with defaults for everything but the servers.
     *
     * @param bootstrapServers bootstrap.servers
     * @return settings
     */
    public static KafkaSettings of(String bootstrapServers) {
        return new KafkaSettings(bootstrapServers, DEFAULT_TOPIC_PREFIX, DEFAULT_QUEUE_RECORDS, DEFAULT_BUFFER_BYTES,
                                 DEFAULT_MAX_BLOCK_MS, DEFAULT_DELIVERY_TIMEOUT_MS);
    }

    /** @return bootstrap.servers */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** @return topic prefix */
    public String topicPrefix() {
        return topicPrefix;
    }

    /**
     * Returns the topic of a kind of record.
     *
     * @param kind kind
     * @return topic name
     */
    public String topic(ExportRecord.Kind kind) {
        return topicPrefix + "." + kind.topicSuffix();
    }

    /** @return capacity of each hand-off queue, in records */
    public int queueRecords() {
        return queueRecords;
    }

    /** @return producer buffer.memory */
    public long bufferBytes() {
        return bufferBytes;
    }

    /** @return producer max.block.ms */
    public int maxBlockMs() {
        return maxBlockMs;
    }

    /** @return TLS and SASL, null for plain TCP */
    public KafkaSecurity security() {
        return security;
    }

    /** @return per-report records, null if off */
    public IntReportSettings intReports() {
        return intReports;
    }

    /** @return producer delivery.timeout.ms */
    public int deliveryTimeoutMs() {
        return deliveryTimeoutMs;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KafkaSettings)) {
            return false;
        }
        KafkaSettings s = (KafkaSettings) o;
        return bootstrapServers.equals(s.bootstrapServers) && topicPrefix.equals(s.topicPrefix)
                && queueRecords == s.queueRecords && bufferBytes == s.bufferBytes && maxBlockMs == s.maxBlockMs
                && deliveryTimeoutMs == s.deliveryTimeoutMs && Objects.equals(intReports, s.intReports)
                && Objects.equals(security, s.security);
    }

    @Override
    public int hashCode() {
        return Objects.hash(bootstrapServers, topicPrefix, queueRecords, bufferBytes, maxBlockMs, deliveryTimeoutMs,
                            intReports, security);
    }

    @Override
    public String toString() {
        return "kafka " + bootstrapServers + " topics " + topicPrefix + ".* queue=" + queueRecords + " buffer="
                + bufferBytes + " maxBlockMs=" + maxBlockMs + " deliveryTimeoutMs=" + deliveryTimeoutMs
                + (intReports == null ? "" : " " + intReports);
    }
}
