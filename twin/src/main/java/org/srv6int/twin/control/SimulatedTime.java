// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

/**
 * A part that lives in the twin's simulated time: the runner tells it, every tick, how far
 * simulated time has got. A simulated platform completes its pod start-ups from it; a real one
 * (a Kubernetes control plane) may hold the simulation back while it is still working.
 */
public interface SimulatedTime {

    /**
     * Simulated time has reached {@code nowS}.
     *
     * @param nowS seconds since the start of the experiment
     */
    void advanceTo(double nowS);
}
