// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.EscalationReceipt;
import org.srv6int.app.api.model.InterferenceView;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link GlobalLoopService} that forwards every call to another one: the ONOS component
 * ({@link GlobalLoopManager}) serves what its {@link LoopCore} answers.
 */
public abstract class ForwardingLoopService implements GlobalLoopService {

    /**
     * Returns where the calls go.
     *
     * @return the service that answers
     */
    protected abstract GlobalLoopService delegate();

    @Override
    public LoopStatus status() {
        return delegate().status();
    }

    @Override
    public List<LoopDecision> decisions(int limit) {
        return delegate().decisions(limit);
    }

    @Override
    public long decisionsMade(LoopDecision.Action action) {
        return delegate().decisionsMade(action);
    }

    @Override
    public long decisionsEnded(LoopDecision.Action action, LoopDecision.Outcome outcome) {
        return delegate().decisionsEnded(action, outcome);
    }

    @Override
    public LoopDecision escalate(VnfKey vnf, String node, long l95Nanos, long lmaxNanos,
                                 List<String> triedResources) {
        return delegate().escalate(vnf, node, l95Nanos, lmaxNanos, triedResources);
    }

    @Override
    public EscalationReceipt submitEscalation(Escalation e) {
        return delegate().submitEscalation(e);
    }

    @Override
    public Map<String, Long> escalationCounters() {
        return delegate().escalationCounters();
    }

    @Override
    public void setPaused(SfcId sfc, boolean paused) {
        delegate().setPaused(sfc, paused);
    }

    @Override
    public Set<SfcId> pausedChains() {
        return delegate().pausedChains();
    }

    @Override
    public List<ChainState> chainStates() {
        return delegate().chainStates();
    }

    @Override
    public Map<String, Long> failureCounters() {
        return delegate().failureCounters();
    }

    @Override
    public InterferenceView interference() {
        return delegate().interference();
    }
}
