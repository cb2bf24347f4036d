// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.util.Objects;

/**
 * Settings of the per-report Kafka records (netcfg {@code export.kafka.intReports}): one accepted
 * INT report in {@code sampleEvery}, at most {@code maxPerSecond} a second over all receive
 * threads, through a hand-off queue of {@code queueRecords}.
 */
public final class IntReportSettings {

    /** Default sampling: one report in this many. */
    public static final int DEFAULT_SAMPLE_EVERY = 100;
    /** Default rate cap, records per second. */
    public static final int DEFAULT_MAX_PER_SECOND = 1000;
    /** Default capacity of the hand-off queue. */
    public static final int DEFAULT_QUEUE_RECORDS = 10_000;

    private final int sampleEvery;
    private final int maxPerSecond;
    private final int queueRecords;

    /**
     * Creates settings.
     *
     * @param sampleEvery  one report in this many
     * @param maxPerSecond rate cap
     * @param queueRecords queue capacity
     */
    public IntReportSettings(int sampleEvery, int maxPerSecond, int queueRecords) {
        this.sampleEvery = sampleEvery;
        this.maxPerSecond = maxPerSecond;
        this.queueRecords = queueRecords;
    }

    /** @return one report in this many */
    public int sampleEvery() {
        return sampleEvery;
    }

    /** @return cap on records per second */
    public int maxPerSecond() {
        return maxPerSecond;
    }

    /** @return capacity of the hand-off queue */
    public int queueRecords() {
        return queueRecords;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IntReportSettings && sampleEvery == ((IntReportSettings) o).sampleEvery
                && maxPerSecond == ((IntReportSettings) o).maxPerSecond
                && queueRecords == ((IntReportSettings) o).queueRecords;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sampleEvery, maxPerSecond, queueRecords);
    }

    @Override
    public String toString() {
        return "intReports 1/" + sampleEvery + " <=" + maxPerSecond + "/s queue=" + queueRecords;
    }
}
