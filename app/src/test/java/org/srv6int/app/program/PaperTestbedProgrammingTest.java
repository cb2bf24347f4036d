// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.srv6int.app.switchstate.SidSteering;
import org.srv6int.app.switchstate.FlowEntries;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.net.group.Group;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.Rules;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.srv6int.app.testing.PaperTestbed.SFC1;
import static org.srv6int.app.testing.PaperTestbed.SFC2;

/**
 * Flow programming on the paper's testbed: the exact entries of SFC 1 and
 * SFC 2, idempotent re-install, and exactly what changes when the global
 * loop adds a Snort replica on Worker 2.
 */
public class PaperTestbedProgrammingTest {

    private AppHarness app;

    @Before
    public void setUp() {
        app = new AppHarness();
    }

    /**
     * Every flow rule and group on every switch, one line each, sorted; the
     * bucket entries of a chain that take the same segment list as one line
     * with their count.
     */
    private List<String> state() {
        List<String> lines = new ArrayList<>();
        Map<String, Integer> buckets = new TreeMap<>();
        app.flows.entries().forEach(e -> {
            String d = Rules.describe(e);
            if (FlowEntries.chainAndBucket(e).isPresent()) {
                buckets.merge(d.replaceAll("bucket=\\d+", "bucket=*"), 1, Integer::sum);
            } else {
                lines.add("rule  " + d);
            }
        });
        buckets.forEach((d, n) -> lines.add("rule  " + d + " x" + n));
        for (Group g : app.groups.groups()) {
            lines.add("group " + Rules.describe(g.deviceId(), g.id().id(), g.buckets()));
        }
        lines.sort(String::compareTo);
        return lines;
    }

    /**
     * Reads a golden file; with -Dsrv6int.regen=DIR writes the actual lines
     * there instead (review the diff before committing it).
     */
    static List<String> golden(String name, List<String> actual) throws IOException {
        String regen = System.getProperty("srv6int.regen");
        if (regen != null) {
            Files.write(Paths.get(regen, name), actual);
        }
        return fixture(name);
    }

    static List<String> fixture(String name) throws IOException {
        try (InputStream in = PaperTestbedProgrammingTest.class.getResourceAsStream(name)) {
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
                    .filter(l -> !l.isBlank() && !l.startsWith("#"))
                    .collect(Collectors.toList());
        }
    }

    @Test
    public void installsExactlyTheEntriesOfSfc1AndSfc2() throws IOException {
        app.deployFig5();
        app.settle();
        assertEquals(golden("paper-testbed-sfc1-sfc2.txt", state()), state());
    }

    @Test
    public void reinstallIsIdempotent() {
        app.deployFig5();
        app.settle();
        List<String> before = state();
        app.flowLog.drain();
        app.groupLog.drain();
        assertEquals(0, app.programmer.reconcile());
        assertEquals(List.of(), app.flowLog.drain());
        assertEquals(List.of(), app.groupLog.drain());
        assertEquals(before, state());
    }

    /** Bucket entries written in a log, by the replica SID they send to (vNF SIDs of fc00:0:N:f::). */
    private static Map<String, Integer> bucketWrites(List<String> log) {
        Map<String, Integer> m = new TreeMap<>();
        for (String l : log) {
            if (l.contains("encap.srv6_encap")) {
                Matcher x = Pattern.compile("fc00:0:\\d:f::\\d+").matcher(l);
                m.merge((l.startsWith("+") ? "+ " : "- ") + (x.find() ? x.group() : "?"), 1, Integer::sum);
            }
        }
        return m;
    }

    @Test
    public void addingSnortReplicaOnWorker2MovesHalfTheBucketsAfterItsSidIsIn() throws IOException {
        app.deployFig5();
        app.settle();
        app.flowLog.drain();
        app.groupLog.drain();
        // the switches acknowledge only when told: shows the buckets wait for the new SID entry
        app.flows.holdConfirmations(true);

        VnfReplica added = app.inventory.addReplica(VnfKey.of(SFC2, 0), "worker2");
        assertEquals("r1", added.id().name());
        assertEquals(PaperTestbed.SW3, added.deviceId());
        assertEquals("fc00:0:3:f::2", added.sid().toString());

        app.programmer.reconcile();
        assertEquals(List.of("+ of:0000000000000003 endpoint.my_sid ipv6_dst=fc00:0:3:f::2/128 -> "
                                     + "end_t_int_sfc(vnf_id=2, vnf_mac=00:00:00:00:03:03, vnf_port=3) prio=128"),
                     app.flowLog.drain());
        app.programmer.reconcile();
        assertEquals("make-before-break: no bucket may use the new SID before its entry is in", List.of(),
                     app.flowLog.drain());

        app.flows.confirmAll();
        app.settle();
        // a scale-out moves at once exactly the new replica's share (256 / 2), all to the new SID
        assertEquals(Map.of("+ fc00:0:3:f::2", 128), bucketWrites(app.flowLog.drain()));
        assertEquals(List.of(), app.groupLog.drain());
    }

