// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.util.Map;

/**
 * What one export did with one kind of record, read for the metrics: counts by result since the
 * app started, producer refusals tried again, and what waits in the hand-off queue now.
 */
public final class ExportStats {

    private final String sink;
    private final ExportRecord.Kind kind;
    private final Map<ExportCounters.Result, Long> counts;
    private final long retries;
    private final int queued;

    /**
     * Creates stats.
     *
     * @param sink    export name (kafka)
     * @param kind    kind of record
     * @param counts  records by result
     * @param retries sends refused by the producer and tried again
     * @param queued  records in the hand-off queue now
     */
    public ExportStats(String sink, ExportRecord.Kind kind, Map<ExportCounters.Result, Long> counts, long retries,
                       int queued) {
        this.sink = sink;
        this.kind = kind;
        this.counts = Map.copyOf(counts);
        this.retries = retries;
        this.queued = queued;
    }

    /** @return export name */
    public String sink() {
        return sink;
    }

    /** @return kind */
    public ExportRecord.Kind kind() {
        return kind;
    }

    /** @return records by result */
    public Map<ExportCounters.Result, Long> counts() {
        return counts;
    }

    /** @return sends refused by the producer and tried again */
    public long retries() {
        return retries;
    }

    /** @return records in the hand-off queue now */
    public int queued() {
        return queued;
    }
}
