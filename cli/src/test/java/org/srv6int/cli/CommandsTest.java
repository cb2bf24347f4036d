// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.osgi.TestServiceDirectory;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.ChainOwnershipService;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfTelemetry;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.FakeGlobalLoopService;
import org.srv6int.app.testing.FakeTelemetryService;
import org.srv6int.app.testing.PaperTestbed;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Runs every command against the app's real chain, inventory and path
 * managers on the paper's testbed (fake telemetry and loop services),
 * checking what it prints, plain and with -j.
 */
public class CommandsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AppHarness app;
    private FakeTelemetryService telemetry;
    private FakeGlobalLoopService loop;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream oldOut;
    private PrintStream oldErr;
    private final Map<SfcId, String> owners = new HashMap<>();

    @Before
    public void setUp() {
        app = new AppHarness();
        telemetry = new FakeTelemetryService();
        loop = new FakeGlobalLoopService();
        Srv6IntCommand.testServices = new TestServiceDirectory()
                .add(SfcService.class, app.sfcs)
                .add(VnfInventoryService.class, app.inventory)
                .add(SfcPathService.class, app.pathManager)
                .add(TelemetryService.class, telemetry)
                .add(GlobalLoopService.class, loop)
                .add(ChainOwnershipService.class, (ChainOwnershipService) id -> Optional.ofNullable(owners.get(id)));
        oldOut = System.out;
        oldErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @After
    public void tearDown() {
        System.setOut(oldOut);
        System.setErr(oldErr);
        Srv6IntCommand.testServices = null;
    }

    private String run(Srv6IntCommand cmd, boolean json) throws Exception {
        out.reset();
        err.reset();
        cmd.testJson = json;
        cmd.doExecute();
        return out.toString(StandardCharsets.UTF_8);
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private SfcAddCommand add(String id, String dport, String... vnfs) {
        SfcAddCommand c = new SfcAddCommand();
        c.id = id;
        c.ingress = "of:0000000000000001/1";
        c.egress = "of:0000000000000004/2";
        c.src = "10.0.1.0/24";
        c.dst = "10.0.4.0/24";
        c.proto = 17;
        c.dport = Integer.parseInt(dport);
        c.vnfs = List.of(vnfs);
        return c;
    }

    @Test
    public void sfcAddListAndRemove() throws Exception {
        assertEquals("Added chain 1\n", run(add("1", "5001", "fwd:1000000", "ndpi:1000000"), false));
        assertEquals(PaperTestbed.sfc1().vnfs(), app.sfcs.getSfc(PaperTestbed.SFC1).get().vnfs());

        String list = run(new SfcsCommand(), false);
        assertTrue(list, list.contains("id=1, name=sfc-1, ingress=of:0000000000000001/1"));
        assertTrue(list, list.contains("vnfs=[fwd, ndpi]"));
        JsonNode json = MAPPER.readTree(run(new SfcsCommand(), true));
        assertEquals(5001, json.get(0).get("classifier").get("l4DstPort").asInt());

        SfcRemoveCommand rm = new SfcRemoveCommand();
        rm.id = "1";
        assertEquals("Removed chain 1\n", run(rm, false));
        assertTrue(app.sfcs.getSfcs().isEmpty());
        run(rm, false);
        assertTrue(errors(), errors().contains("Error: chain 1 not found"));
    }

    /** A chain declared by a ServiceFunctionChain object is not removed by the CLI; the error names it. */
    @Test
    public void sfcRemoveRefusesAChainDeclaredByAKubernetesObject() throws Exception {
        app.deployFig5();
        owners.put(org.srv6int.app.testing.PaperTestbed.SFC2, "srv6int-sfc/sfc2");
        SfcRemoveCommand rm = new SfcRemoveCommand();
        rm.id = "2";
        run(rm, false);
        assertTrue(errors(), errors().contains("chain 2 is declared by ServiceFunctionChain srv6int-sfc/sfc2"));
        assertTrue(app.sfcs.getSfc(org.srv6int.app.testing.PaperTestbed.SFC2).isPresent());
        LoopPauseCommand pause = new LoopPauseCommand();
        pause.id = "2";
        run(pause, false);
        assertTrue(errors(), errors().contains("chain 2 is declared by ServiceFunctionChain srv6int-sfc/sfc2"));
        assertTrue(loop.paused.isEmpty());
        rm.id = "1";
        assertEquals("Removed chain 1\n", run(rm, false));
    }

    @Test
    public void sfcAddRejectsBadArgumentsAndChangesNothing() throws Exception {
        run(add("0", "5001"), false);
        assertTrue(errors(), errors().contains("chain id must be"));
        run(add("1", "5001", "fwd"), false);
        assertTrue(errors(), errors().contains("vNF must be type:LmaxNs"));
        run(add("1", "5001", "fwd:soon"), false);
        assertTrue(errors(), errors().contains("must be a number of ns"));
        SfcAddCommand bad = add("1", "5001");
        bad.egress = "of:00000000000000aa/1";
        run(bad, false);
        assertTrue(errors(), errors().contains("has no srv6int device config"));
        assertTrue(app.sfcs.getSfcs().isEmpty());
    }

    @Test
    public void loopPauseAndResumeOneChain() throws Exception {
        LoopPauseCommand p = new LoopPauseCommand();
        p.id = "2";
        assertEquals("Global loop paused for chain 2; paused chains: [2]\n", run(p, false));
        assertTrue(run(new LoopStatusCommand(), false).contains("paused chains: [2]"));
        LoopResumeCommand r = new LoopResumeCommand();
        r.id = "2";
        assertEquals("Global loop resumed for chain 2; paused chains: []\n", run(r, false));
        r.id = "x";
        run(r, false);
        assertTrue(errors(), errors().contains("Error:"));
        p.id = "999";
        run(p, false);
        assertTrue(errors(), errors().contains("Error: chain 999 not found"));
        assertTrue(loop.paused.isEmpty());
    }

    @Test
    public void replicasAddDrainRemoveByHand() throws Exception {
        app.deployFig5();
        ReplicaAddCommand add = new ReplicaAddCommand();
        add.sfc = "2";
        add.index = "0";
        add.node = "worker2";
        String added = run(add, false);
        assertTrue(added + errors(), added.startsWith("Added replica=2/0/"));
        assertEquals(2, app.inventory.getReplicas(VnfKey.of(PaperTestbed.SFC2, 0)).size());
        String name = added.substring("Added replica=".length(), added.indexOf(','));
        assertTrue(new ReplicaIdCompleter().choices().contains(name));

        ReplicaDrainCommand drain = new ReplicaDrainCommand();
        drain.replica = name;
        JsonNode d = MAPPER.readTree(run(drain, true));
        assertEquals(0, d.get("weight").asInt());
        assertEquals("DRAINING", d.get("state").asText());

        ReplicaRemoveCommand rm = new ReplicaRemoveCommand();
        rm.replica = name;
        assertTrue(run(rm, false).startsWith("Removed replica=" + name));
        assertEquals(1, app.inventory.getReplicas(VnfKey.of(PaperTestbed.SFC2, 0)).size());

        // Bad arguments: one clear line, nothing changed.
        add.index = "first";
        run(add, false);
        assertTrue(errors(), errors().contains("Error: vNF index must be a number, got first"));
        rm.replica = "2-0-r9";
        run(rm, false);
        assertTrue(errors(), errors().contains("Error: replica id must look like <chain>/<index>/<name>"));
        rm.replica = "2/0/r9";
        run(rm, false);
        assertTrue(errors(), errors().contains("Error:"));
        assertEquals(1, app.inventory.getReplicas(VnfKey.of(PaperTestbed.SFC2, 0)).size());
    }

    @Test
    public void pathsAndVnfs() throws Exception {
        app.deployFig5();
        SfcPathsCommand p = new SfcPathsCommand();
        p.id = "1";
        String text = run(p, false);
        assertTrue(text, text.contains("weight=1/1, segments=[fc00:0:1::1, fc00:0:2:f::1, fc00:0:3:f::1, "
                                               + "fc00:0:4::d]"));
        JsonNode j = MAPPER.readTree(run(p, true));
        assertEquals(4, j.get("segmentLists").get(0).get("switchPath").size());
        p.id = "9";
        run(p, false);
        assertTrue(errors(), errors().contains("chain 9 not found"));

        VnfsCommand v = new VnfsCommand();
        String all = run(v, false);
        assertEquals(all, 3, all.split("\n").length);
        assertTrue(all, all.contains("replica=2/0/r0, node=worker1, location=of:0000000000000002/3, "
                                             + "sid=fc00:0:2:f::2, state=ACTIVE, weight=1"));
        v.id = "2";
        JsonNode reps = MAPPER.readTree(run(v, true));
        assertEquals(1, reps.size());
        assertEquals("fc00:0:2:f::2", reps.get(0).get("sid").asText());
    }

    @Test
    public void intStats() throws Exception {
        app.deployFig5();
        telemetry.counters.put(TelemetryService.REPORTS_RECEIVED, 12L);
        telemetry.sfcs.put(PaperTestbed.SFC2, new SfcTelemetry(PaperTestbed.SFC2, 2000, 7_000_000, 40, 12, 5));
        telemetry.vnfs.put(VnfKey.of(PaperTestbed.SFC2, 0),
                           new VnfTelemetry(VnfKey.of(PaperTestbed.SFC2, 0), 2000, 6_500_000, 40, 12, 5));
        IntStatsCommand c = new IntStatsCommand();
        String text = run(c, false);
        assertTrue(text, text.contains("chain 1: no INT report yet"));
        assertTrue(text, text.contains("chain 2: 2000 pps, p95 E2E 7000000 ns, max queue 40, reports 12"));
        assertTrue(text, text.contains("vnf 2/0 (snort): 2000 pps, p95 6500000 ns (Lmax 1000000)"));
        c.id = "2";
        JsonNode j = MAPPER.readTree(run(c, true));
        assertEquals(12, j.get("counters").get("reportsReceived").asInt());
        assertEquals(1, j.get("sfcs").size());
        assertEquals(6_500_000, j.get("sfcs").get(0).get("vnfs").get(0).get("p95LatencyNs").asLong());
    }

    @Test
    public void loopStatusAndDecisions() throws Exception {
        loop.decisions.add(new LoopDecision(25_000, VnfKey.of(PaperTestbed.SFC2, 0),
                                            Map.of(LoopDecision.IN_LATENCY, 7.0e6), LoopDecision.Action.SCALE_OUT,
                                            1, 2, LoopDecision.Outcome.SUCCEEDED, ""));
        String s = run(new LoopStatusCommand(), false);
        assertTrue(s, s.contains("enabled=true, leader=true (runs on node1), t-hat=4000 ms"));
        assertEquals(4000, MAPPER.readTree(run(new LoopStatusCommand(), true)).get("tHatMs").asLong());

        LoopDecisionsCommand d = new LoopDecisionsCommand();
        String text = run(d, false);
        assertTrue(text, text.contains("time=25000, vnf=2/0, action=SCALE_OUT, replicas 1->2, outcome=SUCCEEDED"));
        assertEquals("SCALE_OUT", MAPPER.readTree(run(d, true)).get(0).get("action").asText());
        d.limit = 0;
        run(d, false);
        assertTrue(errors(), errors().contains("--limit must be in 1..1000"));
    }

    @Test
    public void loopInterferenceShowsTheMatrixAndRefusesABadClass() throws Exception {
        LoopInterferenceCommand c = new LoopInterferenceCommand();
        String text = run(c, false);
        assertTrue(text, text.contains("III") && text.contains(" 85.4% ( 85.4%) [   0]"));
        assertTrue(text, text.contains("V    header+port rewriting"));
        c.target = "iv";
        assertEquals(1, MAPPER.readTree(run(c, true)).get("targets").size());
        c.target = "seven";
        run(c, false);
        assertTrue(errors(), errors().contains("vNF class must be one of I, II, III, IV, V"));
    }

    @Test
    public void loopChainsShowsLivenessAndCounters() throws Exception {
        loop.chainStates.add(new ChainState(PaperTestbed.SFC1, ChainState.Liveness.DOWN, 9_000,
                                            "vNF 0 (r0 at of:0000000000000002/3)",
                                            "ingress classified traffic but no INT report arrived for 3000 ms", 1200,
                                            5_000, List.of()));
        loop.chainStates.add(new ChainState(PaperTestbed.SFC2, ChainState.Liveness.UP, 1_000, "", "", -1, 8_000,
                                            List.of("2/0/w2")));
        loop.failureCounters.put("chainDowns", 1L);
        String text = run(new LoopChainsCommand(), false);
        assertTrue(text, text.contains("chain 1: DOWN since 9000 (ingress classified traffic but no INT report "
                + "arrived for 3000 ms; last hop seen: vNF 0 (r0 at of:0000000000000002/3)), ingress classified 1200"));
        assertTrue(text, text.contains("chain 2: UP since 1000, ingress counter unreadable, dead replicas [2/0/w2]"));
        assertTrue(text, text.contains("counters: {chainDowns=1}"));
        JsonNode j = MAPPER.readTree(run(new LoopChainsCommand(), true));
        assertEquals("DOWN", j.get("chains").get(0).get("state").asText());
        assertEquals("vNF 0 (r0 at of:0000000000000002/3)", j.get("chains").get(0).get("lastHopSeen").asText());
        assertEquals(1, j.get("counters").get("chainDowns").asInt());
    }

    @Test
    public void loopPoolsShowsEachNodesReportWithItsAge() throws Exception {
        long[] now = {100_000};
        org.srv6int.app.pools.NodePoolManager pools = new org.srv6int.app.pools.NodePoolManager(
                new org.srv6int.testkit.InMemoryStorageService(), n -> true, () -> now[0], 15_000);
        pools.report("worker2", List.of(new org.srv6int.app.api.model.NodePools.Pool(
                org.srv6int.app.api.model.NodePools.WHOLE_NODE, 3250, 500, 10_000, 1, 2, 11, 0, 20, 100)));
        now[0] += 20_000;
        Srv6IntCommand.testServices = new TestServiceDirectory()
                .add(org.srv6int.app.api.NodePoolService.class, pools);
        String text = run(new LoopPoolsCommand(), false);
        assertTrue(text, text.contains("worker2: cpu 3250+500m, llc 1+2 ways, mb 0+20 %; 20000 ms old "
                + "(stale: placement by CPU only)"));
        assertTrue(text, text.contains("reports accepted 1, malformed 0, unknown node 0"));
        JsonNode j = MAPPER.readTree(run(new LoopPoolsCommand(), true));
        assertEquals(2, j.at("/nodes/0/pools/0/llcWays/reclaimable").asInt());
        assertFalse(j.at("/nodes/0/fresh").asBoolean());
    }

    @Test
    public void missingServiceIsAClearError() throws Exception {
        Srv6IntCommand.testServices = new TestServiceDirectory().add(SfcService.class, app.sfcs);
        run(new LoopStatusCommand(), false);
        assertTrue(errors(), errors().contains("GlobalLoopService is not running"));
    }

    @Test
    public void sfcIdCompleterListsChains() {
        app.deployFig5();
        assertEquals(List.of("1", "2"), new SfcIdCompleter().choices());
    }
}
