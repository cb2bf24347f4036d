// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

/**
 * What one INT-sampled packet of a chain tells the egress (and so the collector): which
 * replicas it went through, each one's vNF_Latency, the ingress In_Time and the E2E latency.
 */
public final class IntSample {
    private final String chain;
    private final long ingressNs;
    private final VnfInstance[] hops;
    private final long[] vnfLatencyNs;
    private final long e2eNs;

    IntSample(String chain, long ingressNs, VnfInstance[] hops, long[] vnfLatencyNs, long e2eNs) {
        this.chain = chain;
        this.ingressNs = ingressNs;
        this.hops = hops.clone();
        this.vnfLatencyNs = vnfLatencyNs.clone();
        this.e2eNs = e2eNs;
    }

    /** Chain id. */
    public String chain() {
        return chain;
    }

    /** Ingress timestamp, ns of simulated time. */
    public long ingressNs() {
        return ingressNs;
    }

    /** Number of vNF hops. */
    public int hopCount() {
        return hops.length;
    }

    /** Replica at hop k. */
    public VnfInstance hop(int k) {
        return hops[k];
    }

    /** vNF latency at hop k, ns. */
    public long vnfLatencyNs(int k) {
        return vnfLatencyNs[k];
    }

    /** Ingress-to-egress latency, ns. */
    public long e2eNs() {
        return e2eNs;
    }
}
