// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.onlab.packet.Ip6Address;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.placement.BucketAssignment;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.placement.BucketDrain;
import org.srv6int.app.switchstate.FlowEntries;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The bucket table of each chain at its ingress (issue 18 items 1, 2): which
 * segment list each of the chain's buckets gets, worked out against what is
 * installed so that a change of replicas moves as few buckets as it must.
 *
 * <p>Per vNF, the replica of each bucket is read off the installed entry (the
 * SID at the vNF's position in its segment list) and {@link BucketAssignment}
 * maps the buckets to the vNF's replicas in the segment lists, by their
 * weights, with the fewest moves; the bucket's segment list is the one with
 * the wanted replica of every vNF (if placement left that combination out,
 * the list with the most of them). {@link BucketDrain} then holds back the
 * moves of buckets whose replica is alive but loses traffic (DRAINING: scale-in;
 * or its weight went down) until the bucket's direct counter shows its flows
 * are gone or the drain deadline. The buckets a scale-out gives to a new
 * replica, and those of a dead or removed replica, move at once. A
 * bucket only gets a segment list whose SIDs are installed (make-before-break).
 *
 * <p>State (drain timers) is per ONOS instance and lost on restart: a restart
 * restarts the wait, never moves a flow early. Used by the programming thread only.
 */
public final class BucketTables {

    /** What a chain's bucket table should look like now. */
    public static final class Plan {
        /** One rule per bucket that has (or gets) an entry. */
        public final List<FlowRule> wanted;
        /** The rules of {@link #wanted} that differ from what is installed. */
        public final List<FlowRule> writes;
        /** Whether every bucket has an installed entry (the classifier may point at the chain). */
        public final boolean complete;

        Plan(List<FlowRule> wanted, List<FlowRule> writes, boolean complete) {
            this.wanted = wanted;
            this.writes = writes;
            this.complete = complete;
        }
    }

    private final int buckets;
    private long idleMs;
    private long deadlineMs;
    private long holdMs;
    private final Map<SfcId, BucketDrain<List<Ip6Address>>> drains = new HashMap<>();
    private final Map<SfcId, Map<VnfReplicaId, Integer>> lastWeights = new HashMap<>();
    private final Map<SfcId, Set<VnfReplicaId>> shrinking = new HashMap<>();
    private final Map<SfcId, DeviceId> ingressOf = new HashMap<>();

    /**
     * Creates the bucket tables of one ONOS instance.
     *
     * @param buckets    buckets per chain (ENCAP_BUCKETS)
     * @param idleMs     a bucket whose counter did not move this long has no flows left
     * @param deadlineMs a drain waits at most this long
     * @param holdMs     a bucket that moved this recently moves again only on a failure
     */
    public BucketTables(int buckets, long idleMs, long deadlineMs, long holdMs) {
        this.buckets = buckets;
        setDrainTimes(idleMs, deadlineMs, holdMs);
    }

    /**
     * Creates the bucket tables with the default drain times (docs/failures.md).
     *
     * @param buckets buckets per chain (ENCAP_BUCKETS)
     */
    public BucketTables(int buckets) {
        this(buckets, Srv6IntAppConfig.DEFAULT_DRAIN_IDLE_MS, Srv6IntAppConfig.DEFAULT_DRAIN_DEADLINE_MS,
             Srv6IntAppConfig.DEFAULT_BUCKET_HOLD_MS);
    }

    /**
     * Changes the drain times (netcfg {@code loop.drainIdleMs}, {@code drainDeadlineMs},
     * {@code bucketHoldMs}) of every chain; waits in progress keep their start.
     *
     * @param idleMs     a bucket whose counter did not move this long has no flows left, &gt; 0
     * @param deadlineMs a drain waits at most this long, &ge; idleMs
     * @param holdMs     a bucket that moved this recently moves again only on a failure, &ge; 0
     * @throws IllegalArgumentException on a bad value (nothing is changed)
     */
    public void setDrainTimes(long idleMs, long deadlineMs, long holdMs) {
        if (idleMs == this.idleMs && deadlineMs == this.deadlineMs && holdMs == this.holdMs) {
            return;
        }
        // checked once here (BucketDrain checks the same), so no chain is left half changed
        new BucketDrain<>(1, idleMs, deadlineMs, holdMs);
        this.idleMs = idleMs;
        this.deadlineMs = deadlineMs;
        this.holdMs = holdMs;
        for (BucketDrain<?> d : drains.values()) {
            d.setTimes(idleMs, deadlineMs, holdMs);
        }
    }

    /**
     * Plans one chain's bucket table.
     *
     * @param sfc       chain
     * @param lists     its segment lists (not empty)
     * @param installed its installed bucket entries by bucket
     * @param replicas  every replica
     * @param ready     whether a segment list's SIDs are installed
     * @param appId     app id
     * @param nowMs     now
     * @return the plan
     */
    public Plan plan(Sfc sfc, List<SegmentList> lists, Map<Integer, FlowEntry> installed,
                     Collection<VnfReplica> replicas, Predicate<SegmentList> ready, ApplicationId appId,
                     long nowMs) {
        int k = sfc.vnfs().size();
        ingressOf.put(sfc.id(), sfc.ingress().deviceId());
        Map<Ip6Address, VnfReplica> bySid = new HashMap<>();
        Map<VnfReplicaId, VnfReplica> byId = new HashMap<>();
        for (VnfReplica r : replicas) {
            if (r.vnf().sfcId().equals(sfc.id())) {
                bySid.put(r.sid(), r);
            }
            byId.putIfAbsent(r.id(), r);
        }
        List<List<Ip6Address>> have = new ArrayList<>(Collections.nCopies(buckets, (List<Ip6Address>) null));
        for (Map.Entry<Integer, FlowEntry> e : installed.entrySet()) {
            List<Ip6Address> t = FlowEntries.travel(e.getValue());
            if (!t.isEmpty() && e.getKey() < buckets) {
                have.set(e.getKey(), t);
            }
        }
        Map<List<Ip6Address>, SegmentList> byTravel = new HashMap<>();
        for (SegmentList l : lists) {
            byTravel.put(travelOf(l), l);
        }

        // per vNF: the replica of each bucket now, the wanted one
        List<List<VnfReplicaId>> want = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            List<VnfReplicaId> current = new ArrayList<>();
            for (List<Ip6Address> t : have) {
                VnfReplica r = t == null || t.size() <= i ? null : bySid.get(t.get(i));
                current.add(r != null && r.vnf().index() == i ? r.id() : null);
            }
            Map<VnfReplicaId, Integer> weights = new TreeMap<>();
            for (SegmentList l : lists) {
                VnfReplicaId id = l.replicas().get(i);
                VnfReplica r = byId.get(id);
                if (r != null) {
                    weights.put(id, Math.max(1, r.weight()));
                }
            }
            want.add(BucketAssignment.assign(current, weights, i));
        }

        List<List<Ip6Address>> target = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            SegmentList best = bestList(lists, want, b, k);
            List<Ip6Address> t = travelOf(best);
            List<Ip6Address> h = have.get(b);
            if (!ready.test(best)) {
                // make-before-break: a bucket never points at SIDs that are not installed
                SegmentList readyOne = lists.stream().filter(ready).findFirst().orElse(null);
                t = h != null && alive(h, bySid) ? h : readyOne == null ? h : travelOf(readyOne);
            }
            target.add(t);
        }

        BucketDrain<List<Ip6Address>> drain = drains.computeIfAbsent(
                sfc.id(), x -> new BucketDrain<>(buckets, idleMs, deadlineMs, holdMs));
        // which replicas' buckets wait for their flows: draining ones and those whose weight went down
        Map<VnfReplicaId, Integer> seen = lastWeights.computeIfAbsent(sfc.id(), x -> new HashMap<>());
        Set<VnfReplicaId> losing = shrinking.computeIfAbsent(sfc.id(), x -> new HashSet<>());
        for (VnfReplica r : bySid.values()) {
            int w = r.state() == ReplicaState.ACTIVE ? r.weight() : 0;
            Integer before = seen.put(r.id(), w);
            if (r.state() == ReplicaState.DRAINING || (before != null && w < before)) {
                losing.add(r.id());
            }
        }
        seen.keySet().retainAll(bySid.values().stream().map(VnfReplica::id).collect(Collectors.toSet()));
        Set<List<Ip6Address>> waits = new HashSet<>();
        for (int b = 0; b < buckets; b++) {
            FlowEntry e = installed.get(b);
            if (e != null && e.state() == FlowEntry.FlowEntryState.ADDED) {
                drain.observe(b, e.packets(), nowMs);
            }
            List<Ip6Address> h = have.get(b);
            if (h != null && alive(h, bySid) && losesWeight(h, bySid, losing)) {
                waits.add(h);
            }
        }
        List<List<Ip6Address>> next = drain.step(have, target, waits, nowMs);
        // a replica stops losing once none of its buckets waits any more
        Set<VnfReplicaId> stillWaiting = new HashSet<>();
        for (int b = 0; b < buckets; b++) {
            if (next.get(b) != null && !next.get(b).equals(target.get(b))) {
                for (Ip6Address sid : next.get(b)) {
                    VnfReplica r = bySid.get(sid);
                    if (r != null) {
                        stillWaiting.add(r.id());
                    }
                }
            }
        }
        losing.retainAll(stillWaiting);

        List<FlowRule> wanted = new ArrayList<>();
        List<FlowRule> writes = new ArrayList<>();
        boolean complete = true;
        for (int b = 0; b < buckets; b++) {
            List<Ip6Address> n = next.get(b);
            FlowEntry e = installed.get(b);
            if (n == null) {
                complete = false;
                continue;
            }
            if (e == null) {
                complete = false;
            }
            if (n.equals(have.get(b)) && e != null) {
                wanted.add(e);
                continue;
            }
            SegmentList l = byTravel.get(n);
            if (l == null) {
                // a list that left placement and is still installed: keep its entry as it is
                if (e != null) {
                    wanted.add(e);
                }
                continue;
            }
            FlowRule r = ChainProgrammer.bucketRule(sfc, b, l, appId);
            wanted.add(r);
            writes.add(r);
        }
        return new Plan(wanted, writes, complete);
    }

    private static List<Ip6Address> travelOf(SegmentList l) {
        return l.segments().subList(1, l.segments().size());
    }

    /** The list with the wanted replica of every vNF at bucket b, else the one with the most of them. */
    private static SegmentList bestList(List<SegmentList> lists, List<List<VnfReplicaId>> want, int b, int k) {
        SegmentList best = lists.get(0);
        int bestScore = -1;
        for (SegmentList l : lists) {
            int score = 0;
            for (int i = 0; i < k; i++) {
                if (l.replicas().get(i).equals(want.get(i).get(b))) {
                    // earlier vNFs weigh more: a tie keeps the first vNFs' replicas
                    score += 1 << (k - i);
                }
            }
            if (score > bestScore) {
                best = l;
                bestScore = score;
            }
        }
        return best;
    }

    private static boolean losesWeight(List<Ip6Address> travel, Map<Ip6Address, VnfReplica> bySid,
                                       Set<VnfReplicaId> losing) {
        for (Ip6Address sid : travel) {
            VnfReplica r = bySid.get(sid);
            if (r != null && losing.contains(r.id())) {
                return true;
            }
        }
        return false;
    }

    /** A list is alive while every replica on it is ACTIVE or DRAINING (not failed, not gone). */
    private static boolean alive(List<Ip6Address> travel, Map<Ip6Address, VnfReplica> bySid) {
        for (int i = 0; i < travel.size() - 1; i++) {
            VnfReplica r = bySid.get(travel.get(i));
            if (r == null || r.state() == ReplicaState.PENDING || r.state() == ReplicaState.DEAD) {
                return false;
            }
        }
        return true;
    }

    /**
     * Forgets the drain state of the chains of one ingress no longer programmed there.
     *
     * @param ingress the ingress switch
     * @param keep    chains still programmed at it
     */
    public void retain(DeviceId ingress, Set<SfcId> keep) {
        Set<SfcId> gone = new HashSet<>();
        ingressOf.forEach((sfc, d) -> {
            if (d.equals(ingress) && !keep.contains(sfc)) {
                gone.add(sfc);
            }
        });
        for (SfcId sfc : gone) {
            ingressOf.remove(sfc);
            drains.remove(sfc);
            lastWeights.remove(sfc);
            shrinking.remove(sfc);
        }
    }

    /**
     * Returns how many buckets of all chains wait for their flows.
     *
     * @return waiting buckets
     */
    public int waiting() {
        return drains.values().stream().mapToInt(BucketDrain::waiting).sum();
    }

    /**
     * Returns the drain counters summed over chains: drained, forced, moved at once, held.
     *
     * @return four counters
     */
    public long[] counters() {
        long[] c = new long[4];
        for (BucketDrain<?> d : drains.values()) {
            c[0] += d.drained();
            c[1] += d.forced();
            c[2] += d.movedAtOnce();
            c[3] += d.held();
        }
        return c;
    }
}
