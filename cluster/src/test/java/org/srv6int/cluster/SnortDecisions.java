// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import org.srv6int.app.loop.LoopParams;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * {@link ClusterPartitionTest}'s closed-loop checks on SFC 2's Snort: a scale-out put in flight
 * (its latency over the bound until the leader decides one), the decision ending once, and the
 * replicas, SIDs and StatefulSets as the decisions since account for them through every member.
 */
final class SnortDecisions {

    // Snort's latency in the reports: over its 1 ms bound (a violation), or inside it and above
    // the low-load bound (neither a scale-out nor a scale-in). Only 20 % over: a scale-out aims at
    // ceil(rate x latency / (R* x L*)) replicas, and the loop's maximum (8) must leave c2 room after
    // c1's (2 ms over made c1 add 7 at once in one run, and c2 could then add none)
    static final long VIOLATING_NS = 1_200_000;
    static final long STEADY_NS = 600_000;
    private static final int MAX_REPLICAS = LoopParams.builder().build().maxReplicas();

    private final MemberProcesses cluster;
    private final LoopRig rig;
    private final IntReportSender sender;

    SnortDecisions(MemberProcesses cluster, LoopRig rig, IntReportSender sender) {
        this.cluster = cluster;
        this.rig = rig;
        this.sender = sender;
    }

    /**
     * Snort's replica counts the loop's decisions since {@code sinceMillis} account for:
     * {@code before} plus what each SUCCEEDED scale-out added and each SUCCEEDED scale-in removed;
     * a FAILED one may have kept its change or not, so both counts stand (a decision by its time
     * and action, as any member's loop lists it: a resumed one is listed by the old leader as in
     * progress and by the new one as ended); null while one is in progress.
     */
    private Set<Integer> accounted(long sinceMillis, int before) {
        Map<String, JsonNode> byTime = new TreeMap<>();
        for (String id : cluster.ids()) {
            JsonNode l = cluster.call(id, "GET", "/loop");
            for (JsonNode d : l == null ? LoopRig.JSON.createArrayNode() : l.path("decisions")) {
                String action = d.path("action").asText();
                if (d.path("vnf").asText().equals(LoopRig.SNORT.toString()) && d.path("timeMillis").asLong()
                        >= sinceMillis && (action.equals("SCALE_OUT") || action.equals("SCALE_IN"))) {
                    byTime.merge(d.path("timeMillis").asLong() + action, d, (x, y) ->
                            x.path("outcome").asText().equals("IN_PROGRESS") ? y : x);
                }
            }
        }
        Set<Integer> counts = new TreeSet<>(Set.of(before));
        for (JsonNode d : byTime.values()) {
            String outcome = d.path("outcome").asText();
            if (outcome.equals("IN_PROGRESS")) {
                return null;
            }
            int change = d.path("after").asInt() - d.path("before").asInt();
            Set<Integer> next = new TreeSet<>();
            counts.forEach(n -> {
                next.add(n + change);
                if (outcome.equals("FAILED")) {
                    next.add(n);
                }
            });
            counts = next;
        }
        return counts;
    }

