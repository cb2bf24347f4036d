// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

import java.util.Locale;

/**
 * Which performance model gives a vNF its per-packet service time (docs/twin.md section 2):
 * the paper-calibrated one of {@link VnfType} (default) or the one measured on this project's
 * real vNFs ({@link MeasuredCurves}, {@code tools/twin ... --vnf-models measured}). The one place
 * a vNF instance asks for its service time.
 */
public enum VnfModels {
    /** The paper-calibrated cycle model of {@link VnfType}. */
    ASSUMED,
    /** Per-packet CPU cost vs CPU quota measured on vnf/ (docs/lab.md "curves"). */
    MEASURED;

    private static volatile VnfModels selected = ASSUMED;

    /** Selects the model every vNF instance uses from now on (set once, before a run). */
    public static void select(VnfModels m) {
        selected = m;
    }

    /** The selected model. */
    public static VnfModels selected() {
        return selected;
    }

    /** Parses assumed|measured. */
    public static VnfModels parse(String s) {
        for (VnfModels m : values()) {
            if (m.name().equalsIgnoreCase(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("--vnf-models must be assumed or measured, got '" + s + "'");
    }

    /** Lower-case name, as the command line writes it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Service time of one packet on one core, microseconds, without contention.
     *
     * @param t vNF type
     * @param a its allocation (CPU quota, LLC ways, memory bandwidth, frequency)
     * @param sizeBytes frame size
     * @return microseconds of one core per packet
     */
    public double serviceTimeUs(VnfType t, Allocation a, int sizeBytes) {
        if (this == ASSUMED) {
            return t.serviceTimeUs(a, sizeBytes);
        }
        return MeasuredCurves.instance().serviceTimeUs(t, a, sizeBytes);
    }
}
