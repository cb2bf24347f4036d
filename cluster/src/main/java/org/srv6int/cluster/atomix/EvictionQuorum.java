// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Which members a majority holds unreachable, so that one member's failure detector alone never
 * evicts another's candidacies. Each member broadcasts the peers its own detector has held
 * unreachable for {@link AtomixNode#EVICT_AFTER} every {@link #REPORT_EVERY_MS}; a member is
 * evicted only when this member and enough fresh reports of others name it to make a majority of
 * all members (the suspect has no vote). Without it, a member just healed from a cut (its
 * detector still silent on a peer for seconds) or one that lost a few heartbeats under packet
 * loss evicted a member the others reached, and with it a leader or a moved mastership (c1 under
 * load, c3 in CI).
 */
final class EvictionQuorum {

    /** Subject of the reports on Atomix's cluster messaging. */
    static final String SUBJECT = "srv6int-unreachable";
    /** How often a member reports whom it holds unreachable. */
    static final long REPORT_EVERY_MS = 250;
    /** How long a report counts: four reports, so one or two lost ones do not withdraw a vote. */
    static final long REPORT_FRESH_MS = 4 * REPORT_EVERY_MS;

    /**
     * How long a peer that has reported may go silent before this member holds it unreachable,
     * whatever Atomix's detector says: four reports. Atomix 3.1.9 marks a peer unreachable only
     * when a heartbeat request times out, and its messaging's timeout (up to 5 s) made that 3.5-5 s
     * after a cut; the reports, sent every 250 ms anyway, tell it within a second.
     */
    static final long SILENT_AFTER_MS = REPORT_FRESH_MS;

    private final String local;
    private final int members;
    private final Map<String, Report> reports = new ConcurrentHashMap<>();

    private static final class Report {
        final Set<String> suspects;
        final long atNanos;

        Report(Set<String> suspects, long atNanos) {
            this.suspects = suspects;
            this.atNanos = atNanos;
        }
    }

    /**
     * Agreement for one member.
     *
     * @param local   this member's id
     * @param members how many members the cluster has, this one included
     */
    EvictionQuorum(String local, int members) {
        this.local = local;
        this.members = members;
    }

    /**
     * Takes a peer's report.
     *
     * @param peer     who sent it
     * @param suspects whom it holds unreachable
     * @param nowNanos when it came (System.nanoTime)
     */
    void heard(String peer, Set<String> suspects, long nowNanos) {
        if (!peer.equals(local)) {
            reports.put(peer, new Report(Set.copyOf(suspects), nowNanos));
        }
    }

    /**
     * The members a majority holds unreachable.
     *
     * @param mine     whom this member's detector holds unreachable
     * @param nowNanos now (System.nanoTime)
     * @return those of {@code mine} enough fresh reports of others name too
     */
    Set<String> agreed(Set<String> mine, long nowNanos) {
        Set<String> out = new TreeSet<>();
        for (String suspect : mine) {
            long votes = 1 + reports.entrySet().stream()
                    .filter(e -> !e.getKey().equals(suspect))
                    .filter(e -> nowNanos - e.getValue().atNanos <= REPORT_FRESH_MS * 1_000_000)
                    .filter(e -> e.getValue().suspects.contains(suspect)).count();
            if (votes > members / 2) {
                out.add(suspect);
            }
        }
        return out;
    }

    /**
     * The peers that reported before and have been silent for more than {@link #SILENT_AFTER_MS}
     * (a peer never heard from is left to Atomix's detector: no member is silent at its start).
     *
     * @param nowNanos now (System.nanoTime)
     * @return their ids
     */
    Set<String> silent(long nowNanos) {
        Set<String> out = new TreeSet<>();
        reports.forEach((peer, r) -> {
            if (nowNanos - r.atNanos > SILENT_AFTER_MS * 1_000_000) {
                out.add(peer);
            }
        });
        return out;
    }

    /**
     * A report on the wire: the sender's id, then the ids it holds unreachable, comma-separated
     * (member ids hold no comma or '|': the member list's own separators). The sender names itself
     * because Atomix finds a message's sender by its address, which a member behind a relay or NAT
     * does not send from.
     *
     * @param from     the sender
     * @param suspects ids
     * @return bytes
     */
    static byte[] encode(String from, Set<String> suspects) {
        return (from + "|" + String.join(",", new TreeSet<>(suspects))).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Takes a report as {@link #encode} wrote it.
     *
     * @param bytes    the report
     * @param nowNanos when it came (System.nanoTime)
     * @throws IllegalArgumentException if it is not a report
     */
    void heard(byte[] bytes, long nowNanos) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        int bar = s.indexOf('|');
        if (bar <= 0) {
            throw new IllegalArgumentException("not an unreachable-members report: " + s);
        }
        String ids = s.substring(bar + 1);
        heard(s.substring(0, bar), ids.isEmpty() ? Set.of() : Arrays.stream(ids.split(",")).collect(Collectors.toSet()),
              nowNanos);
    }
}
