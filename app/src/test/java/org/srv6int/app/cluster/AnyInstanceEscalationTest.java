// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.cluster.NodeId;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.EscalationReceipt;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.loop.LoopClock;
import org.srv6int.app.store.DistributedEscalationStore;
import org.srv6int.app.assembly.LoopAssembly;
import org.srv6int.app.store.TestStores;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.FakeReplicaPlatform;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.WindowFeed;
import org.srv6int.testkit.InMemoryCluster;
import org.srv6int.testkit.InMemoryClusterService;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.testkit.InMemoryLeadershipService;
import org.srv6int.testkit.InMemoryMastershipService;
import org.srv6int.testkit.InMemoryStorageService;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Any instance answers the agents (issue 33, item 3): three instances' loop components in one JVM
 * over one shared in-memory store; an escalation posted through a follower is queued in
 * {@code srv6int-loop-escalations} and the leader records it in its next round, once per (chain,
 * vNF, node) however many posts and through however many instances; one queued when the leader
 * changes is recorded by the next leader; one older than t-hat is dropped unused. The same on
 * three real processes over Atomix: {@code cluster/}'s {@code ThreeMemberClusterTest.t5}.
 */
public class AnyInstanceEscalationTest {

    private static final List<NodeId> NODES = List.of(NodeId.nodeId("onos-1"), NodeId.nodeId("onos-2"),
                                                      NodeId.nodeId("onos-3"));
    private static final long T_HAT_MS = 4_000;
    private static final VnfKey SFC1_VNF0 = VnfKey.of(SfcId.of(1), 0);
    private static final VnfKey SFC1_VNF1 = VnfKey.of(SfcId.of(1), 1);
    private static final VnfKey SFC2_VNF0 = VnfKey.of(SfcId.of(2), 0);

    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryStorageService storage = new InMemoryStorageService();
    private final Clock clock = new Clock();
    private final Map<NodeId, GlobalLoopManager> loops = new LinkedHashMap<>();
    private final List<LoopAssembly> assemblies = new ArrayList<>();
    private final Map<NodeId, WindowFeed> feeds = new LinkedHashMap<>();
    private final FakeReplicaPlatform platform = FakeReplicaPlatform.held(
            new NodeResources("worker1", 4000, 8L << 30), new NodeResources("worker2", 2000, 8L << 30));
    private DistributedEscalationStore queue;

    /** One wall and monotonic clock for the three instances, moved by the test. */
    private static final class Clock implements LoopClock {
        volatile long nanos;

        @Override
        public long nanoTime() {
            return nanos;
        }

        @Override
        public long currentTimeMillis() {
            return 1_700_000_000_000L + nanos / 1_000_000;
        }
    }

    @Before
    public void setUp() {
        ObjectNode app = (ObjectNode) PaperTestbed.netcfg().get("apps").get("org.srv6int.app").get("srv6int")
                .deepCopy();
        ((ObjectNode) app.get("loop")).put("tHatMs", T_HAT_MS);
        InMemoryFlowRuleService flows = new InMemoryFlowRuleService();
        InMemoryGroupService groups = new InMemoryGroupService();
        boolean first = true;
        for (NodeId n : NODES) {
            AppHarness h = new AppHarness(storage, flows, groups, n, new InMemoryMastershipService(cluster, n));
            h.config.app = PaperTestbed.appConfig(app);
            if (first) {
                h.deployFig5();
                first = false;
            }
            WindowFeed feed = new WindowFeed();
            feeds.put(n, feed);
            // onos-1 runs for leadership first: it leads.
            LoopAssembly a = LoopAssembly.over(h.app)
                    .cluster(new InMemoryLeadershipService(cluster, n), new InMemoryClusterService(cluster, n))
                    .windows(feed).platform(platform).clock(clock).build();
            assemblies.add(a);
            loops.put(n, a.loop());
        }
        queue = TestStores.escalations(storage);
    }

    @After
    public void tearDown() {
        assemblies.forEach(LoopAssembly::stop);
    }

    private static Escalation escalation(VnfKey vnf, String node, long l95) {
        return new Escalation(vnf, node, l95, 5_000_000, List.of("CPU", "LLC"));
    }

    private EscalationReceipt post(int instance, Escalation e) {
        return loops.get(NODES.get(instance)).submitEscalation(e);
    }

    /** One evaluation period on every instance (only the leader's loop acts). */
    private void round() {
        clock.nanos += 500_000_000L;
        feeds.values().forEach(f -> f.push(null));
    }

    /** The ESCALATION records of an instance's loop, vNF to its "escalations" input. */
    private Map<String, Double> escalationRecords(int instance) {
        Map<String, Double> out = new TreeMap<>();
        for (LoopDecision d : loops.get(NODES.get(instance)).decisions(1000)) {
            if (d.action() == LoopDecision.Action.ESCALATION) {
                Double prev = out.put(d.vnf().toString(), d.inputs().get(LoopDecision.IN_ESCALATIONS));
                assertNull("one ESCALATION record per vNF: " + d.vnf(), prev);
            }
        }
        return out;
    }

