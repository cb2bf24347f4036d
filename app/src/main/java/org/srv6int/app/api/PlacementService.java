// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.VnfKey;
import java.util.Map;
import java.util.Optional;

/**
 * Where to put a new replica (Algorithm 4, line 10): the global loop asks it
 * before starting a pod, then calls {@link VnfInventoryService#addReplica}.
 */
public interface PlacementService {

    /**
     * Chooses the Kubernetes node for a new replica of a vNF by the
     * longest-common-subsequence method (docs/placement.md): nodes that keep
     * the chain in path order win, then the shorter path, then the most free
     * resources.
     *
     * @param vnf           vNF to scale out
     * @param freeResources candidate nodes and their free resources (any unit,
     *                      larger is better; 0 or less = no room)
     * @return node, empty if no candidate is attached to an SRv6 switch
     * @throws SfcException (NOT_FOUND) if the chain or vNF does not exist
     */
    Optional<String> chooseNode(VnfKey vnf, Map<String, Double> freeResources);
}
