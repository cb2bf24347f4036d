// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;

import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * The global loop's view of one vNF (Algorithm 4 inputs): its bound, the
 * latest L_i and R_i, since when it has been over its bound and how many
 * replicas it has.
 */
public final class VnfLoopState {

    private final VnfKey vnf;
    private final long lmaxNanos;
    private final long latencyNanos;
    private final double throughputPps;
    private final long violatingSinceMillis;
    private final int replicas;

    /**
     * Creates the state.
     *
     * @param vnf                  vNF key
     * @param lmaxNanos            tail-latency bound Lmax_i, ns
     * @param latencyNanos         latest L_i, ns
     * @param throughputPps        latest R_i, packets per second
     * @param violatingSinceMillis when L_i first exceeded Lmax_i in the current
     *                             violation, ms since epoch; 0 if not violating
     * @param replicas             replicas carrying traffic
     */
    public VnfLoopState(VnfKey vnf, long lmaxNanos, long latencyNanos, double throughputPps,
                        long violatingSinceMillis, int replicas) {
        this.vnf = checkNotNull(vnf, "vNF key is null");
        this.lmaxNanos = lmaxNanos;
        this.latencyNanos = latencyNanos;
        this.throughputPps = throughputPps;
        this.violatingSinceMillis = violatingSinceMillis;
        this.replicas = replicas;
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
     * Returns Lmax_i.
     *
     * @return ns
     */
    public long lmaxNanos() {
        return lmaxNanos;
    }

    /**
     * Returns L_i.
     *
     * @return ns
     */
    public long latencyNanos() {
        return latencyNanos;
    }

    /**
     * Returns R_i.
     *
     * @return packets per second
     */
    public double throughputPps() {
        return throughputPps;
    }

    /**
     * Returns when the current violation began, 0 if none.
     *
     * @return ms since epoch
     */
    public long violatingSinceMillis() {
        return violatingSinceMillis;
    }

    /**
     * Returns whether L_i is over Lmax_i now.
     *
     * @return true if violating
     */
    public boolean violating() {
        return violatingSinceMillis != 0;
    }

    /**
     * Returns the number of replicas carrying traffic.
     *
     * @return replicas
     */
    public int replicas() {
        return replicas;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof VnfLoopState)) {
            return false;
        }
        VnfLoopState that = (VnfLoopState) o;
        return lmaxNanos == that.lmaxNanos && latencyNanos == that.latencyNanos
                && Double.compare(that.throughputPps, throughputPps) == 0
                && violatingSinceMillis == that.violatingSinceMillis && replicas == that.replicas
                && vnf.equals(that.vnf);
    }

    @Override
    public int hashCode() {
        return Objects.hash(vnf, lmaxNanos, latencyNanos, throughputPps, violatingSinceMillis, replicas);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("vnf", vnf).add("lmaxNs", lmaxNanos).add("latencyNs", latencyNanos)
                .add("pps", throughputPps).add("violatingSince", violatingSinceMillis).add("replicas", replicas)
                .toString();
    }
}
