// SPDX-License-Identifier: Apache-2.0
/**
 * Placement of vNF replicas and computation of a chain's segment lists over
 * the ONOS topology: the longest-common-subsequence method of Fang et al.
 * (see docs/placement.md), one segment list per combination of replicas that
 * carry traffic, with multipath weights; and the NUMA node of a new replica on
 * its server ({@code NumaPlacement}, docs/numasfp.md).
 */
package org.srv6int.app.placement;
