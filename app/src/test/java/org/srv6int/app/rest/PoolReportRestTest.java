// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.Before;
import org.junit.Test;
import org.onlab.osgi.TestServiceDirectory;
import org.srv6int.app.api.AgentAuthService;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.model.NodePools;
import org.srv6int.app.pools.NodePoolManager;
import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.obs.EscalationClient;
import org.srv6int.agent.obs.PoolReport;
import org.srv6int.testkit.InMemoryStorageService;

import javax.ws.rs.client.Entity;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The pool-report joint: the node agent's real {@link PoolReport} body, sent by its real
 * {@link EscalationClient} to the URL beside its escalation URL, reaches the app's real resource
 * ({@code loop/pools}) and the app's store; malformed reports are 400 naming the field and
 * counted, a node without a switch attachment is 404 and counted; GET shows each node's report
 * with its age.
 */
public class PoolReportRestTest extends JerseyResourceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private NodePoolManager pools;
    private long nowMillis = 1_000_000;
    private final FakeAgentTokens tokens = new FakeAgentTokens();

    public PoolReportRestTest() {
        super(ResourceConfig.forApplicationClass(Srv6IntWebApplication.class));
    }

    @Before
    public void setUpServices() {
        pools = new NodePoolManager(new InMemoryStorageService(), Set.of("worker1", "worker2")::contains,
                                    () -> nowMillis, NodePoolManager.DEFAULT_MAX_AGE_MS);
        setServiceDirectory(new TestServiceDirectory().add(NodePoolService.class, pools)
                .add(AgentAuthService.class, tokens.auth));
    }

    @Test
    public void theAgentsReportReachesTheStore() throws Exception {
        // The agent's pools: 10 cores with 6.75 given out, 11 ways with 10, 100 % MB with 90.
        ResourcePool cpu = pool(ResourceType.CPU_QUOTA, 10_000, 6_750);
        ResourcePool llc = pool(ResourceType.LLC, 11, 10);
        ResourcePool mb = pool(ResourceType.MEMORY_BANDWIDTH, 100, 90);
        String body = PoolReport.body("worker2", t -> t == ResourceType.CPU_QUOTA ? cpu
                : t == ResourceType.LLC ? llc : t == ResourceType.MEMORY_BANDWIDTH ? mb : null,
                t -> t == ResourceType.MEMORY_BANDWIDTH ? 20 : 0); // vNFs with slack hold 20 % above their floors
        LinkedBlockingQueue<Integer> outcomes = new LinkedBlockingQueue<>();
        URI escalations = getBaseUri().resolve("loop/escalations");
        AtomicReference<String> node = new AtomicReference<>("worker2"); // whose agent's token is sent
        try (EscalationClient c = new EscalationClient(escalations, 2, 50, () -> FakeAgentTokens.bearer(node.get()),
                null, outcomes::add)) {
            c.post(EscalationClient.poolsUrl(escalations), body, outcomes::add);
            assertEquals(Integer.valueOf(EscalationClient.SENT), outcomes.poll(10, TimeUnit.SECONDS));
            // worker2's token speaking for worker1: refused (403) before the store sees it.
            c.post(EscalationClient.poolsUrl(escalations), body.replace("worker2", "worker1"), outcomes::add);
            assertEquals(Integer.valueOf(EscalationClient.REJECTED), outcomes.poll(10, TimeUnit.SECONDS));
            assertEquals(1, tokens.auth.count("wrong_node"));
            // A node the netcfg does not attach (its own agent's token): refused, final.
            node.set("worker9");
            c.post(EscalationClient.poolsUrl(escalations), body.replace("worker2", "worker9"), outcomes::add);
            assertEquals(Integer.valueOf(EscalationClient.REJECTED), outcomes.poll(10, TimeUnit.SECONDS));
        }
        assertTrue(pools.pools("worker1").isEmpty());
        NodePools p = pools.pools("worker2").orElseThrow();
        assertEquals(1, p.pools().size());
        NodePools.Pool q = p.pools().get(0);
        assertEquals(NodePools.WHOLE_NODE, q.numaNode());
        assertEquals(3_250, q.cpuFreeMillis());
        assertEquals(10_000, q.cpuBudgetMillis());
        assertEquals(1, q.llcWaysFree());
        assertEquals(10, q.memoryBandwidthFreePercent());
        assertEquals(20, q.memoryBandwidthReclaimablePercent());
        assertEquals(0, q.llcWaysReclaimable());
        assertEquals(nowMillis, p.receivedAtMillis());
        assertTrue(pools.pools("worker9").isEmpty());
        assertArrayEquals(new long[] {1, 0, 1}, pools.counters());

        nowMillis += 20_000;
        JsonNode got = MAPPER.readTree(target("loop/pools").request().get(String.class));
        assertEquals(15_000, got.get("maxAgeMs").asLong());
        JsonNode n = got.get("nodes").get(0);
        assertEquals("worker2", n.get("node").asText());
        assertEquals(1, n.at("/pools/0/llcWays/free").asLong());
        assertEquals(11, n.at("/pools/0/llcWays/budget").asLong());
        assertEquals(20, n.at("/pools/0/memoryBandwidthPercent/reclaimable").asLong());
        assertEquals(20_000, n.get("ageMs").asLong());
        assertFalse(n.get("fresh").asBoolean());
        assertEquals(1, got.at("/counters/unknownNode").asLong());
    }

    @Test
    public void malformedReportsAre400CountedAndStoreNothing() throws IOException {
        String ok = "{\"cpuMillis\":{\"free\":1,\"budget\":2},\"llcWays\":{\"free\":1,\"budget\":2},"
                + "\"memoryBandwidthPercent\":{\"free\":1,\"budget\":2}}";
        assertError(post("{\"pools\":[" + ok + "]}"), "node");
        assertError(post("{\"node\":\"worker1\",\"pools\":[]}"), "pools");
        assertError(post("{\"node\":\"worker1\",\"pools\":[" + ok.replace("\"free\":1,\"budget\":2}}", "\"free\":3,"
                + "\"budget\":2}}") + "]}"), "pools[0].memoryBandwidthPercent");
        assertError(post("{\"node\":\"worker1\",\"pools\":[" + ok.replace("{\"free\":1,\"budget\":2},\"llcWays\"",
                "{\"free\":-1,\"budget\":2},\"llcWays\"") + "]}"), "pools[0].cpuMillis.free");
        assertError(post("{\"node\":\"worker1\",\"pools\":[" + ok.replace("{\"cpu", "{\"numaNode\":0,\"cpu") + ","
                + ok.replace("{\"cpu", "{\"numaNode\":0,\"cpu") + "]}"), "pools[1].numaNode");
        assertError(post("{\"node\":\"worker1\",\"pools\":[{\"cpuMillis\":{\"free\":1,\"budget\":2}}]}"),
                "pools[0].llcWays");
        assertError(post("{\"node\":\"worker1\",\"pools\":[" + ok.replace("{\"free\":1,\"budget\":2},\"llcWays\"",
                "{\"free\":1,\"reclaimable\":2,\"budget\":2},\"llcWays\"") + "]}"), "pools[0].cpuMillis");
        assertError(post("not json"), "");
        assertTrue(pools.all().isEmpty());
        assertArrayEquals(new long[] {0, 8, 0}, pools.counters());
        Response r = post("{\"node\":\"worker1\",\"pools\":[" + ok.replace("{\"cpu", "{\"numaNode\":1,\"cpu") + "]}");
        assertEquals(202, r.getStatus());
        assertFalse(pools.all().isEmpty());
    }

    private static ResourcePool pool(ResourceType type, long budget, long given) {
        ResourceActuator a = new ResourceActuator() {
            @Override
            public ResourceType type() {
                return type;
            }

            @Override
            public long read(int vnf) {
                return given;
            }

            @Override
            public void write(int vnf, long value, long[] all) {
            }
        };
        return new ResourcePool(a, 1, budget, new long[] {0}, new long[] {budget}, new long[] {given});
    }

    private Response post(String body) {
        return target("loop/pools").request().header("Authorization", FakeAgentTokens.bearer("worker1"))
                .post(Entity.json(body));
    }

    private static void assertError(Response r, String field) throws IOException {
        JsonNode e = MAPPER.readTree(r.readEntity(String.class));
        assertEquals(e.toString(), 400, r.getStatus());
        assertEquals(e.toString(), field, e.path("field").asText());
    }
}
