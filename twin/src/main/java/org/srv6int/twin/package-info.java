// SPDX-License-Identifier: Apache-2.0
/**
 * Testbed twin: the paper's four-switch, two-worker testbed in simulated time.
 * Hardware (vNF service rates, contention, links, switch queues) is modelled here;
 * the control loops run against narrow interfaces at each boundary.
 */
package org.srv6int.twin;
