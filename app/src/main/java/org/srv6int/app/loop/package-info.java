// SPDX-License-Identifier: Apache-2.0
/**
 * Global closed loop (paper Algorithm 4): horizontal scaling of vNFs from INT telemetry.
 *
 * <p>{@link org.srv6int.app.loop.GlobalLoop} is plain Java with an injected clock and two ports
 * ({@link org.srv6int.app.api.ReplicaPlatform} towards Kubernetes,
 * {@link org.srv6int.app.loop.ChainRouting} towards the chain's multipath group) so that the
 * testbed twin can drive it in simulated time; the ONOS component only adds leadership and a
 * periodic tick.
 */
package org.srv6int.app.loop;
