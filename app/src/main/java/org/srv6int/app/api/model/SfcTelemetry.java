// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;

import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * What the INT collector currently knows about a whole chain, from the INT
 * reports of its egress: end-to-end latency (egress minus ingress In_Time),
 * throughput and the deepest queue on the path.
 */
public final class SfcTelemetry {

    private final SfcId sfcId;
    private final double throughputPps;
    private final long p95E2eLatencyNanos;
    private final long maxQueueDepth;
    private final long reports;
    private final long updatedMillis;

    /**
     * Creates a snapshot.
     *
     * @param sfcId              chain id
     * @param throughputPps      packets per second of the chain
     * @param p95E2eLatencyNanos 95th-percentile end-to-end latency of the current window, ns
     * @param maxQueueDepth      deepest queue (packets) in the last report's INT metadata
     * @param reports            INT reports counted for this chain since start
     * @param updatedMillis      wall-clock time of the last report, ms since epoch
     */
    public SfcTelemetry(SfcId sfcId, double throughputPps, long p95E2eLatencyNanos, long maxQueueDepth,
                        long reports, long updatedMillis) {
        this.sfcId = checkNotNull(sfcId, "chain id is null");
        this.throughputPps = throughputPps;
        this.p95E2eLatencyNanos = p95E2eLatencyNanos;
        this.maxQueueDepth = maxQueueDepth;
        this.reports = reports;
        this.updatedMillis = updatedMillis;
    }

    /**
     * Returns the chain id.
     *
     * @return chain id
     */
    public SfcId sfcId() {
        return sfcId;
    }

    /**
     * Returns the chain's throughput.
     *
     * @return packets per second
     */
    public double throughputPps() {
        return throughputPps;
    }

    /**
     * Returns the 95th-percentile end-to-end latency.
     *
     * @return ns
     */
    public long p95E2eLatencyNanos() {
        return p95E2eLatencyNanos;
    }

    /**
     * Returns the deepest queue on the path in the last report.
     *
     * @return packets
     */
    public long maxQueueDepth() {
        return maxQueueDepth;
    }

    /**
     * Returns the number of INT reports seen for this chain.
     *
     * @return reports
     */
    public long reports() {
        return reports;
    }

    /**
     * Returns when the last report arrived.
     *
     * @return ms since epoch
     */
    public long updatedMillis() {
        return updatedMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SfcTelemetry)) {
            return false;
        }
        SfcTelemetry that = (SfcTelemetry) o;
        return Double.compare(that.throughputPps, throughputPps) == 0
                && p95E2eLatencyNanos == that.p95E2eLatencyNanos && maxQueueDepth == that.maxQueueDepth
                && reports == that.reports && updatedMillis == that.updatedMillis && sfcId.equals(that.sfcId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sfcId, throughputPps, p95E2eLatencyNanos, maxQueueDepth, reports, updatedMillis);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("sfcId", sfcId).add("pps", throughputPps)
                .add("p95E2eNs", p95E2eLatencyNanos).add("maxQueueDepth", maxQueueDepth).add("reports", reports)
                .add("updatedMillis", updatedMillis).toString();
    }
}
