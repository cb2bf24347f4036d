// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.srv6int.agent.loop.ResourceType;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

/** The escalation client against a local HTTP server standing in for the ONOS app's REST API. */
public class EscalationClientTest {

    private HttpServer server;
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<String> auth = new CopyOnWriteArrayList<>();
    // The agent's token file as it is now (AppCredentials reads it per request; the kubelet rotates it).
    private volatile String token = "first-token";
    private final AtomicInteger calls = new AtomicInteger();
    private volatile int[] script = {200};
    private final BlockingQueue<Integer> outcomes = new LinkedBlockingQueue<>();

    @Before
    public void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/onos/srv6int/loop/escalations", ex -> {
            int n = calls.getAndIncrement();
            bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            auth.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
            int status = script[Math.min(n, script.length - 1)];
            ex.sendResponseHeaders(status, -1);
            ex.close();
        });
        server.start();
    }

    @After
    public void stop() {
        server.stop(0);
    }

    private EscalationClient client(int attempts) {
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/onos/srv6int/loop/escalations");
        return new EscalationClient(url, attempts, 10, () -> "Bearer " + token, null, outcomes::add);
    }

    @Test
    public void postsTheDocumentedJsonAndRetriesServerErrors() throws Exception {
        script = new int[] {503, 500, 202};
        try (EscalationClient c = client(4)) {
            String body = EscalationClient.body(2, 1, "worker1", 7_300_000, 1_000_000,
                    ResourceType.CPU_QUOTA.bit() | ResourceType.LLC.bit() | ResourceType.MEMORY_BANDWIDTH.bit()
                            | ResourceType.CPU_FREQUENCY.bit());
            c.send(body);
            Integer outcome = outcomes.poll(10, TimeUnit.SECONDS);
            assertNotNull(outcome);
            assertEquals(EscalationClient.SENT, (int) outcome);
        }
        assertEquals(3, calls.get());
        JsonNode j = new ObjectMapper().readTree(bodies.get(2));
        assertEquals(2, j.get("chainId").asInt());
        assertEquals(1, j.get("vnfIndex").asInt());
        assertEquals("worker1", j.get("node").asText());
        assertEquals(7_300_000, j.get("l95Ns").asLong());
        assertEquals(1_000_000, j.get("lmaxNs").asLong());
        assertEquals("[\"CPU_QUOTA\",\"LLC\",\"MEMORY_BANDWIDTH\",\"CPU_FREQUENCY\"]",
                j.get("triedResources").toString());
        assertEquals(6, j.size());
        assertEquals("Bearer first-token", auth.get(0));
    }

    @Test
    public void aRotatedTokenIsSentFromTheNextRequestOn() throws Exception {
        script = new int[] {202};
        try (EscalationClient c = client(1)) {
            c.send(EscalationClient.body(1, 0, "w", 2, 1, 1));
            assertEquals(EscalationClient.SENT, (int) outcomes.poll(10, TimeUnit.SECONDS));
            token = "rotated-token";
            c.send(EscalationClient.body(1, 0, "w", 2, 1, 1));
            assertEquals(EscalationClient.SENT, (int) outcomes.poll(10, TimeUnit.SECONDS));
        }
        assertEquals(List.of("Bearer first-token", "Bearer rotated-token"), auth);
    }

    @Test
    public void clientErrorsAreFinalAndExhaustedRetriesFail() throws Exception {
        script = new int[] {400};
        try (EscalationClient c = client(4)) {
            c.send(EscalationClient.body(1, 0, "w", 2, 1, 1));
            assertEquals(EscalationClient.REJECTED, (int) outcomes.poll(10, TimeUnit.SECONDS));
        }
        assertEquals(1, calls.get());
        script = new int[] {503};
        calls.set(0);
        try (EscalationClient c = client(3)) {
            c.send(EscalationClient.body(1, 0, "w", 2, 1, 1));
            assertEquals(EscalationClient.FAILED, (int) outcomes.poll(10, TimeUnit.SECONDS));
        }
        assertEquals(3, calls.get());
    }

    @Test
    public void unreachableAppCountsAsFailedNotAsACrash() throws Exception {
        server.stop(0);
        try (EscalationClient c = client(2)) {
            c.send(EscalationClient.body(1, 0, "w", 2, 1, 1));
            assertEquals(EscalationClient.FAILED, (int) outcomes.poll(20, TimeUnit.SECONDS));
        }
    }

    /** A URL the HTTP client refuses: counted as failed, nothing thrown at the caller (the loop's thread). */
    @Test
    public void aUrlTheHttpClientRefusesIsAFailureNotAnException() throws Exception {
        try (EscalationClient c = client(1)) {
            c.post(URI.create("ftp://127.0.0.1/onos/srv6int/loop/pools"), "{}", outcomes::add);
            assertEquals(EscalationClient.FAILED, (int) outcomes.poll(20, TimeUnit.SECONDS));
        }
    }
}
