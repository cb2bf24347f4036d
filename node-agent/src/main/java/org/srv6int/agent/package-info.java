// SPDX-License-Identifier: Apache-2.0
/**
 * The SRv6-INT node agent: the local closed loop of the paper (§IV-B) as a
 * daemon on each Kubernetes worker. It reads the Detection Result of the
 * SRv6-INT packets that reach the server's NIC, keeps a window of N latency
 * samples per vNF, and moves CPU quota, LLC ways, memory bandwidth and CPU
 * frequency between the co-located vNFs (Algorithms 1-3); when every
 * resource type was tried it tells the ONOS app.
 */
package org.srv6int.agent;
