// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * A service function chain: its ordered logical vNFs, its offered rate over time, its packet
 * size, its E2E latency bound, and the weighted paths (one segment list each) it is routed on.
 */
public final class Chain {
    private final String id;
    private final List<String> vnfs;
    private final DoubleUnaryOperator gbpsAt;
    private final int sizeBytes;
    private final double boundUs;
    private List<Path> paths = new ArrayList<>();

    /**
     * Creates a chain.
     *
     * @param id chain id as printed in timeline.csv
     * @param vnfs logical vNFs in order
     * @param gbpsAt offered rate in Gbit/s as a function of time in seconds
     * @param sizeBytes packet size
     * @param boundUs E2E p95 bound, microseconds
     */
    public Chain(String id, List<String> vnfs, DoubleUnaryOperator gbpsAt, int sizeBytes, double boundUs) {
        this.id = id;
        this.vnfs = List.copyOf(vnfs);
        this.gbpsAt = gbpsAt;
        this.sizeBytes = sizeBytes;
        this.boundUs = boundUs;
    }

    /** Chain id. */
    public String id() {
        return id;
    }

    /** Logical vNFs in order. */
    public List<String> vnfs() {
        return vnfs;
    }

    /** Offered Gbit/s at time t. */
    public double gbps(double tS) {
        return gbpsAt.applyAsDouble(tS);
    }

    /** Offered packets per second at time t. */
    public double pps(double tS) {
        return gbps(tS) * 1e9 / (8.0 * sizeBytes);
    }

    /** Packet size, bytes. */
    public int sizeBytes() {
        return sizeBytes;
    }

    /** E2E p95 bound, microseconds. */
    public double boundUs() {
        return boundUs;
    }

    /** Share of the E2E bound kept for links, switches and the tail of a sum of latencies. */
    public static final double NETWORK_RESERVE = 0.1;

    /** Each vNF's own bound Lmax: the chain's bound less the reserve, split evenly over its vNFs. */
    public double vnfBoundUs() {
        return boundUs * (1 - NETWORK_RESERVE) / vnfs.size();
    }

    /** Current weighted paths. */
    public List<Path> paths() {
        return Collections.unmodifiableList(paths);
    }

    /** Replaces the paths (what re-programming the ingress's multipath group does). */
    public void setPaths(List<Path> newPaths) {
        paths = new ArrayList<>(newPaths);
    }

    /** One weighted path: the vNF replicas a segment list visits, in order. */
    public static final class Path {
        private final double weight;
        private final List<VnfInstance> hops;

        /**
         * Creates a path.
         *
         * @param weight share of the chain's flows (weights of a chain sum to 1)
         * @param hops replicas visited in order
         */
        public Path(double weight, List<VnfInstance> hops) {
            this.weight = weight;
            this.hops = List.copyOf(hops);
        }

        /** Share of the chain's traffic. */
        public double weight() {
            return weight;
        }

        /** Replicas in order. */
        public List<VnfInstance> hops() {
            return hops;
        }
    }
}
