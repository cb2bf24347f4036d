// SPDX-License-Identifier: Apache-2.0
/**
 * The node agents' resource pools as the app keeps them (docs/global-loop.md, "Pools"): each
 * agent's periodic report, stored per node in the cluster's store, read by the global loop's
 * placement.
 */
package org.srv6int.app.pools;
