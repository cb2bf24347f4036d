// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;
import org.srv6int.app.api.model.VnfReplicaId;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Reservations that no create in flight owns (issue 33): a PENDING replica of a vNF the loop is
 * not creating for was left by a create that failed and whose give-back failed too (the store
 * unreachable for longer than its attempts), or by a scale-out whose replica became Ready but
 * whose group update failed. At every round of the leader's loop, such a reservation whose
 * workload the platform reports Ready joins the group (the group update done again); one not
 * reported Ready for {@link LoopParams#reservationTimeoutNanos()} (counted from the first round
 * that saw it unowned: a store may date records by the read) is given back, its workload deleted
 * and then its record and SID claim. A step that fails is retried at the next round. The records
 * change only through {@link ChainRouting} (the replica life cycle); runs under the loop's lock.
 *
 * <p>The same leftovers without a record: SID claims held by no replica, left by a previous leader
 * that died between a claim and its record, or by a decision of ours that FAILED (a create whose
 * record's write was lost between members after its claim, a removal whose claim's release failed).
 * From the resume, and from each failed decision on, the rounds ask the life cycle to give back
 * those older than a create takes, until none is left too young to tell from a create in progress.
 */
final class Reservations {

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final GlobalLoop loop;
    // unowned reservation -> loop-clock ns of the first round that saw it so
    private final Map<VnfReplicaId, Long> unownedSince = new HashMap<>();
    private final Set<VnfReplicaId> deleting = new HashSet<>();
    long joined;
    long givenBack;
    long failures;
    private boolean orphansToCheck;
    private long failedEndsSeen;

    Reservations(GlobalLoop loop) {
        this.loop = loop;
    }

    /** Checks for orphaned SID claims from the next round on (a resume: a previous leader's). */
    void checkOrphansFromNowOn() {
        orphansToCheck = true;
    }

    /** One round's check of orphaned SID claims, while there may be some; a failed read retries. */
    void releaseOrphanSids() {
        long failed = loop.log.failedEnds();
        if (failed != failedEndsSeen) {
            failedEndsSeen = failed;
            orphansToCheck = true;
        }
        if (!orphansToCheck) {
            return;
        }
        try {
            orphansToCheck = loop.routing.releaseOrphanSids() > 0;
        } catch (RuntimeException e) {
            loop.storeFailures++;
        }
    }

    /** One round: every unowned reservation joins (Ready), waits, or is given back (timed out). */
    void reclaim(long now) {
        Map<VnfKey, List<ReplicaInfo>> all;
        try {
            all = loop.routing.reservations();
        } catch (RuntimeException e) {
            failures++;
            return;
        }
        Set<VnfReplicaId> unowned = new HashSet<>();
        for (Map.Entry<VnfKey, List<ReplicaInfo>> e : all.entrySet()) {
            VnfKey vnf = e.getKey();
            VnfState s = loop.states.get(vnf);
            if (s != null && s.phase == VnfLoopRecord.Phase.SCALING) {
                // the create in flight's to finish (its clock starts again once it has ended)
                continue;
            }
            Map<String, Boolean> ready = readiness(vnf);
            for (ReplicaInfo r : e.getValue()) {
                VnfReplicaId id = VnfReplicaId.of(vnf, r.id());
                unowned.add(id);
                long since = unownedSince.computeIfAbsent(id, k -> now);
                if (Boolean.TRUE.equals(ready.get(r.id()))) {
                    join(vnf, r);
                } else if (now - since >= loop.params.reservationTimeoutNanos()) {
                    giveBack(vnf, id, (now - since) / 1_000_000);
                }
            }
        }
        unownedSince.keySet().retainAll(unowned);
    }

    // The platform's watch; unknown reads as not Ready (a reservation is then given back on time alone).
    private Map<String, Boolean> readiness(VnfKey vnf) {
        try {
            return loop.platform.replicaReadiness(vnf).orElse(Map.of());
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    private void join(VnfKey vnf, ReplicaInfo r) {
        try {
            loop.routing.addReplicas(vnf, List.of(r));
            joined++;
            unownedSince.remove(VnfReplicaId.of(vnf, r.id()));
            log.warn("Reservation {}/{} joined the group: its workload is Ready and no create owns it "
                             + "(a create's group update or give-back had failed)", vnf, r.id());
        } catch (RuntimeException e) {
            failures++;
            log.warn("Reservation {}/{} is Ready but joining it failed ({}): retried next round", vnf, r.id(),
                     DecisionLog.reason(e));
        }
    }

    // The workload first: until both are gone the record stays and the next round tries again.
    private void giveBack(VnfKey vnf, VnfReplicaId id, long ageMillis) {
        if (!deleting.add(id)) {
            return;
        }
        CompletionStage<Void> f;
        try {
            f = loop.platform.deleteReplica(vnf, id.name());
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, err) -> released(vnf, id, ageMillis, err));
    }

    private void released(VnfKey vnf, VnfReplicaId id, long ageMillis, Throwable err) {
        synchronized (loop) {
            deleting.remove(id);
            if (loop.closed) {
                return;
            }
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            // Not one of the platform's workloads (e.g. reserved by hand): only its record is ours to give back.
            if (cause != null && !(cause instanceof IllegalArgumentException)) {
                failures++;
                log.warn("Deleting the workload of reservation {} failed ({}): retried next round", id,
                         DecisionLog.reason(cause));
                return;
            }
            try {
                if (loop.routing.releaseReservation(vnf, id.name())) {
                    givenBack++;
                    unownedSince.remove(id);
                    log.warn("Reservation {} given back after {} ms unowned and not Ready (record, SID claim, "
                                     + "workload)", id, ageMillis);
                }
            } catch (RuntimeException e) {
                failures++;
                log.warn("Giving back reservation {} failed ({}): retried next round", id, DecisionLog.reason(e));
            }
        }
    }
}
