// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;
import org.onosproject.net.DeviceId;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.cluster.atomix.AtomixNode;

import java.io.File;
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
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.junit.Assume.assumeTrue;

/**
 * The cluster under network faults: three {@code ClusterMember} JVMs, each in a network namespace
 * of its own joined by a bridge (made by tools/cluster-faults, which names them in
 * {@code SRV6INT_CLUSTER_NETNS} and their addresses in {@code SRV6INT_CLUSTER_ADDRS}; skipped
 * without them), links cut with iptables rules inside a member's namespace (the test driver's own
 * address stays reachable), under a steady write load ({@link ProbeWriter}) and with the app's
 * closed loop running on every member ({@code --netcfg}, {@link LoopRig}: each member's INT
 * collector on its namespace's address, the Kubernetes bridge against the kube-apiserver + KWOK
 * that tools/cluster-faults starts on the bridge's address, {@code -Dsrv6int.kubeconfig}); the
 * four switches' INT reports go from their addresses on the bridge
 * ({@code SRV6INT_CLUSTER_SWITCHES}) to their master's collector ({@link IntReportSender}).
 * Cases, in name order, each healing what it cut: the leader cut off from the other two with a
 * scale-out of SFC 2's Snort in flight (its latency over the bound, KWOK holding the new pod not
 * Ready), then healed; a follower cut off (a minority) with the leader's scale-out in flight, then
 * healed; random loss of 20 % of the packets between members while device masterships move; 40
 * +- 20 ms delay and 10 % loss while they move; in both, once the fault is on, Snort in violation
 * until the loop has a scale-out in flight, the masterships moved while it is, and the decision
 * ended before the heal. After each: nothing written lost, the decision in flight or decided under the
 * fault ended once, the replicas the expected set through every member, no SID leaked, no orphan
 * StatefulSet; timings and INT reports accepted/sent per member printed ("cluster:" lines).
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class ClusterPartitionTest {

    private static final Duration FORM = Duration.ofMinutes(3);
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String DEVICES = PaperTestbed.SWITCHES.stream().map(DeviceId::toString)
            .collect(Collectors.joining(","));
    private static final int DEVICE_COUNT = PaperTestbed.SWITCHES.size();
    // each member's INT collector, at its namespace's address
    private static final int INT_PORT = 32766;
    // KWOK holds a new pod not Ready this long: a fault lands while a scale-out is in flight
    private static final long POD_READY_DELAY_MS = 8_000;

    private static MemberProcesses cluster;
    private static LoopRig rig;
    private static IntReportSender sender;
    private static NetFaults net;
    private static SnortDecisions snort;

    @BeforeClass
    public static void startCluster() throws Exception {
        String netns = System.getenv("SRV6INT_CLUSTER_NETNS");
        String addrs = System.getenv("SRV6INT_CLUSTER_ADDRS");
        assumeTrue("SRV6INT_CLUSTER_NETNS/ADDRS not set: run by tools/cluster-faults", netns != null
                && addrs != null);
        String kc = System.getProperty("srv6int.kubeconfig");
        List<String> switchAddrs = Arrays.asList(String.valueOf(System.getenv("SRV6INT_CLUSTER_SWITCHES")).split(","));
        assertTrue("-Dsrv6int.kubeconfig (the bridge's kubeconfig of tools/k8s-testenv, its API server on the "
                           + "driver's bridge address) and SRV6INT_CLUSTER_SWITCHES (the switches' report "
                           + "addresses on the bridge): tools/cluster-faults sets both",
                   kc != null && !kc.isBlank() && switchAddrs.size() == DEVICE_COUNT);
        File bridgeKc = new File(kc).getAbsoluteFile();
        Function<DeviceId, String> reportAddress = d -> switchAddrs.get(PaperTestbed.SWITCHES.indexOf(d));
        Path dir = Files.createTempDirectory("ato-partition");
        cluster = MemberProcesses.inNamespaces(dir, Arrays.asList(netns.split(",")), Arrays.asList(addrs.split(",")),
                                               DEVICES);
        rig = new LoopRig(cluster, bridgeKc, POD_READY_DELAY_MS);
        Path netcfg = dir.resolve("netcfg.json");
        Files.writeString(netcfg, LoopRig.JSON.writeValueAsString(LoopRig.netcfg(bridgeKc, cluster.host("m1"),
                                                                                 reportAddress)));
        Map<String, InetSocketAddress> collectors = new TreeMap<>();
        net = new NetFaults(cluster);
        for (String id : cluster.ids()) {
            net.install(id);
            collectors.put(id, new InetSocketAddress(cluster.host(id), INT_PORT));
            cluster.args(id, List.of("--netcfg", netcfg.toString(), "--int-address", cluster.host(id),
                                     "--int-port", String.valueOf(INT_PORT), "--links", LoopRig.LINKS));
            cluster.start(id);
        }
        for (String id : cluster.ids()) {
            assertNotNull(id + " did not form a cluster:\n" + cluster.log(id),
                          cluster.awaitStatus(id, s -> s.path("leader").isTextual()
                                  && s.path("masters").size() == DEVICE_COUNT, FORM));
        }
        LoopRig.deployChains(cluster);
        sender = new IntReportSender(cluster, collectors, reportAddress, SnortDecisions.STEADY_NS);
        sender.start();
        snort = new SnortDecisions(cluster, rig, sender);
    }

    @AfterClass
    public static void stopCluster() throws Exception {
        if (sender != null) {
            sender.stopSending();
        }
        if (cluster != null) {
            for (String id : cluster.ids()) {
                net.heal(id);
            }
            cluster.close();
        }
        if (rig != null) {
            rig.close();
        }
    }

    // what each member shows of the device masters, and its mastership view's log (why a move did not hold)
    private static String mastershipViews() {
        StringBuilder b = new StringBuilder();
        for (String id : cluster.ids()) {
            JsonNode s = cluster.status(id);
            b.append("\n").append(id).append(": ").append(s == null ? "no answer" : s.path("masters")).append('\n')
                    .append(cluster.log(id).lines()
                                    .filter(l -> l.contains("mastership-events") || l.contains("evicting"))
                                    .collect(Collectors.joining("\n")));
        }
        return b.toString();
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
            net.heal(id);
        }
    }

    /** The leader every member names, polled (a move under a fault may lag on one member). */
    private static String agreedLeader() throws InterruptedException {
        return LoopRig.await("every member names one leader", () -> {
            Set<String> named = new TreeSet<>();
            cluster.ids().forEach(id -> named.add(String.valueOf(leader(id))));
            return named.size() == 1 && !named.contains("null")
                    ? LoopRig.JSON.getNodeFactory().textNode(named.iterator().next()) : null;
        }).asText();
    }

    /** Moves a switch to a member that masters none (asked through {@code via}), for the reports to follow. */
    private static void ensureMastersASwitch(String id, String via) throws InterruptedException {
        sender.refreshMasters();
        if (sender.masters.containsValue(id)) {
            return;
        }
        DeviceId d = PaperTestbed.SW2;
        assertNotNull("move " + d + " to " + id, cluster.call(via, "POST", "/master?device=" + d + "&node=" + id));
        LoopRig.await(d + " mastered by " + id + " as the members tell the sender", () -> {
            sender.refreshMasters();
            return id.equals(sender.masters.get(d)) ? LoopRig.JSON.nullNode() : null;
        });
    }

    @Test
    public void c1LeaderCutOffFromTheOtherTwoIsReplacedStopsLeadingAndRejoinsOnHeal() throws Exception {
        String old = leader(cluster.ids().get(0));
        long term = cluster.status(old).path("term").asLong();
        List<String> majority = new ArrayList<>(cluster.ids());
        majority.remove(old);
        ensureMastersASwitch(old, old);
        ProbeWriter w = new ProbeWriter(cluster, "cut-");
        w.start();
        Thread.sleep(1500);
        // the closed loop: Snort in violation, the leader's scale-out in flight (KWOK holds the pod)
        int snortBefore = snort.atRest();
        JsonNode inFlight = snort.scaleOutInFlight(List.of(old));
        IntReportSender.Window w0 = sender.window();
        long cutAt = System.currentTimeMillis();
        long t0 = System.nanoTime();
        net.cutOff(old);
        FaultTimings.Background round = FaultTimings.firstRound(cluster, majority, cutAt);
        FaultTimings.Background firstReport = FaultTimings.firstAcceptedAtNewMasters(sender, old, w0, t0);
        Watch leaderWatch = new Watch(majority, s -> s.path("leader").isTextual()
                && !old.equals(s.path("leader").asText()) && s.path("term").asLong() > term);
        Watch downWatch = new Watch(List.of(old), s -> !old.equals(s.path("leader").asText()));
        Watch masterWatch = new Watch(majority, s -> s.path("masters").size() == DEVICE_COUNT
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
        net.heal(old);
        String now = leaders.iterator().next();
        Map<String, Long> rejoined = await(List.of(old), s -> s.path("connected").asBoolean()
                && now.equals(s.path("leader").asText()), h0);
        assertEquals(old + " rejoined and follows " + now + "; its status: " + cluster.status(old), 1,
                     rejoined.size());
        // the decision in flight: finished once, by the new leader; nothing lost, doubled or leaked
        JsonNode done = snort.finishedOnce(now, inFlight, true);
        double doneS = (System.nanoTime() - t0) / 1e9;
        IntReportSender.Window w1 = sender.window();
        int add = done.path("after").asInt() - done.path("before").asInt();
        Set<String> snortNow = snort.settled(inFlight.path("timeMillis").asLong(), snortBefore);
        String reports = IntReportSender.acceptedOverSent(w0, w1, majority, 0.5);
        String firstRound = round.awaitWithin("a loop round on the new leader after the cut");
        String firstAccepted = firstReport.awaitWithin("the cut-off leader's switches accepted at their new master");
        Thread.sleep(1000);
        w.finish();
        int unknown = w.assertNothingLost(cluster.ids());
        assertTrue("the majority accepted writes while " + old + " was cut off", beforeHeal > 0);
        System.out.println("cluster: loop: scale-out of " + add + " in flight on " + old + " at the cut: "
                                   + done.path("outcome").asText() + " by " + now + ", seen "
                                   + String.format("%.1f", doneS) + " s after the cut (\""
                                   + done.path("detail").asText() + "\"); first loop round on the new leader "
                                   + firstRound + " after the cut; first report accepted at the new master of "
                                   + old + "'s switches: " + firstAccepted
                                   + "; Snort replicas " + snortNow + ", StatefulSets " + rig.statefulSets().size()
                                   + "; lost 0, doubled 0, SIDs leaked 0, orphan StatefulSets 0; INT reports "
                                   + "accepted/sent from the cut to after the heal: " + reports);
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
        List<String> majority = new ArrayList<>(cluster.ids());
        majority.remove(follower);
        ensureMastersASwitch(follower, lead);
        ProbeWriter w = new ProbeWriter(cluster, "minority-");
        w.start();
        Thread.sleep(1000);
        int snortBefore = snort.atRest();
        JsonNode inFlight = snort.scaleOutInFlight(List.of(lead));
        IntReportSender.Window w0 = sender.window();
        JsonNode beatsBefore = cluster.status(lead);
        long cutAt = System.currentTimeMillis();
        long t0 = System.nanoTime();
        net.cutOff(follower);
        FaultTimings.Background round = FaultTimings.firstRound(cluster, List.of(lead), cutAt);
        FaultTimings.Background firstReport = FaultTimings.firstAcceptedAtNewMasters(sender, follower, w0,
                                                                                         t0);
        Map<String, Long> gone = await(List.of(lead), s -> s.path("members").path(follower).asText()
                .equals("INACTIVE"), t0);
        assertEquals(lead + " saw " + follower + " go", 1, gone.size());
        Thread.sleep(3000);
        JsonNode s = cluster.status(lead);
        assertEquals("the leader stays: " + s, lead, s.path("leader").asText());
        assertEquals("no new term: " + s, term, s.path("term").asLong());
        // while the follower is still cut off: the leader ends its decision in flight once, and
        // the follower's switches report to their new master
        // SUCCEEDED, or FAILED (seen: "group update failed", a store call timed out while the
        // follower was cut off; docs/cluster.md section 4): ended once either way, and printed
        JsonNode done = snort.finishedOnce(lead, inFlight, false);
        double doneS = (System.nanoTime() - t0) / 1e9;
        String reported = firstReport.awaitWithin("the cut-off follower's switches accepted at their new master");
        long h0 = System.nanoTime();
        net.heal(follower);
        Map<String, Long> back = await(List.of(follower), st -> st.path("connected").asBoolean()
                && lead.equals(st.path("leader").asText()), h0);
        assertEquals(follower + " rejoined; its status: " + cluster.status(follower) + "\nits leadership view:\n"
                             + snort.viewLog(follower), 1, back.size());
        Thread.sleep(1000);
        IntReportSender.Window w1 = sender.window();
        int add = done.path("after").asInt() - done.path("before").asInt();
        Set<String> snortNow = snort.settled(inFlight.path("timeMillis").asLong(), snortBefore);
        String reports = IntReportSender.acceptedOverSent(w0, w1, majority, 0.5);
        String nextRound = round.awaitWithin("the leader's next loop round after the follower's cut");
        w.finish();
        int unknown = w.assertNothingLost(cluster.ids());
        System.out.println("cluster: loop: scale-out of " + add + " in flight on " + lead + " when " + follower
                                   + " was cut off: " + done.path("outcome").asText() + " (\""
                                   + done.path("detail").asText() + "\"), seen " + String.format("%.1f", doneS)
                                   + " s after the cut; next loop round on the "
                                   + "leader " + nextRound + " after the cut; first report accepted at the new "
                                   + "master of " + follower + "'s switches: " + reported + "; Snort replicas "
                                   + snortNow + ", StatefulSets " + rig.statefulSets().size() + "; lost 0, doubled 0, "
                                   + "SIDs "
                                   + "leaked 0, orphan StatefulSets 0; INT reports accepted/sent from the cut to "
                                   + "after the heal: " + reports);
        JsonNode fs = cluster.status(follower);
        JsonNode beatsAfter = cluster.status(lead);
        System.out.println("cluster: follower " + follower + " cut off: leader " + lead + " kept term " + term
                                   + ", saw it inactive after " + gone.get(lead) + " ms; healed: back after "
                                   + back.get(follower) + " ms; writes accepted/sent " + w.counts()
                                   + "; lost 0, invented 0, refused but stored " + unknown
                                   + "; its leadership view: failed reads " + fs.path("viewReadFailures")
                                   + ", older answers refused " + fs.path("viewStaleAnswers")
                                   + "; the leader's heartbeats from the cut to after the heal: sent "
                                   + (beatsAfter.path("leaderHeartbeats").asLong()
                                           - beatsBefore.path("leaderHeartbeats").asLong())
                                   + ", failed " + (beatsAfter.path("leaderHeartbeatsFailed").asLong()
                                           - beatsBefore.path("leaderHeartbeatsFailed").asLong()));
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
            if (agreed.size() != 3) {
                fail("every member sees the moves " + want + " (round " + round + "), seen by " + agreed
                             + mastershipViews());
            }
            convergeMs.add(agreed.values().stream().mapToLong(Long::longValue).max().orElse(0));
        }
        return refusedMoves;
    }

    /**
     * c3, c4, while their fault is still on and after the moves: the scale-out decided under it
     * ends once on the leader (SUCCEEDED, or FAILED with its detail printed: c2's finding, a store
     * call timing out under the fault; {@link SnortDecisions#settled} then counts its replicas both ways).
     */
    private static SnortDecisions.Ended decisionEnded(JsonNode inFlight, double decidedS, long t0) throws Exception {
        String by = agreedLeader();
        JsonNode done = snort.finishedOnce(by, inFlight, false);
        return new SnortDecisions.Ended(done, by, decidedS, (System.nanoTime() - t0) / 1e9);
    }

    @Test
    public void c3MastershipMovesUnderRandomLossConvergeToOneMasterPerDevice() throws Exception {
        int snortBefore = snort.atRestWithRoom();
        long since = System.currentTimeMillis();
        IntReportSender.Window w0 = sender.window();
        long t0 = System.nanoTime();
        net.loseBetweenMembers("0.2");
        ProbeWriter w = new ProbeWriter(cluster, "loss-");
        w.start();
        // Snort in violation: the loop decides a scale-out under the loss; the masterships move
        // while it is in flight (KWOK holding its pod), and it must end before the heal
        JsonNode inFlight = snort.scaleOutInFlight(cluster.ids());
        double decidedS = (System.nanoTime() - t0) / 1e9;
        List<Long> convergeMs = new ArrayList<>();
        int refusedMoves = moveRounds(convergeMs);
        double movedS = (System.nanoTime() - t0) / 1e9;
        SnortDecisions.Ended ended = decisionEnded(inFlight, decidedS, t0);
        for (String id : cluster.ids()) {
            net.heal(id);
        }
        Set<String> views = new TreeSet<>();
        Map<String, Long> same = await(cluster.ids(), s -> s.path("masters").size() == DEVICE_COUNT, System.nanoTime());
        assertEquals(3, same.size());
        cluster.ids().forEach(id -> views.add(cluster.status(id).path("masters").toString()));
        assertEquals("one master per device, the same for all: " + views, 1, views.size());
        w.finish();
        int unknown = w.assertNothingLost(cluster.ids());
        String loop = snort.accountedFor(ended, snortBefore, since, w0);
        System.out.println("cluster: 20% loss between members, 3 rounds of " + DEVICE_COUNT + " mastership moves "
                                   + "(done " + String.format("%.1f", movedS) + " s after the loss on): "
                                   + "all members agreed after " + convergeMs + " ms, moves refused " + refusedMoves
                                   + "; writes accepted/sent " + w.counts()
                                   + "; lost 0, invented 0, refused but stored " + unknown + "; " + loop);
    }

    @Test
    public void c4MastershipMovesUnderDelayAndLossConvergeToOneMasterPerDevice() throws Exception {
        String driver = System.getenv("SRV6INT_CLUSTER_DRIVER");
        assumeTrue("SRV6INT_CLUSTER_DRIVER (the driver's address on the bridge) not set", driver != null);
        // every member-to-member connection through a relay delaying each direction 40 ± 20 ms:
        // new connections are DNATed to the relay, the direct ones are reset (so Atomix reconnects
        // through it), and 10 % of the packets between members are dropped as in c3
        int snortBefore = snort.atRestWithRoom();
        long since = System.currentTimeMillis();
        IntReportSender.Window w0 = sender.window();
        long t0 = System.nanoTime();
        Map<String, DelayRelay> relays = new LinkedHashMap<>();
        for (String id : cluster.ids()) {
            relays.put(id, new DelayRelay(new InetSocketAddress(driver, 0),
                                          new InetSocketAddress(cluster.host(id), MemberProcesses.RAFT_PORT), 40, 20));
        }
        try {
            Map<String, Integer> relayPorts = new LinkedHashMap<>();
            relays.forEach((id, r) -> relayPorts.put(id, r.port()));
            net.relayBetweenMembers(driver, relayPorts, "0.1");
            ProbeWriter w = new ProbeWriter(cluster, "delay-");
            w.start();
            Thread.sleep(2000);
            long viaRelay = relays.values().stream().mapToLong(DelayRelay::chunks).sum();
            // Snort in violation: a scale-out decided under delay and loss, in flight while the
            // masterships move, ended before the heal
            JsonNode inFlight = snort.scaleOutInFlight(cluster.ids());
            double decidedS = (System.nanoTime() - t0) / 1e9;
            List<Long> convergeMs = new ArrayList<>();
            int refusedMoves = moveRounds(convergeMs);
            double movedS = (System.nanoTime() - t0) / 1e9;
            SnortDecisions.Ended ended = decisionEnded(inFlight, decidedS, t0);
            long relayed = relays.values().stream().mapToLong(DelayRelay::chunks).sum();
            assertTrue("member traffic went through the delaying relays: " + relayed, relayed > viaRelay);
            for (String id : cluster.ids()) {
                net.heal(id);
            }
            relays.values().forEach(r -> {
                try {
                    r.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Map<String, Long> same = await(cluster.ids(), s -> s.path("masters").size() == DEVICE_COUNT
                    && s.path("connected").asBoolean(), System.nanoTime());
            assertEquals(3, same.size());
            Set<String> views = new TreeSet<>();
            cluster.ids().forEach(id -> views.add(cluster.status(id).path("masters").toString()));
            assertEquals("one master per device, the same for all: " + views, 1, views.size());
            w.finish();
            int unknown = w.assertNothingLost(cluster.ids());
            String loop = snort.accountedFor(ended, snortBefore, since, w0);
            System.out.println("cluster: 40 +- 20 ms delay each way and 10% loss between members, 3 rounds of "
                                       + DEVICE_COUNT + " mastership moves (done " + String.format("%.1f", movedS)
                                       + " s after the fault on): all members agreed after " + convergeMs
                                       + " ms, moves refused " + refusedMoves + ", relayed chunks " + relayed
                                       + "; writes accepted/sent " + w.counts()
                                       + "; lost 0, invented 0, refused but stored " + unknown + "; " + loop);
        } finally {
            for (DelayRelay r : relays.values()) {
                r.close();
            }
        }
    }
}
