package org.srv6int.app.program;

import org.junit.Before;
import org.junit.Test;
import org.onosproject.net.group.Group;
import org.srv6int.app.api.VnfKey;
import org.srv6int.app.api.VnfReplica;
import org.srv6int.app.api.VnfReplicaId;
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

    /** Every flow rule and group on every switch, one line each, sorted. */
    private List<String> state() {
        List<String> lines = new ArrayList<>();
        app.flows.entries().forEach(e -> lines.add("rule  " + Rules.describe(e)));
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
            java.nio.file.Files.write(java.nio.file.Paths.get(regen, name), actual);
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

    @Test
    public void addingSnortReplicaOnWorker2ChangesExactlyTwoThings() throws IOException {
        app.deployFig5();
        app.settle();
        app.flowLog.drain();
        app.groupLog.drain();
        // the switches acknowledge only when told: shows the group waits for the new SID entry
        app.flows.holdConfirmations(true);

        VnfReplica added = app.inventory.addReplica(VnfKey.of(SFC2, 0), "worker2");
        assertEquals("r1", added.id().name());
        assertEquals(PaperTestbed.SW3, added.deviceId());
        assertEquals("fc00:0:3:f::2", added.sid().toString());

        app.programmer.reconcile();
        assertEquals(List.of("+ of:0000000000000003 endpoint.my_sid ipv6_dst=fc00:0:3:f::2/128 -> "
                                     + "end_t_int_sfc(vnf_id=2, vnf_mac=00:00:00:00:03:03, vnf_port=3) prio=128"),
                     app.flowLog.drain());
        assertEquals("make-before-break: the group must wait for the new SID entry", List.of(),
                     app.groupLog.drain());
        app.programmer.reconcile();
        assertEquals(List.of(), app.groupLog.drain());

        app.flows.confirmAll();
        app.settle();
        assertEquals(List.of(), app.flowLog.drain());
        List<String> groupOps = app.groupLog.drain();
        assertEquals(golden("paper-testbed-snort-scale-out.txt", groupOps), groupOps);
    }

    @Test
    public void drainThenRemoveMovesTrafficBeforeRemovingTheOldReplica() throws IOException {
        app.deployFig5();
        VnfReplicaId old = VnfReplicaId.of(VnfKey.of(SFC2, 0), "r0");
        app.inventory.addReplica(VnfKey.of(SFC2, 0), "worker2");
        app.settle();
        app.flowLog.drain();
        app.groupLog.drain();

        app.inventory.drainReplica(old);
        app.settle();
        assertEquals("draining keeps the old SID entry", List.of(), app.flowLog.drain());
        List<String> groupOps = app.groupLog.drain();
        assertEquals(1, groupOps.size());
        assertFalse(groupOps.get(0).contains("fc00:0:2:f::2"));
        assertTrue(groupOps.get(0).contains("fc00:0:3:f::2"));

        app.inventory.removeReplica(old);
        app.settle();
        assertEquals(List.of("- of:0000000000000002 endpoint.my_sid ipv6_dst=fc00:0:2:f::2/128 -> "
                                     + "end_t_int_sfc(vnf_id=2, vnf_mac=00:00:00:00:02:03, vnf_port=3) prio=128"),
                     app.flowLog.drain());
        assertEquals(List.of(), app.groupLog.drain());
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
        app.config.devices = new org.srv6int.app.config.Srv6Devices(java.util.Map.of());
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
        assertTrue("SW1 must not point traffic at SIDs nobody installed yet", app.groups.groups().stream()
                .noneMatch(g -> g.type() == org.onosproject.net.group.GroupDescription.Type.SELECT));

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
