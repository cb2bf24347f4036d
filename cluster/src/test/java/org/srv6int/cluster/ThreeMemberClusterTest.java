// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;
import org.srv6int.cluster.atomix.AtomixNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The app's stores, leadership and mastership on a real cluster: three {@code ClusterMember}
 * JVMs (each an Atomix 3.1.9 Raft member under the app's assembly) on loopback ports. One cluster
 * for the whole class (a start costs tens of seconds on a loaded 2-core machine); the cases run in
 * name order and each leaves the cluster whole for the next: the cluster forms and shares the
 * app's maps; a SID claimed through two members at once is held once; the leader killed with
 * {@code kill -9} under a steady write load is replaced and nothing written is lost; a member
 * restarted with its data wiped catches up; an agent's escalation posted through each member is
 * recorded once by the leader's loop. Figures are printed ("cluster:" lines).
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class ThreeMemberClusterTest {

    private static final Duration FORM = Duration.ofMinutes(3);
    // Liveness bound only (failures take seconds; the figure is printed, not asserted)
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(60);
    private static final String DEVICES = "of:1,of:2,of:3";

    private static Path dir;
    private static MemberProcesses cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        dir = Files.createTempDirectory("ato-cluster");
        cluster = new MemberProcesses(dir, 3, DEVICES);
        for (String id : cluster.ids()) {
            cluster.start(id);
        }
        for (String id : cluster.ids()) {
            assertNotNull(id + " did not form a cluster with a leader:\n" + cluster.log(id),
                          cluster.awaitStatus(id, s -> s.path("leader").isTextual()
                                  && s.path("masters").size() == 3, FORM));
        }
    }

    @AfterClass
    public static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String leaderSeenBy(String id) {
        JsonNode s = cluster.status(id);
        return s == null || !s.path("leader").isTextual() ? null : s.path("leader").asText();
    }

    @Test
    public void t1FormsWithOneLeaderOneMasterPerDeviceAndSharedMaps() {
        Set<String> leaders = new TreeSet<>();
        Set<String> masterViews = new TreeSet<>();
        for (String id : cluster.ids()) {
            JsonNode s = cluster.status(id);
            leaders.add(s.path("leader").asText());
            masterViews.add(s.path("masters").toString());
            assertEquals("every member active as " + id + " sees it: " + s, 3, count(s.path("members"), "ACTIVE"));
        }
        assertEquals("one leader for all: " + leaders, 1, leaders.size());
        assertEquals("one master per device for all: " + masterViews, 1, masterViews.size());
        for (String id : cluster.ids()) {
            assertNotNull(cluster.call(id, "POST", "/probe?key=from-" + id + "&value=" + id));
        }
        for (String id : cluster.ids()) {
            JsonNode e = cluster.call(id, "GET", "/probe").path("entries");
            for (String w : cluster.ids()) {
                assertEquals(id + " reads what " + w + " wrote", w, e.path("from-" + w).asText());
            }
        }
        System.out.println("cluster: formed, leader " + leaders + ", masters " + masterViews);
    }

    private static int count(JsonNode obj, String value) {
        int n = 0;
        for (Iterator<JsonNode> it = obj.elements(); it.hasNext();) {
            n += value.equals(it.next().asText()) ? 1 : 0;
        }
        return n;
    }

    @Test
    public void t2OneSidClaimedThroughEveryMemberAtOnceIsHeldOnce() throws Exception {
        String sid = "2001:db8:77::1";
        CountDownLatch go = new CountDownLatch(1);
        Map<String, Boolean> created = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (String id : cluster.ids()) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                JsonNode r = cluster.call(id, "POST", "/replica?vnf=7/0&name=r-" + id + "&sid=" + sid);
                created.put(id, r != null && r.path("created").asBoolean());
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals("exactly one create won the SID: " + created, 1,
                     created.values().stream().filter(b -> b).count());
        for (String id : cluster.ids()) {
            JsonNode r = cluster.call(id, "GET", "/replicas");
            assertEquals(id + " sees one replica of chain 7: " + r, 1, countPrefix(r.path("replicas"), "7/0/"));
        }
    }

    private static int countPrefix(JsonNode obj, String prefix) {
        int n = 0;
        for (Iterator<String> it = obj.fieldNames(); it.hasNext();) {
            n += it.next().startsWith(prefix) ? 1 : 0;
        }
        return n;
    }

    @Test
    public void t3LeaderKilledUnderWritesIsReplacedAndNothingAcceptedIsLost() throws Exception {
        String leader = leaderSeenBy(cluster.ids().get(0));
        long term = cluster.status(leader).path("term").asLong();
        List<String> survivors = new ArrayList<>(cluster.ids());
        survivors.remove(leader);
        ProbeWriter w = new ProbeWriter(cluster, "kill-");
        w.start();
        Thread.sleep(1500);
        long t0 = System.nanoTime();
        cluster.kill(leader);
        // every survivor polled in one loop, so each figure is that member's own
        Map<String, Long> leaderMs = new LinkedHashMap<>();
        Map<String, Long> masterMs = new LinkedHashMap<>();
        long end = t0 + FAILOVER_BOUND.toNanos();
        while ((leaderMs.size() < survivors.size() || masterMs.size() < survivors.size()) && System.nanoTime() < end) {
            for (String id : survivors) {
                JsonNode st = cluster.status(id);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                if (st == null) {
                    continue;
                }
                if (st.path("leader").isTextual() && !leader.equals(st.path("leader").asText())
                        && st.path("term").asLong() > term) {
                    leaderMs.putIfAbsent(id, ms);
                }
                String masters = st.path("masters").toString();
                if (st.path("masters").size() == 3 && !masters.contains(leader) && !masters.contains("null")) {
                    masterMs.putIfAbsent(id, ms);
                }
            }
            Thread.sleep(20);
        }
        for (String id : survivors) {
            assertTrue(id + " saw no new leader after " + leader + " died:\n" + cluster.log(id),
                       leaderMs.containsKey(id));
            assertTrue(id + " still sees " + leader + " master a device", masterMs.containsKey(id));
        }
        Set<String> newLeaders = new TreeSet<>();
        survivors.forEach(id -> newLeaders.add(leaderSeenBy(id)));
        assertEquals("survivors agree on the new leader", 1, newLeaders.size());
        Thread.sleep(1000);
        w.finish();
        int unknown = w.assertNothingLost(survivors);
        System.out.println("cluster: kill -9 of leader " + leader + ": new leader " + newLeaders + " seen after "
                                   + leaderMs + " ms, devices re-mastered after " + masterMs
                                   + " ms (election timeout " + AtomixNode.ELECTION_TIMEOUT.toMillis()
                                   + " ms); writes accepted/sent " + w.counts()
                                   + "; lost 0, invented 0, refused but stored " + unknown);
        assertTrue("writes went on through the survivors", w.accepted() > 0);
    }

    @Test
    public void t4MemberRestartedWithItsDataWipedCatchesUp() throws Exception {
        String down = cluster.ids().stream().filter(id -> !cluster.alive(id)).findFirst()
                .orElse(cluster.ids().get(2));
        if (cluster.alive(down)) {
            cluster.kill(down);
        }
        cluster.wipe(down);
        ProbeWriter w = new ProbeWriter(cluster, "wipe-");
        w.start();
        long t0 = System.nanoTime();
        cluster.start(down);
        JsonNode s = cluster.awaitStatus(down, st -> st.path("leader").isTextual()
                && st.path("masters").size() == 3, FORM);
        assertNotNull(down + " did not rejoin:\n" + cluster.log(down), s);
        long joinMs = (System.nanoTime() - t0) / 1_000_000;
        Thread.sleep(1000);
        w.finish();
        w.assertNothingLost(cluster.ids());
        JsonNode e = cluster.call(down, "GET", "/probe").path("entries");
        for (String id : cluster.ids()) {
            assertEquals(down + " caught up with what " + id + " wrote before it was wiped", id,
                         e.path("from-" + id).asText());
        }
        assertEquals(down + " sees every member active", 3, count(s.path("members"), "ACTIVE"));
        System.out.println("cluster: " + down + " restarted with its data wiped: serving after " + joinMs
                                   + " ms, caught up (" + e.size() + " entries); writes accepted/sent " + w.counts());
    }

    @Test
    public void t5AnEscalationPostedThroughEachMemberIsRecordedByTheLeaderOnce() throws Exception {
        List<String> ids = cluster.ids();
        for (String id : ids) {
            assertNotNull(id + " not serving", cluster.awaitStatus(id, st -> st.path("leader").isTextual(), FORM));
        }
        assertNotNull(cluster.call(ids.get(0), "POST", "/chain?id=33&vnfs=3"));
        String leader = leaderSeenBy(ids.get(0));
        long t0 = System.nanoTime();
        Map<String, String> answers = new LinkedHashMap<>();
        int queued = 0;
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            JsonNode r = cluster.call(id, "POST", "/escalation?vnf=33/" + i + "&node=w-" + id);
            assertNotNull(id + " refused the escalation:\n" + cluster.log(id), r);
            answers.put(id, r.toString());
            queued += r.path("decided").asBoolean() ? 0 : 1;
            assertEquals("the leader decides, a follower queues: " + id + " " + r, id.equals(leader),
                         r.path("decided").asBoolean());
        }
        // Every vNF's escalation recorded once by the leader's loop (rounds every 500 ms).
        Map<String, Integer> expected = Map.of("33/0", 1, "33/1", 1, "33/2", 1);
        long end = System.nanoTime() + FAILOVER_BOUND.toNanos();
        JsonNode seen = null;
        long recordedMs = -1;
        while (System.nanoTime() < end) {
            seen = cluster.call(leader, "GET", "/escalations");
            if (seen != null && records(seen).equals(expected)) {
                recordedMs = (System.nanoTime() - t0) / 1_000_000;
                break;
            }
            Thread.sleep(50);
        }
        assertTrue("the leader " + leader + " recorded " + seen + " after " + answers, recordedMs >= 0);
        // Two more rounds: nothing recorded twice, on the leader or anywhere else.
        Thread.sleep(1500);
        for (String id : ids) {
            JsonNode e = cluster.call(id, "GET", "/escalations");
            if (id.equals(leader)) {
                assertEquals("recorded once: " + e, expected, records(e));
                assertEquals(queued, e.path("counters").path("escalationsConsumed").asInt());
            } else {
                assertEquals(id + " records none: " + e, Map.of(), records(e));
            }
        }
        System.out.println("cluster: escalations posted through " + ids + " (leader " + leader + "): " + queued
                                   + " queued by followers, all 3 recorded once by the leader within " + recordedMs
                                   + " ms; answers " + answers);
    }

    private static Map<String, Integer> records(JsonNode e) {
        Map<String, Integer> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = e.path("records").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> f = it.next();
            out.put(f.getKey(), f.getValue().asInt());
        }
        return out;
    }
}
