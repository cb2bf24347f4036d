// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import org.junit.Test;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.NodeId;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The order an {@link ElectorView} applies answers in: by term, then by when the request was sent;
 * an older answer never replaces a newer one (c2's healed follower named a leader two terms old).
 */
public class LearntLeadershipsTest {

    private static final String TOPIC = "org.srv6int.app.global-loop";

    private static Leadership led(String leader, long term, String... candidates) {
        List<NodeId> c = Stream.of(candidates).map(NodeId::nodeId).collect(Collectors.toList());
        return new Leadership(TOPIC, new Leader(NodeId.nodeId(leader), term, 0), c);
    }

    private static Leadership none(String... candidates) {
        return new Leadership(TOPIC, null, Stream.of(candidates).map(NodeId::nodeId).collect(Collectors.toList()));
    }

    @Test
    public void aLowerTermNeverReplacesAHigherOneWhateverItsStamp() {
        LearntLeaderships l = new LearntLeaderships();
        long old = l.stamp();
        long event = l.stamp();
        assertTrue(l.offer(TOPIC, led("m1", 4, "m1", "m2"), event).applied);
        long late = l.stamp();
        // a read sent after the event, answered by a stale source with the leader of term 3
        LearntLeaderships.Offer o = l.offer(TOPIC, led("m3", 3, "m3", "m1"), late);
        assertFalse(o.applied);
        assertTrue(o.rejected, o.rejected.contains("term 3 < 4"));
        assertFalse(l.offer(TOPIC, led("m3", 3, "m3"), old).applied);
        assertEquals(led("m1", 4, "m1", "m2"), l.get(TOPIC).orElseThrow());
    }

    @Test
    public void aHigherTermIsNewerThoughItsRequestWasSentEarlier() {
        LearntLeaderships l = new LearntLeaderships();
        long early = l.stamp();
        assertTrue(l.offer(TOPIC, led("m3", 3, "m3", "m1"), l.stamp()).applied);
        LearntLeaderships.Offer o = l.offer(TOPIC, led("m1", 4, "m1"), early);
        assertTrue(o.applied);
        assertEquals(led("m3", 3, "m3", "m1"), o.before);
    }

    @Test
    public void inOneTermTheAnswerToTheLaterRequestStays() {
        LearntLeaderships l = new LearntLeaderships();
        long first = l.stamp();
        long second = l.stamp();
        // the later request's answer (this member ran again) arrives first
        assertTrue(l.offer(TOPIC, led("m1", 4, "m1", "m2", "m3"), second).applied);
        // the earlier read, answered before the run, arrives late: refused
        assertFalse(l.offer(TOPIC, led("m1", 4, "m1", "m2"), first).applied);
        assertEquals(led("m1", 4, "m1", "m2", "m3"), l.get(TOPIC).orElseThrow());
        // a later one with other candidates applies
        assertTrue(l.offer(TOPIC, led("m1", 4, "m1", "m3"), l.stamp()).applied);
        assertEquals(led("m1", 4, "m1", "m3"), l.get(TOPIC).orElseThrow());
    }

    @Test
    public void aLeaderlessAnswerIsOrderedByItsStamp() {
        LearntLeaderships l = new LearntLeaderships();
        long before = l.stamp();
        assertTrue(l.offer(TOPIC, led("m1", 4, "m1"), l.stamp()).applied);
        assertFalse(l.offer(TOPIC, none(), before).applied);
        assertTrue(l.offer(TOPIC, none(), l.stamp()).applied);
        // the highest term is remembered through a leaderless answer
        assertFalse(l.offer(TOPIC, led("m3", 3, "m3"), l.stamp()).applied);
        assertTrue(l.offer(TOPIC, led("m2", 5, "m2"), l.stamp()).applied);
    }

    @Test
    public void aDisconnectForgetsTheLeaderNotTheTermAndRefusesAnswersSentBeforeIt() {
        LearntLeaderships l = new LearntLeaderships();
        assertTrue(l.offer(TOPIC, led("m1", 4, "m1", "m2"), l.stamp()).applied);
        long inFlight = l.stamp();
        List<Leadership[]> changed = l.blank();
        assertEquals(1, changed.size());
        assertEquals(led("m1", 4, "m1", "m2"), changed.get(0)[0]);
        assertEquals(none("m1", "m2"), changed.get(0)[1]);
        assertNull(l.get(TOPIC).orElseThrow().leader());
        // a read sent before the cut, answered after it, in the same term: refused
        assertFalse(l.offer(TOPIC, led("m1", 4, "m1", "m2"), inFlight).applied);
        // the leader of before the last one, from any source after the heal: refused
        assertFalse(l.offer(TOPIC, led("m3", 3, "m3", "m1"), l.stamp()).applied);
        // the reconnect read: applied
        assertTrue(l.offer(TOPIC, led("m1", 4, "m1", "m2"), l.stamp()).applied);
        assertEquals(List.of(TOPIC), l.topics());
        assertEquals(1, l.all().size());
    }

    @Test
    public void topicsAreOrderedApart() {
        LearntLeaderships l = new LearntLeaderships();
        assertTrue(l.offer("a", new Leadership("a", new Leader(NodeId.nodeId("m1"), 9, 0), List.of()), l.stamp())
                           .applied);
        assertTrue(l.offer(TOPIC, led("m3", 3, "m3"), l.stamp()).applied);
        assertEquals(2, l.all().size());
    }
}
