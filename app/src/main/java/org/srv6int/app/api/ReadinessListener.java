// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.VnfKey;

/**
 * Told by a {@link ReplicaPlatform} when one of its replicas' readiness changes, as soon as the
 * platform sees it (the Kubernetes bridge's watch: a pod turned Ready or not Ready, a workload
 * appeared or is gone). Called on the platform's thread: return quickly.
 */
@FunctionalInterface
public interface ReadinessListener {

    /**
     * A replica's readiness changed.
     *
     * @param vnf       vNF
     * @param replicaId replica id
     * @param ready     whether its pod now exists and is Ready
     */
    void readinessChanged(VnfKey vnf, String replicaId, boolean ready);
}
