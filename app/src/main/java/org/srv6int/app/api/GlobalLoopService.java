// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import java.util.Map;
import java.util.Set;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.EscalationReceipt;
import org.srv6int.app.api.model.InterferenceView;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import java.util.List;

/**
 * Read side of the global closed loop (Algorithm 4). Implemented by
 * org.srv6int.app.loop.
 */
public interface GlobalLoopService {

    /**
     * Returns the loop's status.
     *
     * @return status
     */
    LoopStatus status();

    /**
     * Returns the most recent decisions, newest first.
     *
     * @param limit most decisions to return, &gt; 0
     * @return decisions
     */
    List<LoopDecision> decisions(int limit);

    /**
     * Returns how many decisions of an action the loop running on this instance made; 0 where the
     * loop does not run. Starts again from 0 when the loop restarts (leadership, t-hat change).
     *
     * @param action action
     * @return decisions
     */
    long decisionsMade(LoopDecision.Action action);

    /**
     * Returns how many decisions of an action ended with an outcome in the loop running on this
     * instance; 0 where the loop does not run. Starts again from 0 when the loop restarts.
     *
     * @param action  action
     * @param outcome SUCCEEDED or FAILED
     * @return decisions
     */
    long decisionsEnded(LoopDecision.Action action, LoopDecision.Outcome outcome);

    /**
     * Takes a node agent's escalation: its local loop of {@code vnf} is exhausted (every
     * resource type tried) while the vNF is over its bound. Recorded as an
     * {@link LoopDecision.Action#ESCALATION} decision; while fresh (within t-hat) a violation of
     * that vNF that has outlasted the window it started in scales out without waiting for the
     * rest of t-hat.
     *
     * @param vnf            the vNF
     * @param node           the reporting node
     * @param l95Nanos       the agent's L95 of the vNF, ns
     * @param lmaxNanos      the bound the agent used, ns
     * @param triedResources resource types the agent tried
     * @return the recorded decision
     * @throws SfcException NOT_FOUND if the chain or vNF is unknown
     * @throws IllegalStateException if this instance does not run the loop (not the leader,
     *         or the loop is disabled)
     */
    LoopDecision escalate(VnfKey vnf, String node, long l95Nanos, long lmaxNanos, List<String> triedResources);

    /**
     * Takes a node agent's escalation on any instance (REST {@code POST loop/escalations}): the
     * leader records it as {@link #escalate} does; another instance queues it in the cluster's
     * store, one entry per (chain, vNF, node), for the leader's next round (docs/cluster.md).
     * Without such a store it is {@link #escalate}.
     *
     * @param e the escalation
     * @return the decision, or what was queued for the leader
     * @throws SfcException NOT_FOUND if the chain or vNF is unknown
     * @throws IllegalStateException if the loop is disabled, or the escalation could be neither
     *         recorded nor queued
     */
    default EscalationReceipt submitEscalation(Escalation e) {
        return EscalationReceipt.decided(escalate(e.vnf(), e.node(), e.l95Nanos(), e.lmaxNanos(),
                                                  e.triedResources()));
    }

    /**
     * Counters of escalations queued for the leader (queued here; consumed, expired, dropped by
     * this instance's loop), empty where none are queued.
     *
     * @return counter name to value
     */
    default Map<String, Long> escalationCounters() {
        return Map.of();
    }

    /**
     * Pauses or resumes the loop of one chain: while paused the loop takes no action on its vNFs
     * (their timers and R*, L* are kept); cluster-wide, it survives a leader change.
     *
     * @param sfc    chain
     * @param paused true to pause, false to resume
     * @throws SfcException NOT_FOUND if the chain is unknown
     */
    void setPaused(SfcId sfc, boolean paused);

    /**
     * Returns the chains whose loop is paused.
     *
     * @return chain ids, ascending
     */
    Set<SfcId> pausedChains();

    /**
     * Returns every chain's liveness as the failure detection sees it (docs/failures.md): UP, DOWN
     * with the last hop seen and the reason, or IDLE when its ingress classifies nothing. An
     * instance that does not run the loop answers from the loop state store: the chains the leader
     * recorded DOWN, and the replicas it counts dead; every other chain is UNKNOWN there.
     *
     * @return chain states by chain id
     */
    List<ChainState> chainStates();

    /**
     * Returns the failure detection's counters: chainDowns, chainsDownNow, replicaDeaths,
     * replicaReturns, replicaFlaps, reroutes.
     *
     * @return counter name to value; zeros on an instance that does not run the loop
     */
    Map<String, Long> failureCounters();

    /**
     * Returns the interference matrix the placement uses: the paper's seed and what telemetry
     * showed since (vnf-interference.txt).
     *
     * @return snapshot
     * @throws UnsupportedOperationException if this loop has none
     */
    default InterferenceView interference() {
        throw new UnsupportedOperationException("this global loop keeps no interference matrix");
    }
}