    /**
     * The replicas, SIDs and StatefulSets checked through every member ({@link LoopRig}) against
     * the replicas before and the decisions since ({@link #accounted}), polled until they hold (a
     * healed member's view may trail the others' by a moment; a scale-in may be draining) or 60 s
     * pass; then the last failure.
     */
    Set<String> settled(long sinceMillis, int before) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            Set<Integer> expect = accounted(sinceMillis, before);
            AssertionError last = new AssertionError("a Snort decision since " + sinceMillis + " still in progress");
            for (int n : expect == null ? Set.<Integer>of() : expect) {
                try {
                    return rig.checkReplicasSidsAndWorkloads(n);
                } catch (AssertionError e) {
                    last = e;
                }
            }
            if (System.nanoTime() > end) {
                throw last;
            }
            Thread.sleep(200);
        }
    }

    /** Snort's replicas once no Snort decision is in progress, checked through every member. */
    int atRest() throws InterruptedException {
        LoopRig.await("no Snort decision in progress", () -> accounted(0, 0) != null ? LoopRig.JSON.nullNode()
                : null);
        return settled(Long.MAX_VALUE, rig.currentSnort()).size();
    }

    /**
     * c3, c4: Snort's replicas once at rest with room for a scale-out. After c1's and c2's
     * (+1 to +5 each, seen) Snort may be at the loop's maximum; the steady load is then low enough
     * for the loop's own scale-in (after 30 s), which is waited for rather than a case failed.
     */
    int atRestWithRoom() throws InterruptedException {
        LoopRig.await("Snort below the loop's maximum of " + MAX_REPLICAS + " replicas (a scale-in at the steady "
                              + "load)", () -> rig.currentSnort() < MAX_REPLICAS ? LoopRig.JSON.nullNode() : null);
        return atRest();
    }

    /**
     * Snort's latency over its bound until a scale-out is listed in flight by any of {@code on}
     * (decided, its StatefulSet made, KWOK holding the pod not Ready), then back inside it.
     */
    JsonNode scaleOutInFlight(List<String> on) throws InterruptedException {
        assertTrue("Snort below the loop's maximum of " + MAX_REPLICAS + " replicas (else no scale-out can be in "
                           + "flight): " + rig.currentSnort(), rig.currentSnort() < MAX_REPLICAS);
        long since = System.currentTimeMillis();
        int setsBefore = rig.statefulSets().size();
        sender.latencyNs = VIOLATING_NS;
        try {
            return LoopRig.await("a scale-out in flight on " + on, () -> {
                for (String id : on) {
                    for (JsonNode d : rig.decisions(id, "SCALE_OUT")) {
                        if (d.path("timeMillis").asLong() >= since
                                && d.path("outcome").asText().equals("IN_PROGRESS")
                                && rig.statefulSets().size() > setsBefore) {
                            return d;
                        }
                    }
                }
                return null;
            });
        } finally {
            sender.latencyNs = STEADY_NS;
        }
    }

    /**
     * Waits for the decision in flight to end on the given member's loop (by its time; SUCCEEDED
     * if {@code mustSucceed}), then two rounds more; asserts it is the only scale-out decided since.
     */
    JsonNode finishedOnce(String by, JsonNode inFlight, boolean mustSucceed) throws InterruptedException {
        long time = inFlight.path("timeMillis").asLong();
        JsonNode done = LoopRig.await("the scale-out decided at " + time + " ended on " + by, () -> {
            for (JsonNode d : rig.decisions(by, "SCALE_OUT")) {
                if (d.path("timeMillis").asLong() == time && !d.path("outcome").asText().equals("IN_PROGRESS")) {
                    return d;
                }
            }
            return null;
        }, this::loopStates);
        if (mustSucceed) {
            assertEquals("the scale-out in flight at the fault ended: " + done, "SUCCEEDED",
                         done.path("outcome").asText());
        }
        Thread.sleep(2000); // more rounds: nothing repeated
        List<JsonNode> since = new ArrayList<>();
        rig.decisions(by, "SCALE_OUT").stream().filter(d -> d.path("timeMillis").asLong() >= time)
                .forEach(since::add);
        assertEquals("one scale-out decision since the fault's, on " + by + ": " + since, 1, since.size());
        return done;
    }

    /** What a member's leadership view logged (changes, refused older answers, failed reads). */
    String viewLog(String id) {
        return cluster.log(id).lines().filter(l -> l.contains("leadership-events"))
                .collect(Collectors.joining("\n"));
    }

    // where each member's loop stood when a wait ran out: its leader and term, whether its loop
    // leads and when it last ran, its Snort scale-outs, its leadership view's log, and the threads
    // of the member that names itself leader (why a decision did not end where it was looked for)
    private String loopStates() {
        StringBuilder b = new StringBuilder();
        for (String id : cluster.ids()) {
            JsonNode s = cluster.status(id);
            JsonNode l = cluster.call(id, "GET", "/loop");
            b.append("\n").append(id).append(": leader ").append(s == null ? "no answer" : s.path("leader"))
                    .append(" term ").append(s == null ? "-" : s.path("term")).append(", loop leading ")
                    .append(l == null ? "no answer" : l.path("leading")).append(" last round ")
                    .append(l == null ? "-" : l.path("lastRoundMillis")).append(" (now ")
                    .append(System.currentTimeMillis()).append("), decisions ")
                    .append(l == null ? "-" : l.path("decisions").size()).append(", scale-outs ")
                    .append(rig.decisions(id, "SCALE_OUT")).append('\n').append(viewLog(id));
            if (s != null && id.equals(s.path("leader").asText())) {
                b.append("\n").append(id).append("'s decisions (it names itself leader):");
                if (l != null) {
                    l.path("decisions").forEach(d -> b.append("\n").append(d.path("timeMillis")).append(' ')
                            .append(d.path("vnf").asText()).append(' ').append(d.path("action").asText()).append(' ')
                            .append(d.path("outcome").asText()).append(' ').append(d.path("detail").asText()));
                }
                b.append("\n").append(id).append("'s threads:");
                JsonNode t = cluster.call(id, "GET", "/threads");
                if (t != null) {
                    t.fields().forEachRemaining(f -> b.append("\n").append(f.getKey()).append(' ')
                            .append(f.getValue().asText()));
                }
            }
        }
        return b.toString();
    }

    /** A decision of c3/c4 once ended, by whom, and when (s after the fault on) seen in flight and ended. */
    static final class Ended {
        private final JsonNode done;
        private final String by;
        private final double decidedS;
        private final double endedS;

        Ended(JsonNode done, String by, double decidedS, double endedS) {
            this.done = done;
            this.by = by;
            this.decidedS = decidedS;
            this.endedS = endedS;
        }
    }

    /**
     * After c3/c4, healed: the replicas those before plus what the decisions since account for
     * (the scale-out decided under the fault; a scale-in the steady load allows) through every
     * member, nothing leaked or orphaned; no member accepted more reports than it was sent, and
     * all together at least 30 % (reports reaching a new master before it sees itself master are
     * dropped, and these cases move every device three times).
     */
    String accountedFor(Ended e, int snortBefore, long sinceMillis, IntReportSender.Window w0)
            throws InterruptedException {
        IntReportSender.Window w1 = sender.window();
        Set<String> snort = settled(sinceMillis, snortBefore);
        int add = e.done.path("after").asInt() - e.done.path("before").asInt();
        return "loop: scale-out of " + add + " decided under the fault (in flight seen "
                + String.format("%.1f", e.decidedS) + " s after it on), " + e.done.path("outcome").asText()
                + " on " + e.by + " (\"" + e.done.path("detail").asText() + "\"), seen "
                + String.format("%.1f", e.endedS) + " s after the fault on; Snort replicas " + snort.size() + " ("
                + snortBefore + " before), StatefulSets " + rig.statefulSets().size() + ", lost 0, doubled 0, SIDs "
                + "leaked 0, orphan StatefulSets 0; INT reports accepted/sent "
                + IntReportSender.acceptedOverSent(w0, w1, cluster.ids(), 0.3);
    }
}
