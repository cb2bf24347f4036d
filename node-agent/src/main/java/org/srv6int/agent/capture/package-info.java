// SPDX-License-Identifier: Apache-2.0
/**
 * Latency source: SRv6-INT packets captured on the server's NIC (or read
 * from a pcap file) through pcap4j/libpcap with a BPF filter, decoded by the
 * project's codec, mapped to a vNF by IPv6 destination (the replica's SID)
 * and fed to the local loop.
 */
package org.srv6int.agent.capture;
