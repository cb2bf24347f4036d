// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

/**
 * The four vNF types of the paper's testbed and their hidden performance model
 * (docs/twin.md section 2). The controllers never read these numbers.
 *
 * <p>Per-packet service time on one core, in microseconds:
 * {@code s = (c0 + c1*size)/f + misses * missRatio(w) * tMem(m)/1000}, with
 * {@code missRatio(w) = floor + (1-floor)*exp(-w/W)} and {@code tMem(m) = 90 ns * (100/m)^0.8}.
 * Contention with co-located vNFs scales the rate by {@code 1 - d*X*(1 - iso/2)} where d is the
 * type's degradation from vnf-interference.txt Table III.
 */
public enum VnfType {
    /** OVS forwarding; Table III type I (gateway). CPU- and frequency-bound, light. */
    FWD("Fwd", 2600, 0.4, 3, 1.0, 0.10, 0.1236, 0.5, 30),
    /** Snort IDS; Table III type III (NIDS). Heavy on cycles: CPU quota matters most. */
    SNORT("Snort", 29000, 10, 50, 4.0, 0.15, 0.3593, 1.0, 45),
    /** nDPI deep packet inspection; Table III type III (DPI). Memory-bound: LLC and MBA. */
    NDPI("nDPI", 4000, 5, 30, 5.0, 0.15, 0.3593, 1.0, 40),
    /** ntopng monitoring; Table III type II (monitor), the most sensitive to co-location. */
    NTOPNG("ntopng", 4000, 4, 25, 3.0, 0.10, 0.5031, 0.8, 40);

    private final String label;
    private final double c0;
    private final double c1;
    private final double misses;
    private final double workingSetWays;
    private final double missFloor;
    private final double degradation;
    private final double aggressiveness;
    private final double baseUs;

    VnfType(String label, double c0, double c1, double misses, double workingSetWays,
            double missFloor, double degradation, double aggressiveness, double baseUs) {
        this.label = label;
        this.c0 = c0;
        this.c1 = c1;
        this.misses = misses;
        this.workingSetWays = workingSetWays;
        this.missFloor = missFloor;
        this.degradation = degradation;
        this.aggressiveness = aggressiveness;
        this.baseUs = baseUs;
    }

    /** Name as the paper writes it. */
    public String label() {
        return label;
    }

    /** Parses Fwd/Snort/nDPI/ntopng, case-insensitive. */
    public static VnfType parse(String s) {
        for (VnfType t : values()) {
            if (t.label.equalsIgnoreCase(s) || t.name().equalsIgnoreCase(s)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown vNF type '" + s + "' (Fwd, Snort, nDPI, ntopng)");
    }

    /** Service time of one packet on one core, microseconds, without contention. */
    public double serviceTimeUs(Allocation a, int sizeBytes) {
        double cycles = c0 + c1 * sizeBytes;
        double computeUs = cycles / a.get(Resource.CPU_FREQ_MHZ);
        double ways = a.get(Resource.LLC_WAYS);
        double missRatio = missFloor + (1 - missFloor) * Math.exp(-ways / workingSetWays);
        double tMemNs = 90.0 * Math.pow(100.0 / a.get(Resource.MEM_BW_PCT), 0.8);
        return computeUs + misses * missRatio * tMemNs / 1000.0;
    }

    /**
     * Isolation in [0, 1] a vNF gets from its own LLC ways and memory bandwidth: a dedicated
     * share halves the cache/memory part of the interference (the other half is network I/O,
     * vnf-interference.txt section IV-B).
     */
    public double isolation(Allocation a) {
        double ways = Math.min(1.0, a.get(Resource.LLC_WAYS) / workingSetWays);
        double bw = Math.min(1.0, a.get(Resource.MEM_BW_PCT) / 40.0);
        return 0.5 * ways + 0.5 * bw;
    }

    /** Rate multiplier in (0, 1] under interference pressure x in [0, 1]. */
    public double contentionFactor(double pressure, Allocation a) {
        return 1.0 - degradation * Math.min(1.0, pressure) * (1.0 - 0.5 * isolation(a));
    }

    /** How much pressure one busy core of this type puts on its neighbours. */
    public double aggressiveness() {
        return aggressiveness;
    }

    /** Fixed part of a packet's trip through the server (NIC, OVS, veth, both ways), microseconds. */
    public double baseUs() {
        return baseUs;
    }
}
