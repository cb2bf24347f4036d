// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

/**
 * Telemetry of one chain over one window: end-to-end latency (egress In_Time minus ingress
 * In_Time) and throughput from the egress hop's Port_Counter.
 */
public final class ChainWindow {

    private final int chainTag;
    private final long reports;
    private final long e2eP95Nanos;
    private final long e2eMaxNanos;
    private final double ratePps;

    public ChainWindow(int chainTag, long reports, long e2eP95Nanos, long e2eMaxNanos, double ratePps) {
        this.chainTag = chainTag;
        this.reports = reports;
        this.e2eP95Nanos = e2eP95Nanos;
        this.e2eMaxNanos = e2eMaxNanos;
        this.ratePps = ratePps;
    }

    /** @return chain id (SRH Tag) */
    public int chainTag() {
        return chainTag;
    }

    /** @return E2E latency samples (reports) in the window */
    public long reports() {
        return reports;
    }

    /** @return 95th percentile E2E latency, ns */
    public long e2eP95Nanos() {
        return e2eP95Nanos;
    }

    /** @return largest E2E latency, ns */
    public long e2eMaxNanos() {
        return e2eMaxNanos;
    }

    /** @return packets per second at the egress */
    public double ratePps() {
        return ratePps;
    }

    @Override
    public String toString() {
        return String.format("sfc%d reports=%d e2eP95=%dns e2eMax=%dns R=%.1fpps",
                             chainTag, reports, e2eP95Nanos, e2eMaxNanos, ratePps);
    }
}
