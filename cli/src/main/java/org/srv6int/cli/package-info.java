// SPDX-License-Identifier: Apache-2.0
/**
 * ONOS shell commands of the SRv6-INT SFC app: sfc-add, sfc-remove, sfcs,
 * sfc-paths, vnfs, int-stats, loop-status, loop-decisions, with completers
 * for chain ids; every listing command prints JSON with -j.
 */
package org.srv6int.cli;
