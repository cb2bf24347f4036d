// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.List;
import java.util.Map;

/**
 * Asks the API server who holds a bearer token (TokenReview, authentication.k8s.io/v1), for one
 * audience: a node agent's projected ServiceAccount token names its ServiceAccount and, for a
 * token bound to a pod (Kubernetes 1.30+), the pod's node in the extra field
 * {@value #NODE_NAME_EXTRA}. Needs {@code create} on {@code tokenreviews} (bridge-rbac.yaml).
 * One blocking call per {@link #review}; the caller caches.
 */
public final class TokenReviewer {

    /** The extra field of a bound pod token naming the pod's node. */
    public static final String NODE_NAME_EXTRA = "authentication.kubernetes.io/node-name";
    /** The extra field of a bound pod token naming the pod. */
    public static final String POD_NAME_EXTRA = "authentication.kubernetes.io/pod-name";

    private final KubernetesClient client;
    private final String audience;

    /**
     * Creates a reviewer on a client the caller owns.
     *
     * @param client   client with the right to create TokenReviews
     * @param audience the audience tokens must carry
     */
    public TokenReviewer(KubernetesClient client, String audience) {
        this.client = client;
        this.audience = audience;
    }

    /** What the API server said of a token. */
    public static final class Review {
        private final boolean authenticated;
        private final String username;
        private final String node;
        private final String pod;
        private final String error;

        /**
         * Creates a review (the API server's answer, or a test's).
         *
         * @param authenticated whether the token is valid
         * @param username      its user
         * @param node          its pod's node
         * @param pod           its pod
         * @param error         the reason it is not valid
         */
        public Review(boolean authenticated, String username, String node, String pod, String error) {
            this.authenticated = authenticated;
            this.username = username;
            this.node = node;
            this.pod = pod;
            this.error = error;
        }

        /**
         * Whether the token is valid for the audience.
         *
         * @return true if authenticated
         */
        public boolean authenticated() {
            return authenticated;
        }

        /**
         * The token's user, e.g. {@code system:serviceaccount:srv6int:srv6int-node-agent}.
         *
         * @return user name, null if not authenticated
         */
        public String username() {
            return username;
        }

        /**
         * The node of the pod the token is bound to.
         *
         * @return node name, null if the token is not bound to a pod (or the server is older than 1.30)
         */
        public String node() {
            return node;
        }

        /**
         * The pod the token is bound to.
         *
         * @return pod name, null if not bound to a pod
         */
        public String pod() {
            return pod;
        }

        /**
         * The API server's reason for refusing the token.
         *
         * @return reason, null if authenticated or none given
         */
        public String error() {
            return error;
        }
    }

    /**
     * Reviews a token.
     *
     * @param token the bearer token
     * @return the review (authenticated or not)
     * @throws BridgeException if the API server could not be asked (no answer, no right to review)
     */
    public Review review(String token) {
        TokenReview asked = new TokenReviewBuilder().withNewSpec().withToken(token).withAudiences(audience)
                .endSpec().build();
        TokenReview answer;
        try {
            answer = client.authentication().v1().tokenReviews().create(asked);
        } catch (KubernetesClientException e) {
            throw new BridgeException("TokenReview failed: " + e.getMessage(), 1, e.getCode(), e);
        }
        if (answer == null || answer.getStatus() == null) {
            throw new BridgeException("TokenReview: no status in the API server's answer", 1, 0, null);
        }
        var s = answer.getStatus();
        if (!Boolean.TRUE.equals(s.getAuthenticated())) {
            return new Review(false, null, null, null, s.getError());
        }
        List<String> audiences = s.getAudiences();
        if (audiences != null && !audiences.isEmpty() && !audiences.contains(audience)) {
            return new Review(false, null, null, null, "token is not for audience " + audience);
        }
        UserInfo u = s.getUser();
        Map<String, List<String>> extra = u == null || u.getExtra() == null ? Map.of() : u.getExtra();
        return new Review(true, u == null ? null : u.getUsername(), first(extra, NODE_NAME_EXTRA),
                first(extra, POD_NAME_EXTRA), null);
    }

    private static String first(Map<String, List<String>> extra, String key) {
        List<String> v = extra.get(key);
        return v == null || v.isEmpty() ? null : v.get(0);
    }
}
