// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The global loop's actions on replicas, the steps around their records that the loop state store
 * keeps so a new leader resumes them (the records themselves change only through
 * {@link org.srv6int.app.inventory.ReplicaLifecycle}, behind {@link ChainRouting}): replicas
 * requested (scale-out, replacements of dead ones, push-aside moves) and joined to the multipath
 * group once all are done; a scale-in's drain, its wait for the Port_Counter and the switches, the
 * pod's deletion or the drain given up; a draining replica that died; and resuming what a previous
 * leader left in flight. Runs under the loop's lock (completions take it).
 */
final class ReplicaActions {

    private static final long NONE = VnfState.NONE;

    private final GlobalLoop loop;
    // Pod deletions held back while a switch still steered to the replica; scale-ins given up.
    long deletesHeld;
    long releasesGivenUp;

    ReplicaActions(GlobalLoop loop) {
        this.loop = loop;
    }

    /** Finishes an action the previous leader started: the same requests, idempotent on the platform. */
    void resume(VnfKey vnf, VnfState s, VnfLoopRecord r) {
        long id = r.decisionId();
        if (s.phase == VnfLoopRecord.Phase.SCALING) {
            List<CompletableFuture<ReplicaInfo>> futures = createAll(vnf, id, s.plan);
            String plan = (s.movingOut != null ? "pushed aside for " + s.movedFor + ": " : "")
                    + "resumed after a leader change: " + s.plan.size() + " replica(s) on " + String.join(",", s.plan);
            CompletableFuture.allOf(futures.toArray(new CompletableFuture[0]))
                    .whenComplete((v, err) -> scaleOutDone(vnf, id, futures, plan));
        } else if (s.phase == VnfLoopRecord.Phase.DRAINING) {
            try {
                loop.routing.drainReplica(vnf, s.drainingReplica);
            } catch (RuntimeException e) {
                // Draining is idempotent and the replica is out of the group already unless the
                // old leader failed before; quiet detection goes on either way.
                s.quietSince = NONE;
            }
        } else if (s.phase == VnfLoopRecord.Phase.REMOVING) {
            String replica = s.drainingReplica;
            CompletionStage<Void> f;
            try {
                f = loop.platform.deleteReplica(vnf, replica);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((v, err) -> removeDone(vnf, id, replica, "resumed after a leader change", err));
        }
    }

    /** Request id of the i-th replica of a decision: the same on every leader. */
    static String requestId(long decision, int i) {
        return "d" + decision + "-" + i;
    }

    List<CompletableFuture<ReplicaInfo>> createAll(VnfKey vnf, long decision, List<String> nodes) {
        List<CompletableFuture<ReplicaInfo>> futures = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            CompletionStage<ReplicaInfo> f;
            try {
                f = loop.platform.createReplica(vnf, nodes.get(i), requestId(decision, i));
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            futures.add(f.toCompletableFuture());
        }
        return futures;
    }

    /** Requests the replacements owed for a vNF's dead replicas: one decision, one create each. */
    void startReplace(VnfKey vnf, VnfState s, long now, int live) {
        int add = Math.max(1, Math.min(s.replaceOwed, loop.params.maxReplicas() - live));
        long id = loop.newDecisionId();
        if (id < 0) {
            return;
        }
        DecisionLog.Entry d = loop.log.note(id, now, vnf, LoopDecision.Action.REPLACE, live, live + add,
                       LoopDecision.Outcome.IN_PROGRESS, "", Map.of());
        List<String> where = loop.picker.pickNodes(d, vnf, s, now, add, "");
        if (where == null) {
            // Owed still (the store has it): retried once the cool-down is over.
            s.replaceRetryAt = now + loop.params.cooldownNanos();
            return;
        }
        s.replaceOwed = 0;
        s.replaceRetryAt = NONE;
        s.phase = VnfLoopRecord.Phase.SCALING;
        s.pendingDecision = d.id;
        s.plan = List.copyOf(where);
        if (!loop.save(vnf, s)) {
            s.phase = VnfLoopRecord.Phase.IDLE;
            s.plan = List.of();
            s.replaceOwed = add;
            s.replaceRetryAt = now + loop.params.cooldownNanos();
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now, "loop state could not be stored: not started");
            return;
        }
        List<CompletableFuture<ReplicaInfo>> futures = createAll(vnf, d.id, where);
        String plan = "replacing " + add + " dead replica(s): +" + add + " on " + String.join(",", where)
                + loop.pickNote;
        CompletableFuture.allOf(futures.toArray(new CompletableFuture[0]))
                .whenComplete((v, err) -> scaleOutDone(vnf, d.id, futures, plan));
    }

