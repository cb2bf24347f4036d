// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An escalation an instance took for the leader's loop (docs/cluster.md, "Any member answers the
 * agents"): the latest escalation of one (chain, vNF, node), when that key was first and last
 * posted (the receiving instance's wall clock), how many posts it stands for, and which instance
 * took the latest. Kept as one line of text in the store, so the store's serializer need not know it.
 */
public final class QueuedEscalation {

    private final Escalation escalation;
    private final long firstMillis;
    private final long lastMillis;
    private final int posts;
    private final String receivedBy;

    /**
     * Creates a queued escalation.
     *
     * @param escalation  the latest escalation of its key
     * @param firstMillis when the key was first posted, wall clock ms
     * @param lastMillis  when it was last posted, wall clock ms
     * @param posts       posts it stands for (≥ 1)
     * @param receivedBy  the instance that took the latest post
     */
    public QueuedEscalation(Escalation escalation, long firstMillis, long lastMillis, int posts, String receivedBy) {
        this.escalation = Objects.requireNonNull(escalation, "escalation");
        this.firstMillis = firstMillis;
        this.lastMillis = lastMillis;
        this.posts = posts;
        this.receivedBy = Objects.requireNonNull(receivedBy, "receivedBy");
    }

    /**
     * The deduplication key: one queued escalation per chain, vNF and node.
     *
     * @param e escalation
     * @return "chain/vnf@node"
     */
    public static String key(Escalation e) {
        return e.vnf() + "@" + e.node();
    }

    /** @return this escalation's key ({@link #key(Escalation)}) */
    public String key() {
        return key(escalation);
    }

    /**
     * This key posted again: the newer escalation replaces the older one, one more post.
     *
     * @param e        the newer escalation (same key)
     * @param nowMillis when, wall clock ms
     * @param by       the instance taking it
     * @return the merged record
     */
    public QueuedEscalation repeated(Escalation e, long nowMillis, String by) {
        return new QueuedEscalation(e, firstMillis, Math.max(lastMillis, nowMillis), posts + 1, by);
    }

    /** @return the latest escalation */
    public Escalation escalation() {
        return escalation;
    }

    /** @return when the key was first posted, wall clock ms */
    public long firstMillis() {
        return firstMillis;
    }

    /** @return when it was last posted, wall clock ms */
    public long lastMillis() {
        return lastMillis;
    }

    /** @return posts it stands for */
    public int posts() {
        return posts;
    }

    /** @return the instance that took the latest post */
    public String receivedBy() {
        return receivedBy;
    }

    /**
     * The store's text form: fields separated by tabs (a node name holds no tab: it is a
     * Kubernetes node name), tried resources by commas.
     *
     * @return encoded
     */
    public String encode() {
        Escalation e = escalation;
        return String.join("\t", e.vnf().toString(), e.node(), Long.toString(e.l95Nanos()),
                           Long.toString(e.lmaxNanos()), String.join(",", e.triedResources()),
                           Long.toString(firstMillis), Long.toString(lastMillis), Integer.toString(posts), receivedBy);
    }

    /**
     * Reads {@link #encode()}'s form.
     *
     * @param s encoded
     * @return the queued escalation
     * @throws IllegalArgumentException if it is not that form
     */
    public static QueuedEscalation decode(String s) {
        String[] f = s.split("\t", -1);
        if (f.length != 9) {
            throw new IllegalArgumentException("queued escalation: expected 9 fields, got " + f.length);
        }
        try {
            List<String> tried = new ArrayList<>();
            for (String t : f[4].split(",")) {
                if (!t.isEmpty()) {
                    tried.add(t);
                }
            }
            Escalation e = new Escalation(VnfKey.valueOf(f[0]), f[1], Long.parseLong(f[2]), Long.parseLong(f[3]),
                                          tried);
            return new QueuedEscalation(e, Long.parseLong(f[5]), Long.parseLong(f[6]), Integer.parseInt(f[7]), f[8]);
        } catch (RuntimeException ex) {
            throw new IllegalArgumentException("queued escalation: " + ex.getMessage(), ex);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QueuedEscalation && encode().equals(((QueuedEscalation) o).encode());
    }

    @Override
    public int hashCode() {
        return encode().hashCode();
    }

    @Override
    public String toString() {
        return key() + " x" + posts + " via " + receivedBy;
    }
}
