// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

/**
 * The four resource types the local loop moves between co-located vNFs, in Algorithm 3's
 * order (CPU quota, LLC, memory bandwidth, CPU frequency), with their per-vNF limits, the
 * per-NUMA-node pool and the fixed step Algorithms 1 and 2 add or free.
 */
public enum Resource {
    /** CFS quota in cores (cgroup v2 cpu.max quota / period). */
    CPU_QUOTA(0.1, 10.0, 10.0, 0.25),
    /** Intel CAT L3 ways (resctrl schemata L3 mask bits); Xeon Silver 4210 has 11. */
    LLC_WAYS(1, 11, 11, 1),
    /** Intel MBA throttle in percent (resctrl schemata MB); the node's budget is 100. */
    MEM_BW_PCT(10, 100, 100, 10),
    /** Maximum core frequency in MHz (cpufreq scaling_max_freq); the node's power budget. */
    CPU_FREQ_MHZ(800, 2200, 7600, 100);

    private final double min;
    private final double max;
    private final double pool;
    private final double step;

    Resource(double min, double max, double pool, double step) {
        this.min = min;
        this.max = max;
        this.pool = pool;
        this.step = step;
    }

    /** Smallest value one vNF may hold. */
    public double min() {
        return min;
    }

    /** Largest value one vNF may hold. */
    public double max() {
        return max;
    }

    /** Total of this resource on one NUMA node, shared by its vNFs. */
    public double pool() {
        return pool;
    }

    /** Fixed amount added or freed per control action. */
    public double step() {
        return step;
    }

    /** The next type in Algorithm 3's rotation. */
    public Resource next() {
        Resource[] all = values();
        return all[(ordinal() + 1) % all.length];
    }
}
