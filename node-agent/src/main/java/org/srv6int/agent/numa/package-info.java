// SPDX-License-Identifier: Apache-2.0
/**
 * NUMASFP (Chintapalli et al., numasfp.txt): a chain's vNFs on one NUMA node, preferring the
 * NIC's node; one resctrl group per chain holding its LLC ways and memory bandwidth together
 * (Max_alloc, Fig. 7: either alone is not enough); migration of a chain between NUMA nodes
 * after a number of consecutive violations, swapping with a chain of the NIC's node when that
 * helps (Algorithms 1 and 2), with a guard against ping-pong. {@link org.srv6int.agent.numa.NumaSfp}
 * is the placement engine (no I/O; the twin runs it too), {@link org.srv6int.agent.numa.NumaHost}
 * applies its decisions to cpusets and resctrl.
 */
package org.srv6int.agent.numa;
