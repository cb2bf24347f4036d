// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

/**
 * What one replica of a vNF type needs on a node to serve as profiled: CPU, LLC ways and a
 * memory-bandwidth share (0 = not known, not checked).
 */
public final class ResourceNeed {

    /** Nothing known. */
    public static final ResourceNeed NONE = new ResourceNeed(0, 0, 0);

    private final long cpuMillis;
    private final long llcWays;
    private final long memoryBandwidthPercent;

    /**
     * Creates a need.
     *
     * @param cpuMillis              CPU, millicores
     * @param llcWays                LLC ways
     * @param memoryBandwidthPercent memory-bandwidth share, percent
     */
    public ResourceNeed(long cpuMillis, long llcWays, long memoryBandwidthPercent) {
        this.cpuMillis = Math.max(0, cpuMillis);
        this.llcWays = Math.max(0, llcWays);
        this.memoryBandwidthPercent = Math.max(0, memoryBandwidthPercent);
    }

    /**
     * CPU, millicores.
     *
     * @return millicores, 0 if unknown
     */
    public long cpuMillis() {
        return cpuMillis;
    }

    /**
     * LLC ways.
     *
     * @return ways, 0 if unknown
     */
    public long llcWays() {
        return llcWays;
    }

    /**
     * Memory-bandwidth share.
     *
     * @return percent, 0 if unknown
     */
    public long memoryBandwidthPercent() {
        return memoryBandwidthPercent;
    }

    /**
     * Whether anything beyond CPU is known (only then do the node agents' pools matter).
     *
     * @return true if LLC or memory bandwidth is given
     */
    public boolean beyondCpu() {
        return llcWays > 0 || memoryBandwidthPercent > 0;
    }

    @Override
    public String toString() {
        return cpuMillis + "m/" + llcWays + " ways/" + memoryBandwidthPercent + " %";
    }
}
