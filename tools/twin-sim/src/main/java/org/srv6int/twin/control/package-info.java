/**
 * Control side of the twin's boundaries: the node agent on each simulated worker (its
 * Algorithms 1-3 and actuators, {@link org.srv6int.twin.control.NodeAgentOnWorker}), the VPA-like
 * baseline, the global loop (Algorithm 4) and the orchestrator stand-in (placement, replica
 * manager, multipath routing). Each sees only what the real part would see: latency samples,
 * INT samples and the kernel files it writes.
 */
package org.srv6int.twin.control;
