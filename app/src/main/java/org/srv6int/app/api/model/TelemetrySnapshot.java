// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import java.util.List;

/**
 * The telemetry of one closed window plus the collector's counters.
 */
public final class TelemetrySnapshot {

    private final long windowStartNanos;
    private final long windowEndNanos;
    private final List<VnfWindow> vnfs;
    private final List<ChainWindow> chains;
    private final List<HopQueue> hops;
    private final CollectorCounters counters;
    private final List<PeerWindow> peers;

    public TelemetrySnapshot(long windowStartNanos, long windowEndNanos, List<VnfWindow> vnfs,
                      List<ChainWindow> chains, List<HopQueue> hops, CollectorCounters counters,
                      List<PeerWindow> peers) {
        this.windowStartNanos = windowStartNanos;
        this.windowEndNanos = windowEndNanos;
        this.vnfs = List.copyOf(vnfs);
        this.chains = List.copyOf(chains);
        this.hops = List.copyOf(hops);
        this.counters = counters;
        this.peers = List.copyOf(peers);
    }

    /** @return window start on the engine's clock, ns */
    public long windowStartNanos() {
        return windowStartNanos;
    }

    /** @return window end on the engine's clock, ns */
    public long windowEndNanos() {
        return windowEndNanos;
    }

    /** @return per-vNF telemetry */
    public List<VnfWindow> vnfs() {
        return vnfs;
    }

    /** @return per-chain telemetry */
    public List<ChainWindow> chains() {
        return chains;
    }

    /** @return per-hop queue depth */
    public List<HopQueue> hops() {
        return hops;
    }

    /**
     * Returns the cluster instances whose windows this one holds (this instance's first, age 0),
     * and those left out as stale; empty for a window of this instance alone.
     *
     * @return contributions
     */
    public List<PeerWindow> peers() {
        return peers;
    }

    /** @return this instance's collector counters at the window's end */
    public CollectorCounters counters() {
        return counters;
    }
}
