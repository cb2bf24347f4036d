// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The global loop's decision log: the bounded history (escalation records bounded apart from the
 * loop's own decisions, oldest out first), the loop-clock times of each decision and its end, and
 * the made and ended counters by action and outcome (metrics). Used under the loop's lock.
 */
final class DecisionLog {

    /** A history record with the loop-clock times of its decision and its end. */
    static final class Entry {
        final long id;
        final long decidedNanos;
        long finishedNanos;
        LoopDecision decision;

        Entry(long id, long decidedNanos, LoopDecision decision) {
            this.id = id;
            this.decidedNanos = decidedNanos;
            this.decision = decision;
        }
    }

    // Each decision, its resumption by a new leader and its end: an operator's record of the loop.
    private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);

    private final LoopParams params;
    private final LoopClock clock;
    private final ArrayDeque<Entry> history = new ArrayDeque<>();
    // ESCALATION records in the history: they are bounded apart from the loop's own decisions.
    private int escalationRecords;
    // Decisions this loop made by action, and those that ended by action and outcome (metrics).
    private final long[] made = new long[LoopDecision.Action.values().length];
    private final long[] ended = new long[LoopDecision.Action.values().length * LoopDecision.Outcome.values().length];

    DecisionLog(LoopParams params, LoopClock clock) {
        this.params = params;
        this.clock = clock;
    }

    /** The record of a decision id, the newest first; null if it left the history. */
    Entry entry(long id) {
        for (Iterator<Entry> it = history.descendingIterator(); it.hasNext();) {
            Entry e = it.next();
            if (e.id == id) {
                return e;
            }
        }
        return null;
    }

    /** The decision of an id in the history (the last record of it), null if none. */
    LoopDecision decision(long id) {
        LoopDecision out = null;
        for (Entry e : history) {
            if (e.id == id) {
                out = e.decision;
            }
        }
        return out;
    }

    /**
     * Why an action failed, for its decision's outcome: the exception's message, or its type when it
     * has none (a store timeout without a message left "group update failed: null").
     *
     * @param e the failure
     * @return the reason
     */
    static String reason(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    private static boolean isEscalation(Entry e) {
        return e.decision == null || e.decision.action() == LoopDecision.Action.ESCALATION;
    }

    /**
     * Adds a record and bounds the history: escalations and the loop's own decisions are each kept
     * to the history size, oldest out first, so neither pushes the other out.
     */
    void add(Entry e, boolean escalation) {
        history.addLast(e);
        if (e.decision != null) {
            LoopDecision d = e.decision;
            LOG.info("Decision {} at {}: {} {} {} -> {} {} ({})", e.id, d.timeMillis(), d.action(), d.vnf(),
                     d.replicasBefore(), d.replicasAfter(), d.outcome(), d.detail());
        }
        if (escalation) {
            escalationRecords++;
        }
        int kept = escalation ? escalationRecords : history.size() - escalationRecords;
        for (Iterator<Entry> it = history.iterator(); kept > params.historySize() && it.hasNext();) {
            if (isEscalation(it.next()) == escalation) {
                it.remove();
                kept--;
            }
        }
        if (escalation) {
            escalationRecords = kept;
        }
    }

    /** Logs what a new leader read back from the store: the vNF records, and those in flight. */
    static void readBack(Map<VnfKey, VnfLoopRecord> records) {
        List<String> inFlight = new ArrayList<>();
        records.forEach((k, r) -> {
            if (r.phase() != VnfLoopRecord.Phase.IDLE) {
                inFlight.add(k + " " + r.phase() + " decision " + r.decisionId());
            }
        });
        LOG.info("Loop state read from the store: {} vNF record(s), in flight {}", records.size(), inFlight);
    }

    /** A record a previous leader left in flight, read back from the store (not bounded here). */
    void restored(Entry e) {
        history.addLast(e);
        LOG.info("Decision {} at {} resumed from the store: {} {} ({})", e.id, e.decision.timeMillis(),
                 e.decision.action(), e.decision.vnf(), e.decision.detail());
    }

    /** Counts a decision made (an action the loop took). */
    void made(LoopDecision.Action a) {
        made[a.ordinal()]++;
    }

    /** Counts a decision made and ended at once. */
    void madeAndEnded(LoopDecision d) {
        made[d.action().ordinal()]++;
        ended[endedSlot(d.action(), d.outcome())]++;
    }

    /** Records a decision that is no action of the loop's (no finish time unless {@link #finish} ends it). */
    Entry note(long id, long now, VnfKey vnf, LoopDecision.Action a, int before, int after,
               LoopDecision.Outcome outcome, String detail, Map<String, Double> inputs) {
        LoopDecision d = new LoopDecision(clock.currentTimeMillis(), vnf, inputs, a, before, after, outcome, detail);
        // Not an action (no finish time) unless finish() ends it: lastActionNanos() times actions only.
        Entry e = new Entry(id, now, d);
        add(e, false);
        return e;
    }

    /** Ends a decision with an outcome and its detail. */
    void finish(long id, LoopDecision.Outcome outcome, long now, String detail) {
        for (Entry e : history) {
            if (e.id == id) {
                LoopDecision d = e.decision;
                e.decision = new LoopDecision(d.timeMillis(), d.vnf(), d.inputs(), d.action(), d.replicasBefore(),
                                              d.replicasAfter(), outcome, detail);
                e.finishedNanos = now;
                ended[endedSlot(d.action(), outcome)]++;
                LOG.info("Decision {} ended {}: {}", id, outcome, detail);
                return;
            }
        }
        LOG.info("Decision {} ended {} out of the history: {}", id, outcome, detail);
    }

    long decisionsMade(LoopDecision.Action action) {
        return made[action.ordinal()];
    }

    long decisionsEnded(LoopDecision.Action action, LoopDecision.Outcome outcome) {
        return ended[endedSlot(action, outcome)];
    }

    /** Decisions that ended FAILED, of every action. */
    long failedEnds() {
        long n = 0;
        for (LoopDecision.Action a : LoopDecision.Action.values()) {
            n += ended[endedSlot(a, LoopDecision.Outcome.FAILED)];
        }
        return n;
    }

    private static int endedSlot(LoopDecision.Action action, LoopDecision.Outcome outcome) {
        return action.ordinal() * LoopDecision.Outcome.values().length + outcome.ordinal();
    }

    /** The decisions, oldest first. */
    List<LoopDecision> history() {
        List<LoopDecision> out = new ArrayList<>(history.size());
        for (Entry e : history) {
            out.add(e.decision);
        }
        return out;
    }

    /** For the most recent finished action, the loop-clock ns from its decision to its end; -1 if none. */
    long lastActionNanos() {
        for (Iterator<Entry> it = history.descendingIterator(); it.hasNext();) {
            Entry e = it.next();
            if (e.finishedNanos != 0) {
                return e.finishedNanos - e.decidedNanos;
            }
        }
        return -1;
    }
}