    @Test
    public void aDrainingReplicaKeepsItsBucketsUntilTheirCountersStop() throws IOException {
        app.deployFig5();
        VnfReplicaId old = VnfReplicaId.of(VnfKey.of(SFC2, 0), "r0");
        app.inventory.addReplica(VnfKey.of(SFC2, 0), "worker2");
        app.settle();
        app.flowLog.drain();

        app.inventory.drainReplica(old);
        app.settle();
        assertEquals("draining moves nothing while its buckets may carry flows", Map.of(),
                     bucketWrites(app.flowLog.drain()));
        // the old replica's buckets keep counting for 8 s, then their flows end
        for (int s = 0; s < 8; s++) {
            app.nowMs.addAndGet(1_000);
            app.flows.setPackets(e -> FlowEntries.travel(e).stream().anyMatch(a
                    -> a.toString().equals("fc00:0:2:f::2")),
                                 100L * (s + 1));
            app.settle();
            assertEquals("t=" + s, Map.of(), bucketWrites(app.flowLog.drain()));
        }
        app.nowMs.addAndGet(org.srv6int.app.config.Srv6IntAppConfig.DEFAULT_DRAIN_IDLE_MS);
        app.settle();
        assertEquals(Map.of("+ fc00:0:3:f::2", 128), bucketWrites(app.flowLog.drain()));
        long[] c = app.programmer.bucketCounters();
        assertEquals("drained", 128, c[0]);
        assertEquals("forced", 0, c[1]);

        app.inventory.removeReplica(old);
        app.settle();
        assertEquals(List.of("- of:0000000000000002 endpoint.my_sid ipv6_dst=fc00:0:2:f::2/128 -> "
                                     + "end_t_int_sfc(vnf_id=2, vnf_mac=00:00:00:00:02:03, vnf_port=3) prio=128"),
                     app.flowLog.drain());
    }

    @Test
    public void aBusyDrainingBucketMovesAtTheDeadlineCounted() {
        app.deployFig5();
        VnfReplicaId old = VnfReplicaId.of(VnfKey.of(SFC2, 0), "r0");
        app.inventory.addReplica(VnfKey.of(SFC2, 0), "worker2");
        app.settle();
        app.inventory.drainReplica(old);
        app.settle();
        app.flowLog.drain();
        long packets = 0;
        for (long t = 0; t + 5_000 < org.srv6int.app.config.Srv6IntAppConfig.DEFAULT_DRAIN_DEADLINE_MS; t += 5_000) {
            app.nowMs.addAndGet(5_000);
            packets += 10;
            final long p = packets;
            app.flows.setPackets(e -> FlowEntries.chainAndBucket(e).isPresent(), p);
            app.settle();
        }
        assertEquals(Map.of(), bucketWrites(app.flowLog.drain()));
        app.nowMs.addAndGet(5_000);
        app.settle();
        assertEquals(Map.of("+ fc00:0:3:f::2", 128), bucketWrites(app.flowLog.drain()));
        assertEquals("forced", 128, app.programmer.bucketCounters()[1]);
    }

