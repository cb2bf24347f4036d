// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The global loop's reactions to what the failure detection found ({@link ChainHealth}): dead
 * replicas out of the group and replaced, returning ones back in, chains down and up, re-routes
 * recorded (docs/failures.md). Runs under the loop's lock.
 */
final class FailureReactions {

    private final GlobalLoop loop;

    FailureReactions(GlobalLoop loop) {
        this.loop = loop;
    }

    /**
     * Carries out what the failure detection found (docs/failures.md): a dead replica leaves the
     * multipath group at once and a replacement is requested (now if the vNF is idle, else when
     * its action in flight ends); a returning replica rejoins with weight 1; a chain going down or
     * coming back is recorded. Every finding is a decision in the history.
     *
     * @param findings what {@link ChainHealth#observe} found
     * @return the decisions recorded, in order
     */
    List<LoopDecision> onFindings(List<ChainHealth.Finding> findings) {
        List<LoopDecision> out = new ArrayList<>();
        if (loop.closed) {
            return out;
        }
        // A new leader reads what the last one owed before it owes more. If it cannot, dead replicas
        // still leave their groups, but their replacements wait (in memory) for the read: writing
        // now would overwrite the last leader's record.
        boolean stateRead = loop.store == null || loop.restored
                || loop.restore(loop.clock.nanoTime(), loop.clock.currentTimeMillis());
        for (ChainHealth.Finding f : findings) {
            long now = loop.clock.nanoTime();
            long id = loop.newDecisionId();
            if (id < 0) {
                // Without an id nothing is recorded; the routing change below still happens.
                id = 0;
            }
            LoopDecision.Outcome outcome = LoopDecision.Outcome.SUCCEEDED;
            String detail = f.detail();
            int before = 0;
            int after = 0;
            LoopDecision.Action action;
            switch (f.kind()) {
                case REPLICA_DEAD:
                    action = LoopDecision.Action.REPLICA_DEAD;
                    before = f.liveLeft() + 1;
                    after = f.liveLeft();
                    if (isDraining(f.vnf(), f.replica())) {
                        // Its buckets wait for their flows only while it lives: it leaves now.
                        before = f.liveLeft();
                        String failed = loop.actions.removeDeadDrain(f.vnf(), now, detail);
                        detail += "; it was draining for a scale-in: " + (failed == null
                                ? "out of the inventory at once, its workload deleted"
                                : "taking it out of the inventory failed (" + failed + "), still draining");
                        outcome = failed == null ? outcome : LoopDecision.Outcome.FAILED;
                        break;
                    }
                    try {
                        loop.routing.failReplica(f.vnf(), f.replica());
                        detail += "; weight 0";
                    } catch (RuntimeException e) {
                        outcome = LoopDecision.Outcome.FAILED;
                        detail += "; taking it out of the group failed: " + DecisionLog.reason(e);
                    }
                    break;
                case REPLICA_RETURNED:
                    action = LoopDecision.Action.REPLICA_RETURNED;
                    if (isDraining(f.vnf(), f.replica())) {
                        detail += "; not put back: it is being scaled in";
                        break;
                    }
                    try {
                        loop.routing.restoreReplica(f.vnf(), f.replica());
                    } catch (RuntimeException e) {
                        outcome = LoopDecision.Outcome.FAILED;
                        detail += "; putting it back failed: " + DecisionLog.reason(e);
                    }
                    break;
                case CHAIN_DOWN:
                    action = LoopDecision.Action.CHAIN_DOWN;
                    outcome = LoopDecision.Outcome.FAILED;
                    break;
                default:
                    action = LoopDecision.Action.CHAIN_UP;
                    break;
            }
            out.add(loop.log.note(id, now, f.vnf(), action, before, after, outcome, detail, Map.of()).decision);
            if (f.kind() == ChainHealth.Finding.Kind.REPLICA_DEAD && f.replace()) {
                VnfState s = loop.states.computeIfAbsent(f.vnf(), k -> new VnfState());
                s.replaceOwed++;
                if (!stateRead) {
                    continue;
                }
                // Write-ahead: the debt is in the store before anything is requested for it, so a
                // leader change between now and the request makes the next leader request it once.
                loop.save(f.vnf(), s);
                if (s.phase == VnfLoopRecord.Phase.IDLE) {
                    loop.actions.startReplace(f.vnf(), s, now, f.liveLeft());
                }
            }
        }
        return out;
    }

    boolean isDraining(VnfKey vnf, String replica) {
        VnfState s = loop.states.get(vnf);
        return s != null && s.phase == VnfLoopRecord.Phase.DRAINING && replica.equals(s.drainingReplica);
    }

    /**
     * Records that a chain's segment lists changed because a link or port went down or up.
     *
     * @param vnf    the chain's first vNF past the failure (the decision's key)
     * @param detail what changed
     * @return the decision
     */
    LoopDecision rerouted(VnfKey vnf, String detail) {
        long id = loop.newDecisionId();
        return loop.log.note(Math.max(id, 0), loop.clock.nanoTime(), vnf, LoopDecision.Action.REROUTE, 0, 0,
                    LoopDecision.Outcome.SUCCEEDED, detail, Map.of()).decision;
    }
}
