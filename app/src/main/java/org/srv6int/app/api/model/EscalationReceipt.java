// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import java.util.Objects;

/**
 * What an instance did with a node agent's escalation: on the loop's leader the recorded
 * decision; on any other instance the escalation queued in the cluster's store for the leader's
 * next round, with the leader as this instance sees it.
 */
public final class EscalationReceipt {

    private final LoopDecision decision;
    private final QueuedEscalation queued;
    private final String leader;

    private EscalationReceipt(LoopDecision decision, QueuedEscalation queued, String leader) {
        this.decision = decision;
        this.queued = queued;
        this.leader = leader;
    }

    /**
     * The leader took it.
     *
     * @param d the recorded decision
     * @return receipt
     */
    public static EscalationReceipt decided(LoopDecision d) {
        return new EscalationReceipt(Objects.requireNonNull(d), null, null);
    }

    /**
     * Queued for the leader.
     *
     * @param q      what the store now holds for its key
     * @param leader the leader as this instance sees it ("none" if none)
     * @return receipt
     */
    public static EscalationReceipt queued(QueuedEscalation q, String leader) {
        return new EscalationReceipt(null, Objects.requireNonNull(q), Objects.requireNonNull(leader));
    }

    /** @return whether the leader decided it here (else it is queued) */
    public boolean decided() {
        return decision != null;
    }

    /** @return the decision, null if queued */
    public LoopDecision decision() {
        return decision;
    }

    /** @return the queued record, null if decided */
    public QueuedEscalation queuedEscalation() {
        return queued;
    }

    /** @return the leader as the queuing instance saw it, null if decided */
    public String leader() {
        return leader;
    }
}
