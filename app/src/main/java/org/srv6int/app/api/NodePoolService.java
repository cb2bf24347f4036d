// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.NodePools;
import java.util.List;
import java.util.Optional;

/**
 * The node agents' pool reports, kept per node in the cluster's store (docs/global-loop.md,
 * "Pools"). The global loop places a replica only where a fresh report's pools hold the vNF
 * type's need; a node without a fresh report is placed by Kubernetes' free CPU alone.
 */
public interface NodePoolService {

    /**
     * Stores a node's report, stamped with the app's clock.
     *
     * @param node  node name
     * @param pools its pools
     * @return the stored report
     * @throws IllegalArgumentException if the node has no switch attachment in netcfg (it can never
     *                                  take a replica); counted
     */
    NodePools report(String node, List<NodePools.Pool> pools);

    /**
     * Counts a report that was refused before it reached {@link #report} (malformed).
     */
    void countMalformed();

    /**
     * The latest report of a node.
     *
     * @param node node name
     * @return report, empty if none
     */
    Optional<NodePools> pools(String node);

    /**
     * Every node's latest report, by node name.
     *
     * @return reports
     */
    List<NodePools> all();

    /**
     * Age beyond which a report is stale: placement then falls back to CPU only.
     *
     * @return milliseconds
     */
    long maxAgeMillis();

    /**
     * The clock reports are stamped with (ages are measured on it).
     *
     * @return milliseconds
     */
    long nowMillis();

    /**
     * Reports stored, refused as malformed, refused for an unknown node.
     *
     * @return {accepted, malformed, unknownNode}
     */
    long[] counters();
}
