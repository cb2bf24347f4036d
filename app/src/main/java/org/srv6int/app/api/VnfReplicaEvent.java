// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.VnfReplica;
import org.onosproject.event.AbstractEvent;

/**
 * A vNF replica was added, changed (state or weight) or removed. For removal
 * the subject is the last known replica.
 */
public final class VnfReplicaEvent extends AbstractEvent<VnfReplicaEvent.Type, VnfReplica> {

    /** Event types. */
    public enum Type {
        /** A replica was added. */
        REPLICA_ADDED,
        /** A replica's state or weight changed. */
        REPLICA_UPDATED,
        /** A replica was removed. */
        REPLICA_REMOVED
    }

    /**
     * Creates an event.
     *
     * @param type    type
     * @param subject replica
     */
    public VnfReplicaEvent(Type type, VnfReplica subject) {
        super(type, subject);
    }
}
