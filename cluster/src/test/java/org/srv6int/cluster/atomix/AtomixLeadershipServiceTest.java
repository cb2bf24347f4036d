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

import static org.junit.Assert.assertEquals;

/**
 * The leader's heartbeat on three real Atomix members in this JVM: the leader commands its topic's
 * partition every {@link LeaderHeartbeat#EVERY_MS} (a run of a candidate already registered), and
 * that changes nothing anyone sees: same leader, same term, same candidates, no event.
 */
public class AtomixLeadershipServiceTest {

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

    private static long beats(int member) {
        return SERVICES.get(member).viewCounters()[2];
    }

    @Test
    public void theLeadersHeartbeatChangesNoLeadershipAndNoCandidates() throws Exception {
        // each member's events, its own list
        List<List<LeadershipEvent>> events = new ArrayList<>();
        for (AtomixLeadershipService s : SERVICES) {
            List<LeadershipEvent> mine = new CopyOnWriteArrayList<>();
            events.add(mine);
            s.addListener(mine::add);
        }
        for (AtomixLeadershipService s : SERVICES) {
            s.runForLeadership(TOPIC); // m1 first: leader m1, candidates m1, m2, m3
        }
        InJvmMembers.await("every member sees m1 lead with three candidates", () -> SERVICES.stream().allMatch(s -> {
            Leadership l = s.getLeadership(TOPIC);
            return NodeId.nodeId("m1").equals(l.leaderNodeId()) && l.candidates().size() == 3;
        }));
        Leadership before = SERVICES.get(0).getLeadership(TOPIC);
        // the runs' own changes are announced on each view's thread, after the views learnt them
        InJvmMembers.await("every member announced the three candidates", () -> events.stream().allMatch(
                mine -> mine.stream().anyMatch(e -> e.subject().candidates().size() == 3)));
        events.forEach(List::clear);
        long from = beats(0);

        InJvmMembers.await("three more heartbeats of the leader", () -> beats(0) >= from + 3);
        Thread.sleep(1000); // the events of any change a beat made have arrived

        assertEquals("a beat failed", 0, SERVICES.get(0).viewCounters()[3]);
        assertEquals("followers do not beat", 0, beats(1) + beats(2));
        assertEquals("events after the beats", List.of(List.of(), List.of(), List.of()), events);
        for (AtomixLeadershipService s : SERVICES) {
            Leadership l = s.getLeadership(TOPIC);
            assertEquals(before.leader(), l.leader());
            assertEquals(before.candidates(), l.candidates());
        }
    }
}
