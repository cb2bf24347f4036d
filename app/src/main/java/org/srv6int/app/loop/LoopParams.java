// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Parameters of the global loop. Immutable; built with {@link #builder()}.
 */
public final class LoopParams {

    /**
     * Which latency enters the demand C_i = R_i · L of Algorithm 4, line 8 (the paper writes
     * L_i and does not say what to do when L_i is mostly queueing).
     */
    public enum DemandLatency {
        /**
         * The window's tail latency L_i, as the paper writes it. A saturated vNF's L_i is the
         * time to drain its full receive ring, so C_i = R_i · L_i is the ring's occupancy and n
         * grows with the ring size (up to {@link LoopParams#maxReplicas()}), not with the traffic.
         */
        MEASURED,
        /**
         * min(L_i, L*_i): the work the vNF would hold at the longest latency it showed while
         * within its bound. Then n = ⌈R_i / R*_i⌉ once L_i &ge; L*_i, the traffic over the
         * per-replica rate the vNF carried within its bound, independent of the ring.
         */
        HEALTHY_TAIL
    }

    private final long tHatNanos;
    private final long cooldownNanos;
    private final double scaleInFraction;
    private final long scaleInHoldNanos;
    private final long drainQuietNanos;
    private final long drainTimeoutNanos;
    private final long releaseTimeoutNanos;
    private final long reservationTimeoutNanos;
    private final int maxReplicas;
    private final long minSamples;
    private final int historySize;
    private final DemandLatency demandLatency;
    private final boolean pushAside;
    private final double pushAsideMinSlack;
    private final long pushAsideTimeoutNanos;

