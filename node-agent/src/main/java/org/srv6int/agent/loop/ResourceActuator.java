// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

import java.io.IOException;

/**
 * Applies allocations of one resource type to the vNFs of this node. The
 * loop keeps the allocations; an actuator only reads them back at start and
 * writes them, each write leaving the host in a valid state on its own.
 */
public interface ResourceActuator {

    /**
     * The resource this actuator moves.
     *
     * @return resource type
     */
    ResourceType type();

    /**
     * Reads vNF's current allocation back from the host (restart safety).
     *
     * @param vnf vNF index
     * @return allocation in {@link ResourceType#unit()}
     * @throws IOException if the host files cannot be read or parsed
     */
    long read(int vnf) throws IOException;

    /**
     * Applies a new allocation of vNF.
     *
     * @param vnf vNF index
     * @param value new allocation, already within the vNF's floor and ceiling
     * @param allocations every vNF's allocation after this change (LLC lays out masks from it)
     * @throws IOException if the host refused the write; the old allocation then stands
     */
    void write(int vnf, long value, long[] allocations) throws IOException;

    /**
     * Whether the allocation held the vNF back: the kernel's cumulative count of the vNF's
     * enforcement periods and of those in which it was throttled (cgroup {@code cpu.stat}
     * {@code nr_periods}, {@code nr_throttled}). Only a CPU quota has this signal.
     *
     * @param vnf vNF index
     * @return {periods, throttled periods}, or null if this actuator has no such signal
     * @throws IOException if the host has the signal but it cannot be read
     */
    default long[] throttling(int vnf) throws IOException {
        return null;
    }
}
