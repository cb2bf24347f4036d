// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.srv6int.app.api.ReportTap;
import org.srv6int.app.api.model.SampledReport;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The collector side of the per-report records: the receive threads offer sampled reports into a
 * lock-free bounded queue (a full queue drops the report and counts it), the Kafka export thread
 * takes them and turns them into records.
 */
public final class IntReportTap implements ReportTap {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final IntReportSettings settings;
    private final ExportCounters counters;
    private final Queue<SampledReport> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private volatile boolean closed;

    /**
     * Creates an open tap.
     *
     * @param settings sampling and queue capacity
     * @param counters where drops are counted (kind int_report)
     */
    public IntReportTap(IntReportSettings settings, ExportCounters counters) {
        this.settings = settings;
        this.counters = counters;
    }

    @Override
    public int sampleEvery() {
        return settings.sampleEvery();
    }

    @Override
    public int maxPerSecond() {
        return settings.maxPerSecond();
    }

    @Override
    public void offer(SampledReport report) {
        if (closed) {
            counters.add(ExportRecord.Kind.INT_REPORT, ExportCounters.Result.DROPPED_AT_CLOSE);
            return;
        }
        if (size.incrementAndGet() > settings.queueRecords()) {
            size.decrementAndGet();
            counters.add(ExportRecord.Kind.INT_REPORT, ExportCounters.Result.DROPPED_QUEUE_FULL);
            return;
        }
        queue.add(report);
    }

    /** @return the next sampled report, null if none waits */
    public SampledReport poll() {
        SampledReport r = queue.poll();
        if (r != null) {
            size.decrementAndGet();
        }
        return r;
    }

    /** @return reports waiting */
    public int queued() {
        return size.get();
    }

    /** Refuses further reports; what waits counts as dropped at close. */
    void close() {
        closed = true;
        while (poll() != null) {
            counters.add(ExportRecord.Kind.INT_REPORT, ExportCounters.Result.DROPPED_AT_CLOSE);
        }
    }

    /**
     * The record of a sampled report: keyed by chain, JSON with the reporter, sequence number and
     * each hop's INT metadata.
     *
     * @param r               the report
     * @param instance        this ONOS instance
     * @param timestampMillis wall clock when the record is built
     * @param sampleEvery     the sampling in force
     * @return record
     */
    public static ExportRecord record(SampledReport r, String instance, long timestampMillis, int sampleEvery) {
        ObjectNode n = JSON.createObjectNode()
                .put("instance", instance)
                .put("timestampMillis", timestampMillis)
                .put("sampleEvery", sampleEvery)
                .put("chain", r.chainTag())
                .put("reporter", r.reporterDeviceId())
                .put("sequence", r.sequence());
        ArrayNode hops = n.putArray("hops");
        for (int h = 0; h < r.hops(); h++) {
            hops.addObject()
                    .put("device", r.deviceId(h))
                    .put("inTimeNanos", r.inTime(h))
                    .put("vnfLatencyNanos", r.vnfLatency(h))
                    .put("queueLength", r.queueLength(h))
                    .put("portCounter", r.portCounter(h));
        }
        return new ExportRecord(ExportRecord.Kind.INT_REPORT, Integer.toString(r.chainTag()), n.toString());
    }
}
