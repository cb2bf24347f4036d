// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

/**
 * The state of a vNF replica's record, as the replica life cycle
 * ({@code org.srv6int.app.inventory.ReplicaLifecycle}) writes it and the flow programming reads it.
 *
 * <p>Stored in the replica store by ordinal (Kryo): a new state is appended, never inserted, so
 * records stored by an earlier version read as they were written. Records written before
 * {@link #DEAD} existed hold a dead replica as PENDING with weight 0; the failure detection of a
 * new leader reads such a record as dead unless a create of its vNF is in flight, and its FAIL
 * step stores it as DEAD from then on (the loop's reservation sweep also gives it back once the
 * reservation timeout has passed without its workload Ready).
 */
public enum ReplicaState {
    /** Reserved: its name, SID and switch port are taken, its workload is being made; weight 0. */
    PENDING,
    /** Carries traffic: its segment lists are in the chain's multipath group. */
    ACTIVE,
    /** Being taken out: no new traffic (weight 0), its entries are still installed. */
    DRAINING,
    /**
     * Dead (the failure detection's verdict): out of every segment list, weight 0; its workload
     * may come back (RESTORE) or be replaced, and then it is removed.
     */
    DEAD
}
