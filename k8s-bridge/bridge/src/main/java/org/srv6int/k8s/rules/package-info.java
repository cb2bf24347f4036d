// SPDX-License-Identifier: Apache-2.0
/**
 * Kubernetes' naming and quantity rules for a replica's template, apart from the bridge's client
 * so that the app's netcfg checks can use them without depending on the adapter.
 */
package org.srv6int.k8s.rules;
