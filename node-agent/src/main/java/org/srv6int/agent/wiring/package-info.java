// SPDX-License-Identifier: Apache-2.0
/**
 * SID to pod wiring on the worker, as in the paper: an Open vSwitch bridge
 * between the NIC that faces the switch and the vNF pods' interfaces, with
 * OpenFlow rules that send a packet whose IPv6 destination is a replica's SID
 * to that replica's pod and send what the pod returns back to the switch
 * port. The agent owns these rules (cookie-tagged): it adds, removes and
 * repairs them ({@link org.srv6int.agent.wiring.OvsSidWiring#reconcile()})
 * through the {@code ovs-vsctl} and {@code ovs-ofctl} programs.
 */
package org.srv6int.agent.wiring;
