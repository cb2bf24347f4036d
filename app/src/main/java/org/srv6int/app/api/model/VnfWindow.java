// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;


import java.util.Map;

/**
 * Telemetry of one vNF over one fixed window: tail latency from the INT vNF_Latency samples
 * and throughput R_i from Port_Counter deltas of its replicas' hops.
 */
public final class VnfWindow {

    private final VnfKey vnf;
    private final long samples;
    private final long p50Nanos;
    private final long p95Nanos;
    private final long p99Nanos;
    private final long maxNanos;
    private final double ratePps;
    private final Map<String, Long> replicaPackets;

    public VnfWindow(VnfKey vnf, long samples, long p50Nanos, long p95Nanos, long p99Nanos, long maxNanos,
              double ratePps, Map<String, Long> replicaPackets) {
        this.vnf = vnf;
        this.samples = samples;
        this.p50Nanos = p50Nanos;
        this.p95Nanos = p95Nanos;
        this.p99Nanos = p99Nanos;
        this.maxNanos = maxNanos;
        this.ratePps = ratePps;
        this.replicaPackets = Map.copyOf(replicaPackets);
    }

    /** @return the vNF */
    public VnfKey vnf() {
        return vnf;
    }

    /** @return latency samples in the window */
    public long samples() {
        return samples;
    }

    /** @return median vNF latency, ns (0 without samples) */
    public long p50Nanos() {
        return p50Nanos;
    }

    /** @return tail (95th percentile) vNF latency L_i, ns (0 without samples) */
    public long p95Nanos() {
        return p95Nanos;
    }

    /** @return 99th percentile, ns */
    public long p99Nanos() {
        return p99Nanos;
    }

    /** @return largest sample, ns */
    public long maxNanos() {
        return maxNanos;
    }

    /** @return R_i: packets per second through all replicas */
    public double ratePps() {
        return ratePps;
    }

    /** @return packets per replica in the window (Port_Counter deltas) */
    public Map<String, Long> replicaPackets() {
        return replicaPackets;
    }

    @Override
    public String toString() {
        return String.format("%s samples=%d p50=%dns p95=%dns p99=%dns max=%dns R=%.1fpps replicas=%s",
                             vnf, samples, p50Nanos, p95Nanos, p99Nanos, maxNanos, ratePps, replicaPackets);
    }
}
