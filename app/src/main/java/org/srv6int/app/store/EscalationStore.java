// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onosproject.store.service.Versioned;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.QueuedEscalation;

import java.util.Map;

/**
 * Node agents' escalations taken by any instance and kept in the cluster's store for the global
 * loop's leader: one entry per (chain, vNF, node), a repeat replacing the entry and counting one
 * more post. The leader reads them every round and removes each by its version once it acted on
 * it (docs/cluster.md, "Any member answers the agents"). Every call may fail (store unreachable,
 * timeout) with an exception.
 */
public interface EscalationStore {

    /**
     * Queues an escalation, merged with the one its key holds.
     *
     * @param e         the escalation
     * @param nowMillis the taking instance's wall clock, ms
     * @param by        the taking instance
     * @return what the key holds now
     */
    QueuedEscalation queue(Escalation e, long nowMillis, String by);

    /**
     * Every queued escalation with its version, by key. An entry that cannot be decoded is
     * removed and counted by the implementation.
     *
     * @return queued escalations
     */
    Map<String, Versioned<QueuedEscalation>> pending();

    /**
     * Removes a key's entry if it still has this version (a newer post keeps it).
     *
     * @param key     key
     * @param version the version read
     * @return whether it was removed
     */
    boolean remove(String key, long version);
}
