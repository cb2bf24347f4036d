// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;

import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * What the INT collector currently knows about one vNF of a chain, from the
 * vNF_Latency of INT metadata written by the switch the vNF hangs off
 * (aggregated over all its replicas).
 */
public final class VnfTelemetry {

    private final VnfKey vnf;
    private final double throughputPps;
    private final long p95LatencyNanos;
    private final long queueDepth;
    private final long samples;
    private final long updatedMillis;

    /**
     * Creates a snapshot.
     *
     * @param vnf             vNF key
     * @param throughputPps   packets per second through the vNF (R_i)
     * @param p95LatencyNanos 95th-percentile processing latency of the
     *                        current window (L_i), ns
     * @param queueDepth      last egress queue depth (packets) at the vNF's switch
     * @param samples         INT samples counted for this vNF since start
     * @param updatedMillis   wall-clock time of the last sample, ms since epoch
     */
    public VnfTelemetry(VnfKey vnf, double throughputPps, long p95LatencyNanos, long queueDepth, long samples,
                        long updatedMillis) {
        this.vnf = checkNotNull(vnf, "vNF key is null");
        this.throughputPps = throughputPps;
        this.p95LatencyNanos = p95LatencyNanos;
        this.queueDepth = queueDepth;
        this.samples = samples;
        this.updatedMillis = updatedMillis;
    }

    /**
     * Returns the vNF key.
     *
     * @return key
     */
    public VnfKey vnf() {
        return vnf;
    }

    /**
     * Returns the throughput R_i.
     *
     * @return packets per second
     */
    public double throughputPps() {
        return throughputPps;
    }

    /**
     * Returns the 95th-percentile processing latency L_i.
     *
     * @return ns
     */
    public long p95LatencyNanos() {
        return p95LatencyNanos;
    }

    /**
     * Returns the last queue depth seen at the vNF's switch.
     *
     * @return packets
     */
    public long queueDepth() {
        return queueDepth;
    }

    /**
     * Returns the number of INT samples seen for this vNF.
     *
     * @return samples
     */
    public long samples() {
        return samples;
    }

    /**
     * Returns when the last sample arrived.
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
        if (!(o instanceof VnfTelemetry)) {
            return false;
        }
        VnfTelemetry that = (VnfTelemetry) o;
        return Double.compare(that.throughputPps, throughputPps) == 0 && p95LatencyNanos == that.p95LatencyNanos
                && queueDepth == that.queueDepth && samples == that.samples
                && updatedMillis == that.updatedMillis && vnf.equals(that.vnf);
    }

    @Override
    public int hashCode() {
        return Objects.hash(vnf, throughputPps, p95LatencyNanos, queueDepth, samples, updatedMillis);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("vnf", vnf).add("pps", throughputPps)
                .add("p95Ns", p95LatencyNanos).add("queueDepth", queueDepth).add("samples", samples)
                .add("updatedMillis", updatedMillis).toString();
    }
}
