// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** The amounts of the four resources one vNF instance holds (mutable, owned by its host). */
public final class Allocation {
    private final EnumMap<Resource, Double> values = new EnumMap<>(Resource.class);

    /**
     * Creates an allocation.
     *
     * @param cpuQuota cores
     * @param llcWays LLC ways
     * @param memBwPct MBA percent
     * @param cpuFreqMhz MHz
     */
    public Allocation(double cpuQuota, double llcWays, double memBwPct, double cpuFreqMhz) {
        values.put(Resource.CPU_QUOTA, cpuQuota);
        values.put(Resource.LLC_WAYS, llcWays);
        values.put(Resource.MEM_BW_PCT, memBwPct);
        values.put(Resource.CPU_FREQ_MHZ, cpuFreqMhz);
    }

    /** Copy. */
    public Allocation copy() {
        return new Allocation(get(Resource.CPU_QUOTA), get(Resource.LLC_WAYS),
                get(Resource.MEM_BW_PCT), get(Resource.CPU_FREQ_MHZ));
    }

    /** Amount of one resource. */
    public double get(Resource r) {
        return values.get(r);
    }

    /** Sets one resource, clamped to its per-vNF limits. */
    public void set(Resource r, double v) {
        values.put(r, Math.max(r.min(), Math.min(r.max(), v)));
    }

    /** Read-only view. */
    public Map<Resource, Double> asMap() {
        return Collections.unmodifiableMap(values);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
