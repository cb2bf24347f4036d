// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.Before;
import org.junit.Test;
import org.onlab.osgi.TestServiceDirectory;
import org.srv6int.app.api.ChainOwnershipService;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfTelemetry;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.FakeGlobalLoopService;
import org.srv6int.app.testing.FakeTelemetryService;
import org.srv6int.app.testing.PaperTestbed;

import javax.ws.rs.client.Entity;
import javax.ws.rs.client.WebTarget;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Every REST endpoint, in Jersey over Jetty, against the real chain,
 * inventory and path managers on the paper's testbed (fake telemetry and
 * loop services).
 */
public class Srv6IntRestTest extends JerseyResourceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AppHarness app;
    private FakeTelemetryService telemetry;
    private FakeGlobalLoopService loop;

    private final Map<SfcId, String> owners = new HashMap<>();

    public Srv6IntRestTest() {
        super(ResourceConfig.forApplicationClass(Srv6IntWebApplication.class));
    }

    @Before
    public void setUpServices() {
        app = new AppHarness();
        telemetry = new FakeTelemetryService();
        loop = new FakeGlobalLoopService();
        setServiceDirectory(new TestServiceDirectory()
                                    .add(SfcService.class, app.sfcs)
                                    .add(VnfInventoryService.class, app.inventory)
                                    .add(SfcPathService.class, app.pathManager)
                                    .add(TelemetryService.class, telemetry)
                                    .add(GlobalLoopService.class, loop)
                                    .add(ChainOwnershipService.class,
                                         (ChainOwnershipService) id -> Optional.ofNullable(owners.get(id))));
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = Srv6IntRestTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static JsonNode json(Response r) throws IOException {
        return MAPPER.readTree(r.readEntity(String.class));
    }

    private Response post(String path, String body) {
        return target(path).request().post(Entity.json(body));
    }

    private void assertError(Response r, int code, String field) throws IOException {
        JsonNode e = json(r);
        assertEquals(e.toString(), code, r.getStatus());
        assertEquals(code, e.get("code").asInt());
        if (field != null) {
            assertEquals(field, e.path("field").asText());
        }
        assertFalse(e.get("message").asText().isEmpty());
    }

    @Test
    public void createGetListDeleteChain() throws IOException {
        Response r = post("sfcs", fixture("sfc1.json"));
        assertEquals(201, r.getStatus());
        assertTrue(r.getLocation().getPath().endsWith("/sfcs/1"));
        assertEquals(PaperTestbed.sfc1().classifier(), app.sfcs.getSfc(PaperTestbed.SFC1).get().classifier());

        JsonNode one = json(target("sfcs/1").request().get());
        assertEquals("sfc1", one.get("name").asText());
        assertEquals("of:0000000000000001/1", one.get("ingress").asText());
        assertEquals(5001, one.get("classifier").get("l4DstPort").asInt());
        assertEquals("ndpi", one.get("vnfs").get(1).get("type").asText());

        JsonNode all = json(target("sfcs").request().get());
        assertEquals(1, all.get("sfcs").size());

        assertEquals(204, target("sfcs/1").request().delete().getStatus());
        assertTrue(app.sfcs.getSfcs().isEmpty());
        assertError(target("sfcs/1").request().delete(), 404, null);
    }

    @Test
    public void duplicateChainIs409() throws IOException {
        assertEquals(201, post("sfcs", fixture("sfc1.json")).getStatus());
        assertError(post("sfcs", fixture("sfc1.json")), 409, null);
    }

    @Test
    public void badBodiesAre400NamingTheField() throws IOException {
        assertError(post("sfcs", "{not json"), 400, "");
        assertError(post("sfcs", "[1,2]"), 400, "");
        assertError(post("sfcs", "{}"), 400, "id");
        assertError(post("sfcs", fixture("sfc1.json").replace("\"id\": 1", "\"id\": 70000")), 400, "id");
        assertError(post("sfcs", fixture("sfc1.json").replace("\"id\": 1", "\"id\": \"one\"")), 400, "id");
        assertError(post("sfcs", fixture("sfc1.json").replace("of:0000000000000001/1", "nowhere")), 400,
                    "ingress");
        assertError(post("sfcs", fixture("sfc-bad-lmax.json")), 400, "vnfs[1].lmaxNs");
        assertError(post("sfcs", fixture("sfc-bad-prefix.json")), 400, "classifier.srcPrefix");
        assertError(post("sfcs", fixture("sfc-mixed-versions.json")), 400, "classifier.dstPrefix");
        assertError(post("sfcs", fixture("sfc-unknown-device.json")), 400, "ingress");
        assertError(post("sfcs", fixture("sfc1.json").replace("\"intSamplingRate\": 1",
                                                              "\"intSamplingRate\": 0")), 400, "intSamplingRate");
        assertTrue("a rejected body changes nothing", app.sfcs.getSfcs().isEmpty());
    }

    @Test
    public void unknownAndMalformedIds() throws IOException {
        assertError(target("sfcs/9").request().get(), 404, null);
        assertError(target("sfcs/abc").request().get(), 400, "id");
        assertError(target("sfcs/9/paths").request().get(), 404, null);
        assertError(target("sfcs/9/replicas").request().get(), 404, null);
    }

    @Test
    public void updateChain() throws IOException {
        post("sfcs", fixture("sfc1.json"));
        String renamed = fixture("sfc1.json").replace("\"sfc1\"", "\"renamed\"");
        Response r = target("sfcs/1").request().put(Entity.json(renamed));
        assertEquals(200, r.getStatus());
        assertEquals("renamed", app.sfcs.getSfc(PaperTestbed.SFC1).get().name());
        assertError(target("sfcs/2").request().put(Entity.json(renamed)), 400, "id");
        assertError(target("sfcs/2").request().put(Entity.json(renamed.replace("\"id\": 1", "\"id\": 2"))),
                    404, null);
    }

    /**
     * A chain declared by a ServiceFunctionChain object is changed only through it: PUT and DELETE
     * answer 409 naming the object and change nothing; a REST-made chain stays REST's.
     */
    @Test
    public void aChainDeclaredByAKubernetesObjectIsNotChangedThroughRest() throws IOException {
        post("sfcs", fixture("sfc1.json"));
        owners.put(PaperTestbed.SFC1, "srv6int-sfc/sfc1");
        String renamed = fixture("sfc1.json").replace("\"sfc1\"", "\"renamed\"");
        Response put = target("sfcs/1").request().put(Entity.json(renamed));
        assertEquals(409, put.getStatus());
        String body = put.readEntity(String.class);
        assertTrue(body, body.contains("chain 1 is declared by ServiceFunctionChain srv6int-sfc/sfc1"));
        Response del = target("sfcs/1").request().delete();
        assertEquals(409, del.getStatus());
        assertEquals("sfc1", app.sfcs.getSfc(PaperTestbed.SFC1).get().name());
        Response pause = target("loop/chains/1/pause").request().post(Entity.json(""));
        assertEquals(409, pause.getStatus());
        assertTrue(loop.paused.isEmpty());
        owners.remove(PaperTestbed.SFC1);
        assertEquals(204, target("sfcs/1").request().delete().getStatus());
    }

    @Test
    public void replicasAndPaths() throws IOException {
        post("sfcs", fixture("sfc1.json"));
        Response r = post("vnfs/1/0/replicas", "{\"node\": \"worker1\"}");
        assertEquals(201, r.getStatus());
        assertTrue(r.getLocation().getPath().endsWith("/vnfs/1/0/replicas/r0"));
        JsonNode rep = json(r);
        assertEquals("fc00:0:2:f::1", rep.get("sid").asText());
        assertEquals("of:0000000000000002", rep.get("deviceId").asText());
        assertEquals(201, post("vnfs/1/1/replicas", "{\"node\": \"worker2\"}").getStatus());

        JsonNode paths = json(target("sfcs/1/paths").request().get());
        JsonNode list = paths.get("segmentLists").get(0);
        assertEquals("[\"fc00:0:1::1\",\"fc00:0:2:f::1\",\"fc00:0:3:f::1\",\"fc00:0:4::d\"]",
                     list.get("segments").toString());
        assertEquals(4, list.get("switchPath").size());

        JsonNode vnfs = json(target("vnfs").request().get());
        assertEquals(2, vnfs.get("vnfs").size());
        assertEquals("worker2", vnfs.get("vnfs").get(1).get("replicas").get(0).get("node").asText());
        assertEquals(2, json(target("sfcs/1/replicas").request().get()).get("replicas").size());
        assertEquals("ACTIVE", json(target("vnfs/1/0/replicas/r0").request().get()).get("state").asText());

        Response drained = target("vnfs/1/0/replicas/r0/drain").request().post(Entity.json(""));
        assertEquals(200, drained.getStatus());
        assertEquals("DRAINING", json(drained).get("state").asText());
        assertEquals(204, target("vnfs/1/0/replicas/r0").request().delete().getStatus());
        assertError(target("vnfs/1/0/replicas/r0").request().get(), 404, null);
    }

    @Test
    public void badReplicaRequests() throws IOException {
        post("sfcs", fixture("sfc1.json"));
        assertError(post("vnfs/1/0/replicas", "{}"), 400, "node");
        assertError(post("vnfs/1/0/replicas", "{\"node\": 5}"), 400, "node");
        assertError(post("vnfs/1/0/replicas", "{\"node\": \"worker9\"}"), 400, "node");
        assertError(post("vnfs/1/5/replicas", "{\"node\": \"worker1\"}"), 404, null);
        assertError(post("vnfs/3/0/replicas", "{\"node\": \"worker1\"}"), 404, null);
        assertError(post("vnfs/1/x/replicas", "{\"node\": \"worker1\"}"), 400, "index");
        assertError(target("vnfs/1/0/replicas/R_0").request().delete(), 400, "name");
        assertTrue(app.inventory.getReplicas().isEmpty());
    }

    @Test
    public void telemetry() throws IOException {
        post("sfcs", fixture("sfc1.json"));
        telemetry.counters.put(TelemetryService.REPORTS_RECEIVED, 42L);
        telemetry.sfcs.put(PaperTestbed.SFC1, new SfcTelemetry(PaperTestbed.SFC1, 1000.0, 450_000, 3, 42, 99));
        telemetry.vnfs.put(VnfKey.of(PaperTestbed.SFC1, 0),
                           new VnfTelemetry(VnfKey.of(PaperTestbed.SFC1, 0), 1000.0, 120_000, 2, 40, 99));
        assertEquals(42, json(target("telemetry").request().get()).get("counters").get("reportsReceived").asInt());
        JsonNode t = json(target("telemetry/sfcs/1").request().get());
        assertEquals(450_000, t.get("sfc").get("p95E2eLatencyNs").asLong());
        assertEquals("1/0", t.get("vnfs").get(0).get("vnf").asText());
        assertError(target("telemetry/sfcs/2").request().get(), 404, null);
    }

    @Test
    public void interferenceMatrixWholeOrOneTargetAndABadTargetIs400() throws IOException {
        loop.interference.observe(org.srv6int.app.api.model.VnfClass.FLOW_MONITORING,
                                  org.srv6int.app.api.model.VnfClass.PORT_REWRITING, 0.2);
        JsonNode all = json(target("loop/interference").request().get());
        assertEquals("payload inspection", all.get("classes").get("III").asText());
        assertEquals(5, all.get("targets").size());
        assertEquals(0.8541, all.get("targets").get("I").get("III").get("normalized").asDouble(), 1e-9);
        JsonNode ii = json(target("loop/interference").queryParam("target", "II").request().get());
        assertEquals(1, ii.get("targets").size());
        JsonNode cell = ii.get("targets").get("II").get("V");
        assertEquals(0.3642, cell.get("paper").asDouble(), 1e-9);
        assertEquals(0.3 * 0.2 + 0.7 * 0.3642, cell.get("normalized").asDouble(), 1e-4);
        assertEquals(1, cell.get("samples").asLong());
        assertError(target("loop/interference").queryParam("target", "VII").request().get(), 400, "target");
    }

    @Test
    public void loopStatusAndDecisions() throws IOException {
        loop.decisions.add(new LoopDecision(1000, VnfKey.of(PaperTestbed.SFC2, 0),
                                            Map.of(LoopDecision.IN_LATENCY, 7.0e6), LoopDecision.Action.SCALE_OUT,
                                            1, 2, LoopDecision.Outcome.SUCCEEDED, ""));
        JsonNode s = json(target("loop/status").request().get());
        assertEquals(4000, s.get("tHatMs").asLong());
        assertTrue(s.get("leader").asBoolean());
        JsonNode d = json(target("loop/decisions").queryParam("limit", 10).request().get());
        assertEquals("SCALE_OUT", d.get("decisions").get(0).get("action").asText());
        assertEquals(7.0e6, d.get("decisions").get(0).get("inputs").get("L_i").asDouble(), 0);
        assertError(target("loop/decisions").queryParam("limit", 0).request().get(), 400, "limit");
        assertError(target("loop/decisions").queryParam("limit", "many").request().get(), 400, "limit");
    }

    @Test
    public void chainStatesShowTheLastHopSeenAndTheCounters() throws IOException {
        loop.chainStates.add(new org.srv6int.app.api.model.ChainState(
                PaperTestbed.SFC1, org.srv6int.app.api.model.ChainState.Liveness.DOWN, 9_000,
                "vNF 0 (r0 at of:0000000000000002/3)",
                        "ingress classified traffic but no INT report arrived for 3000 ms",
                1200, 5_000, List.of("1/1/r0")));
        loop.failureCounters.put("chainsDownNow", 1L);
        JsonNode j = json(target("loop/chains").request().get());
        JsonNode c = j.get("chains").get(0);
        assertEquals(1, c.get("sfcId").asInt());
        assertEquals("DOWN", c.get("state").asText());
        assertEquals("vNF 0 (r0 at of:0000000000000002/3)", c.get("lastHopSeen").asText());
        assertEquals(1200, c.get("classifiedPackets").asLong());
        assertEquals("1/1/r0", c.get("deadReplicas").get(0).asText());
        assertEquals(1, j.get("counters").get("chainsDownNow").asInt());
    }

    @Test
    public void missingCollectorIs503() throws IOException {
        setServiceDirectory(new TestServiceDirectory().add(SfcService.class, app.sfcs));
        WebTarget t = target("loop/status");
        assertError(t.request().get(), 503, null);
        assertError(target("telemetry").request().get(), 503, null);
    }
}