    void scaleOutDone(VnfKey vnf, long decision, List<CompletableFuture<ReplicaInfo>> fs,
                                           String plan) {
        synchronized (loop) {
            if (loop.closed) {
                // No longer the leader: the next one finishes this decision from the store.
                return;
            }
            long now = loop.clock.nanoTime();
            List<ReplicaInfo> ready = new ArrayList<>();
            String firstError = null;
            for (CompletableFuture<ReplicaInfo> f : fs) {
                try {
                    ready.add(f.join());
                } catch (RuntimeException e) {
                    if (firstError == null) {
                        Throwable c = e.getCause() != null ? e.getCause() : e;
                        // "Timeout", not "Timeout: null" (store timeouts carry no message)
                        firstError = c.getClass().getSimpleName()
                                + (c.getMessage() == null ? "" : ": " + c.getMessage());
                    }
                }
            }
            String outcome;
            boolean ok = firstError == null;
            if (!ready.isEmpty()) {
                try {
                    // Line 11: the group spreads traffic evenly over all ready replicas.
                    loop.routing.addReplicas(vnf, ready);
                    outcome = plan + "; added " + ready;
                    long at = loop.clock.currentTimeMillis();
                    for (ReplicaInfo r : ready) {
                        loop.picker.joined.add(new NodePicker.Joined(r.node(), loop.picker.need(vnf), at));
                    }
                } catch (RuntimeException e) {
                    ok = false;
                    outcome = plan + "; group update failed: " + DecisionLog.reason(e);
                }
            } else {
                outcome = plan + "; no replica became ready";
            }
            if (firstError != null) {
                outcome += "; " + firstError;
            }
            VnfState s = loop.states.get(vnf);
            if (s != null && s.movingOut != null) {
                if (ok && !ready.isEmpty()) {
                    // Make-before-break: the new replica carries traffic; the old one drains off the hot node.
                    try {
                        loop.routing.drainReplica(vnf, s.movingOut);
                        loop.log.finish(decision, LoopDecision.Outcome.SUCCEEDED, now,
                                        outcome + "; draining " + s.movingOut);
                        s.phase = VnfLoopRecord.Phase.DRAINING;
                        s.drainingReplica = s.movingOut;
                        s.drainStart = now;
                        s.quietSince = NONE;
                        s.deleteHeld = false;
                        loop.save(vnf, s);
                        return;
                    } catch (RuntimeException e) {
                        ok = false;
                        outcome += "; draining " + s.movingOut + " failed: " + DecisionLog.reason(e);
                    }
                }
                s.movingOut = null;
                s.movedFor = null;
            }
            loop.log.finish(decision, ok ? LoopDecision.Outcome.SUCCEEDED : LoopDecision.Outcome.FAILED, now, outcome);
            if (s != null) {
                s.phase = VnfLoopRecord.Phase.IDLE;
                s.plan = List.of();
                s.cooldownUntil = now + loop.params.cooldownNanos();
                s.lowSince = NONE;
                loop.save(vnf, s);
            }
        }
    }

