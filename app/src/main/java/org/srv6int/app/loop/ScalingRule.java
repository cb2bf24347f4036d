// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

/**
 * Algorithm 4's scaling rule on one vNF's state: lines 5–7 (R*, L* from windows within the bound,
 * the violation timer), line 8 (the violation outlasted t̂, or an agent's fresh escalation),
 * the demand C_i, n = ⌈C_i / C*⌉ and the target, the cool-down, and the scale-in condition
 * (docs/global-loop.md).
 */
final class ScalingRule {

    private static final long NONE = VnfState.NONE;

    private final LoopParams params;

    ScalingRule(LoopParams params) {
        this.params = params;
    }

    /**
     * Lines 5–7: a window with enough samples within the bound raises R* and L*; one over it
     * starts (or keeps) the violation timer; any other window resets it.
     *
     * @return whether the window had data within the bound
     */
    boolean observe(VnfObservation o, VnfState s, long now) {
        int replicas = o.activeReplicas().size();
        boolean data = o.samples() >= params.minSamples() && replicas > 0;
        boolean within = data && o.latencyNanos() <= o.lmaxNanos();
        if (within) {
            // Lines 5-6: capacity of one replica as seen while meeting the bound.
            s.rStar = Math.max(s.rStar, o.ratePps() / replicas);
            s.lStar = Math.max(s.lStar, o.latencyNanos());
        }
        if (data && !within) {
            if (s.violationSince == NONE) {
                s.violationSince = now;
            }
        } else {
            s.violationSince = NONE;
        }
        return within;
    }

    /** Whether the vNF's cool-down after its last action is over. */
    boolean cooled(VnfState s, long now) {
        return s.cooldownUntil == NONE || now - s.cooldownUntil >= 0;
    }

    /**
     * Line 8: the violation has lasted more than t̂, or an agent's fresh escalation says its local
     * loop is done and the violation has outlasted the window it started in. Waiting out the rest
     * of t̂ then gains nothing; a one-window violation is a transient the local loop may still
     * absorb (the twin's Fig. 8 first rise: escalated 0.1 s into it, absorbed within 0.2 s), and
     * scaling on it adds a replica for nothing.
     */
    boolean persisted(VnfState s, long now) {
        boolean exhausted = s.escalatedAt != NONE && now - s.escalatedAt <= params.tHatNanos()
                && s.violationSince != NONE && now - s.violationSince > 0;
        return s.violationSince != NONE && (now - s.violationSince > params.tHatNanos() || exhausted);
    }

    /** C* = R*·L*, what one replica carries within the bound. */
    double capacity(VnfState s) {
        return s.rStar * s.lStar / 1e9;
    }

    /** C_i of line 8, with the latency {@link LoopParams#demandLatency()} selects. */
    double demand(VnfObservation o, VnfState s) {
        long l = o.latencyNanos();
        if (params.demandLatency() == LoopParams.DemandLatency.HEALTHY_TAIL && s.lStar > 0) {
            l = Math.min(l, s.lStar);
        }
        return o.ratePps() * l / 1e9;
    }

    /** Line 9: n = ceil(C_i / C*); without a healthy window C* is unknown and one more replica is the only guess. */
    int wanted(VnfObservation o, VnfState s) {
        double cStar = capacity(s);
        return cStar > 0 ? (int) Math.min(Integer.MAX_VALUE, Math.ceil(demand(o, s) / cStar))
                : o.activeReplicas().size() + 1;
    }

    /** The replicas a scale-out aims at for n: at least one more than now, at most the maximum. */
    int target(VnfObservation o, int n) {
        return Math.min(params.maxReplicas(), Math.max(n, o.activeReplicas().size() + 1));
    }

    /**
     * Scale-in (ours): within the bound with more than one replica, and the remaining replicas
     * would run at most {@link LoopParams#scaleInFraction()} full.
     */
    boolean low(VnfObservation o, VnfState s, boolean within) {
        int replicas = o.activeReplicas().size();
        double cStar = capacity(s);
        return within && replicas > 1 && cStar > 0 && demand(o, s) <= params.scaleInFraction() * (replicas - 1) * cStar;
    }

    /** Whether the low demand has held for {@link LoopParams#scaleInHoldNanos()}. */
    boolean lowHeld(VnfState s, long now) {
        return now - s.lowSince >= params.scaleInHoldNanos();
    }

    /** Starts the vNF's cool-down. */
    void coolDown(VnfState s, long now) {
        s.cooldownUntil = now + params.cooldownNanos();
    }
}
