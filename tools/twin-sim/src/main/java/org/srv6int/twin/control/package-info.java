/**
 * Control side of the twin's boundaries: the local loop (Algorithms 1-3), the VPA-like
 * baseline, the global loop (Algorithm 4) and the orchestrator stand-in (placement, replica
 * manager, multipath routing). Each sees only what the real part would see: latency samples,
 * INT samples and the resource values it writes.
 */
package org.srv6int.twin.control;
