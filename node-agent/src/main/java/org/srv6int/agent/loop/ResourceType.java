// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

import java.util.Locale;

/**
 * The four resource types of Algorithm 3, in the order of its state machine
 * (the paper's T[i] = 1, 2, 3, 4).
 */
public enum ResourceType {
    /** CPU quota, in millicores (cgroup v2 cpu.max). */
    CPU_QUOTA("millicores"),
    /** Last-level cache ways (resctrl L3 capacity bitmask). */
    LLC("ways"),
    /** Memory bandwidth, percent of the domain's bandwidth (resctrl MB). */
    MEMORY_BANDWIDTH("percent"),
    /** Maximum CPU frequency of the vNF's cores, kHz (cpufreq scaling_max_freq). */
    CPU_FREQUENCY("kHz");

    private static final ResourceType[] VALUES = values();

    private final String unit;

    ResourceType(String unit) {
        this.unit = unit;
    }

    /**
     * Unit of allocations of this type.
     *
     * @return unit name
     */
    public String unit() {
        return unit;
    }

    /**
     * The paper's number of this type, T[i] in 1..4.
     *
     * @return 1 for CPU quota .. 4 for CPU frequency
     */
    public int paperIndex() {
        return ordinal() + 1;
    }

    /**
     * Bit of this type in a set of types.
     *
     * @return 1 &lt;&lt; ordinal
     */
    public int bit() {
        return 1 << ordinal();
    }

    /**
     * Algorithm 3: T[i] = (T[i] + 1) mod 4, skipping types the host does not
     * offer (the paper assumes all four exist).
     *
     * @param availableMask set of offered types ({@link #bit()} bits), not empty
     * @return the next offered type after this one, cyclically (this one if it is the only one)
     */
    public ResourceType next(int availableMask) {
        for (int k = 1; k <= VALUES.length; k++) {
            ResourceType t = VALUES[(ordinal() + k) % VALUES.length];
            if ((availableMask & t.bit()) != 0) {
                return t;
            }
        }
        throw new IllegalStateException("no resource type available");
    }

    /**
     * Lower-case name used in metrics and logs, e.g. {@code cpu_quota}.
     *
     * @return label value
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * All types.
     *
     * @return a new array of the four types, in state-machine order
     */
    public static ResourceType[] all() {
        return VALUES.clone();
    }
}
