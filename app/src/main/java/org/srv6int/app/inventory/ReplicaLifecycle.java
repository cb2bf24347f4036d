// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.inventory;

import org.onlab.packet.Ip6Address;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.ReplicaTransition;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.store.VnfReplicaStore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The life cycle of one replica's record, and the only code that writes the replica store. One
 * instance per app instance: a component in Karaf, built once by the app's assembly elsewhere, and
 * given to every writer (the inventory, the chain service).
 *
 * <pre>
 *   step      from                              to
 *   RESERVE   (none)                            PENDING, weight 0  (claims the SID)
 *   ADD       (none)                            ACTIVE             (claims the SID)
 *   REGISTER  (none)                            as given           (claims the SID)
 *   ACTIVATE  PENDING, ACTIVE                   ACTIVE
 *   DRAIN     ACTIVE, DRAINING                  DRAINING, weight 0
 *   FAIL      any                               DEAD, weight 0
 *   RESTORE   any                               ACTIVE
 *   RELEASE   PENDING                           (none)             (a reservation given back)
 *   REMOVE    any                               (none)
 * </pre>
 *
 * <p>The record holds PENDING (reserved), ACTIVE, DRAINING and DEAD; "gone" is no record. Each is
 * stored as such, so a new leader reads exactly where every replica is (a record stored by an
 * earlier version as PENDING with weight 0 may be a dead one: see {@link ReplicaState}). The steps
 * around the record (a pod being created for a reservation, a drained or dead replica's pod being
 * deleted, the replacements owed for dead ones) are the global loop's and live in its loop-state
 * store, so a new leader resumes them; the record's own writes are all here, whoever asks (the
 * loop, REST, the CLI, the Kubernetes platform, a chain's removal). A step that the table does not
 * allow from the record's current state is refused with {@link SfcException.Reason#CONFLICT} and
 * counted; the check and the write are one atomic update. Every transition done is counted by its
 * edge (step, from, to), every refusal by step and the state it was asked from ({@link #transitions()},
 * {@link #refusals()}: the metrics {@code srv6int_replica_transitions_total} and
 * {@code srv6int_replica_transitions_refused_total}).
 *
 * <p>The SID is claimed by {@link Step#RESERVE} (and {@link Step#ADD}, {@link Step#REGISTER}):
 * the store claims it before it stores the record. An instance that dies between the two leaves
 * the SID claimed by no record; {@link #releaseOrphanSids()} (a new leader calls it when it resumes)
 * gives such claims back once they are older than a create takes.
 */
@Component(immediate = true, service = ReplicaLifecycle.class)
public final class ReplicaLifecycle {

    /** A claim younger than this may be a create in progress (claim, then store): left alone. */
    public static final long ORPHAN_GRACE_MILLIS = 10_000;

    /** The steps; each names the record states it may start from and the state it leads to. */
    public enum Step {
        /** A name, a SID and a switch port for a replica whose workload is about to be made. */
        RESERVE(true, ReplicaState.PENDING),
        /** A replica that carries traffic at once (operator or REST: a workload made elsewhere). */
        ADD(true, ReplicaState.ACTIVE),
        /** A fully specified record (operator, initial replicas): stored in the state it gives. */
        REGISTER(true, null),
        /** The reserved replica's workload is ready: it joins the multipath group (or its weight changes). */
        ACTIVATE(false, ReplicaState.ACTIVE, ReplicaState.PENDING, ReplicaState.ACTIVE),
        /** No new traffic; its entries stay until it is removed (again: idempotent, a resumed drain). */
        DRAIN(false, ReplicaState.DRAINING, ReplicaState.ACTIVE, ReplicaState.DRAINING),
        /** Dead: out of every segment list (weight 0), apart from a scale-in's drain. */
        FAIL(false, ReplicaState.DEAD, ReplicaState.PENDING, ReplicaState.ACTIVE, ReplicaState.DRAINING,
             ReplicaState.DEAD),
        /** Back into the group: a drain given up, or a dead replica that recovered. */
        RESTORE(false, ReplicaState.ACTIVE, ReplicaState.PENDING, ReplicaState.ACTIVE, ReplicaState.DRAINING,
                ReplicaState.DEAD),
        /** A reservation whose workload never came up is given back. */
        RELEASE(false, null, ReplicaState.PENDING),
        /** Gone, from any state: its pod deleted, or its chain removed. */
        REMOVE(false, null, ReplicaState.PENDING, ReplicaState.ACTIVE, ReplicaState.DRAINING, ReplicaState.DEAD);

        private final Set<ReplicaState> from;
        private final boolean fromGone;
        private final ReplicaState to;

        // fromGone: it creates the record; to: null if it removes the record or stores the one given.
        Step(boolean fromGone, ReplicaState to, ReplicaState... from) {
            this.from = from.length == 0 ? EnumSet.noneOf(ReplicaState.class) : EnumSet.copyOf(Arrays.asList(from));
            this.fromGone = fromGone;
            this.to = to;
        }

        /**
         * Whether this step may start from a record state.
         *
         * @param state the record's state, null if there is no record
         * @return true if the transition is in the table
         */
        public boolean allowedFrom(ReplicaState state) {
            return state == null ? fromGone : from.contains(state);
        }

        /**
         * The record state this step leads to.
         *
         * @return the state, empty for the steps that remove the record or store the state given
         */
        public Optional<ReplicaState> to() {
            return Optional.ofNullable(to);
        }
    }

    // Record states with "none" at 0 (no record before / no record after).
    private static final int STATES = ReplicaState.values().length + 1;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfReplicaStore store;

    private LongSupplier wallMillis = System::currentTimeMillis;
    // [step][from][to] taken, [step][from] refused
    private final AtomicLongArray taken = new AtomicLongArray(Step.values().length * STATES * STATES);
    private final AtomicLongArray refusedBy = new AtomicLongArray(Step.values().length * STATES);
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong sidsReleased = new AtomicLong();
    private volatile int youngOrphans;
    // "SID holder" of each claim held by no record: when a call here first saw it so
    private Map<String, Long> orphanSeen = new HashMap<>();

    /** Creates the component for OSGi, which sets its store. */
    public ReplicaLifecycle() {
    }

    /**
     * Creates the life cycle over a store, for a host without OSGi.
     *
     * @param store the replica store (only this class writes it)
     */
    public ReplicaLifecycle(VnfReplicaStore store) {
        this(store, System::currentTimeMillis);
    }

    /**
     * Creates the life cycle over a store with the clock SID claims are dated by.
     *
     * @param store      the replica store
     * @param wallMillis wall-clock milliseconds (the store dates claims by it)
     */
    public ReplicaLifecycle(VnfReplicaStore store, LongSupplier wallMillis) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.wallMillis = Objects.requireNonNull(wallMillis, "wallMillis is null");
    }

    /**
     * The step that leads a record to a state, for callers that name the state
     * ({@code VnfInventoryService.updateReplica}).
     *
     * @param state ACTIVE, DRAINING or DEAD
     * @return ACTIVATE, DRAIN or FAIL
     * @throws SfcException (CONFLICT) for PENDING, which only {@link Step#RESERVE} leads to
     */
    public static Step stepTo(ReplicaState state) {
        switch (state) {
            case ACTIVE:
                return Step.ACTIVATE;
            case DRAINING:
                return Step.DRAIN;
            case DEAD:
                return Step.FAIL;
            default:
                throw new SfcException(SfcException.Reason.CONFLICT, "a record becomes " + state
                        + " only when it is reserved");
        }
    }

    /**
     * Stores a new record: claims its SID, then stores it.
     *
     * @param step    {@link Step#RESERVE}, {@link Step#ADD} or {@link Step#REGISTER}
     * @param replica the record, in the step's state
     * @return true if stored; false if its name or SID is taken (the caller may allocate again)
     * @throws SfcException (CONFLICT) if the step does not create a record or the record is not
     *         in the step's state
     */
    public boolean create(Step step, VnfReplica replica) {
        if (!step.allowedFrom(null)) {
            throw refuse(replica.id(), step, null, "does not create a record");
        }
        if (step.to != null && replica.state() != step.to) {
            throw refuse(replica.id(), step, null, "creates a " + step.to + " record, not " + replica.state());
        }
        String why = weightRule(replica.state(), replica.weight());
        if (why != null) {
            throw refuse(replica.id(), step, null, why);
        }
        if (!store.createReplica(replica)) {
            return false;
        }
        count(step, null, replica.state());
        return true;
    }

    /**
     * Moves a record to the step's state with a weight, atomically with the check of the table.
     *
     * @param id     replica id
     * @param step   a step that changes a record
     * @param weight multipath weight 0..255 (0 unless ACTIVE)
     * @return the new record
     * @throws SfcException (NOT_FOUND) if there is no record, (CONFLICT) if the table does not
     *         allow the step from the record's state
     * @throws IllegalArgumentException if the weight is out of range
     */
    public VnfReplica apply(VnfReplicaId id, Step step, int weight) {
        if (step.to == null) {
            throw refuse(id, step, store.getReplica(id).map(VnfReplica::state).orElse(null),
                         "does not change a record's state");
        }
        if (weight < 0 || weight > 255) {
            throw new IllegalArgumentException("weight: must be in 0..255, got " + weight);
        }
        AtomicReference<ReplicaState> was = new AtomicReference<>();
        AtomicReference<String> why = new AtomicReference<>();
        // The store may run the change more than once (a concurrent write): each run sets both anew.
        Optional<VnfReplica> out = store.updateReplica(id, r -> {
            was.set(r.state());
            String no = !step.allowedFrom(r.state()) ? "not allowed from " + r.state()
                    : weightRule(step.to, weight);
            why.set(no);
            return no != null ? r : r.withState(step.to).withWeight(weight);
        });
        if (out.isEmpty()) {
            throw notFound(id);
        }
        if (why.get() != null) {
            throw refuse(id, step, was.get(), why.get());
        }
        count(step, was.get(), step.to);
        return out.get();
    }

    /**
     * Removes a record ({@link Step#REMOVE}, any state) or gives a reservation back
     * ({@link Step#RELEASE}, PENDING only).
     *
     * @param id   replica id
     * @param step REMOVE or RELEASE
     * @return the removed record; empty if there was none
     * @throws SfcException (CONFLICT) if the table does not allow the step from the record's state
     */
    public Optional<VnfReplica> remove(VnfReplicaId id, Step step) {
        if (step != Step.REMOVE && step != Step.RELEASE) {
            throw refuse(id, step, store.getReplica(id).map(VnfReplica::state).orElse(null),
                         "does not remove a record");
        }
        if (step == Step.REMOVE) {
            Optional<VnfReplica> gone = store.removeReplica(id);
            gone.ifPresent(r -> count(step, r.state(), null));
            return gone;
        }
        for (int attempt = 0; attempt < 5; attempt++) {
            Optional<VnfReplica> have = store.getReplica(id);
            if (have.isEmpty()) {
                return Optional.empty();
            }
            if (!step.allowedFrom(have.get().state())) {
                throw refuse(id, step, have.get().state(), "not allowed from " + have.get().state());
            }
            // Only the record read: one that joined the group meanwhile stays.
            if (store.removeReplica(have.get())) {
                count(step, have.get().state(), null);
                return have;
            }
        }
        throw new SfcException(SfcException.Reason.CONFLICT, "replica " + id + " changed during " + step);
    }

    /**
     * Gives back the SIDs claimed for a replica that never reached the store (an instance died between
     * the claim and the store) once the claim is older than {@link #ORPHAN_GRACE_MILLIS}. A claim's age
     * is from the earlier of its date in the store and the first call here that saw it held by no
     * record: Atomix 3.1.9's map dates every value it returns by the time of the read, not of the write
     * (its service's {@code toVersioned} drops the entry's creation time), so on the real store only
     * the second clock ever grows and without it no orphan would ever be released.
     *
     * @return the number released now; {@link #youngOrphans()} tells whether to call again later
     */
    public synchronized int releaseOrphanSids() {
        long now = wallMillis.getAsLong();
        Map<VnfReplicaId, Ip6Address> held = new HashMap<>();
        store.getReplicas().forEach(r -> held.put(r.id(), r.sid()));
        int released = 0;
        int young = 0;
        Map<String, Long> unheld = new HashMap<>();
        for (VnfReplicaStore.SidClaim c : store.sidClaims()) {
            if (c.sid().equals(held.get(c.holder()))) {
                continue;
            }
            String key = c.sid() + " " + c.holder();
            long since = Math.min(c.sinceMillis(), orphanSeen.getOrDefault(key, now));
            if (now - since < ORPHAN_GRACE_MILLIS) {
                young++;
                unheld.put(key, since);
            } else if (store.releaseSidClaim(c.sid(), c.holder())) {
                released++;
            }
        }
        // a claim its record now holds (a create that was in progress) or that went is forgotten
        orphanSeen = unheld;
        youngOrphans = young;
        sidsReleased.addAndGet(released);
        return released;
    }

    /**
     * Claims without a record seen by the last {@link #releaseOrphanSids()} that were too young to release.
     *
     * @return count
     */
    public int youngOrphans() {
        return youngOrphans;
    }

    /**
     * SIDs given back by {@link #releaseOrphanSids()} since start.
     *
     * @return count
     */
    public long sidsReleased() {
        return sidsReleased.get();
    }

    /**
     * Steps refused since start (not in the table, or a weight the state cannot have).
     *
     * @return count
     */
    public long refused() {
        return refused.get();
    }

    /**
     * Steps done since start.
     *
     * @param step step
     * @return count
     */
    public long done(Step step) {
        long n = 0;
        int base = step.ordinal() * STATES * STATES;
        for (int i = 0; i < STATES * STATES; i++) {
            n += taken.get(base + i);
        }
        return n;
    }

    /**
     * Every edge of the table (step, from, to) with how often it was taken since start, those never
     * taken with 0; a REGISTER counts under the state it stored.
     *
     * @return edges, in step then state order
     */
    public List<ReplicaTransition> transitions() {
        List<ReplicaTransition> out = new ArrayList<>();
        for (Step step : Step.values()) {
            for (int from = 0; from < STATES; from++) {
                if (!step.allowedFrom(state(from))) {
                    continue;
                }
                for (int to = 0; to < STATES; to++) {
                    boolean edge = step.to != null ? to == index(step.to)
                            : step == Step.REGISTER ? to > 0 : to == 0;
                    if (edge) {
                        out.add(new ReplicaTransition(step.name(), state(from), state(to),
                                                      taken.get(cell(step, from, to))));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Refusals since start by step and the record's state it was asked from (none: no record, or a
     * create), every pair the table refuses listed, with 0 if never asked; {@link ReplicaTransition#to()} is empty.
     *
     * @return refusals, in step then state order
     */
    public List<ReplicaTransition> refusals() {
        List<ReplicaTransition> out = new ArrayList<>();
        for (Step step : Step.values()) {
            for (int from = 0; from < STATES; from++) {
                long n = refusedBy.get(step.ordinal() * STATES + from);
                // creates are refused from none (a wrong state or weight); others from a state not in the table
                boolean listed = from == 0 ? step.allowedFrom(null) : !step.allowedFrom(state(from));
                if (listed || n > 0) {
                    out.add(new ReplicaTransition(step.name(), state(from), null, n));
                }
            }
        }
        return out;
    }

    private static int index(ReplicaState s) {
        return s == null ? 0 : s.ordinal() + 1;
    }

    private static ReplicaState state(int index) {
        return index == 0 ? null : ReplicaState.values()[index - 1];
    }

    private static int cell(Step step, int from, int to) {
        return (step.ordinal() * STATES + from) * STATES + to;
    }

    private void count(Step step, ReplicaState from, ReplicaState to) {
        taken.incrementAndGet(cell(step, index(from), index(to)));
    }

    // PENDING, DRAINING and DEAD records carry no traffic: weight 0.
    private static String weightRule(ReplicaState to, int weight) {
        return to != ReplicaState.ACTIVE && weight != 0 ? "a " + to + " replica has weight 0, not " + weight
                : null;
    }

    private SfcException refuse(VnfReplicaId id, Step step, ReplicaState from, String why) {
        refused.incrementAndGet();
        refusedBy.incrementAndGet(step.ordinal() * STATES + index(from));
        return new SfcException(SfcException.Reason.CONFLICT, "replica " + id + ": " + step + " " + why);
    }

    private static SfcException notFound(VnfReplicaId id) {
        return new SfcException(SfcException.Reason.NOT_FOUND, "replica " + id + " not found");
    }
}
