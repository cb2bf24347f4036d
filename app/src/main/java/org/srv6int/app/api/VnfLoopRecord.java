package org.srv6int.app.api;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Objects;

/**
 * What the global loop knows about one vNF, as kept in the cluster's store so that a new leader
 * resumes exactly where the old one stopped: R* and L*, the violation, low-load and cool-down
 * timers (wall clock, ms; 0 = not running), the phase of an action in flight with its decision
 * and, for a scale-out, its plan (one node per replica to create, created idempotently under the
 * request id {@code <decision>-<i>}), for a scale-in the replica being drained, and the
 * replacements owed for dead replicas that are not requested yet.
 */
public final class VnfLoopRecord {

    /** Phase of the vNF's action. */
    public enum Phase {
        /** No action in flight. */
        IDLE,
        /** Replicas being created (plan below). */
        SCALING,
        /** A replica taken out of the group, waiting for its traffic to stop. */
        DRAINING,
        /** A drained replica being deleted. */
        REMOVING
    }

    private final double rStar;
    private final long lStarNanos;
    private final long violationSinceMillis;
    private final long lowSinceMillis;
    private final long cooldownUntilMillis;
    private final Phase phase;
    private final LoopDecision decision;
    private final long decisionId;
    private final List<String> plan;
    private final String drainingReplica;
    private final long drainStartMillis;
    private final long quietSinceMillis;
    private final int replaceOwed;

    /**
     * Creates a record.
     *
     * @param rStar                R*, packets/s per replica
     * @param lStarNanos           L*, ns
     * @param violationSinceMillis when L_i first exceeded Lmax_i in the current run, 0 if not
     * @param lowSinceMillis       when the load first allowed a scale-in, 0 if not
     * @param cooldownUntilMillis  end of the cool-down, 0 if none
     * @param phase                phase
     * @param decision             the decision in flight (null when idle)
     * @param decisionId           its cluster-unique id (0 when idle)
     * @param plan                 scale-out: one node per replica to create
     * @param drainingReplica      scale-in: the replica being drained (null otherwise)
     * @param drainStartMillis     scale-in: when the drain started
     * @param quietSinceMillis     scale-in: since when the drained replica moved no packet, 0 if it does
     */
    public VnfLoopRecord(double rStar, long lStarNanos, long violationSinceMillis, long lowSinceMillis,
                         long cooldownUntilMillis, Phase phase, LoopDecision decision, long decisionId,
                         List<String> plan, String drainingReplica, long drainStartMillis, long quietSinceMillis) {
        this(rStar, lStarNanos, violationSinceMillis, lowSinceMillis, cooldownUntilMillis, phase, decision, decisionId,
             plan, drainingReplica, drainStartMillis, quietSinceMillis, 0);
    }

    /**
     * Creates a record with replacements owed for dead replicas.
     *
     * @param rStar                R*, packets/s per replica
     * @param lStarNanos           L*, ns
     * @param violationSinceMillis when L_i first exceeded Lmax_i in the current run, 0 if not
     * @param lowSinceMillis       when the load first allowed a scale-in, 0 if not
     * @param cooldownUntilMillis  end of the cool-down, 0 if none
     * @param phase                phase
     * @param decision             the decision in flight (null when idle)
     * @param decisionId           its cluster-unique id (0 when idle)
     * @param plan                 scale-out: one node per replica to create
     * @param drainingReplica      scale-in: the replica being drained (null otherwise)
     * @param drainStartMillis     scale-in: when the drain started
     * @param quietSinceMillis     scale-in: since when the drained replica moved no packet, 0 if it does
     * @param replaceOwed          replacements owed for dead replicas, not yet requested (docs/failures.md)
     */
    public VnfLoopRecord(double rStar, long lStarNanos, long violationSinceMillis, long lowSinceMillis,
                         long cooldownUntilMillis, Phase phase, LoopDecision decision, long decisionId,
                         List<String> plan, String drainingReplica, long drainStartMillis, long quietSinceMillis,
                         int replaceOwed) {
        this.rStar = rStar;
        this.lStarNanos = lStarNanos;
        this.violationSinceMillis = violationSinceMillis;
        this.lowSinceMillis = lowSinceMillis;
        this.cooldownUntilMillis = cooldownUntilMillis;
        this.phase = Objects.requireNonNull(phase, "phase is null");
        this.decision = decision;
        this.decisionId = decisionId;
        this.plan = ImmutableList.copyOf(plan);
        this.drainingReplica = drainingReplica;
        this.drainStartMillis = drainStartMillis;
        this.quietSinceMillis = quietSinceMillis;
        this.replaceOwed = replaceOwed;
    }

    /** @return R*, packets/s per replica */
    public double rStar() {
        return rStar;
    }

    /** @return L*, ns */
    public long lStarNanos() {
        return lStarNanos;
    }

    /** @return violation start, wall ms, 0 if none */
    public long violationSinceMillis() {
        return violationSinceMillis;
    }

    /** @return low-load start, wall ms, 0 if none */
    public long lowSinceMillis() {
        return lowSinceMillis;
    }

    /** @return end of the cool-down, wall ms, 0 if none */
    public long cooldownUntilMillis() {
        return cooldownUntilMillis;
    }

    /** @return phase */
    public Phase phase() {
        return phase;
    }

    /** @return the decision in flight, null when idle */
    public LoopDecision decision() {
        return decision;
    }

    /** @return cluster-unique id of the decision in flight, 0 when idle */
    public long decisionId() {
        return decisionId;
    }

    /** @return scale-out plan: one node per replica to create */
    public List<String> plan() {
        return plan;
    }

    /** @return the replica being drained or deleted, null otherwise */
    public String drainingReplica() {
        return drainingReplica;
    }

    /** @return drain start, wall ms */
    public long drainStartMillis() {
        return drainStartMillis;
    }

    /** @return since when the drained replica is quiet, wall ms, 0 if it is not */
    public long quietSinceMillis() {
        return quietSinceMillis;
    }

    /** @return replacements owed for dead replicas, not yet requested */
    public int replaceOwed() {
        return replaceOwed;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof VnfLoopRecord)) {
            return false;
        }
        VnfLoopRecord r = (VnfLoopRecord) o;
        return Double.compare(rStar, r.rStar) == 0 && lStarNanos == r.lStarNanos
                && violationSinceMillis == r.violationSinceMillis && lowSinceMillis == r.lowSinceMillis
                && cooldownUntilMillis == r.cooldownUntilMillis && phase == r.phase
                && Objects.equals(decision, r.decision) && decisionId == r.decisionId && plan.equals(r.plan)
                && Objects.equals(drainingReplica, r.drainingReplica) && drainStartMillis == r.drainStartMillis
                && quietSinceMillis == r.quietSinceMillis && replaceOwed == r.replaceOwed;
    }

    @Override
    public int hashCode() {
        return Objects.hash(rStar, lStarNanos, violationSinceMillis, phase, decisionId, plan, drainingReplica);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("R*", rStar).add("L*", lStarNanos)
                .add("violationSince", violationSinceMillis).add("lowSince", lowSinceMillis)
                .add("cooldownUntil", cooldownUntilMillis).add("phase", phase).add("decision", decisionId)
                .add("plan", plan).add("draining", drainingReplica).add("replaceOwed", replaceOwed).toString();
    }
}
