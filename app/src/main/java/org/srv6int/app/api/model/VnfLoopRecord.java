// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Objects;

/**
 * What the global loop knows about one vNF, as kept in the cluster's store so that a new leader
 * resumes exactly where the old one stopped: R* and L*, the violation, low-load and cool-down
 * timers (wall clock, ms; 0 = not running), the phase of an action in flight with its decision
 * and, for a scale-out, its plan (one node per replica to create, created idempotently under the
 * request id {@code <decision>-<i>}), for a scale-in the replica being drained, the
 * replacements owed for dead replicas that are not requested yet, and push-aside's move in
 * progress ({@link #withPushAside}).
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
    private final String movingOut;
    private final String movedFor;
    private final long pushAsideAtMillis;

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
        this.movingOut = null;
        this.movedFor = null;
        this.pushAsideAtMillis = 0;
    }

    private VnfLoopRecord(VnfLoopRecord r, String movingOut, String movedFor, long pushAsideAtMillis) {
        this.rStar = r.rStar;
        this.lStarNanos = r.lStarNanos;
        this.violationSinceMillis = r.violationSinceMillis;
        this.lowSinceMillis = r.lowSinceMillis;
        this.cooldownUntilMillis = r.cooldownUntilMillis;
        this.phase = r.phase;
        this.decision = r.decision;
        this.decisionId = r.decisionId;
        this.plan = r.plan;
        this.drainingReplica = r.drainingReplica;
        this.drainStartMillis = r.drainStartMillis;
        this.quietSinceMillis = r.quietSinceMillis;
        this.replaceOwed = r.replaceOwed;
        this.movingOut = movingOut;
        this.movedFor = movedFor;
        this.pushAsideAtMillis = pushAsideAtMillis;
    }

    /**
     * Returns a copy with the vNF's push-aside state (CoCo): as a neighbour being moved, the
     * replica that leaves once its new replica (the plan) joins and the hot vNF it makes room for;
     * as a hot vNF, when it last had neighbours pushed aside.
     *
     * @param movingOut         the replica moving out, null if none
     * @param movedFor          the hot vNF it moves for, null if none
     * @param pushAsideAtMillis when this vNF last had neighbours pushed aside, wall ms, 0 if never
     * @return record
     */
    public VnfLoopRecord withPushAside(String movingOut, String movedFor, long pushAsideAtMillis) {
        // Records are immutable: no push-aside on either side (most vNFs, every round) needs no copy.
        if (Objects.equals(movingOut, this.movingOut) && Objects.equals(movedFor, this.movedFor)
                && pushAsideAtMillis == this.pushAsideAtMillis) {
            return this;
        }
        return new VnfLoopRecord(this, movingOut, movedFor, pushAsideAtMillis);
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

    /** @return push-aside: the replica moving out once its new replica joins, null if none */
    public String movingOut() {
        return movingOut;
    }

    /** @return push-aside: the hot vNF the move makes room for, null if none */
    public String movedFor() {
        return movedFor;
    }

    /** @return push-aside: when this vNF last had neighbours pushed aside, wall ms, 0 if never */
    public long pushAsideAtMillis() {
        return pushAsideAtMillis;
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
                && quietSinceMillis == r.quietSinceMillis && replaceOwed == r.replaceOwed
                && Objects.equals(movingOut, r.movingOut)
                && Objects.equals(movedFor, r.movedFor) && pushAsideAtMillis == r.pushAsideAtMillis;
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
                .add("plan", plan).add("draining", drainingReplica).add("replaceOwed", replaceOwed)
                .add("movingOut", movingOut).add("movedFor", movedFor).add("pushAsideAt", pushAsideAtMillis)
                .toString();
    }
}
