// SPDX-License-Identifier: Apache-2.0
/**
 * The simulated hardware: vNF service rates as a function of the four resources and of
 * contention, packet queues, links and switches. The controllers never see this package's
 * parameters; they only see latency samples and the resource files they write.
 */
package org.srv6int.twin.model;