    private long counter(int instance, String name) {
        return loops.get(NODES.get(instance)).escalationCounters().getOrDefault(name, -1L);
    }

    @Test
    public void anEscalationPostedThroughAnyInstanceIsRecordedByTheLeaderOnce() {
        EscalationReceipt atLeader = post(0, escalation(SFC1_VNF1, "worker1", 7_000_000));
        assertTrue("the leader decides at once", atLeader.decided());
        assertEquals(LoopDecision.Action.ESCALATION, atLeader.decision().action());

        EscalationReceipt a = post(1, escalation(SFC1_VNF0, "worker1", 6_000_000));
        assertFalse(a.decided());
        assertEquals("onos-1", a.leader());
        assertEquals(1, a.queuedEscalation().posts());
        assertEquals("onos-2", a.queuedEscalation().receivedBy());
        assertFalse(post(2, escalation(SFC2_VNF0, "worker2", 9_000_000)).decided());
        // The same chain, vNF and node again, through the third instance: one entry, two posts, latest L95.
        EscalationReceipt again = post(2, escalation(SFC1_VNF0, "worker1", 6_500_000));
        assertEquals(2, again.queuedEscalation().posts());
        assertEquals(6_500_000, again.queuedEscalation().escalation().l95Nanos());
        assertEquals("onos-3", again.queuedEscalation().receivedBy());
        assertEquals(2, queue.pending().size());
        assertEquals(Map.of("1/1", 1.0), escalationRecords(0));

        round();
        assertEquals("each queued key recorded once by the leader",
                     Map.of("1/0", 1.0, "1/1", 1.0, "2/0", 1.0), escalationRecords(0));
        assertTrue("the queue is empty", queue.pending().isEmpty());
        assertEquals(2, counter(0, "escalationsConsumed"));
        assertEquals(Map.of(), escalationRecords(1));
        assertEquals(Map.of(), escalationRecords(2));

        round();
        round();
        assertEquals("nothing recorded twice", Map.of("1/0", 1.0, "1/1", 1.0, "2/0", 1.0), escalationRecords(0));
        assertEquals(2, counter(0, "escalationsConsumed"));
        assertEquals(1, counter(1, "escalationsQueued"));
        assertEquals(2, counter(2, "escalationsQueued"));
    }

    @Test
    public void anEscalationQueuedBeforeALeaderChangeIsRecordedByTheNextLeaderOnce() {
        assertFalse(post(1, escalation(SFC2_VNF0, "worker2", 9_000_000)).decided());
        assertFalse(post(2, escalation(SFC1_VNF0, "worker1", 6_000_000)).decided());
        // onos-1 stops leading before its next round: its loop never sees the queue.
        cluster.moveLeadership(GlobalLoopManager.TOPIC, NODES.get(1));
        assertEquals("onos-2", loops.get(NODES.get(2)).status().leaderNode());
        // onos-3 still follows; it queues for onos-2.
        assertEquals("onos-2", post(2, escalation(SFC1_VNF1, "worker1", 6_000_000)).leader());

        round();
        assertEquals(Map.of("1/0", 1.0, "1/1", 1.0, "2/0", 1.0), escalationRecords(1));
        assertEquals(3, counter(1, "escalationsConsumed"));
        assertEquals(0, counter(0, "escalationsConsumed"));
        assertTrue(queue.pending().isEmpty());

        // Back to onos-1: the queue is empty, nothing is recorded again.
        cluster.moveLeadership(GlobalLoopManager.TOPIC, NODES.get(0));
        round();
        assertEquals(Map.of(), escalationRecords(0));
        assertEquals(0, counter(0, "escalationsConsumed"));
    }

    @Test
    public void aQueuedEscalationOlderThanTHatIsDroppedUnused() {
        post(1, escalation(SFC1_VNF0, "worker1", 6_000_000));
        clock.nanos += (T_HAT_MS + 1) * 1_000_000;
        round();
        assertEquals(Map.of(), escalationRecords(0));
        assertEquals(1, counter(0, "escalationsExpired"));
        assertEquals(0, counter(0, "escalationsConsumed"));
        assertTrue(queue.pending().isEmpty());
    }

    @Test
    public void aFollowerChecksTheChainAndVnfBeforeQueuing() {
        try {
            post(1, escalation(VnfKey.of(SfcId.of(9), 0), "worker1", 6_000_000));
            fail("unknown chain queued");
        } catch (SfcException e) {
            assertEquals(SfcException.Reason.NOT_FOUND, e.reason());
        }
        try {
            post(2, escalation(VnfKey.of(SfcId.of(2), 5), "worker1", 6_000_000));
            fail("unknown vNF queued");
        } catch (SfcException e) {
            assertEquals(SfcException.Reason.NOT_FOUND, e.reason());
        }
        assertTrue(queue.pending().isEmpty());
    }
}
