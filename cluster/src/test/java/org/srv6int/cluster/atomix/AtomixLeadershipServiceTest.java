// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.NodeId;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * The leader's heartbeat on three real Atomix members in this JVM: the leader commands its topic's
 * partition every {@link LeaderHeartbeat#EVERY_MS} (a run of a candidate already registered), and
 * that changes nothing anyone sees: same leader, same term, same candidates, no event.
 */
public class AtomixLeadershipServiceTest {

    private static final long DEADLINE_MS = 60_000;
    private static final String TOPIC = "org.srv6int.app.global-loop";

    private static InJvmMembers cluster;
    private static final List<AtomixLeadershipService> SERVICES = new ArrayList<>();

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = InJvmMembers.start("rou-leadership");
        for (AtomixNode n : cluster.nodes) {
            SERVICES.add(new AtomixLeadershipService(n));
        }
    }

    @AfterClass
    public static void stopCluster() {
        SERVICES.forEach(AtomixLeadershipService::close);
        cluster.stop();
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long end = System.currentTimeMillis() + DEADLINE_MS;
        while (!done.getAsBoolean()) {
            if (System.currentTimeMillis() > end) {
                fail(what + " not within " + DEADLINE_MS + " ms");
            }
            Thread.sleep(50);
        }
    }

    private static long beats(int member) {
        return SERVICES.get(member).viewCounters()[2];
    }

    @Test
    public void theLeadersHeartbeatChangesNoLeadershipAndNoCandidates() throws Exception {
        for (AtomixLeadershipService s : SERVICES) {
            s.runForLeadership(TOPIC); // m1 first: leader m1, candidates m1, m2, m3
        }
        await("every member sees m1 lead with three candidates", () -> SERVICES.stream().allMatch(s -> {
            Leadership l = s.getLeadership(TOPIC);
            return NodeId.nodeId("m1").equals(l.leaderNodeId()) && l.candidates().size() == 3;
        }));
        Leadership before = SERVICES.get(0).getLeadership(TOPIC);
        List<LeadershipEvent> events = new CopyOnWriteArrayList<>();
        SERVICES.forEach(s -> s.addListener(events::add));
        long from = beats(0);

        await("three more heartbeats of the leader", () -> beats(0) >= from + 3);
        Thread.sleep(1000); // the events of any change a beat made have arrived

        assertEquals("a beat failed", 0, SERVICES.get(0).viewCounters()[3]);
        assertEquals("followers do not beat", 0, beats(1) + beats(2));
        assertEquals("events after the beats", List.of(), events);
        for (AtomixLeadershipService s : SERVICES) {
            Leadership l = s.getLeadership(TOPIC);
            assertEquals(before.leader(), l.leader());
            assertEquals(before.candidates(), l.candidates());
        }
    }
}
