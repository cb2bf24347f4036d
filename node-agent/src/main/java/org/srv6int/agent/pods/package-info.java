// SPDX-License-Identifier: Apache-2.0
/**
 * The agent's side of Kubernetes: follows the replica pods of its node (informer), turns
 * a pod into a managed vNF, resizes CPU through the pod's {@code resize} subresource,
 * publishes events, and calls a {@link org.srv6int.agent.pods.PodWiring} hook on
 * every pod it starts or stops managing.
 */
package org.srv6int.agent.pods;
