package org.srv6int.app.testing;

import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.VnfKey;

import java.util.ArrayList;
import java.util.List;

/**
 * Global loop service returning a status and history a test sets (stands for
 * the loop component).
 */
public class FakeGlobalLoopService implements GlobalLoopService {

    /** Status to return. */
    public LoopStatus status = new LoopStatus(true, true, "node1", 4000, 0, List.of());
    /** Decisions, newest first. */
    public final List<LoopDecision> decisions = new ArrayList<>();

    /** Paused chains. */
    public final java.util.Set<org.srv6int.app.api.model.SfcId> paused = new java.util.TreeSet<>();
    /** Chain states to return. */
    public final List<org.srv6int.app.api.model.ChainState> chainStates = new ArrayList<>();
    /** Failure counters to return. */
    public final java.util.Map<String, Long> failureCounters = new java.util.TreeMap<>();
    /** Escalations taken, oldest first. */
    public final List<String> escalations = new ArrayList<>();

    /** The matrix interference() shows: the paper's seed unless a test moves it. */
    public final org.srv6int.app.placement.InterferenceMatrix interference =
            new org.srv6int.app.placement.InterferenceMatrix();

    @Override
    public org.srv6int.app.api.model.InterferenceView interference() {
        return interference.view();
    }

    @Override
    public LoopStatus status() {
        return status;
    }

    @Override
    public List<LoopDecision> decisions(int limit) {
        return decisions.subList(0, Math.min(limit, decisions.size()));
    }

    @Override
    public long decisionsMade(LoopDecision.Action action) {
        return decisions.stream().filter(d -> d.action() == action).count();
    }

    @Override
    public long decisionsEnded(LoopDecision.Action action, LoopDecision.Outcome outcome) {
        return decisions.stream().filter(d -> d.action() == action && d.outcome() == outcome).count();
    }

    @Override
    public void setPaused(org.srv6int.app.api.model.SfcId sfc, boolean p) {
        if (sfc.id() > 100) {
            throw new org.srv6int.app.api.SfcException(org.srv6int.app.api.SfcException.Reason.NOT_FOUND,
                                                       "chain " + sfc + " not found");
        }
        if (p) {
            paused.add(sfc);
        } else {
            paused.remove(sfc);
        }
    }

    @Override
    public java.util.Set<org.srv6int.app.api.model.SfcId> pausedChains() {
        return new java.util.TreeSet<>(paused);
    }

    @Override
    public LoopDecision escalate(VnfKey vnf, String node, long l95Nanos, long lmaxNanos,
                                 List<String> triedResources) {
        escalations.add(vnf + " " + node + " " + l95Nanos + " " + lmaxNanos + " " + triedResources);
        return new LoopDecision(0, vnf, java.util.Map.of(), LoopDecision.Action.ESCALATION, 1, 1,
                                LoopDecision.Outcome.SUCCEEDED, "from " + node);
    }

    @Override
    public List<org.srv6int.app.api.model.ChainState> chainStates() {
        return new ArrayList<>(chainStates);
    }

    @Override
    public java.util.Map<String, Long> failureCounters() {
        return new java.util.TreeMap<>(failureCounters);
    }
}
