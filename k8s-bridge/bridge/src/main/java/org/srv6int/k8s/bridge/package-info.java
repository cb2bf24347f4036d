// SPDX-License-Identifier: Apache-2.0
/**
 * Kubernetes bridge of the global loop: creates, scales and removes vNF replicas as
 * pods owned by StatefulSets the bridge names deterministically, and reports each
 * node's free resources so new replicas go to the servers with the most room.
 *
 * <p>{@link org.srv6int.k8s.bridge.VnfReplicaManager} is the service; the fabric8
 * implementation is {@link org.srv6int.k8s.bridge.Fabric8VnfReplicaManager}.
 * The bundle does not depend on the ONOS app: the app depends on it.
 */
package org.srv6int.k8s.bridge;
