// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import org.onosproject.cluster.Leadership;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leaderships an {@link ElectorView} learnt, each answer applied only if it is not older than
 * the one it would replace. The view learns a topic from four sources that race (the elector's
 * events, its periodic reads, its own runs and the read after a reconnect) and a read's answer can
 * arrive seconds after it was sent (a partition electing a Raft leader, a healed link): without an
 * order an old answer overwrote a newer one (a healed follower named the leader of two terms
 * before). Order: the leader's term first (an elector's terms only grow, so a lower term is always
 * older), then, for the same term or a leaderless answer, the stamp the caller took when it sent
 * the request (events: when they arrived, they come in order), so that an answer to an earlier
 * request never replaces the answer to a later one.
 */
final class LearntLeaderships {

    /** What became of an offered answer: applied (and what it replaced) or refused (and why). */
    static final class Offer {
        final boolean applied;
        final Leadership before;
        final String rejected;

        Offer(boolean applied, Leadership before, String rejected) {
            this.applied = applied;
            this.before = before;
            this.rejected = rejected;
        }
    }

    private static final class Entry {
        final Leadership leadership;
        final long term;
        final long stamp;

        Entry(Leadership leadership, long term, long stamp) {
            this.leadership = leadership;
            this.term = term;
            this.stamp = stamp;
        }
    }

    private final AtomicLong stamps = new AtomicLong();
    private final Map<String, Entry> known = new HashMap<>();

    /**
     * A stamp to take when a request is sent (or an event arrives): later calls get larger ones.
     *
     * @return stamp
     */
    long stamp() {
        return stamps.incrementAndGet();
    }

    /**
     * Applies an answer unless it is older than the one learnt.
     *
     * @param topic topic
     * @param now   the answer
     * @param stamp its stamp ({@link #stamp()} when the request was sent)
     * @return whether it was applied, the one it replaced, or why it was not
     */
    synchronized Offer offer(String topic, Leadership now, long stamp) {
        Entry was = known.get(topic);
        long term = now.leader() == null ? 0 : now.leader().term();
        if (was != null) {
            if (term != 0 && term < was.term) {
                return new Offer(false, was.leadership, "term " + term + " < " + was.term);
            }
            if ((term == 0 || term == was.term) && stamp < was.stamp) {
                return new Offer(false, was.leadership, "term " + term + ", sent before the answer learnt");
            }
        }
        known.put(topic, new Entry(now, Math.max(term, was == null ? 0 : was.term), stamp));
        return new Offer(true, was == null ? null : was.leadership, null);
    }

    /**
     * Forgets every topic's leader (this member lost the majority), keeping the candidates and the
     * highest term seen: an answer of an older term stays refused after the reconnect.
     *
     * @return (before, after) of each topic whose leadership changed
     */
    synchronized List<Leadership[]> blank() {
        long stamp = stamp();
        List<Leadership[]> changed = new ArrayList<>();
        known.replaceAll((topic, e) -> {
            Leadership none = new Leadership(topic, null, e.leadership.candidates());
            if (!Objects.equals(none, e.leadership)) {
                changed.add(new Leadership[] {e.leadership, none});
            }
            return new Entry(none, e.term, stamp);
        });
        return changed;
    }

    /**
     * A topic's learnt leadership.
     *
     * @param topic topic
     * @return leadership, if learnt
     */
    synchronized Optional<Leadership> get(String topic) {
        Entry e = known.get(topic);
        return e == null ? Optional.empty() : Optional.of(e.leadership);
    }

    /**
     * Every topic learnt so far.
     *
     * @return topic to leadership
     */
    synchronized Map<String, Leadership> all() {
        Map<String, Leadership> out = new HashMap<>();
        known.forEach((t, e) -> out.put(t, e.leadership));
        return Map.copyOf(out);
    }

    /**
     * The learnt topics.
     *
     * @return topics
     */
    synchronized List<String> topics() {
        return List.copyOf(known.keySet());
    }
}
