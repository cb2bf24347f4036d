// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.VnfKey;
import java.util.List;
import java.util.Map;

/**
 * What the loop sees of one vNF for one telemetry window (Algorithm 4, lines 3-4).
 */
public final class VnfObservation {

    private final VnfKey vnf;
    private final long lmaxNanos;
    private final double ratePps;
    private final long latencyNanos;
    private final long samples;
    private final List<String> activeReplicas;
    private final Map<String, Long> replicaPackets;

    /**
     * Creates an observation.
     *
     * @param vnf            vNF
     * @param lmaxNanos      the vNF's tail-latency bound Lmax
     * @param ratePps        R_i: packets per second through all the vNF's replicas
     * @param latencyNanos   L_i: the window's tail (p95) vNF latency
     * @param samples        latency samples in the window
     * @param activeReplicas replica ids in the chain's multipath group, oldest first
     * @param replicaPackets packets counted in the window per replica (draining ones included)
     */
    public VnfObservation(VnfKey vnf, long lmaxNanos, double ratePps, long latencyNanos, long samples,
                          List<String> activeReplicas, Map<String, Long> replicaPackets) {
        this.vnf = vnf;
        this.lmaxNanos = lmaxNanos;
        this.ratePps = ratePps;
        this.latencyNanos = latencyNanos;
        this.samples = samples;
        this.activeReplicas = List.copyOf(activeReplicas);
        this.replicaPackets = Map.copyOf(replicaPackets);
    }

    /**
     * Returns the vNF.
     *
     * @return key
     */
    public VnfKey vnf() {
        return vnf;
    }

    /**
     * Returns the bound Lmax in ns.
     *
     * @return ns
     */
    public long lmaxNanos() {
        return lmaxNanos;
    }

    /**
     * Returns R_i in packets per second.
     *
     * @return pps
     */
    public double ratePps() {
        return ratePps;
    }

    /**
     * Returns L_i (window p95) in ns.
     *
     * @return ns
     */
    public long latencyNanos() {
        return latencyNanos;
    }

    /**
     * Returns the number of latency samples in the window.
     *
     * @return samples
     */
    public long samples() {
        return samples;
    }

    /**
     * Returns the active replica ids, oldest first.
     *
     * @return ids
     */
    public List<String> activeReplicas() {
        return activeReplicas;
    }

    /**
     * Returns per-replica packet counts of the window.
     *
     * @return replica id to packets
     */
    public Map<String, Long> replicaPackets() {
        return replicaPackets;
    }
}
