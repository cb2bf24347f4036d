// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.Before;
import org.junit.Test;
import org.onlab.osgi.TestServiceDirectory;
import org.srv6int.app.api.AgentAuthService;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.testing.FakeGlobalLoopService;
import org.srv6int.agent.obs.EscalationClient;

import javax.ws.rs.client.Entity;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The escalation joint: the node agent's real {@link EscalationClient} POSTs to the app's real
 * resource ({@code loop/escalations}) served by Jersey on Jetty; the resource hands it to the
 * global loop service. Bad bodies are 400 naming the field and reach nothing.
 */
public class EscalationRestTest extends JerseyResourceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private FakeGlobalLoopService loop;
    private final FakeAgentTokens tokens = new FakeAgentTokens();

    public EscalationRestTest() {
        super(ResourceConfig.forApplicationClass(Srv6IntWebApplication.class));
    }

    @Before
    public void setUpServices() {
        loop = new FakeGlobalLoopService();
        setServiceDirectory(new TestServiceDirectory().add(GlobalLoopService.class, loop)
                .add(AgentAuthService.class, tokens.auth));
    }

    @Test
    public void agentClientReachesTheLoop() throws InterruptedException {
        LinkedBlockingQueue<Integer> outcomes = new LinkedBlockingQueue<>();
        URI url = getBaseUri().resolve("loop/escalations");
        try (EscalationClient c = new EscalationClient(url, 2, 50, () -> FakeAgentTokens.bearer("worker1"), null,
                outcomes::add)) {
            c.send(EscalationClient.body(2, 0, "worker1", 7_200_000, 5_000_000, 0b11));
            assertEquals(Integer.valueOf(EscalationClient.SENT), outcomes.poll(10, TimeUnit.SECONDS));
            // A vNF index the chain cannot have: rejected (4xx), final, not retried.
            c.send(EscalationClient.body(2, -1, "worker1", 7_200_000, 5_000_000, 0b1));
            assertEquals(Integer.valueOf(EscalationClient.REJECTED), outcomes.poll(10, TimeUnit.SECONDS));
        }
        assertEquals(1, loop.escalations.size());
        String e = loop.escalations.get(0);
        assertTrue(e, e.startsWith("2/0 worker1 7200000 5000000 ["));
    }

    @Test
    public void badBodiesAre400AndReachNothing() throws IOException {
        assertError(post("{\"vnfIndex\":0,\"node\":\"w\",\"l95Ns\":1,\"lmaxNs\":1}"), "chainId");
        assertError(post("{\"chainId\":70000,\"vnfIndex\":0,\"node\":\"w\",\"l95Ns\":1,\"lmaxNs\":1}"), "chainId");
        assertError(post("{\"chainId\":1,\"vnfIndex\":0,\"node\":\"\",\"l95Ns\":1,\"lmaxNs\":1}"), "node");
        assertError(post("{\"chainId\":1,\"vnfIndex\":0,\"node\":\"w\",\"l95Ns\":-1,\"lmaxNs\":1}"), "l95Ns");
        assertError(post("{\"chainId\":1,\"vnfIndex\":0,\"node\":\"w\",\"l95Ns\":1,\"lmaxNs\":\"x\"}"), "lmaxNs");
        assertError(post("{\"chainId\":1,\"vnfIndex\":0,\"node\":\"w\",\"l95Ns\":1,\"lmaxNs\":1,"
                                 + "\"triedResources\":\"CPU\"}"), "triedResources");
        assertError(post("not json"), "");
        assertEquals(List.of(), loop.escalations);
    }

    @Test
    public void withoutTheLoopIs503() throws IOException {
        setServiceDirectory(new TestServiceDirectory().add(SfcService.class,
                new org.srv6int.app.testing.AppHarness().sfcs).add(AgentAuthService.class, tokens.auth));
        Response r = post("{\"chainId\":1,\"vnfIndex\":0,\"node\":\"w\",\"l95Ns\":1,\"lmaxNs\":1}");
        assertEquals(503, r.getStatus());
    }

    @Test
    public void pauseAndResumeOneChain() throws IOException {
        Response r = target("loop/chains/7/pause").request().post(Entity.json(""));
        assertEquals(200, r.getStatus());
        assertEquals("[7]", MAPPER.readTree(r.readEntity(String.class)).get("paused").toString());
        assertEquals("[7]", MAPPER.readTree(target("loop/paused").request().get(String.class))
                .get("paused").toString());
        r = target("loop/chains/7/resume").request().post(Entity.json(""));
        assertEquals("[]", MAPPER.readTree(r.readEntity(String.class)).get("paused").toString());
        assertEquals(404, target("loop/chains/999/pause").request().post(Entity.json("")).getStatus());
        assertEquals(400, target("loop/chains/abc/pause").request().post(Entity.json("")).getStatus());
        assertTrue(loop.paused.isEmpty());
    }

    @Test
    public void onlyTheAgentOfTheNamedNodeIsHeard() throws IOException {
        String forWorker2 = "{\"chainId\":1,\"vnfIndex\":0,\"node\":\"worker2\",\"l95Ns\":1,\"lmaxNs\":1}";
        assertEquals(401, post(forWorker2, null).getStatus());
        assertEquals(401, post(forWorker2, "Basic b25vczpyb2Nrcw==").getStatus()); // an ONOS user is not an agent
        assertEquals(401, post(forWorker2, "Bearer garbage").getStatus());
        Response r = post(forWorker2, FakeAgentTokens.bearer("worker1"));
        assertEquals(403, r.getStatus());
        assertTrue(MAPPER.readTree(r.readEntity(String.class)).get("message").asText()
                .contains("on node worker1 cannot report for node worker2"));
        assertEquals(403, post(forWorker2, "Bearer other@worker2").getStatus()); // another ServiceAccount
        assertEquals(List.of(), loop.escalations);
        assertEquals(202, post(forWorker2, FakeAgentTokens.bearer("worker2")).getStatus());
        assertEquals(1, loop.escalations.size());
        // Counted by reason; the accepted token's review is reused (one review per token).
        assertEquals(1, tokens.auth.count("wrong_node"));
        assertEquals(1, tokens.auth.count("wrong_account"));
        assertEquals(2, tokens.auth.count("no_token"));
        assertEquals(1, tokens.auth.count("invalid_token"));
        assertEquals(202, post(forWorker2, FakeAgentTokens.bearer("worker2")).getStatus());
        assertEquals(4, tokens.reviews.get());
        assertTrue(tokens.auth.renderMetrics().contains("srv6int_agent_auth_requests_total{result=\"wrong_node\"} 1"));
        // The app's other endpoints are still ONOS's: its authorization filter (off in these tests) applies.
        assertEquals(200, target("loop/paused").request().get().getStatus());
    }

    private Response post(String body) {
        return post(body, FakeAgentTokens.bearer("w"));
    }

    private Response post(String body, String authorization) {
        javax.ws.rs.client.Invocation.Builder b = target("loop/escalations").request();
        return (authorization == null ? b : b.header("Authorization", authorization)).post(Entity.json(body));
    }

    private static void assertError(Response r, String field) throws IOException {
        JsonNode e = MAPPER.readTree(r.readEntity(String.class));
        assertEquals(e.toString(), 400, r.getStatus());
        assertEquals(e.toString(), field, e.path("field").asText());
    }
}
