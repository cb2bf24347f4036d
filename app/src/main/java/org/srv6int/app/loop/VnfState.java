// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfLoopRecord;

import java.util.List;

import static org.srv6int.app.loop.HealthMemory.toMillis;

/** One vNF's state in the global loop: Algorithm 4's, its action in flight, push-aside and replacements owed. */
final class VnfState {

    /** No time set. */
    static final long NONE = Long.MIN_VALUE;

    double rStar;
    long lStar;
    long violationSince = NONE;
    long lowSince = NONE;
    long cooldownUntil = NONE;
    VnfLoopRecord.Phase phase = VnfLoopRecord.Phase.IDLE;
    String drainingReplica;
    long drainStart;
    long quietSince = NONE;
    long pendingDecision;
    List<String> plan = List.of();
    // Kept on this leader only: a lost hint costs at most the rest of t-hat, never a decision.
    long escalatedAt = NONE;
    // The history record repeated escalations of this episode are counted on, and how many.
    long escalationRecord;
    int escalations;
    // Replacements owed for dead replicas, in the store: a new leader requests them.
    int replaceOwed;
    // A replacement that found no node is retried after a cool-down, not every window.
    long replaceRetryAt = NONE;
    // Push-aside, in the store: a new leader finishes a move (its new replica joins, then the old
    // one drains) and keeps the time between scale-ups.
    long pushAsideAt = NONE;
    String movingOut;
    String movedFor;
    // This leader's memory: the drain's held delete is counted once.
    boolean deleteHeld;

    /**
     * This state as the store keeps it (times in wall-clock ms, 0 for none).
     *
     * @param pending   the decision in flight, null when idle
     * @param now       loop clock, ns
     * @param nowMillis wall clock, ms
     * @return the record
     */
    VnfLoopRecord record(LoopDecision pending, long now, long nowMillis) {
        boolean idle = phase == VnfLoopRecord.Phase.IDLE;
        return new VnfLoopRecord(rStar, lStar, toMillis(violationSince, now, nowMillis),
                                 toMillis(lowSince, now, nowMillis), toMillis(cooldownUntil, now, nowMillis),
                                 phase, pending, idle ? 0 : pendingDecision, plan, drainingReplica,
                                 idle ? 0 : toMillis(drainStart, now, nowMillis),
                                 toMillis(quietSince, now, nowMillis), replaceOwed)
                .withPushAside(movingOut, movedFor, toMillis(pushAsideAt, now, nowMillis));
    }
}
