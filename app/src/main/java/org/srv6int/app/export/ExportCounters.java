// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What became of the records handed to one export, by kind: counted without locks, so the
 * collector's threads that hand records over never wait for a reader.
 */
public final class ExportCounters {

    /** What became of a record. */
    public enum Result {
        /** Handed over and acknowledged by the sink. */
        ACKED,
        /** The sink refused it for good (for Kafka: delivery.timeout.ms passed, or a fatal error). */
        FAILED,
        /** Not handed over: the hand-off queue was full. */
        DROPPED_QUEUE_FULL,
        /** Still queued when the export was closed (reconfigured or stopped). */
        DROPPED_AT_CLOSE;

        /** @return label value */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final int RESULTS = Result.values().length;
    private final AtomicLongArray counts = new AtomicLongArray(ExportRecord.Kind.values().length * RESULTS);
    private final AtomicLongArray retries = new AtomicLongArray(ExportRecord.Kind.values().length);

    void add(ExportRecord.Kind kind, Result result) {
        counts.incrementAndGet(kind.ordinal() * RESULTS + result.ordinal());
    }

    void retried(ExportRecord.Kind kind) {
        retries.incrementAndGet(kind.ordinal());
    }

    /**
     * Returns a count.
     *
     * @param kind   kind
     * @param result result
     * @return records so far
     */
    public long get(ExportRecord.Kind kind, Result result) {
        return counts.get(kind.ordinal() * RESULTS + result.ordinal());
    }

    /**
     * Returns how often a send of this kind was refused by the producer and tried again.
     *
     * @param kind kind
     * @return retries so far
     */
    public long retries(ExportRecord.Kind kind) {
        return retries.get(kind.ordinal());
    }

    /**
     * Returns every count of a kind.
     *
     * @param kind kind
     * @return counts by result
     */
    public Map<Result, Long> of(ExportRecord.Kind kind) {
        Map<Result, Long> m = new EnumMap<>(Result.class);
        for (Result r : Result.values()) {
            m.put(r, get(kind, r));
        }
        return m;
    }
}
