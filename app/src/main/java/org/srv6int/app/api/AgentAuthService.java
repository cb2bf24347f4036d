// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

/**
 * Authenticates the node agents' reports (escalations, pool reports): each agent presents its
 * own projected ServiceAccount token; the token must be valid for the app's audience, belong to
 * the agents' ServiceAccount and be bound to a pod on the node the report speaks for
 * (docs/security.md, "Node-bound identity").
 */
public interface AgentAuthService {

    /** The audience the agents' tokens are requested for (the DaemonSet's projected volume). */
    String AUDIENCE = "srv6int.org/agent";
    /** The agents' ServiceAccount, as the API server names its tokens' user. */
    String AGENT_USER = "system:serviceaccount:srv6int:srv6int-node-agent";

    /** The answer for one request. */
    final class Verdict {
        private final int status;
        private final String message;

        /**
         * Creates a verdict.
         *
         * @param status  0 accepted, else the HTTP status to answer (401, 403, 503)
         * @param message why it was refused (null if accepted)
         */
        public Verdict(int status, String message) {
            this.status = status;
            this.message = message;
        }

        /**
         * Whether the request may go on.
         *
         * @return true if accepted
         */
        public boolean accepted() {
            return status == 0;
        }

        /**
         * The HTTP status to answer a refused request with.
         *
         * @return 401, 403 or 503; 0 if accepted
         */
        public int status() {
            return status;
        }

        /**
         * Why it was refused.
         *
         * @return message, null if accepted
         */
        public String message() {
            return message;
        }
    }

    /**
     * Checks one agent request.
     *
     * @param authorization the request's Authorization header (null if absent)
     * @param node          the node the report names (null if the body names none: the resource refuses it)
     * @param source        who sent it, for the log (remote address)
     * @return the verdict
     */
    Verdict authenticate(String authorization, String node, String source);

    /**
     * The counters of {@link #authenticate} in the Prometheus text format.
     *
     * @return exposition text, ending with a newline
     */
    String renderMetrics();
}
