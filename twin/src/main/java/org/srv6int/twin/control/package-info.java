// SPDX-License-Identifier: Apache-2.0
/**
 * Control side of the twin: the node agent on each simulated worker (its Algorithms 1-3 and
 * actuators, {@link org.srv6int.twin.control.NodeAgentOnWorker}), the VPA-like baseline, and the
 * app's own global part hosted in simulated time ({@link org.srv6int.twin.control.AppControl}:
 * chains, inventory, placement, flow programming; {@link org.srv6int.twin.control.GlobalControl}:
 * INT reports over UDP into the app's collector and the app's global loop;
 * {@link org.srv6int.twin.control.SimulatedPlatform}: a simulated Kubernetes;
 * {@link org.srv6int.twin.control.PathTracer}: paths read off the switches). Each part sees only
 * what the real part would see: latency samples, INT reports and the kernel files it writes.
 */
package org.srv6int.twin.control;