    /** Sets netcfg's loop section of the paper testbed's app config to the given fields. */
    private void loopKnobs(String fieldsJson) throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode json =
                (com.fasterxml.jackson.databind.node.ObjectNode) PaperTestbed.netcfg().get("apps")
                        .get("org.srv6int.app").get("srv6int").deepCopy();
        json.set("loop", new com.fasterxml.jackson.databind.ObjectMapper().readTree(fieldsJson));
        app.config.app = PaperTestbed.appConfig(json);
    }

    /** Scale-in of SFC 2's Snort r0 (worker1) after r1 (worker2) joined; returns after the drain began. */
    private void startScaleIn() {
        app.deployFig5();
        app.inventory.addReplica(VnfKey.of(SFC2, 0), "worker2");
        app.settle();
        app.inventory.drainReplica(VnfReplicaId.of(VnfKey.of(SFC2, 0), "r0"));
        app.settle();
        app.flowLog.drain();
    }

    /** Where the switches may still steer to SFC 2's Snort r0 (its SID fc00:0:2:f::2). */
    private Optional<String> steeringToR0() {
        return SidSteering.stillSteering(app.flows, PaperTestbed.SWITCHES, SFC2.tag(),
                                         org.onlab.packet.Ip6Address.valueOf("fc00:0:2:f::2"));
    }

    @Test
    public void aDrainedSidSteersUntilTheSwitchConfirmedItsBucketsMoved() {
        startScaleIn();
        assertEquals(Optional.of("of:0000000000000001: 128 bucket entries with fc00:0:2:f::2"),
                     steeringToR0());
        // The buckets' flows are gone: the programming moves them, the switch has not acknowledged yet
        // (it may still hold the old segment lists).
        app.flows.holdConfirmations(true);
        app.nowMs.addAndGet(org.srv6int.app.config.Srv6IntAppConfig.DEFAULT_DRAIN_IDLE_MS);
        app.settle();
        assertEquals(Map.of("+ fc00:0:3:f::2", 128), bucketWrites(app.flowLog.drain()));
        assertEquals(Optional.of("of:0000000000000001: 128 rewrites of chain " + SFC2.tag()
                + " not confirmed"), steeringToR0());
        // Unconfirmed rewrites of another chain's table are no concern of a replica of SFC 1.
        assertEquals(Optional.empty(), SidSteering.stillSteering(app.flows, PaperTestbed.SWITCHES,
                SFC1.tag(), org.onlab.packet.Ip6Address.valueOf("fc00:0:2:f::9")));
        app.flows.confirmAll();
        assertEquals(Optional.empty(), steeringToR0());
    }

    @Test
    public void drainIdleMsFromNetcfgFreesABucketSooner() throws IOException {
        loopKnobs("{\"drainIdleMs\": 3000}");
        startScaleIn();
        // r0's buckets carry flows for 10 s (past their hold since the install), then stand still
        for (int t = 1; t <= 5; t++) {
            app.nowMs.addAndGet(2_000);
            final long p = 100L * t;
            app.flows.setPackets(e -> FlowEntries.chainAndBucket(e).isPresent(), p);
            app.settle();
        }
        app.nowMs.addAndGet(2_000);
        app.settle();
        assertEquals("2 s without packets < 3 s", Map.of(), bucketWrites(app.flowLog.drain()));
        app.nowMs.addAndGet(1_000);
        app.settle();
        // 3 s still: moved (the default would wait 10 s)
        assertEquals(Map.of("+ fc00:0:3:f::2", 128), bucketWrites(app.flowLog.drain()));
        assertEquals("drained", 128, app.programmer.bucketCounters()[0]);
    }

    @Test
    public void drainDeadlineMsFromNetcfgForcesABusyBucketSooner() throws IOException {
        loopKnobs("{\"drainIdleMs\": 2000, \"drainDeadlineMs\": 15000}");
        startScaleIn();
        for (long t = 5_000; t <= 15_000; t += 5_000) {
            app.nowMs.addAndGet(5_000);
            final long p = t;
            app.flows.setPackets(e -> FlowEntries.chainAndBucket(e).isPresent(), p);
            app.settle();
            if (t < 15_000) {
                assertEquals("t=" + t, Map.of(), bucketWrites(app.flowLog.drain()));
            }
        }
        // at 15 s, not the default 60 s
        assertEquals(Map.of("+ fc00:0:3:f::2", 128), bucketWrites(app.flowLog.drain()));
        assertEquals("forced", 128, app.programmer.bucketCounters()[1]);
    }

    @Test
    public void bucketHoldMsFromNetcfgDecidesWhetherJustMovedBucketsMoveAgain() throws IOException {
        // hold 0: the buckets r1 just took go back to r0 as soon as they are idle
        loopKnobs("{\"drainIdleMs\": 1000, \"bucketHoldMs\": 0}");
        assertEquals(Map.of("+ fc00:0:2:f::2", 128), drainTheNewReplicaAfter(2_000));
        assertEquals("held", 0, app.programmer.bucketCounters()[3]);
        setUp();
        // default hold (10 s): idle too, but they moved 2 s ago: held, counted, until the hold ends
        loopKnobs("{\"drainIdleMs\": 1000}");
        assertEquals(Map.of(), drainTheNewReplicaAfter(2_000));
        assertEquals("held", 128, app.programmer.bucketCounters()[3]);
        app.nowMs.addAndGet(8_000);
        app.settle();
        assertEquals(Map.of("+ fc00:0:2:f::2", 128), bucketWrites(app.flowLog.drain()));
    }

    /** r1 joins SFC 2's Snort (taking 128 buckets at once), then drains at once; the writes after a while. */
    private Map<String, Integer> drainTheNewReplicaAfter(long ms) {
        app.deployFig5();
        VnfReplica r1 = app.inventory.addReplica(VnfKey.of(SFC2, 0), "worker2");
        app.settle();
        app.flowLog.drain();
        app.inventory.drainReplica(r1.id());
        app.settle();
        app.nowMs.addAndGet(ms);
        app.settle();
        return bucketWrites(app.flowLog.drain());
    }

    @Test
    public void removingChainsLeavesNothingOfThemBehind() throws IOException {
        List<String> empty = new ArrayList<>();
        app.settle();
        empty.addAll(state());
        app.deployFig5();
        app.inventory.addReplica(VnfKey.of(SFC2, 0), "worker2");
        app.settle();
        app.sfcs.removeSfc(SFC1);
        app.sfcs.removeSfc(SFC2);
        app.settle();
        assertEquals(empty, state());
        assertTrue(app.inventory.getReplicas().isEmpty());
    }

    @Test
    public void removingTheNetcfgRemovesEverything() {
        app.deployFig5();
        app.settle();
        app.config.devices = new org.srv6int.app.config.Srv6Devices(Map.of());
        app.pathManager.invalidate();
        app.settle();
        assertEquals(List.of(), state());
    }

    @Test
    public void eachInstanceProgramsOnlyTheSwitchesItMasters() throws IOException {
        // instance A masters SW1 (the ingress), instance B the rest; same switches, same stores
        AppHarness b = new AppHarness(new org.srv6int.testkit.InMemoryStorageService(), app.flows,
                                      app.groups);
        app.mastered.retainAll(List.of(PaperTestbed.SW1));
        b.mastered.removeAll(List.of(PaperTestbed.SW1));
        app.deployFig5();
        b.deployFig5();

        app.settle();
        assertTrue(app.flows.entries().stream().allMatch(e -> e.deviceId().equals(PaperTestbed.SW1)));
        assertTrue("SW1 must not point traffic at SIDs nobody installed yet", app.flows.entries().stream()
                .noneMatch(e -> FlowEntries.chainAndBucket(e).isPresent()
                        && FlowEntries.travel(e).stream().anyMatch(a -> a.toString().contains(":f::"))));

        b.settle();
        app.settle();
        assertEquals(golden("paper-testbed-sfc1-sfc2.txt", state()), state());
    }

    /** netcfg collector.truncateBytes is what every switch truncates its INT report copies to. */
    @Test
    public void truncateBytesReachesEveryReportConfiguration() {
        app.deployFig5();
        app.settle();
        List<String> before = state().stream().filter(l -> l.contains("report.report_config"))
                .collect(Collectors.toList());
        assertFalse(before.isEmpty());
        assertTrue(before.toString(), before.stream().allMatch(l -> l.contains("trunc_len=256")));
        com.fasterxml.jackson.databind.node.ObjectNode json =
                (com.fasterxml.jackson.databind.node.ObjectNode) PaperTestbed.netcfg().get("apps")
                        .get("org.srv6int.app").get("srv6int").deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("collector")).put("truncateBytes", 128);
        app.config.app = PaperTestbed.appConfig(json);
        app.programmer.reconcile();
        app.flows.confirmAll();
        app.settle();
        List<String> reports = state().stream().filter(l -> l.contains("report.report_config"))
                .collect(Collectors.toList());
        assertEquals(before.size(), reports.size());
        assertTrue(reports.toString(), reports.stream().allMatch(l -> l.contains("trunc_len=128")));
    }
}
