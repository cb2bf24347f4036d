// SPDX-License-Identifier: Apache-2.0
/**
 * SRv6-INT SFC: service function chains steered with SRv6 whose switches write in-band
 * telemetry into the SRH. {@code api} holds the services and types; {@code config} the
 * netcfg; {@code program} the P4 flow programming; {@code telemetry} the INT collector and
 * its windows; {@code loop} the global loop (Algorithm 4: horizontal scaling through the
 * Kubernetes bridge); {@code placement} segment lists and LCS path selection; {@code store}
 * the distributed state; {@code rest} and {@code gui} the operator's northbound.
 */
package org.srv6int.app;
