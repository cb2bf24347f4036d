// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableMap;

import java.util.Map;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * One decision of the global loop, kept in its history: when, for which vNF,
 * on which inputs, what it did and how that went.
 */
public final class LoopDecision {

    /** Input name: throughput R_i, packets per second. */
    public static final String IN_THROUGHPUT = "R_i";
    /** Input name: latency L_i, ns. */
    public static final String IN_LATENCY = "L_i";
    /** Input name: bound Lmax_i, ns. */
    public static final String IN_LMAX = "Lmax_i";
    /** Input name: capacity demand C_i = R_i * L_i. */
    public static final String IN_DEMAND = "C_i";
    /** Input name: per-replica capacity C*_i = R* * L*. */
    public static final String IN_CAPACITY = "C*_i";
    /** Input name: how long L_i has exceeded Lmax_i, ms. */
    public static final String IN_VIOLATION_MS = "violationMs";
    /** Input name: escalations counted on an ESCALATION record (repeats while escalated). */
    public static final String IN_ESCALATIONS = "escalations";
    /** Input name: wall time of the last escalation counted on an ESCALATION record, ms since the epoch. */
    public static final String IN_LAST_ESCALATION_MS = "lastEscalationMs";

    /** What the loop did. */
    public enum Action {
        /** Added replicas and re-routed over them. */
        SCALE_OUT,
        /** Drained and removed replicas. */
        SCALE_IN,
        /** Looked, changed nothing (e.g. violation shorter than t-hat). */
        HOLD,
        /**
         * A node agent reported that its local loop tried every resource type for this vNF
         * and the vNF is still over its bound: a hint that the next violating window need not
         * wait out the rest of t-hat. Repeats while the vNF is escalated update one record
         * (inputs {@link #IN_ESCALATIONS}, {@link #IN_LAST_ESCALATION_MS}).
         */
        ESCALATION,
        /**
         * The chain's ingress classifies traffic but no INT report of it arrived for the silence
         * (or no segment list is left): reported down, outcome FAILED, the detail names the last
         * hop seen. The vNF is the first one past the last hop seen.
         */
        CHAIN_DOWN,
        /** INT reports of a chain that was down arrive again. */
        CHAIN_UP,
        /**
         * A replica counts dead (pod gone or not Ready, its switch port down, or no INT report
         * crossed it for the silence while its chain carries traffic): weight 0 at once.
         */
        REPLICA_DEAD,
        /** A replica requested to stand in for a dead one (one more replica on the best node). */
        REPLACE,
        /** A dead replica is back (pod Ready, port up): weight 1 again, on probation until INT shows traffic. */
        REPLICA_RETURNED,
        /** A link or port on a chain's path went down or came back: its segment lists changed. */
        REROUTE,
        /**
         * CoCo's push-aside before scale-out: for the hot vNF, the plan (which neighbours move
         * where, at what cost); for a moved neighbour, its new replica joining (make-before-break)
         * and then its old one leaving the hot node.
         */
        PUSH_ASIDE
    }

    /** How the action went. */
    public enum Outcome {
        /** Done. */
        SUCCEEDED,
        /** Started, not finished yet (e.g. pods starting). */
        IN_PROGRESS,
        /** Failed; the detail says why. */
        FAILED
    }

    private final long timeMillis;
    private final VnfKey vnf;
    private final Map<String, Double> inputs;
    private final Action action;
    private final int replicasBefore;
    private final int replicasAfter;
    private final Outcome outcome;
    private final String detail;

    /**
     * Creates a decision record.
     *
     * @param timeMillis     when, ms since epoch
     * @param vnf            vNF key
     * @param inputs         inputs by name (see the IN_ constants)
     * @param action         action
     * @param replicasBefore replicas before
     * @param replicasAfter  replicas wanted after (n of Algorithm 4)
     * @param outcome        outcome
     * @param detail         free text, e.g. the failure reason; "" if none
     */
    public LoopDecision(long timeMillis, VnfKey vnf, Map<String, Double> inputs, Action action,
                        int replicasBefore, int replicasAfter, Outcome outcome, String detail) {
        this.timeMillis = timeMillis;
        this.vnf = checkNotNull(vnf, "vNF key is null");
        this.inputs = ImmutableMap.copyOf(checkNotNull(inputs, "inputs is null"));
        this.action = checkNotNull(action, "action is null");
        this.replicasBefore = replicasBefore;
        this.replicasAfter = replicasAfter;
        this.outcome = checkNotNull(outcome, "outcome is null");
        this.detail = checkNotNull(detail, "detail is null");
    }

    /**
     * Returns when the decision was made.
     *
     * @return ms since epoch
     */
    public long timeMillis() {
        return timeMillis;
    }

    /**
     * Returns the vNF decided on.
     *
     * @return key
     */
    public VnfKey vnf() {
        return vnf;
    }

    /**
     * Returns the inputs by name.
     *
     * @return inputs
     */
    public Map<String, Double> inputs() {
        return inputs;
    }

    /**
     * Returns the action.
     *
     * @return action
     */
    public Action action() {
        return action;
    }

    /**
     * Returns the replica count before.
     *
     * @return replicas
     */
    public int replicasBefore() {
        return replicasBefore;
    }

    /**
     * Returns the replica count wanted after.
     *
     * @return replicas
     */
    public int replicasAfter() {
        return replicasAfter;
    }

    /**
     * Returns the outcome.
     *
     * @return outcome
     */
    public Outcome outcome() {
        return outcome;
    }

    /**
     * Returns the detail text.
     *
     * @return detail, "" if none
     */
    public String detail() {
        return detail;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof LoopDecision)) {
            return false;
        }
        LoopDecision that = (LoopDecision) o;
        return timeMillis == that.timeMillis && replicasBefore == that.replicasBefore
                && replicasAfter == that.replicasAfter && vnf.equals(that.vnf) && inputs.equals(that.inputs)
                && action == that.action && outcome == that.outcome && detail.equals(that.detail);
    }

    @Override
    public int hashCode() {
        return Objects.hash(timeMillis, vnf, inputs, action, replicasBefore, replicasAfter, outcome, detail);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("time", timeMillis).add("vnf", vnf).add("inputs", inputs)
                .add("action", action).add("before", replicasBefore).add("after", replicasAfter)
                .add("outcome", outcome).add("detail", detail).toString();
    }
}
