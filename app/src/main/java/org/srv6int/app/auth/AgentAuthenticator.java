// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.AgentAuthService;
import org.srv6int.k8s.bridge.BridgeException;
import org.srv6int.k8s.bridge.TokenReviewer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The node agents' authentication ({@link AgentAuthService}): the bearer token of a request is
 * reviewed by the API server (TokenReview for {@value AgentAuthService#AUDIENCE}); it must be a
 * token of {@value AgentAuthService#AGENT_USER} bound to a pod, and that pod's node must be the
 * node the report names. A positive review is cached for {@link #CACHE_MILLIS} (at most until the
 * token's own expiry), {@link #CACHE_MAX} tokens at most, by the token's SHA-256: a pool report
 * every few seconds per agent costs one review per agent and half-minute. A token whose pod was
 * deleted stays accepted until its cache entry expires. Refusals are counted by reason and
 * logged once per source and reason.
 */
public final class AgentAuthenticator implements AgentAuthService {

    /** How long a positive review is reused, ms. */
    public static final long CACHE_MILLIS = 30_000;
    /** Most tokens cached. */
    public static final int CACHE_MAX = 1024;
    private static final int LOGGED_MAX = 4096;

    /** Results, as counted ({@code result} label). */
    enum Result {
        ACCEPTED, NO_TOKEN, INVALID_TOKEN, WRONG_ACCOUNT, NOT_POD_BOUND, WRONG_NODE, UNAVAILABLE
    }

    /** Reviews a token: the bridge's {@link TokenReviewer#review}, a fake in unit tests. */
    public interface Reviewer {
        /**
         * Reviews a token.
         *
         * @param token bearer token
         * @return the API server's review
         * @throws BridgeException if the API server could not be asked
         */
        TokenReviewer.Review review(String token);
    }

    private static final Logger LOG = LoggerFactory.getLogger(AgentAuthenticator.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Supplier<Reviewer> reviewer;
    private final Supplier<String> unavailableReason;
    private final LongSupplier clockMillis;
    private final AtomicLongArray counts = new AtomicLongArray(Result.values().length);
    private final Map<String, Cached> cache = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > CACHE_MAX;
        }
    };
    private final Set<String> logged = new HashSet<>();

    private static final class Cached {
        final String node;
        final String pod;
        final long expiresMillis;

        Cached(String node, String pod, long expiresMillis) {
            this.node = node;
            this.pod = pod;
            this.expiresMillis = expiresMillis;
        }
    }

    /**
     * Creates the authenticator.
     *
     * @param reviewer          the current reviewer, null while the app has no Kubernetes client
     * @param unavailableReason why there is none (for the 503's message)
     * @param clockMillis       wall clock, ms
     */
    public AgentAuthenticator(Supplier<Reviewer> reviewer, Supplier<String> unavailableReason,
                              LongSupplier clockMillis) {
        this.reviewer = reviewer;
        this.unavailableReason = unavailableReason;
        this.clockMillis = clockMillis;
    }

    @Override
    public Verdict authenticate(String authorization, String node, String source) {
        String token = bearer(authorization);
        if (token == null) {
            return refuse(Result.NO_TOKEN, 401, source, "no bearer token: a node agent authenticates with its "
                    + "ServiceAccount token for audience " + AUDIENCE + " (Authorization: Bearer)");
        }
        String key = sha256(token);
        long now = clockMillis.getAsLong();
        Cached c;
        synchronized (cache) {
            c = cache.get(key);
            if (c != null && now >= c.expiresMillis) {
                cache.remove(key);
                c = null;
            }
        }
        if (c == null) {
            Reviewer r = reviewer.get();
            if (r == null) {
                return refuse(Result.UNAVAILABLE, 503, source, "agents' tokens cannot be reviewed: Kubernetes "
                        + unavailableReason.get());
            }
            TokenReviewer.Review review;
            try {
                review = r.review(token);
            } catch (BridgeException e) {
                return refuse(Result.UNAVAILABLE, 503, source, "agents' tokens cannot be reviewed: " + e.getMessage());
            }
            if (!review.authenticated()) {
                return refuse(Result.INVALID_TOKEN, 401, source + " token " + key.substring(0, 8),
                        "token refused by the API server" + (review.error() == null ? "" : ": " + review.error()));
            }
            if (!AGENT_USER.equals(review.username())) {
                return refuse(Result.WRONG_ACCOUNT, 403, source + " " + review.username(), "token of "
                        + review.username() + ", not of the node agents' ServiceAccount " + AGENT_USER);
            }
            if (review.node() == null) {
                return refuse(Result.NOT_POD_BOUND, 403, source + " " + review.username(), "token not bound to a "
                        + "pod (no node in its review): the agent must use the projected token of its own pod");
            }
            c = new Cached(review.node(), review.pod(), Math.min(now + CACHE_MILLIS, expiryMillis(token)));
            synchronized (cache) {
                cache.put(key, c);
            }
        }
        if (node != null && !node.equals(c.node)) {
            return refuse(Result.WRONG_NODE, 403, source + " " + c.pod, "the token of pod " + c.pod + " on node "
                    + c.node + " cannot report for node " + node);
        }
        counts.incrementAndGet(Result.ACCEPTED.ordinal());
        return new Verdict(0, null);
    }

    private Verdict refuse(Result result, int status, String source, String message) {
        counts.incrementAndGet(result.ordinal());
        boolean first;
        synchronized (logged) {
            if (logged.size() >= LOGGED_MAX) {
                logged.clear();
            }
            first = logged.add(result + " " + source);
        }
        if (first) { // once per source and reason: a misconfigured agent posts every few seconds
            LOG.warn("node agent request from {} refused ({}): {}", source, status, message);
        }
        return new Verdict(status, message);
    }

    static String bearer(String authorization) {
        if (authorization == null) {
            return null;
        }
        String a = authorization.trim();
        if (a.length() <= 7 || !a.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String t = a.substring(7).trim();
        return t.isEmpty() ? null : t;
    }

    /** The token's own expiry ("exp" of a JWT), ms; far away if it has none readable. Only shortens the cache. */
    static long expiryMillis(String token) {
        String[] parts = token.split("\\.");
        if (parts.length == 3) {
            try {
                JsonNode claims = MAPPER.readTree(Base64.getUrlDecoder().decode(parts[1]));
                if (claims != null && claims.path("exp").canConvertToLong()) {
                    return claims.path("exp").asLong() * 1000;
                }
            } catch (IOException | IllegalArgumentException e) {
                return Long.MAX_VALUE; // not a JWT we can read: the API server said it is valid; the TTL applies
            }
        }
        return Long.MAX_VALUE;
    }

    private static String sha256(String token) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * How many requests ended with a result.
     *
     * @param result result name, e.g. "wrong_node"
     * @return count
     */
    public long count(String result) {
        return counts.get(Result.valueOf(result.toUpperCase(Locale.ROOT)).ordinal());
    }

    @Override
    public String renderMetrics() {
        StringBuilder sb = new StringBuilder();
        sb.append("# HELP srv6int_agent_auth_requests_total Node agents' escalations and pool reports by "
                        + "authentication result (docs/security.md).\n")
                .append("# TYPE srv6int_agent_auth_requests_total counter\n");
        for (Result r : Result.values()) {
            sb.append("srv6int_agent_auth_requests_total{result=\"").append(r.name().toLowerCase(Locale.ROOT))
                    .append("\"} ").append(counts.get(r.ordinal())).append('\n');
        }
        int size;
        synchronized (cache) {
            size = cache.size();
        }
        sb.append("# HELP srv6int_agent_auth_cached_tokens Agents' tokens whose positive review is reused.\n")
                .append("# TYPE srv6int_agent_auth_cached_tokens gauge\n")
                .append("srv6int_agent_auth_cached_tokens ").append(size).append('\n');
        return sb.toString();
    }
}
