// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;
import org.srv6int.cluster.atomix.AtomixNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

/**
 * The cluster under network faults: three {@code ClusterMember} JVMs, each in a network namespace
 * of its own joined by a bridge (made by tools/cluster-faults, which names them in
 * {@code SRV6INT_CLUSTER_NETNS} and their addresses in {@code SRV6INT_CLUSTER_ADDRS}; skipped
 * without them), links cut with iptables rules inside a member's namespace (the test driver's own
 * address stays reachable), under a steady write load. Cases, in name order, each healing what
 * it cut: the leader cut off from the other two, then healed; a follower cut off (a minority),
 * then healed; random loss of 20 % of the packets between members while device masterships move.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class ClusterPartitionTest {

    private static final Duration FORM = Duration.ofMinutes(3);
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String DEVICES = "of:1,of:2,of:3";

    private static MemberProcesses cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        String netns = System.getenv("SRV6INT_CLUSTER_NETNS");
        String addrs = System.getenv("SRV6INT_CLUSTER_ADDRS");
        assumeTrue("SRV6INT_CLUSTER_NETNS/ADDRS not set: run by tools/cluster-faults", netns != null
                && addrs != null);
        Path dir = Files.createTempDirectory("ato-partition");
        cluster = MemberProcesses.inNamespaces(dir, Arrays.asList(netns.split(",")), Arrays.asList(addrs.split(",")),
                                               DEVICES);
        for (String id : cluster.ids()) {
            iptables(id, "-N", CHAIN);
            iptables(id, "-A", "INPUT", "-j", CHAIN);
            iptables(id, "-A", "OUTPUT", "-j", CHAIN);
            cluster.start(id);
        }
        for (String id : cluster.ids()) {
            assertNotNull(id + " did not form a cluster:\n" + cluster.log(id),
                          cluster.awaitStatus(id, s -> s.path("leader").isTextual()
                                  && s.path("masters").size() == 3, FORM));
        }
    }

    @AfterClass
    public static void stopCluster() throws Exception {
        if (cluster != null) {
            for (String id : cluster.ids()) {
                heal(id);
            }
            cluster.close();
        }
    }

    /** Our rules live in a chain of our own in each member's namespace, hooked from INPUT and OUTPUT. */
    private static final String CHAIN = "SRV6INT-FAULTS";

    private static void iptables(String id, String... rule) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", cluster.namespace(id), "iptables"));
        cmd.addAll(Arrays.asList(rule));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals("iptables " + String.join(" ", rule) + ": " + out, 0, p.waitFor());
    }

    // Drops everything between a member and the other members (not the driver).
    private static void cutOff(String id) throws IOException, InterruptedException {
        for (String peer : cluster.ids()) {
            if (!peer.equals(id)) {
                iptables(id, "-A", CHAIN, "-s", cluster.host(peer), "-j", "DROP");
                iptables(id, "-A", CHAIN, "-d", cluster.host(peer), "-j", "DROP");
            }
        }
    }

    private static void heal(String id) throws IOException, InterruptedException {
        iptables(id, "-F", CHAIN);
        iptables(id, "-t", "nat", "-F", "OUTPUT");
    }

    // what a member's leadership view logged (changes, refused older answers, failed reads)
    private static String viewLog(String id) {
        return cluster.log(id).lines().filter(l -> l.contains("leadership-events"))
                .collect(Collectors.joining("\n"));
    }

    private static String leader(String id) {
        JsonNode s = cluster.status(id);
        return s == null || !s.path("leader").isTextual() ? null : s.path("leader").asText();
    }

    /** Polls every member until its condition holds; returns ms from t0 per member (absent: never). */
    private static Map<String, Long> await(List<String> ids, Predicate<JsonNode> condition, long t0)
            throws InterruptedException {
        Map<String, Long> at = new LinkedHashMap<>();
        long end = t0 + BOUND.toNanos();
        while (at.size() < ids.size() && System.nanoTime() < end) {
            for (String id : ids) {
                if (!at.containsKey(id)) {
                    JsonNode s = cluster.status(id);
                    if (s != null && condition.test(s)) {
                        at.put(id, (System.nanoTime() - t0) / 1_000_000);
                    }
                }
            }
            Thread.sleep(20);
        }
        return at;
    }

    /** What one or more members must come to show, and when each did (ms after the fault). */
    private static final class Watch {
        private final List<String> ids;
        private final Predicate<JsonNode> condition;
        private final Map<String, Long> at = new LinkedHashMap<>();

        Watch(List<String> ids, Predicate<JsonNode> condition) {
            this.ids = ids;
            this.condition = condition;
        }
    }

    /** Polls every member for every watch at once (so each time is its own, not after another's). */
    private static void awaitAll(long t0, Watch... watches) throws InterruptedException {
        long end = t0 + BOUND.toNanos();
        while (System.nanoTime() < end && Arrays.stream(watches).anyMatch(w -> w.at.size() < w.ids.size())) {
            for (String id : cluster.ids()) {
                JsonNode s = null;
                for (Watch w : watches) {
                    if (w.ids.contains(id) && !w.at.containsKey(id)) {
                        s = s == null ? cluster.status(id) : s;
                        if (s != null && w.condition.test(s)) {
                            w.at.put(id, (System.nanoTime() - t0) / 1_000_000);
                        }
                    }
                }
            }
            Thread.sleep(20);
        }
    }

    /** Heals every member after a case, however it ended, so that a failed case fails alone. */
    @After
    public void healAll() throws Exception {
        for (String id : cluster == null ? List.<String>of() : cluster.ids()) {
            heal(id);
        }
    }

    @Test
    public void c1LeaderCutOffFromTheOtherTwoIsReplacedStopsLeadingAndRejoinsOnHeal() throws Exception {
        String old = leader(cluster.ids().get(0));
        long term = cluster.status(old).path("term").asLong();
        List<String> majority = new ArrayList<>(cluster.ids());
        majority.remove(old);
        ProbeWriter w = new ProbeWriter(cluster, "cut-");
        w.start();
        Thread.sleep(1500);
        long t0 = System.nanoTime();
        cutOff(old);
        Watch leaderWatch = new Watch(majority, s -> s.path("leader").isTextual()
                && !old.equals(s.path("leader").asText()) && s.path("term").asLong() > term);
        Watch downWatch = new Watch(List.of(old), s -> !old.equals(s.path("leader").asText()));
        Watch masterWatch = new Watch(majority, s -> s.path("masters").size() == 3
                && !s.path("masters").toString().contains(old) && !s.path("masters").toString().contains("null"));
        awaitAll(t0, leaderWatch, downWatch, masterWatch);
        Map<String, Long> newLeader = leaderWatch.at;
        Map<String, Long> stepsDown = downWatch.at;
        Map<String, Long> remastered = masterWatch.at;
        assertEquals("the majority elected a new leader: " + newLeader, 2, newLeader.size());
        assertEquals("the cut-off leader stopped seeing itself lead: " + stepsDown, 1, stepsDown.size());
        assertEquals("the majority re-mastered its devices: " + remastered, 2, remastered.size());
        // each member learns a change by itself (events, reads every 500 ms): one may already see
        // a later change (a candidacy lost and run again under load) than the other; both must
        // come to name the same leader
        Set<String> leaders = new TreeSet<>();
        long a0 = System.nanoTime();
        while (System.nanoTime() - a0 < BOUND.toNanos()) {
            leaders.clear();
            majority.forEach(id -> leaders.add(String.valueOf(leader(id))));
            if (leaders.size() == 1 && !leaders.contains("null")) {
                break;
            }
            Thread.sleep(100);
        }
        long agreedMs = (System.nanoTime() - a0) / 1_000_000;
        assertEquals("the majority agrees on one leader: " + leaders, 1, leaders.size());
        assertTrue("the majority names a leader", !leaders.contains("null"));
        int beforeHeal = w.accepted(majority.get(0)) + w.accepted(majority.get(1));
        Thread.sleep(1000);
        long h0 = System.nanoTime();
        heal(old);
        String now = leaders.iterator().next();
        Map<String, Long> rejoined = await(List.of(old), s -> s.path("connected").asBoolean()
                && now.equals(s.path("leader").asText()), h0);
        assertEquals(old + " rejoined and follows " + now + "; its status: " + cluster.status(old), 1,
                     rejoined.size());
        Thread.sleep(1000);
        w.finish();
        int unknown = w.assertNothingLost(cluster.ids());
        assertTrue("the majority accepted writes while " + old + " was cut off", beforeHeal > 0);
        System.out.println("cluster: leader " + old + " cut off: new leader " + now + " after " + newLeader
                                   + " ms, " + old + " stopped leading after " + stepsDown.get(old)
                                   + " ms (both named it " + agreedMs + " ms later), devices re-mastered after "
                                   + remastered + " ms; healed: " + old
                                   + " follows again after " + rejoined.get(old) + " ms (election timeout "
                                   + AtomixNode.ELECTION_TIMEOUT.toMillis() + " ms); writes accepted/sent "
                                   + w.counts() + "; lost 0, invented 0, refused but stored " + unknown);
    }

    @Test
    public void c2FollowerCutOffLeavesTheLeaderInPlaceAndRejoinsOnHeal() throws Exception {
        // SRV6INT_FAULTS_SKIP=c2 leaves c2 out (CI ran it without since session 14; back since session 15)
        assumeTrue("c2 skipped by SRV6INT_FAULTS_SKIP (docs/cluster.md, section 4)",
                   !String.valueOf(System.getenv("SRV6INT_FAULTS_SKIP")).contains("c2"));
        String lead = leader(cluster.ids().get(0));
        long term = cluster.status(lead).path("term").asLong();
        String follower = cluster.ids().stream().filter(id -> !id.equals(lead)).findFirst().orElseThrow();
        ProbeWriter w = new ProbeWriter(cluster, "minority-");
        w.start();
        Thread.sleep(1000);
        long t0 = System.nanoTime();
        cutOff(follower);
        Map<String, Long> gone = await(List.of(lead), s -> s.path("members").path(follower).asText()
                .equals("INACTIVE"), t0);
        assertEquals(lead + " saw " + follower + " go", 1, gone.size());
        Thread.sleep(3000);
        JsonNode s = cluster.status(lead);
        assertEquals("the leader stays: " + s, lead, s.path("leader").asText());
        assertEquals("no new term: " + s, term, s.path("term").asLong());
        long h0 = System.nanoTime();
        heal(follower);
        Map<String, Long> back = await(List.of(follower), st -> st.path("connected").asBoolean()
                && lead.equals(st.path("leader").asText()), h0);
        assertEquals(follower + " rejoined; its status: " + cluster.status(follower) + "\nits leadership view:\n"
                             + viewLog(follower), 1, back.size());
        Thread.sleep(1000);
        w.finish();
        int unknown = w.assertNothingLost(cluster.ids());
        JsonNode fs = cluster.status(follower);
        System.out.println("cluster: follower " + follower + " cut off: leader " + lead + " kept term " + term
                                   + ", saw it inactive after " + gone.get(lead) + " ms; healed: back after "
                                   + back.get(follower) + " ms; writes accepted/sent " + w.counts()
                                   + "; lost 0, invented 0, refused but stored " + unknown
                                   + "; its leadership view: failed reads " + fs.path("viewReadFailures")
                                   + ", older answers refused " + fs.path("viewStaleAnswers"));
    }

    /**
     * Three rounds of three mastership moves (each device to the next member, asked through
     * another member); after each round every member must show the moves that were accepted.
     *
     * @return moves refused by the member asked (a timeout under the fault; counted, not expected)
     */
    private static int moveRounds(List<Long> convergeMs) throws InterruptedException {
        int refusedMoves = 0;
        List<String> devices = Arrays.asList(DEVICES.split(","));
        for (int round = 0; round < 3; round++) {
            Map<String, String> want = new LinkedHashMap<>();
            long t0 = System.nanoTime();
            for (int d = 0; d < devices.size(); d++) {
                String target = cluster.ids().get((d + round + 1) % cluster.ids().size());
                String via = cluster.ids().get(d % cluster.ids().size());
                JsonNode r = cluster.call(via, "POST", "/master?device=" + devices.get(d) + "&node=" + target);
                if (r != null && r.path("moved").asBoolean()) {
                    want.put(devices.get(d), target);
                } else {
                    refusedMoves++;
                }
            }
            Map<String, Long> agreed = await(cluster.ids(), s -> {
                for (Map.Entry<String, String> e : want.entrySet()) {
                    if (!e.getValue().equals(s.path("masters").path(e.getKey()).asText())) {
                        return false;
                    }
                }
                return true;
            }, t0);
            assertEquals("every member sees the moves " + want + ": " + agreed, 3, agreed.size());
            convergeMs.add(agreed.values().stream().mapToLong(Long::longValue).max().orElse(0));
        }
        return refusedMoves;
    }

    @Test
    public void c3MastershipMovesUnderRandomLossConvergeToOneMasterPerDevice() throws Exception {
        for (String id : cluster.ids()) {
            for (String peer : cluster.ids()) {
                if (!peer.equals(id)) {
                    iptables(id, "-A", CHAIN, "-s", cluster.host(peer), "-m", "statistic", "--mode", "random",
                             "--probability", "0.2", "-j", "DROP");
                }
            }
        }
        ProbeWriter w = new ProbeWriter(cluster, "loss-");
        w.start();
        List<Long> convergeMs = new ArrayList<>();
        int refusedMoves = moveRounds(convergeMs);
        for (String id : cluster.ids()) {
            heal(id);
        }
        Set<String> views = new TreeSet<>();
        Map<String, Long> same = await(cluster.ids(), s -> s.path("masters").size() == 3, System.nanoTime());
        assertEquals(3, same.size());
        cluster.ids().forEach(id -> views.add(cluster.status(id).path("masters").toString()));
        assertEquals("one master per device, the same for all: " + views, 1, views.size());
        w.finish();
        int unknown = w.assertNothingLost(cluster.ids());
        System.out.println("cluster: 20% loss between members, 3 rounds of 3 mastership moves: all members agreed "
                                   + "after " + convergeMs + " ms, moves refused " + refusedMoves
                                   + "; writes accepted/sent " + w.counts()
                                   + "; lost 0, invented 0, refused but stored " + unknown);
    }

    @Test
    public void c4MastershipMovesUnderDelayAndLossConvergeToOneMasterPerDevice() throws Exception {
        String driver = System.getenv("SRV6INT_CLUSTER_DRIVER");
        assumeTrue("SRV6INT_CLUSTER_DRIVER (the driver's address on the bridge) not set", driver != null);
        // every member-to-member connection through a relay delaying each direction 40 ± 20 ms:
        // new connections are DNATed to the relay, the direct ones are reset (so Atomix reconnects
        // through it), and 10 % of the packets between members are dropped as in c3
        Map<String, DelayRelay> relays = new LinkedHashMap<>();
        for (String id : cluster.ids()) {
            relays.put(id, new DelayRelay(new InetSocketAddress(driver, 0),
                                          new InetSocketAddress(cluster.host(id), MemberProcesses.RAFT_PORT), 40, 20));
        }
        try {
            for (String id : cluster.ids()) {
                for (String peer : cluster.ids()) {
                    if (!peer.equals(id)) {
                        iptables(id, "-t", "nat", "-A", "OUTPUT", "-d", cluster.host(peer), "-p", "tcp", "--dport",
                                 String.valueOf(MemberProcesses.RAFT_PORT), "-j", "DNAT", "--to-destination",
                                 driver + ":" + relays.get(peer).port());
                        iptables(id, "-A", CHAIN, "-o", "eth0", "-d", cluster.host(peer), "-p", "tcp", "-j", "REJECT",
                                 "--reject-with", "tcp-reset");
                        iptables(id, "-A", CHAIN, "-i", "eth0", "-s", cluster.host(peer), "-m", "statistic",
                                 "--mode", "random", "--probability", "0.1", "-j", "DROP");
                    }
                }
                iptables(id, "-A", CHAIN, "-i", "eth0", "-s", driver, "-p", "tcp", "--dport",
                         String.valueOf(MemberProcesses.RAFT_PORT), "-m", "statistic", "--mode", "random",
                         "--probability", "0.1", "-j", "DROP");
            }
            ProbeWriter w = new ProbeWriter(cluster, "delay-");
            w.start();
            Thread.sleep(2000);
            long viaRelay = relays.values().stream().mapToLong(DelayRelay::chunks).sum();
            List<Long> convergeMs = new ArrayList<>();
            int refusedMoves = moveRounds(convergeMs);
            long relayed = relays.values().stream().mapToLong(DelayRelay::chunks).sum();
            assertTrue("member traffic went through the delaying relays: " + relayed, relayed > viaRelay);
            for (String id : cluster.ids()) {
                heal(id);
            }
            relays.values().forEach(r -> {
                try {
                    r.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Map<String, Long> same = await(cluster.ids(), s -> s.path("masters").size() == 3
                    && s.path("connected").asBoolean(), System.nanoTime());
            assertEquals(3, same.size());
            Set<String> views = new TreeSet<>();
            cluster.ids().forEach(id -> views.add(cluster.status(id).path("masters").toString()));
            assertEquals("one master per device, the same for all: " + views, 1, views.size());
            w.finish();
            int unknown = w.assertNothingLost(cluster.ids());
            System.out.println("cluster: 40 +- 20 ms delay each way and 10% loss between members, 3 rounds of 3 "
                                       + "mastership moves: all members agreed after " + convergeMs
                                       + " ms, moves refused " + refusedMoves + ", relayed chunks " + relayed
                                       + "; writes accepted/sent " + w.counts()
                                       + "; lost 0, invented 0, refused but stored " + unknown);
        } finally {
            for (DelayRelay r : relays.values()) {
                r.close();
            }
        }
    }
}
