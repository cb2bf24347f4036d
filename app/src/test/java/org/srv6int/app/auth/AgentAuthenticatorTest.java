// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.auth;

import org.junit.Test;
import org.srv6int.app.api.AgentAuthService;
import org.srv6int.k8s.bridge.BridgeException;
import org.srv6int.k8s.bridge.TokenReviewer;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The agents' authentication without an API server (its answers given here): the cache's life,
 * bounded by the token's own expiry; what is refused with which status when the review cannot be
 * made or says the token is not a pod's.
 */
public class AgentAuthenticatorTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final AtomicInteger reviews = new AtomicInteger();
    private final AtomicReference<TokenReviewer.Review> answer = new AtomicReference<>(
            new TokenReviewer.Review(true, AgentAuthService.AGENT_USER, "worker1", "agent-x", null));
    private AgentAuthenticator.Reviewer reviewer = t -> {
        reviews.incrementAndGet();
        return answer.get();
    };
    private final AgentAuthenticator auth = new AgentAuthenticator(() -> reviewer, () -> "not configured", now::get);

    private static String jwt(long expSeconds) {
        Base64.Encoder b = Base64.getUrlEncoder().withoutPadding();
        return b.encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + b.encodeToString(("{\"exp\":" + expSeconds + "}").getBytes(StandardCharsets.UTF_8)) + ".sig";
    }

    @Test
    public void aPositiveReviewIsReusedUntilItsTtlOrTheTokensExpiry() {
        String token = jwt(now.get() / 1000 + 3600);
        assertTrue(auth.authenticate("Bearer " + token, "worker1", "a").accepted());
        assertTrue(auth.authenticate("bearer " + token, "worker1", "a").accepted());
        assertEquals(1, reviews.get());
        now.addAndGet(AgentAuthenticator.CACHE_MILLIS);
        assertTrue(auth.authenticate("Bearer " + token, "worker1", "a").accepted());
        assertEquals(2, reviews.get());
        // A token that expires in 5 s is not reused past its expiry, whatever the API server said.
        String shortLived = jwt(now.get() / 1000 + 5);
        assertTrue(auth.authenticate("Bearer " + shortLived, "worker1", "a").accepted());
        now.addAndGet(5_000);
        answer.set(new TokenReviewer.Review(false, null, null, null, "token has expired"));
        AgentAuthService.Verdict v = auth.authenticate("Bearer " + shortLived, "worker1", "a");
        assertEquals(401, v.status());
        assertTrue(v.message(), v.message().contains("token has expired"));
    }

    @Test
    public void refusalsByReason() {
        answer.set(new TokenReviewer.Review(true, AgentAuthService.AGENT_USER, null, null, null));
        assertEquals(403, auth.authenticate("Bearer t1", "worker1", "a").status()); // not bound to a pod
        reviewer = t -> {
            throw new BridgeException("TokenReview failed: forbidden", 1, 403, null);
        };
        AgentAuthService.Verdict v = auth.authenticate("Bearer t2", "worker1", "a");
        assertEquals(503, v.status());
        assertTrue(v.message(), v.message().contains("forbidden"));
        reviewer = null;
        v = auth.authenticate("Bearer t3", "worker1", "a");
        assertEquals(503, v.status());
        assertTrue(v.message(), v.message().contains("not configured"));
        assertEquals(401, auth.authenticate("Bearer ", "worker1", "a").status());
        assertEquals(1, auth.count("not_pod_bound"));
        assertEquals(2, auth.count("unavailable"));
        assertEquals(1, auth.count("no_token"));
    }
}
