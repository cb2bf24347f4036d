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
import org.srv6int.app.loop.LoopParams;
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
    // Snort's latency in the reports: over its 1 ms bound (a violation), or inside it and above
    // the low-load bound (neither a scale-out nor a scale-in). Only 20 % over: a scale-out aims at
    // ceil(rate x latency / (R* x L*)) replicas, and the loop's maximum (8) must leave c2 room after
    // c1's (2 ms over made c1 add 7 at once in one run, and c2 could then add none)
    private static final long VIOLATING_NS = 1_200_000;
    private static final long STEADY_NS = 600_000;
    private static final int MAX_REPLICAS = LoopParams.builder().build().maxReplicas();

    private static MemberProcesses cluster;
    private static LoopRig rig;
    private static IntReportSender sender;

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
        for (String id : cluster.ids()) {
            iptables(id, "-N", CHAIN);
            iptables(id, "-A", "INPUT", "-j", CHAIN);
            iptables(id, "-A", "OUTPUT", "-j", CHAIN);
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
        sender = new IntReportSender(cluster, collectors, reportAddress, STEADY_NS);
        sender.start();
    }

    @AfterClass
    public static void stopCluster() throws Exception {
        if (sender != null) {
            sender.stopSending();
        }
        if (cluster != null) {
            for (String id : cluster.ids()) {
                heal(id);
            }
            cluster.close();
        }
        if (rig != null) {
            rig.close();
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

    // where each member's loop stood when a wait ran out: its leader and term, its Snort scale-outs, its
    // leadership view's log (why a decision did not end where it was looked for)
    private static String loopStates() {
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
                b.append("\n").append(id).append("'s threads (it names itself leader):");
                JsonNode t = cluster.call(id, "GET", "/threads");
                if (t != null) {
                    t.fields().forEachRemaining(f -> b.append("\n").append(f.getKey()).append(' ')
                            .append(f.getValue().asText()));
                }
            }
        }
        return b.toString();
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
            heal(id);
        }
    }

    /**
     * Snort's replica counts the loop's decisions since {@code sinceMillis} account for:
     * {@code before} plus what each SUCCEEDED scale-out added and each SUCCEEDED scale-in removed;
     * a FAILED one may have kept its change or not, so both counts stand (a decision by its time
     * and action, as any member's loop lists it: a resumed one is listed by the old leader as in
     * progress and by the new one as ended); null while one is in progress.
     */
    private static Set<Integer> accounted(long sinceMillis, int before) {
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
    private static Set<String> settled(long sinceMillis, int before) throws InterruptedException {
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
    private static int snortAtRest() throws InterruptedException {
        LoopRig.await("no Snort decision in progress", () -> accounted(0, 0) != null ? LoopRig.JSON.nullNode()
                : null);
        return settled(Long.MAX_VALUE, rig.currentSnort()).size();
    }

    /**
     * Snort's latency over its bound until the leader has a scale-out in flight (decided, its
     * StatefulSet made, KWOK holding the pod not Ready), then back inside it.
     */
    private static JsonNode scaleOutInFlight(String leader) throws InterruptedException {
        return scaleOutInFlight(List.of(leader));
    }

    /** As {@link #scaleOutInFlight(String)}, the scale-out listed in flight by any of {@code on}. */
    private static JsonNode scaleOutInFlight(List<String> on) throws InterruptedException {
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
     * c3, c4: Snort's replicas once at rest with room for a scale-out. After c1's and c2's
     * (+1 to +5 each, seen) Snort may be at the loop's maximum; the steady load is then low enough
     * for the loop's own scale-in (after 30 s), which is waited for rather than a case failed.
     */
    private static int snortAtRestWithRoom() throws InterruptedException {
        LoopRig.await("Snort below the loop's maximum of " + MAX_REPLICAS + " replicas (a scale-in at the steady "
                              + "load)", () -> rig.currentSnort() < MAX_REPLICAS ? LoopRig.JSON.nullNode() : null);
        return snortAtRest();
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

    /**
     * Waits for the decision in flight to end SUCCEEDED on the given member's loop (by its time),
     * then two rounds more; asserts it is the only scale-out decided since.
     */
    private static JsonNode finishedOnce(String by, JsonNode inFlight, boolean mustSucceed)
            throws InterruptedException {
        long time = inFlight.path("timeMillis").asLong();
        JsonNode done = LoopRig.await("the scale-out decided at " + time + " ended on " + by, () -> {
            for (JsonNode d : rig.decisions(by, "SCALE_OUT")) {
                if (d.path("timeMillis").asLong() == time && !d.path("outcome").asText().equals("IN_PROGRESS")) {
                    return d;
                }
            }
            return null;
        }, ClusterPartitionTest::loopStates);
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
        int snortBefore = snortAtRest();
        JsonNode inFlight = scaleOutInFlight(old);
        IntReportSender.Window w0 = sender.window();
        long cutAt = System.currentTimeMillis();
        long t0 = System.nanoTime();
        cutOff(old);
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
        heal(old);
        String now = leaders.iterator().next();
        Map<String, Long> rejoined = await(List.of(old), s -> s.path("connected").asBoolean()
                && now.equals(s.path("leader").asText()), h0);
        assertEquals(old + " rejoined and follows " + now + "; its status: " + cluster.status(old), 1,
                     rejoined.size());
        // the decision in flight: finished once, by the new leader; nothing lost, doubled or leaked
        JsonNode done = finishedOnce(now, inFlight, true);
        double doneS = (System.nanoTime() - t0) / 1e9;
        IntReportSender.Window w1 = sender.window();
        int add = done.path("after").asInt() - done.path("before").asInt();
        Set<String> snort = settled(inFlight.path("timeMillis").asLong(), snortBefore);
        String reports = IntReportSender.acceptedOverSent(w0, w1, majority, 0.5);
        Thread.sleep(1000);
        w.finish();
        int unknown = w.assertNothingLost(cluster.ids());
        assertTrue("the majority accepted writes while " + old + " was cut off", beforeHeal > 0);
        System.out.println("cluster: loop: scale-out of " + add + " in flight on " + old + " at the cut: "
                                   + done.path("outcome").asText() + " by " + now + ", seen "
                                   + String.format("%.1f", doneS) + " s after the cut (\""
                                   + done.path("detail").asText() + "\"); first loop round on the new leader "
                                   + round.await() + " after the cut; first report accepted at the new master of "
                                   + old + "'s switches: " + firstReport.await()
                                   + "; Snort replicas " + snort + ", StatefulSets " + rig.statefulSets().size()
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
        int snortBefore = snortAtRest();
        JsonNode inFlight = scaleOutInFlight(lead);
        IntReportSender.Window w0 = sender.window();
        long cutAt = System.currentTimeMillis();
        long t0 = System.nanoTime();
        cutOff(follower);
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
        JsonNode done = finishedOnce(lead, inFlight, false);
        double doneS = (System.nanoTime() - t0) / 1e9;
        String reported = firstReport.await();
        long h0 = System.nanoTime();
        heal(follower);
        Map<String, Long> back = await(List.of(follower), st -> st.path("connected").asBoolean()
                && lead.equals(st.path("leader").asText()), h0);
        assertEquals(follower + " rejoined; its status: " + cluster.status(follower) + "\nits leadership view:\n"
                             + viewLog(follower), 1, back.size());
        Thread.sleep(1000);
        IntReportSender.Window w1 = sender.window();
        int add = done.path("after").asInt() - done.path("before").asInt();
        Set<String> snort = settled(inFlight.path("timeMillis").asLong(), snortBefore);
        String reports = IntReportSender.acceptedOverSent(w0, w1, majority, 0.5);
        w.finish();
        int unknown = w.assertNothingLost(cluster.ids());
        System.out.println("cluster: loop: scale-out of " + add + " in flight on " + lead + " when " + follower
                                   + " was cut off: " + done.path("outcome").asText() + " (\""
                                   + done.path("detail").asText() + "\"), seen " + String.format("%.1f", doneS)
                                   + " s after the cut; next loop round on the "
                                   + "leader " + round.await() + " after the cut; first report accepted at the new "
                                   + "master of " + follower + "'s switches: " + reported + "; Snort replicas " + snort
                                   + ", StatefulSets " + rig.statefulSets().size() + "; lost 0, doubled 0, SIDs "
                                   + "leaked 0, orphan StatefulSets 0; INT reports accepted/sent from the cut to "
                                   + "after the heal: " + reports);
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
     * call timing out under the fault; {@link #settled} then counts its replicas both ways).
     */
    private static Ended decisionEnded(JsonNode inFlight, double decidedS, long t0) throws Exception {
        String by = agreedLeader();
        JsonNode done = finishedOnce(by, inFlight, false);
        return new Ended(done, by, decidedS, (System.nanoTime() - t0) / 1e9);
    }

    /** A decision of c3/c4 once ended, by whom, and when (s after the fault on) seen in flight and ended. */
    private static final class Ended {
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
    private static String loopAccounted(Ended e, int snortBefore, long sinceMillis, IntReportSender.Window w0)
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

    @Test
    public void c3MastershipMovesUnderRandomLossConvergeToOneMasterPerDevice() throws Exception {
        int snortBefore = snortAtRestWithRoom();
        long since = System.currentTimeMillis();
        IntReportSender.Window w0 = sender.window();
        long t0 = System.nanoTime();
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
        // Snort in violation: the loop decides a scale-out under the loss; the masterships move
        // while it is in flight (KWOK holding its pod), and it must end before the heal
        JsonNode inFlight = scaleOutInFlight(cluster.ids());
        double decidedS = (System.nanoTime() - t0) / 1e9;
        List<Long> convergeMs = new ArrayList<>();
        int refusedMoves = moveRounds(convergeMs);
        double movedS = (System.nanoTime() - t0) / 1e9;
        Ended ended = decisionEnded(inFlight, decidedS, t0);
        for (String id : cluster.ids()) {
            heal(id);
        }
        Set<String> views = new TreeSet<>();
        Map<String, Long> same = await(cluster.ids(), s -> s.path("masters").size() == DEVICE_COUNT, System.nanoTime());
        assertEquals(3, same.size());
        cluster.ids().forEach(id -> views.add(cluster.status(id).path("masters").toString()));
        assertEquals("one master per device, the same for all: " + views, 1, views.size());
        w.finish();
        int unknown = w.assertNothingLost(cluster.ids());
        String loop = loopAccounted(ended, snortBefore, since, w0);
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
        int snortBefore = snortAtRestWithRoom();
        long since = System.currentTimeMillis();
        IntReportSender.Window w0 = sender.window();
        long t0 = System.nanoTime();
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
            // Snort in violation: a scale-out decided under delay and loss, in flight while the
            // masterships move, ended before the heal
            JsonNode inFlight = scaleOutInFlight(cluster.ids());
            double decidedS = (System.nanoTime() - t0) / 1e9;
            List<Long> convergeMs = new ArrayList<>();
            int refusedMoves = moveRounds(convergeMs);
            double movedS = (System.nanoTime() - t0) / 1e9;
            Ended ended = decisionEnded(inFlight, decidedS, t0);
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
            Map<String, Long> same = await(cluster.ids(), s -> s.path("masters").size() == DEVICE_COUNT
                    && s.path("connected").asBoolean(), System.nanoTime());
            assertEquals(3, same.size());
            Set<String> views = new TreeSet<>();
            cluster.ids().forEach(id -> views.add(cluster.status(id).path("masters").toString()));
            assertEquals("one master per device, the same for all: " + views, 1, views.size());
            w.finish();
            int unknown = w.assertNothingLost(cluster.ids());
            String loop = loopAccounted(ended, snortBefore, since, w0);
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
