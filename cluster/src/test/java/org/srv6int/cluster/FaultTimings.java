// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.net.DeviceId;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.junit.Assert.fail;

/**
 * Times after a fault, each polled in the background from the fault on (so that one is not
 * measured after the test's other waits): the first loop round on whichever member leads, and
 * when a cut-off member's switches were re-pointed and first accepted at their new master.
 */
final class FaultTimings {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private FaultTimings() {
    }

    /** A poll run every 50 ms in the background from a fault on, so that its time is its own. */
    static final class Background extends Thread {
        private final Supplier<String> poll;
        private volatile String result;

        Background(Supplier<String> poll) {
            this.poll = poll;
            setDaemon(true);
            start();
        }

        @Override
        public void run() {
            long end = System.nanoTime() + BOUND.toNanos();
            while (System.nanoTime() < end) {
                String r = poll.get();
                if (r != null) {
                    result = r;
                    return;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        String await() throws InterruptedException {
            join(BOUND.toMillis() + 1000);
            return result == null ? "NOT within " + BOUND.toSeconds() + " s" : result;
        }

        /**
         * The figure, failing the case if it did not come within the bound: the time is the note's
         * figure, that it comes at all is the case's to check.
         */
        String awaitWithin(String what) throws InterruptedException {
            return awaitWithin(what, () -> "");
        }

        /** As {@link #awaitWithin(String)}, the failure saying more (the members' views, read then). */
        String awaitWithin(String what, Supplier<String> context) throws InterruptedException {
            String r = await();
            if (result == null) {
                fail(what + ": " + r + context.get());
            }
            return r;
        }
    }

    /** The first loop round after the fault on whichever of the members leads (the member's own clock). */
    static Background firstRound(MemberProcesses cluster, List<String> members, long faultMillis) {
        return new Background(() -> {
            for (String id : members) {
                JsonNode l = cluster.call(id, "GET", "/loop");
                if (l != null && l.path("leading").asBoolean() && l.path("lastRoundMillis").asLong() > faultMillis) {
                    return (l.path("lastRoundMillis").asLong() - faultMillis) + " ms (" + id + ")";
                }
            }
            return null;
        });
    }

    /**
     * For each switch that reported to {@code from} at {@code w0}: when the sender re-pointed it
     * (the members named another master) and when that master first accepted a report of a switch
     * re-pointed to it.
     */
    static Background firstAcceptedAtNewMasters(IntReportSender sender, String from, IntReportSender.Window w0,
                                                long t0) {
        List<DeviceId> moved = new ArrayList<>();
        w0.masters.forEach((d, m) -> {
            if (m.equals(from)) {
                moved.add(d);
            }
        });
        Map<DeviceId, Long> repointed = new LinkedHashMap<>();
        Map<String, Long> accepted = new TreeMap<>();
        return new Background(() -> {
            long ms = (System.nanoTime() - t0) / 1_000_000;
            for (DeviceId d : moved) {
                String to = sender.masters.get(d);
                if (to != null && !to.equals(from)) {
                    repointed.putIfAbsent(d, ms);
                    if (!accepted.containsKey(to) && sender.acceptedBeyondOwn(to, w0)) {
                        accepted.put(to, (System.nanoTime() - t0) / 1_000_000);
                    }
                }
            }
            boolean all = !moved.isEmpty() && repointed.size() == moved.size()
                    && moved.stream().allMatch(d -> accepted.containsKey(sender.masters.get(d)));
            return all ? "re-pointed after " + repointed + " ms, accepted after " + accepted + " ms" : null;
        });
    }
}
