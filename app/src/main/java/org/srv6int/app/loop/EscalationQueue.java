// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.onosproject.store.service.Versioned;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.QueuedEscalation;
import org.srv6int.app.store.EscalationStore;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Escalations for the leader's loop taken by any instance (docs/cluster.md, "Any member answers
 * the agents"): {@link #queue} keeps one in the {@link EscalationStore}; the leader's
 * {@link #consume} takes each queued one into its loop once, through the same
 * {@link LoopCore#escalate} an escalation posted to the leader takes.
 *
 * <p>Once: an entry is removed by the version read after the loop recorded it, so a newer post
 * of the same key stays for the next round; an entry whose removal failed is remembered with
 * that version and only removed (not acted on again) while this instance leads. Nothing is lost
 * at a leader change: until it is recorded an entry stays in the store for the next leader. An
 * entry older than the age bound (t-hat: an escalation is a hint for that long) is removed
 * unused and counted. What is not covered: a leader killed between recording an escalation and
 * removing it (a few ms) leaves it to the next leader, which records it again; the first record
 * died with that leader's memory.
 */
final class EscalationQueue {

    /** Counter names, as in {@link #counters()}. */
    static final String QUEUED = "escalationsQueued";
    static final String CONSUMED = "escalationsConsumed";
    static final String EXPIRED = "escalationsExpired";
    static final String DROPPED = "escalationsDropped";

    private final EscalationStore store;
    private final String self;
    // Key -> version this leader recorded but could not remove yet.
    private final Map<String, Long> recorded = new HashMap<>();
    private long queued;
    private long consumed;
    private long expired;
    private long dropped;

    EscalationQueue(EscalationStore store, String self) {
        this.store = store;
        this.self = self;
    }

    /**
     * Queues an escalation for the leader.
     *
     * @param e         the escalation (chain and vNF checked by the caller)
     * @param nowMillis wall clock, ms
     * @return what the store holds for its key now
     */
    QueuedEscalation queue(Escalation e, long nowMillis) {
        QueuedEscalation q = store.queue(e, nowMillis, self);
        synchronized (this) {
            queued++;
        }
        return q;
    }

    /**
     * The leader's round: every queued escalation younger than {@code maxAgeMillis} is handed to
     * {@code record} once and removed. An escalation whose chain or vNF has gone is dropped.
     * Stops at the first record that fails otherwise (the loop closed, its store unwritable): the
     * rest stay for the next round or the next leader.
     *
     * @param nowMillis    wall clock, ms
     * @param maxAgeMillis age bound on the last post
     * @param record       the loop's escalate
     * @return the decisions recorded, by key
     */
    synchronized Map<String, LoopDecision> consume(long nowMillis, long maxAgeMillis,
                                                   Function<Escalation, LoopDecision> record) {
        Map<String, LoopDecision> out = new LinkedHashMap<>();
        Map<String, Versioned<QueuedEscalation>> pending = store.pending();
        recorded.keySet().retainAll(pending.keySet());
        for (Map.Entry<String, Versioned<QueuedEscalation>> en : pending.entrySet()) {
            String key = en.getKey();
            long version = en.getValue().version();
            QueuedEscalation q = en.getValue().value();
            Long done = recorded.get(key);
            if (done != null && done == version) {
                removeRecorded(key, version);
                continue;
            }
            if (nowMillis - q.lastMillis() > maxAgeMillis) {
                if (store.remove(key, version)) {
                    expired++;
                }
                continue;
            }
            LoopDecision d;
            try {
                d = record.apply(q.escalation());
            } catch (SfcException ex) {
                if (store.remove(key, version)) {
                    dropped++;
                }
                continue;
            }
            consumed++;
            out.put(key, d);
            recorded.put(key, version);
            removeRecorded(key, version);
        }
        return out;
    }

    private void removeRecorded(String key, long version) {
        try {
            store.remove(key, version);
            // Removed, or a newer post replaced it (that one is the next round's).
            recorded.remove(key);
        } catch (RuntimeException ex) {
            // Kept in recorded: the next round removes it without recording it again.
        }
    }

    /** This instance stops leading: what it could not remove is the next leader's. */
    synchronized void forget() {
        recorded.clear();
    }

    /** @return counters: queued here, consumed, expired and dropped by this instance's loop */
    synchronized Map<String, Long> counters() {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put(QUEUED, queued);
        c.put(CONSUMED, consumed);
        c.put(EXPIRED, expired);
        c.put(DROPPED, dropped);
        return c;
    }
}
