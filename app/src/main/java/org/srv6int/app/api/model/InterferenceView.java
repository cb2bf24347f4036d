// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * A snapshot of the interference matrix: for a target vNF class and a co-located competitor
 * class, the target's normalized throughput (its throughput next to the competitor over its
 * throughput alone, vnf-interference.txt Fig. 3), as seeded from the paper and as learned since.
 */
public final class InterferenceView {

    private final Map<VnfClass, Map<VnfClass, Double>> seed;
    private final Map<VnfClass, Map<VnfClass, Double>> current;
    private final Map<VnfClass, Map<VnfClass, Long>> samples;

    /**
     * Creates a snapshot.
     *
     * @param seed    the paper's values, target to competitor to normalized throughput
     * @param current the values now (seed moved by what telemetry showed)
     * @param samples telemetry samples that moved each value
     */
    public InterferenceView(Map<VnfClass, Map<VnfClass, Double>> seed, Map<VnfClass, Map<VnfClass, Double>> current,
                            Map<VnfClass, Map<VnfClass, Long>> samples) {
        this.seed = copy(seed);
        this.current = copy(current);
        this.samples = copy(samples);
    }

    private static <T> Map<VnfClass, Map<VnfClass, T>> copy(Map<VnfClass, Map<VnfClass, T>> m) {
        Map<VnfClass, Map<VnfClass, T>> out = new EnumMap<>(VnfClass.class);
        m.forEach((k, v) -> out.put(k, Collections.unmodifiableMap(new EnumMap<>(v))));
        return Collections.unmodifiableMap(out);
    }

    /**
     * Returns the target's normalized throughput next to the competitor now.
     *
     * @param target     target class
     * @param competitor competitor class
     * @return in (0, 1]
     */
    public double normalized(VnfClass target, VnfClass competitor) {
        return current.get(target).get(competitor);
    }

    /**
     * Returns the paper's value for the pair.
     *
     * @param target     target class
     * @param competitor competitor class
     * @return in (0, 1]
     */
    public double seed(VnfClass target, VnfClass competitor) {
        return seed.get(target).get(competitor);
    }

    /**
     * Returns how many telemetry samples moved the pair's value.
     *
     * @param target     target class
     * @param competitor competitor class
     * @return samples
     */
    public long samples(VnfClass target, VnfClass competitor) {
        return samples.get(target).get(competitor);
    }
}
