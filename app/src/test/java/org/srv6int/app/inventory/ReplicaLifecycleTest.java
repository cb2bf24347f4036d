// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.inventory;

import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.ReplicaTransition;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.inventory.ReplicaLifecycle.Step;
import org.srv6int.app.store.DistributedVnfReplicaStore;
import org.srv6int.app.store.TestStores;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The replica life cycle's transition table, step by step from every record state (none, PENDING,
 * ACTIVE, DRAINING, DEAD) on the real replica store: legal steps write the record and are counted
 * by their edge, illegal ones are refused with CONFLICT, counted by step and state, and leave the
 * record as it was; and a SID claimed for a replica that never reached the store is given back
 * once older than a create takes.
 */
public class ReplicaLifecycleTest {

    private static final VnfKey VNF = VnfKey.of(PaperTestbed.SFC2, 0);
    private static final VnfReplicaId ID = VnfReplicaId.of(VNF, "r5");
    /** null: no record. */
    private static final ReplicaState[] FROM = {null, ReplicaState.PENDING, ReplicaState.ACTIVE,
        ReplicaState.DRAINING, ReplicaState.DEAD};

    /**
     * The table as the design states it (docs/global-loop.md), written out apart from the code:
     * the states each step may start from, and the state it leads to ("none": no record after).
     */
    private static final Map<Step, Set<ReplicaState>> LEGAL = Map.of(
            Step.ACTIVATE, Set.of(ReplicaState.PENDING, ReplicaState.ACTIVE),
            Step.DRAIN, Set.of(ReplicaState.ACTIVE, ReplicaState.DRAINING),
            Step.FAIL, Set.of(ReplicaState.PENDING, ReplicaState.ACTIVE, ReplicaState.DRAINING, ReplicaState.DEAD),
            Step.RESTORE, Set.of(ReplicaState.PENDING, ReplicaState.ACTIVE, ReplicaState.DRAINING,
                                 ReplicaState.DEAD),
            Step.RELEASE, Set.of(ReplicaState.PENDING),
            Step.REMOVE, Set.of(ReplicaState.PENDING, ReplicaState.ACTIVE, ReplicaState.DRAINING,
                                ReplicaState.DEAD));
    /** Where each step leads (REGISTER: the state given; RELEASE, REMOVE: no record). */
    private static final Map<Step, ReplicaState> TO = Map.of(
            Step.RESERVE, ReplicaState.PENDING, Step.ADD, ReplicaState.ACTIVE, Step.ACTIVATE, ReplicaState.ACTIVE,
            Step.DRAIN, ReplicaState.DRAINING, Step.FAIL, ReplicaState.DEAD, Step.RESTORE, ReplicaState.ACTIVE);
    private static final Set<Step> CREATE = Set.of(Step.RESERVE, Step.ADD, Step.REGISTER);

    private final InMemoryStorageService storage = new InMemoryStorageService();
    private final AtomicLong wall = new AtomicLong(System.currentTimeMillis());
    private DistributedVnfReplicaStore store;
    private ReplicaLifecycle lifecycle;

    @Before
    public void setUp() {
        store = TestStores.replicas(storage);
        lifecycle = new ReplicaLifecycle(store, wall::get);
    }

    private static VnfReplica record(ReplicaState state, int vnfId) {
        VnfReplica r = PaperTestbed.replica(VNF, ID.name(), "worker2", vnfId).withState(state);
        return state == ReplicaState.ACTIVE ? r : r.withWeight(0);
    }

    /** Puts the record in a state (or none) through legal steps only. */
    private void arrange(ReplicaState state) {
        lifecycle.remove(ID, Step.REMOVE);
        if (state != null) {
            assertTrue(lifecycle.create(Step.REGISTER, record(state, 5)));
        }
    }

    private Optional<ReplicaState> now() {
        return store.getReplica(ID).map(VnfReplica::state);
    }

