// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.VnfClass;
import org.srv6int.app.api.model.VnfKey;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which vNF classes run on each node, for interference-aware placement (the app's inventory and
 * chains in ONOS, the model in the testbed twin).
 */
public interface NodeResidents {

    /**
     * Returns the classes of the replicas on each node (one entry per replica; replicas of an
     * unknown class left out).
     *
     * @return node name to classes
     */
    Map<String, List<VnfClass>> classesByNode();

    /**
     * Returns the class of a vNF.
     *
     * @param vnf vNF
     * @return its class, empty if its type is not a known one
     */
    Optional<VnfClass> classOf(VnfKey vnf);
}
