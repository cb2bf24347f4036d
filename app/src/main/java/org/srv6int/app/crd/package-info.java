// SPDX-License-Identifier: Apache-2.0
/**
 * Chains declared as Kubernetes ServiceFunctionChain objects (docs/crd.md): the app's side of the
 * bridge's controller (org.srv6int.k8s.bridge.crd) — creating, updating and removing the chains,
 * their ownership, and the status and events from the loops.
 */
package org.srv6int.app.crd;
