// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import org.srv6int.app.api.AgentAuthService;
import org.srv6int.app.auth.AgentAuthenticator;
import org.srv6int.k8s.bridge.TokenReviewer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The API server's side of TokenReview for REST tests (the boundary these tests do not run; the
 * real one: AgentIdentityOnRealApiServerTest): a token {@code agent@<node>} is the node agents'
 * ServiceAccount on a pod of that node, {@code other@<node>} another ServiceAccount's pod token,
 * anything else is refused.
 */
final class FakeAgentTokens {

    final AtomicInteger reviews = new AtomicInteger();
    final AgentAuthenticator auth = new AgentAuthenticator(() -> this::review, () -> "not configured",
            System::currentTimeMillis);

    private TokenReviewer.Review review(String token) {
        reviews.incrementAndGet();
        int at = token.indexOf('@');
        if (at < 0) {
            return new TokenReviewer.Review(false, null, null, null, "invalid bearer token");
        }
        String node = token.substring(at + 1);
        String user = token.startsWith("agent@") ? AgentAuthService.AGENT_USER
                : "system:serviceaccount:default:" + token.substring(0, at);
        return new TokenReviewer.Review(true, user, node, "pod-on-" + node, null);
    }

    /** The Authorization header of the agent of a node. */
    static String bearer(String node) {
        return "Bearer agent@" + node;
    }
}
