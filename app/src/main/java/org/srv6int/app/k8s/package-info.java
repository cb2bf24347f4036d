// SPDX-License-Identifier: Apache-2.0
/**
 * The app's edge towards Kubernetes: the global loop's replica platform over the bridge
 * (workloads with deterministic names, each carrying its replica's identity), built from netcfg,
 * and the sweep that keeps the cluster's workloads in step with the chains and replicas.
 */
package org.srv6int.app.k8s;