    void startDrain(VnfObservation o, VnfState s, long now) {
        List<String> active = o.activeReplicas();
        String victim = active.get(active.size() - 1);
        long id = loop.newDecisionId();
        if (id < 0) {
            return;
        }
        DecisionLog.Entry d = loop.record(id, o, s, now, 0, active.size() - 1, LoopDecision.Action.SCALE_IN);
        s.lowSince = NONE;
        s.phase = VnfLoopRecord.Phase.DRAINING;
        s.pendingDecision = d.id;
        s.drainingReplica = victim;
        s.drainStart = now;
        s.quietSince = NONE;
        s.deleteHeld = false;
        // Write-ahead: a replica taken out of the group is never forgotten by the next leader.
        if (!loop.save(o.vnf(), s)) {
            s.phase = VnfLoopRecord.Phase.IDLE;
            s.drainingReplica = null;
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now, "loop state could not be stored: not started");
            return;
        }
        try {
            loop.routing.drainReplica(o.vnf(), victim);
        } catch (RuntimeException e) {
            s.phase = VnfLoopRecord.Phase.IDLE;
            s.drainingReplica = null;
            s.cooldownUntil = now + loop.params.cooldownNanos();
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now,
                            "drain " + victim + " failed: " + DecisionLog.reason(e));
            loop.save(o.vnf(), s);
            return;
        }
        loop.log.finish(d.id, LoopDecision.Outcome.SUCCEEDED, now, "took " + victim + " out of the multipath group");
    }

    void progressDrain(VnfObservation o, VnfState s, long now) {
        long moved = o.replicaPackets().getOrDefault(s.drainingReplica, 0L);
        if (moved > 0) {
            s.quietSince = NONE;
        } else if (s.quietSince == NONE) {
            s.quietSince = now;
        }
        boolean quiet = s.quietSince != NONE && now - s.quietSince >= loop.params.drainQuietNanos();
        boolean timedOut = now - s.drainStart >= loop.params.drainTimeoutNanos();
        if (!quiet && !timedOut) {
            return;
        }
        // The pod goes only once no switch can steer a packet to it: the flow programming moves the
        // replica's buckets after the inventory change (and a bucket with flows waits for them).
        Optional<String> steered = stillSteering(o.vnf(), s.drainingReplica);
        if (steered.isPresent()) {
            if (now - s.drainStart >= loop.params.releaseTimeoutNanos()) {
                keepReplica(o, s, now, steered.get());
            } else if (!s.deleteHeld) {
                s.deleteHeld = true;
                deletesHeld++;
            }
            return;
        }
        long id = loop.newDecisionId();
        if (id < 0) {
            return;
        }
        String replica = s.drainingReplica;
        boolean pushed = s.movingOut != null;
        DecisionLog.Entry d = loop.record(id, o, s, now, 0, o.activeReplicas().size(),
                         pushed ? LoopDecision.Action.PUSH_ASIDE : LoopDecision.Action.SCALE_IN);
        String why = (pushed ? "pushed aside for " + s.movedFor + ": " : "")
                + (quiet ? "Port_Counter still for " + (now - s.quietSince) / 1_000_000 + " ms"
                : "forced after drain timeout, traffic still seen")
                + (loop.steering == null ? "" : "; no switch steers to it (confirmed)");
        s.phase = VnfLoopRecord.Phase.REMOVING;
        s.pendingDecision = d.id;
        if (!loop.save(o.vnf(), s)) {
            s.phase = VnfLoopRecord.Phase.DRAINING;
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now, "loop state could not be stored: not deleted yet");
            return;
        }
        CompletionStage<Void> f;
        try {
            f = loop.platform.deleteReplica(o.vnf(), replica);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, err) -> removeDone(o.vnf(), d.id, replica, why, err));
    }

    /** Where the switches may still steer to a replica; unreadable switches confirm nothing. */
    Optional<String> stillSteering(VnfKey vnf, String replica) {
        SwitchSteering st = loop.steering;
        if (st == null) {
            return Optional.empty();
        }
        try {
            return st.stillSteering(vnf, replica);
        } catch (RuntimeException e) {
            return Optional.of("switches unreadable: " + e.getMessage());
        }
    }

    /**
     * The switches did not confirm within the release timeout that they stopped steering to the
     * drained replica: deleting its pod could drop packets, so the pod stays and the replica goes
     * back into the group (it serves what the switches still send it); a later scale-in may retry.
     */
    void keepReplica(VnfObservation o, VnfState s, long now, String where) {
        long id = loop.newDecisionId();
        if (id < 0) {
            return;
        }
        String replica = s.drainingReplica;
        boolean pushed = s.movingOut != null;
        DecisionLog.Entry d = loop.record(id, o, s, now, 0, o.activeReplicas().size() + 1,
                         pushed ? LoopDecision.Action.PUSH_ASIDE : LoopDecision.Action.SCALE_IN);
        String detail = (pushed ? "pushed aside for " + s.movedFor + ": " : "") + "pod of " + replica
                + " not deleted: the switches still steer to it " + (now - s.drainStart) / 1_000_000
                + " ms after its drain began (" + where + ")";
        releasesGivenUp++;
        try {
            loop.routing.restoreReplica(o.vnf(), replica);
        } catch (RuntimeException e) {
            // Still out of the group: keep waiting, and give up again after another timeout.
            s.drainStart = now;
            s.quietSince = NONE;
            loop.save(o.vnf(), s);
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now, detail + "; putting it back into the group failed ("
                    + e.getMessage() + "), still draining");
            return;
        }
        endDrain(o.vnf(), s, now);
        loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now, detail + "; pod kept, " + replica
                + " back in the multipath group");
    }

    void removeDone(VnfKey vnf, long decision, String replica, String why, Throwable err) {
        synchronized (loop) {
            if (loop.closed) {
                // No longer the leader: the next one finishes this decision from the store.
                return;
            }
            long now = loop.clock.nanoTime();
            VnfState s = loop.states.get(vnf);
            if (err != null) {
                // Keep draining: the next quiet period retries the delete.
                if (s != null) {
                    s.phase = VnfLoopRecord.Phase.DRAINING;
                    s.quietSince = NONE;
                    loop.save(vnf, s);
                }
                loop.log.finish(decision, LoopDecision.Outcome.FAILED, now, "delete " + replica + " failed: " + err);
                return;
            }
            String outcome = why + "; deleted " + replica;
            LoopDecision.Outcome o = LoopDecision.Outcome.SUCCEEDED;
            try {
                loop.routing.removeReplica(vnf, replica);
            } catch (RuntimeException e) {
                o = LoopDecision.Outcome.FAILED;
                outcome += "; inventory update failed: " + DecisionLog.reason(e);
            }
            loop.log.finish(decision, o, now, outcome);
            if (s != null) {
                endDrain(vnf, s, now);
            }
        }
    }

    /** The drain is over (its replica deleted, or back in the group): idle, cooling down. */
    void endDrain(VnfKey vnf, VnfState s, long now) {
        s.phase = VnfLoopRecord.Phase.IDLE;
        s.drainingReplica = null;
        s.deleteHeld = false;
        s.movingOut = null;
        s.movedFor = null;
        s.cooldownUntil = now + loop.params.cooldownNanos();
        loop.save(vnf, s);
    }

    /**
     * The replica this vNF drains died: its buckets, held for their flows while it lived, must move
     * now. It leaves the inventory at once (the flow programming then moves its buckets without
     * waiting) and its workload is deleted; the scale-in ends there.
     *
     * @return null if done, else why the inventory refused
     */
    String removeDeadDrain(VnfKey vnf, long now, String cause) {
        VnfState s = loop.states.get(vnf);
        String replica = s.drainingReplica;
        try {
            loop.routing.removeReplica(vnf, replica);
        } catch (RuntimeException e) {
            return String.valueOf(e.getMessage());
        }
        long id = loop.newDecisionId();
        LoopDecision.Action a = s.movingOut != null ? LoopDecision.Action.PUSH_ASIDE : LoopDecision.Action.SCALE_IN;
        DecisionLog.Entry d = loop.log.note(Math.max(id, 0), now, vnf, a, 0, 0, LoopDecision.Outcome.IN_PROGRESS, "",
                                            Map.of());
        s.phase = VnfLoopRecord.Phase.REMOVING;
        s.pendingDecision = d.id;
        loop.save(vnf, s);
        CompletionStage<Void> f;
        try {
            f = loop.platform.deleteReplica(vnf, replica);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, err) -> removeDone(vnf, d.id, replica, "died while draining (" + cause + ")", err));
        return null;
    }
}
