// SPDX-License-Identifier: Apache-2.0
/**
 * Cluster-wide state of the app in ONOS distributed stores (ConsistentMap): chains, the vNF
 * replica inventory, the loop's state and telemetry summaries. Stores only; the managers that
 * act on them live in their feature's package.
 */
package org.srv6int.app.store;
