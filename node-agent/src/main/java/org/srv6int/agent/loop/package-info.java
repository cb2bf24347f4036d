// SPDX-License-Identifier: Apache-2.0
/**
 * The local closed loop of the paper (§IV-B): Algorithm 1 (per-vNF L95 and
 * slack, add or free a resource), Algorithm 2 (free a step from the vNF with
 * the largest slack, revert if it then breaks its bound) and Algorithm 3 (the
 * resource-equivalence state machine CPU quota, LLC, memory bandwidth, CPU
 * frequency).
 */
package org.srv6int.agent.loop;
