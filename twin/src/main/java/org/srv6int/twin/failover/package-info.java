// SPDX-License-Identifier: Apache-2.0
/**
 * Issue 18's twin scenarios: a dead replica and a rescale under many flows, packet by packet
 * through the emulated switches, with the app's bucket tables, drain by flows and failure
 * detection.
 */
package org.srv6int.twin.failover;
