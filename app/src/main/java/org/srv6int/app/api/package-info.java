// SPDX-License-Identifier: Apache-2.0
/**
 * Northbound service interfaces of the SRv6-INT SFC app (chains, inventory, paths, telemetry,
 * the global loop, node pools) with their events and listeners, and the replica platform SPI
 * the Kubernetes bridge implements. The values they take and return are in {@code api.model}.
 */
package org.srv6int.app.api;
