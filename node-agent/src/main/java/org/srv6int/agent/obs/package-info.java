// SPDX-License-Identifier: Apache-2.0
/**
 * Observability and escalation: Prometheus text endpoint, JSON-lines
 * decision log, and the escalation client that tells the ONOS app when the
 * local loop has tried every resource type.
 */
package org.srv6int.agent.obs;
