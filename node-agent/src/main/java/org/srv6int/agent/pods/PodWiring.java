// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

/**
 * Delivers a replica's traffic on the node (SID to pod and back). The agent calls
 * {@link #wire} when it starts managing a pod and {@link #unwire} when it stops (pod
 * deleted, not Ready any more, opted out); both run on the agent's loop thread and must
 * be idempotent (a restart calls {@link #wire} again for every pod it finds).
 */
public interface PodWiring {

    /**
     * The pod is managed from now on.
     *
     * @param pod its identity and replica annotations
     * @throws Exception if the wiring failed; the agent counts it, logs it and manages the pod anyway
     */
    void wire(ReplicaPod pod) throws Exception;

    /**
     * The pod is no longer managed.
     *
     * @param pod its identity as last seen
     * @throws Exception if removing the wiring failed; counted and logged
     */
    void unwire(ReplicaPod pod) throws Exception;

    /**
     * Appends the wiring's metrics (Prometheus text) to the agent's.
     *
     * @param sb where to append
     */
    default void render(StringBuilder sb) {
    }

    /** No wiring on this node (the default until an implementation is configured). */
    PodWiring NONE = new PodWiring() {
        @Override
        public void wire(ReplicaPod pod) {
        }

        @Override
        public void unwire(ReplicaPod pod) {
        }
    };
}
