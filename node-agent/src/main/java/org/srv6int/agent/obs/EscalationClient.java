// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.obs;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.agent.loop.ResourceType;

import javax.net.ssl.SSLContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Tells the ONOS app that a vNF stays above its bound although the local
 * loop tried every resource type: {@code POST <url>} with
 * {@code {"chainId":..,"vnfIndex":..,"node":"..","l95Ns":..,"lmaxNs":..,"triedResources":[..]}}.
 * Sent off the loop's thread; retried with exponential back-off on
 * connection errors, 5xx and 429; a 4xx other than 429 is final and logged once per status and
 * message (401: the app does not take the agent's token; 403: the token's pod is on another node,
 * or of another ServiceAccount). Every request carries the header {@link AppCredentials} gives,
 * read again for each request (a rotated token is used at once).
 */
public final class EscalationClient implements AutoCloseable {

    /** Outcome code: the app accepted it (2xx). */
    public static final int SENT = 0;
    /** Outcome code: every attempt failed. */
    public static final int FAILED = 1;
    /** Outcome code: the app rejected it (4xx). */
    public static final int REJECTED = 2;

    private final URI url;
    private final int attempts;
    private final long firstBackoffMs;
    private static final Logger LOG = LoggerFactory.getLogger(EscalationClient.class);
    private final Supplier<String> authorization;
    private final Set<String> refusalsLogged = ConcurrentHashMap.newKeySet();
    private final IntConsumer outcomes;
    private final HttpClient http;
    private final ScheduledExecutorService scheduler;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * Creates the client.
     *
     * @param url escalation endpoint
     * @param attempts tries per escalation, at least 1
     * @param firstBackoffMs wait before the first retry; doubles each time
     * @param authorization the Authorization header of each request (read per request; it may throw
     *                      UncheckedIOException: the request is then counted failed), or null for none
     * @param ssl TLS context for https URLs (trusting the app's CA), null for the JVM's default
     * @param outcomes receives SENT, FAILED or REJECTED once per escalation
     */
    public EscalationClient(URI url, int attempts, long firstBackoffMs, Supplier<String> authorization,
                            SSLContext ssl, IntConsumer outcomes) {
        this.url = url;
        this.attempts = Math.max(1, attempts);
        this.firstBackoffMs = firstBackoffMs;
        this.authorization = authorization;
        this.outcomes = outcomes;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "escalation");
            t.setDaemon(true);
            return t;
        });
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).executor(scheduler);
        if (ssl != null) {
            b.sslContext(ssl);
        }
        this.http = b.build();
    }

    /**
     * The JSON body of an escalation (also what the testbed twin's agents hand to the app).
     *
     * @param chainId SFC id
     * @param vnfIndex position of the vNF in the chain
     * @param node this node's name
     * @param l95Ns L95 of the last window
     * @param lmaxNs the bound
     * @param triedMask {@link ResourceType#bit()} set of types tried
     * @return JSON text
     */
    public static String body(int chainId, int vnfIndex, String node, long l95Ns, long lmaxNs, int triedMask) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("chainId", chainId);
        m.put("vnfIndex", vnfIndex);
        m.put("node", node);
        m.put("l95Ns", l95Ns);
        m.put("lmaxNs", lmaxNs);
        List<String> tried = new ArrayList<>();
        for (ResourceType t : ResourceType.all()) {
            if ((triedMask & t.bit()) != 0) {
                tried.add(t.name());
            }
        }
        m.put("triedResources", tried);
        try {
            return MAPPER.writeValueAsString(m);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Sends an escalation asynchronously; never blocks.
     *
     * @param json body from {@link #body}
     */
    public void send(String json) {
        attempt(url, json, 1, attempts, outcomes);
    }

    /**
     * Posts another report of this agent (the pool report) to another path of the app, with
     * the same credentials, once: a periodic report is not repeated with its old figures (a
     * repeat could land after a newer report), the next one carries fresh figures. Never blocks.
     *
     * @param to      the app's URL for it
     * @param json    body
     * @param outcome receives SENT, FAILED or REJECTED once
     */
    public void post(URI to, String json, IntConsumer outcome) {
        attempt(to, json, 1, 1, outcome);
    }

    private void attempt(URI to, String json, int n, int max, IntConsumer outcome) {
        try { // nothing thrown reaches the caller (the loop's thread): counted as failed
            HttpRequest.Builder b = HttpRequest.newBuilder(to)
                    .timeout(Duration.ofSeconds(3))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
            if (authorization != null) {
                b.header("Authorization", authorization.get());
            }
            http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString()).whenComplete((resp, err) -> {
                int status = resp == null ? -1 : resp.statusCode();
                if (status >= 200 && status < 300) {
                    outcome.accept(SENT);
                } else if (status >= 400 && status < 500 && status != 429) {
                    refused(to, status, resp.body());
                    outcome.accept(REJECTED);
                } else {
                    retry(to, json, n, max, outcome);
                }
            });
        } catch (RuntimeException e) {
            if (refusalsLogged.add("error " + e.getMessage())) {
                LOG.warn("request to {} not sent: {}", to, e.getMessage());
            }
            retry(to, json, n, max, outcome);
        }
    }

    // Once per status and message: a refused agent posts every few seconds.
    private void refused(URI to, int status, String body) {
        String message = body == null ? "" : body.length() > 300 ? body.substring(0, 300) : body;
        if (refusalsLogged.size() < 256 && refusalsLogged.add(status + " " + message)) {
            LOG.warn("the app refused {} with {}{}: {}", to, status,
                    status == 401 ? " (the agent's token is not accepted)" : status == 403
                            ? " (the token's pod is on another node, or not the agents' ServiceAccount)" : "",
                    message);
        }
    }

    private void retry(URI to, String json, int n, int max, IntConsumer outcome) {
        if (n >= max || scheduler.isShutdown()) {
            outcome.accept(FAILED);
            return;
        }
        long delay = firstBackoffMs << Math.min(10, n - 1);
        try {
            scheduler.schedule(() -> attempt(to, json, n + 1, max, outcome), delay, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            outcome.accept(FAILED);
        }
    }

    /**
     * The app's pool-report URL beside an escalation URL: {@code .../loop/escalations} becomes
     * {@code .../loop/pools}.
     *
     * @param escalationUrl the escalation URL
     * @return the pool-report URL
     */
    public static URI poolsUrl(URI escalationUrl) {
        return escalationUrl.resolve("pools");
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