    @Test
    public void everyStepFromEveryStateIsDoneOrRefusedAsTheTableSays() {
        List<String> checked = new ArrayList<>();
        for (Step step : Step.values()) {
            for (ReplicaState from : FROM) {
                arrange(from);
                long refusedBefore = lifecycle.refused();
                long doneBefore = lifecycle.done(step);
                long edgeBefore = count(lifecycle.transitions(), step, from,
                                        step == Step.REGISTER ? ReplicaState.DRAINING : TO.get(step));
                long refusedHereBefore = count(lifecycle.refusals(), step, from, null);
                boolean legal = from == null ? CREATE.contains(step) : LEGAL.getOrDefault(step, Set.of())
                        .contains(from);
                String what = step + " from " + (from == null ? "none" : from);
                try {
                    if (CREATE.contains(step)) {
                        ReplicaState s = step == Step.RESERVE ? ReplicaState.PENDING
                                : step == Step.ADD ? ReplicaState.ACTIVE : ReplicaState.DRAINING;
                        // from a record: the name is taken, nothing is written (a create is no transition)
                        boolean stored = lifecycle.create(step, record(s, 6));
                        assertEquals(what, from == null, stored);
                        assertEquals(what, Optional.of(from == null ? s : from), now());
                    } else if (step == Step.RELEASE || step == Step.REMOVE) {
                        Optional<VnfReplica> gone = lifecycle.remove(ID, step);
                        assertTrue(what, legal || from == null);
                        assertEquals(what, from != null, gone.isPresent());
                        assertEquals(what, Optional.empty(), now());
                    } else {
                        int w = step == Step.ACTIVATE || step == Step.RESTORE ? 1 : 0;
                        VnfReplica r = lifecycle.apply(ID, step, w);
                        assertTrue(what + " should be refused", legal);
                        assertEquals(what, step.to().orElseThrow(), r.state());
                        assertEquals(what, Optional.of(r.state()), now());
                        assertEquals(what, w, store.getReplica(ID).orElseThrow().weight());
                    }
                    if (CREATE.contains(step) == (from == null)) {
                        assertEquals(what, doneBefore + 1, lifecycle.done(step));
                        ReplicaState to = step == Step.REGISTER ? ReplicaState.DRAINING : TO.get(step);
                        assertEquals(what, edgeBefore + 1, count(lifecycle.transitions(), step, from, to));
                    }
                    assertEquals(what, refusedBefore, lifecycle.refused());
                } catch (SfcException e) {
                    if (from == null && !CREATE.contains(step)) {
                        assertEquals(what, SfcException.Reason.NOT_FOUND, e.reason());
                        assertEquals(what, refusedBefore, lifecycle.refused());
                    } else {
                        assertFalse(what + " should be done: " + e.getMessage(), legal);
                        assertEquals(what, SfcException.Reason.CONFLICT, e.reason());
                        assertTrue(e.getMessage(), e.getMessage().contains(step.name()));
                        assertEquals(what, refusedBefore + 1, lifecycle.refused());
                        assertEquals(what, refusedHereBefore + 1, count(lifecycle.refusals(), step, from, null));
                        assertEquals(what + " left the record as it was", Optional.ofNullable(from), now());
                    }
                }
                assertEquals(what, from == null ? CREATE.contains(step) : LEGAL.getOrDefault(step, Set.of())
                        .contains(from), step.allowedFrom(from));
                checked.add(what);
            }
        }
        assertEquals(Step.values().length * FROM.length, checked.size());
    }

    /** The count of one edge (step, from, to; null: none); fails if the edge is not listed. */
    private static long count(List<ReplicaTransition> edges, Step step, ReplicaState from, ReplicaState to) {
        for (ReplicaTransition t : edges) {
            if (t.step().equals(step.name()) && t.from().orElse(null) == from && t.to().orElse(null) == to) {
                return t.count();
            }
        }
        return -1;
    }