    private LoopParams(Builder b) {
        this.tHatNanos = b.tHatNanos;
        this.cooldownNanos = b.cooldownNanos;
        this.scaleInFraction = b.scaleInFraction;
        this.scaleInHoldNanos = b.scaleInHoldNanos;
        this.drainQuietNanos = b.drainQuietNanos;
        this.drainTimeoutNanos = b.drainTimeoutNanos;
        this.releaseTimeoutNanos = b.releaseTimeoutNanos;
        this.reservationTimeoutNanos = b.reservationTimeoutNanos;
        this.maxReplicas = b.maxReplicas;
        this.minSamples = b.minSamples;
        this.historySize = b.historySize;
        this.demandLatency = b.demandLatency;
        this.pushAside = b.pushAside;
        this.pushAsideMinSlack = b.pushAsideMinSlack;
        this.pushAsideTimeoutNanos = b.pushAsideTimeoutNanos;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LoopParams)) {
            return false;
        }
        LoopParams p = (LoopParams) o;
        return tHatNanos == p.tHatNanos && cooldownNanos == p.cooldownNanos
                && Double.compare(scaleInFraction, p.scaleInFraction) == 0 && scaleInHoldNanos == p.scaleInHoldNanos
                && drainQuietNanos == p.drainQuietNanos && drainTimeoutNanos == p.drainTimeoutNanos
                && releaseTimeoutNanos == p.releaseTimeoutNanos && reservationTimeoutNanos == p.reservationTimeoutNanos
                && maxReplicas == p.maxReplicas
                && minSamples == p.minSamples && historySize == p.historySize && demandLatency == p.demandLatency
                && pushAside == p.pushAside && Double.compare(pushAsideMinSlack, p.pushAsideMinSlack) == 0
                && pushAsideTimeoutNanos == p.pushAsideTimeoutNanos;
    }

    @Override
    public int hashCode() {
        return Objects.hash(tHatNanos, cooldownNanos, scaleInFraction, scaleInHoldNanos, drainQuietNanos,
                            drainTimeoutNanos, releaseTimeoutNanos, reservationTimeoutNanos, maxReplicas, minSamples,
                            historySize, demandLatency, pushAside, pushAsideMinSlack, pushAsideTimeoutNanos);
    }

    /**
     * Returns a builder with the defaults (t̂ = 4 s as in the paper).
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return t̂: how long L_i &gt; Lmax_i must persist before scaling out, ns */
    public long tHatNanos() {
        return tHatNanos;
    }

    /** @return minimum time between two actions on one vNF, ns */
    public long cooldownNanos() {
        return cooldownNanos;
    }

    /** @return scale in when C_i &le; fraction · (replicas − 1) · C* */
    public double scaleInFraction() {
        return scaleInFraction;
    }

    /** @return how long the scale-in condition must hold, ns */
    public long scaleInHoldNanos() {
        return scaleInHoldNanos;
    }

    /** @return how long a draining replica's Port_Counter must stand still before its pod goes, ns */
    public long drainQuietNanos() {
        return drainQuietNanos;
    }

    /** @return when a drain is forced, ns after it started */
    public long drainTimeoutNanos() {
        return drainTimeoutNanos;
    }

    /**
     * @return how long a drained replica waits, from the start of its drain, for the switches to
     *         confirm that no entry steers to it any more; then the scale-in is given up (pod kept,
     *         replica back in the group). Default 90 s: the flow programming's default drain
     *         deadline (60 s) plus time to write and confirm the moves. ns
     */
    public long releaseTimeoutNanos() {
        return releaseTimeoutNanos;
    }

    /**
     * @return how long a reservation (a PENDING replica) that no create in flight owns may stay
     *         before the loop gives it back (its workload never became Ready, or its create's
     *         give-back failed). Default 150 s: the Kubernetes platform's default ready timeout
     *         (120 s) plus a margin. ns
     */
    public long reservationTimeoutNanos() {
        return reservationTimeoutNanos;
    }

    /** @return largest replica count of one vNF */
    public int maxReplicas() {
        return maxReplicas;
    }

    /** @return fewest latency samples for a window to count */
    public long minSamples() {
        return minSamples;
    }

    /** @return decisions kept in the history */
    public int historySize() {
        return historySize;
    }

    /** @return which latency enters the demand C_i (default {@link DemandLatency#HEALTHY_TAIL}) */
    public DemandLatency demandLatency() {
        return demandLatency;
    }

    /**
     * @return whether a vNF over its bound first tries CoCo's push-aside (a neighbour with slack
     *         moves to another node, the hot vNF's node agent takes the freed CPU) before scaling
     *         out; default false
     */
    public boolean pushAside() {
        return pushAside;
    }

    /** @return slack 1 - L_i/Lmax_i a neighbour needs to be pushed aside (default 0.3) */
    public double pushAsideMinSlack() {
        return pushAsideMinSlack;
    }

    /**
     * @return CoCo's timeout between two push-asides for one hot vNF: within it a violation that
     *         persists scales out (default 60 s), ns
     */
    public long pushAsideTimeoutNanos() {
        return pushAsideTimeoutNanos;
    }

    /**
     * Builder of {@link LoopParams}.
     */
    public static final class Builder {
        private long tHatNanos = TimeUnit.SECONDS.toNanos(4);
        private long cooldownNanos = TimeUnit.SECONDS.toNanos(10);
        private double scaleInFraction = 0.5;
        private long scaleInHoldNanos = TimeUnit.SECONDS.toNanos(30);
        private long drainQuietNanos = TimeUnit.SECONDS.toNanos(2);
        private long drainTimeoutNanos = TimeUnit.SECONDS.toNanos(60);
        private long releaseTimeoutNanos = TimeUnit.SECONDS.toNanos(90);
        private long reservationTimeoutNanos = TimeUnit.SECONDS.toNanos(150);
        private int maxReplicas = 8;
        private long minSamples = 1;
        private int historySize = 256;
        private DemandLatency demandLatency = DemandLatency.HEALTHY_TAIL;
        private boolean pushAside;
        private double pushAsideMinSlack = 0.3;
        private long pushAsideTimeoutNanos = TimeUnit.SECONDS.toNanos(60);

        private Builder() {
        }

        private static long positive(long v, String what) {
            if (v <= 0) {
                throw new IllegalArgumentException(what + " must be > 0, got " + v);
            }
            return v;
        }

        /**
         * Sets t̂.
         *
         * @param v ns, &gt; 0
         * @return this
         */
        public Builder tHatNanos(long v) {
            tHatNanos = positive(v, "t-hat");
            return this;
        }

        /**
         * Sets the cool-down.
         *
         * @param v ns, &ge; 0
         * @return this
         */
        public Builder cooldownNanos(long v) {
            if (v < 0) {
                throw new IllegalArgumentException("cool-down must be >= 0, got " + v);
            }
            cooldownNanos = v;
            return this;
        }

        /**
         * Sets the scale-in fraction.
         *
         * @param v in (0, 1)
         * @return this
         */
        public Builder scaleInFraction(double v) {
            if (!(v > 0 && v < 1)) {
                throw new IllegalArgumentException("scale-in fraction must be in (0,1), got " + v);
            }
            scaleInFraction = v;
            return this;
        }

        /**
         * Sets the scale-in hold time.
         *
         * @param v ns, &gt; 0
         * @return this
         */
        public Builder scaleInHoldNanos(long v) {
            scaleInHoldNanos = positive(v, "scale-in hold");
            return this;
        }

        /**
         * Sets the drain quiet time.
         *
         * @param v ns, &gt; 0
         * @return this
         */
        public Builder drainQuietNanos(long v) {
            drainQuietNanos = positive(v, "drain quiet time");
            return this;
        }

        /**
         * Sets the drain timeout.
         *
         * @param v ns, &gt; 0
         * @return this
         */
        public Builder drainTimeoutNanos(long v) {
            drainTimeoutNanos = positive(v, "drain timeout");
            return this;
        }

        /**
         * Sets how long a drained replica waits for the switches to stop steering to it.
         *
         * @param v ns, &gt; 0
         * @return this
         */
        public Builder releaseTimeoutNanos(long v) {
            releaseTimeoutNanos = positive(v, "release timeout");
            return this;
        }

        /**
         * Sets how long a reservation no create in flight owns may stay before it is given back.
         *
         * @param v ns, &gt; 0
         * @return this
         */
        public Builder reservationTimeoutNanos(long v) {
            reservationTimeoutNanos = positive(v, "reservation timeout");
            return this;
        }

        /**
         * Sets the replica cap.
         *
         * @param v &ge; 1
         * @return this
         */
        public Builder maxReplicas(int v) {
            maxReplicas = (int) positive(v, "max replicas");
            return this;
        }

        /**
         * Sets the minimum samples per window.
         *
         * @param v &ge; 1
         * @return this
         */
        public Builder minSamples(long v) {
            minSamples = positive(v, "min samples");
            return this;
        }

        /**
         * Sets the history size.
         *
         * @param v &ge; 1
         * @return this
         */
        public Builder historySize(int v) {
            historySize = (int) positive(v, "history size");
            return this;
        }

        /**
         * Sets which latency enters the demand C_i.
         *
         * @param v choice, not null
         * @return this
         */
        public Builder demandLatency(DemandLatency v) {
            if (v == null) {
                throw new IllegalArgumentException("demand latency is null");
            }
            demandLatency = v;
            return this;
        }

        /**
         * Switches push-aside before scale-out on or off.
         *
         * @param v true to try push-aside first
         * @return this
         */
        public Builder pushAside(boolean v) {
            pushAside = v;
            return this;
        }

        /**
         * Sets the slack a neighbour needs to be pushed aside.
         *
         * @param v in [0, 1)
         * @return this
         */
        public Builder pushAsideMinSlack(double v) {
            if (!(v >= 0 && v < 1)) {
                throw new IllegalArgumentException("push-aside slack must be in [0,1), got " + v);
            }
            pushAsideMinSlack = v;
            return this;
        }

        /**
         * Sets the timeout between two push-asides for one hot vNF.
         *
         * @param v ns, &gt; 0
         * @return this
         */
        public Builder pushAsideTimeoutNanos(long v) {
            pushAsideTimeoutNanos = positive(v, "push-aside timeout");
            return this;
        }

        /**
         * Builds the parameters.
         *
         * @return parameters
         */
        public LoopParams build() {
            return new LoopParams(this);
        }
    }
}
