// SPDX-License-Identifier: Apache-2.0
/**
 * {@code --k8s real}: the app's Kubernetes replica platform (the bridge) against a real
 * control plane with kwok nodes for the twin's workers, its pod start-up delay set by a kwok
 * Stage, and simulated time held to wall time while a replica is being created or deleted
 * (docs/twin.md, "--k8s real").
 */
package org.srv6int.twin.k8s;