    /**
     * A replica's whole life (reserved, joins, dies, returns, drains, goes) is counted edge by edge,
     * the two steps refused on its way by step and the state they were asked from; every other edge
     * of the table is listed with 0, so a scrape shows each before it is first taken.
     */
    @Test
    public void aReplicasLifeIsCountedEdgeByEdge() {
        assertTrue(lifecycle.create(Step.RESERVE, record(ReplicaState.PENDING, 5)));
        lifecycle.apply(ID, Step.ACTIVATE, 1);
        lifecycle.apply(ID, Step.FAIL, 0);
        try {
            lifecycle.apply(ID, Step.DRAIN, 0);
            fail("a dead replica is not drained");
        } catch (SfcException e) {
            assertEquals(SfcException.Reason.CONFLICT, e.reason());
        }
        lifecycle.apply(ID, Step.RESTORE, 1);
        try {
            lifecycle.apply(ID, Step.DRAIN, 1);
            fail("a draining replica has weight 0");
        } catch (SfcException e) {
            assertEquals(SfcException.Reason.CONFLICT, e.reason());
        }
        lifecycle.apply(ID, Step.DRAIN, 0);
        assertTrue(lifecycle.remove(ID, Step.REMOVE).isPresent());

        List<ReplicaTransition> edges = lifecycle.transitions();
        Map<String, Long> taken = new TreeMap<>();
        edges.stream().filter(t -> t.count() > 0).forEach(t -> taken.put(t.toString(), t.count()));
        assertEquals(Map.of("RESERVE none -> PENDING: 1", 1L, "ACTIVATE PENDING -> ACTIVE: 1", 1L,
                            "FAIL ACTIVE -> DEAD: 1", 1L, "RESTORE DEAD -> ACTIVE: 1", 1L,
                            "DRAIN ACTIVE -> DRAINING: 1", 1L, "REMOVE DRAINING -> none: 1", 1L), taken);
        // every edge of the table, once: creates from none, REGISTER to each state, the rest from LEGAL
        int expected = 2 + ReplicaState.values().length;
        for (Set<ReplicaState> from : LEGAL.values()) {
            expected += from.size();
        }
        assertEquals(expected, edges.size());
        assertEquals(expected, edges.stream().map(ReplicaTransition::toString).map(s -> s.replaceAll(": .*", ""))
                .distinct().count());
        assertEquals(2, lifecycle.refused());
        assertEquals(1, count(lifecycle.refusals(), Step.DRAIN, ReplicaState.DEAD, null));
        assertEquals(1, count(lifecycle.refusals(), Step.DRAIN, ReplicaState.ACTIVE, null));
        assertEquals(0, count(lifecycle.refusals(), Step.RELEASE, ReplicaState.ACTIVE, null));
        assertEquals("a refusal the table allows is listed only once it happened", -1,
                     count(lifecycle.refusals(), Step.ACTIVATE, ReplicaState.ACTIVE, null));
    }

