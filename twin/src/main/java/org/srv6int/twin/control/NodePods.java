// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * The pods a replica platform has bound to a node and not yet handed to the twin's model
 * (scheduled, not Ready), as the API server would list them to the node agent's informer
 * ({@code spec.nodeName=<node>}): the node agent on the worker holds their CPU requests
 * through the agent's own code ({@link org.srv6int.agent.pods.Reservations}).
 */
public interface NodePods {
    /**
     * Moves whenever a pod is bound, becomes Ready or fails (the informer's version).
     *
     * @return version
     */
    long version();

    /**
     * The pods bound to a node and not yet Ready.
     *
     * @param node node name
     * @return pods (phase Pending, condition PodScheduled, container requests)
     */
    List<Pod> boundTo(String node);
}
