// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

/**
 * Receives what the local loop computes and decides (metrics, decision log,
 * escalation). Called on the loop's thread; implementations must not block.
 */
public interface LoopListener {

    /**
     * A window of vNF closed.
     *
     * @param vnf index
     * @param l95Ns its L95
     * @param slackNs τ[i] = Lmax[i] - L95
     */
    void onWindow(int vnf, long l95Ns, long slackNs);

    /**
     * The loop acted.
     *
     * @param decision what it did
     */
    void onDecision(Decision decision);

    /**
     * Every offered resource type was tried and vNF is still above Lmax.
     *
     * @param vnf index
     * @param l95Ns its L95
     * @param lmaxNs its bound
     * @param triedMask {@link ResourceType#bit()} set of types tried
     */
    void onEscalation(int vnf, long l95Ns, long lmaxNs, int triedMask);

    /**
     * The vNF's CPU throttling counters could not be read at a window; the loop raised as the listing does.
     *
     * @param vnf index
     * @param why the error
     */
    default void onThrottleUnread(int vnf, String why) {
    }

    /** A listener that ignores everything. */
    LoopListener NONE = new LoopListener() {
        @Override
        public void onWindow(int vnf, long l95Ns, long slackNs) {
        }

        @Override
        public void onDecision(Decision decision) {
        }

        @Override
        public void onEscalation(int vnf, long l95Ns, long lmaxNs, int triedMask) {
        }
    };
}