    @Test
    public void aStateThatCarriesNoTrafficHasWeightZero() {
        arrange(ReplicaState.ACTIVE);
        for (Step step : Arrays.asList(Step.DRAIN, Step.FAIL)) {
            try {
                lifecycle.apply(ID, step, 1);
                fail(step + " with weight 1");
            } catch (SfcException e) {
                assertEquals(SfcException.Reason.CONFLICT, e.reason());
            }
        }
        assertEquals(2, lifecycle.refused());
        assertEquals(Optional.of(ReplicaState.ACTIVE), now());
        // a reservation is PENDING with weight 0, nothing else
        lifecycle.remove(ID, Step.REMOVE);
        try {
            lifecycle.create(Step.RESERVE, record(ReplicaState.ACTIVE, 5));
            fail("an ACTIVE reservation");
        } catch (SfcException e) {
            assertEquals(SfcException.Reason.CONFLICT, e.reason());
        }
        assertEquals(Optional.empty(), now());
        try {
            lifecycle.apply(ID, Step.ACTIVATE, 256);
            fail("weight 256");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("0..255"));
        }
    }

    /**
     * An instance claims a SID for a replica and dies before it stores the record: the claim is the
     * SID's forever unless someone gives it back. A claim younger than a create takes may be a create in
     * progress and stays; once older it goes, and the SID is free for the next replica.
     */
    @Test
    public void aSidClaimedForAReplicaThatNeverReachedTheStoreIsReleased() {
        assertTrue(lifecycle.create(Step.REGISTER, record(ReplicaState.ACTIVE, 5)));
        Ip6Address ghostSid = Ip6Address.valueOf("fc00:0:3:f::6");
        VnfReplicaId ghost = VnfReplicaId.of(VNF, "ghost");
        TestStores.claimSidAndDie(storage, ghostSid, ghost);
        wall.set(System.currentTimeMillis());
        assertTrue(store.sidsInUse().contains(ghostSid));
        // the store refuses another replica that SID
        VnfReplica other = PaperTestbed.replica(VNF, "r6", "worker2", 6).withState(ReplicaState.PENDING).withWeight(0);
        assertFalse(lifecycle.create(Step.RESERVE, other));

        assertEquals(0, lifecycle.releaseOrphanSids());
        assertEquals("young: may be a create in progress", 1, lifecycle.youngOrphans());
        assertTrue(store.sidsInUse().contains(ghostSid));

        wall.addAndGet(ReplicaLifecycle.ORPHAN_GRACE_MILLIS + 1);
        assertEquals(1, lifecycle.releaseOrphanSids());
        assertEquals(0, lifecycle.youngOrphans());
        assertEquals(1, lifecycle.sidsReleased());
        assertFalse(store.sidsInUse().contains(ghostSid));
        // the stored replica's claim is untouched, and the SID goes to the next replica
        assertTrue(store.sidsInUse().contains(record(ReplicaState.ACTIVE, 5).sid()));
        assertTrue(lifecycle.create(Step.RESERVE, other));
        assertEquals(0, lifecycle.releaseOrphanSids());
        assertEquals(Set.of(record(ReplicaState.ACTIVE, 5).sid(), ghostSid), store.sidsInUse());
    }

    /**
     * Atomix 3.1.9's map dates every value by the time it is read (its service drops the entry's
     * creation time), so a claim always looks just made. The orphan goes all the same once this
     * instance has seen it held by no record for the grace period; a claim its record comes to hold
     * meanwhile (a create in progress) is left alone and forgotten.
     */
    @Test
    public void anOrphanClaimIsReleasedThoughTheStoreDatesClaimsByTheRead() {
        DistributedVnfReplicaStore readDated = new DistributedVnfReplicaStore(storage) {
            @Override
            public List<SidClaim> sidClaims() {
                return super.sidClaims().stream().map(c -> new SidClaim(c.sid(), c.holder(), wall.get()))
                        .collect(Collectors.toList());
            }
        };
        readDated.activate();
        ReplicaLifecycle onAtomix = new ReplicaLifecycle(readDated, wall::get);
        Ip6Address ghostSid = Ip6Address.valueOf("fc00:0:3:f::6");
        TestStores.claimSidAndDie(storage, ghostSid, VnfReplicaId.of(VNF, "ghost"));
        // a create in progress: its claim made, its record not stored yet
        VnfReplica inProgress = record(ReplicaState.PENDING, 7);
        TestStores.claimSidAndDie(storage, inProgress.sid(), inProgress.id());

        assertEquals(0, onAtomix.releaseOrphanSids());
        assertEquals(2, onAtomix.youngOrphans());
        wall.addAndGet(ReplicaLifecycle.ORPHAN_GRACE_MILLIS / 2);
        assertTrue("the create finishes", readDated.createReplica(inProgress));
        assertEquals(0, onAtomix.releaseOrphanSids());
        assertEquals(1, onAtomix.youngOrphans());
        wall.addAndGet(ReplicaLifecycle.ORPHAN_GRACE_MILLIS / 2 + 1);
        assertEquals("released though the store says the claim is new", 1, onAtomix.releaseOrphanSids());
        assertEquals(0, onAtomix.youngOrphans());
        assertEquals(Set.of(inProgress.sid()), readDated.sidsInUse());
        assertEquals(Optional.of(inProgress), readDated.getReplica(inProgress.id()));
    }
}
