// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.numa;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Offered rates of the experiment's chains, one value per second, between 1 and 10 Gbps.
 * The paper takes them from real traces ([28], "generalized to 10 Gbps") that are not
 * published; these are seeded stand-ins of the same kind: a slow swing (period 40-120 s)
 * around a per-chain level, plus correlated noise, so chains rise and fall past each other;
 * like the paper's, each trace is scaled so its peak is 10 Gbps.
 */
public final class NumaTraffic {

    /** Lowest offered rate, Gbps (the paper's range 1-10 Gbps). */
    public static final double MIN_GBPS = 1;
    /** Highest offered rate, Gbps. */
    public static final double MAX_GBPS = 10;

    private NumaTraffic() {
    }

    /**
     * Rates of n chains over a number of seconds.
     *
     * @param rnd seeded source
     * @param chains number of chains
     * @param seconds intervals
     * @return [chain][second] Gbps
     */
    public static double[][] traces(Random rnd, int chains, int seconds) {
        double[][] out = new double[chains][seconds];
        for (int i = 0; i < chains; i++) {
            double level = 3 + 5 * rnd.nextDouble();
            double amplitude = 1.5 + 2.5 * rnd.nextDouble();
            double period = 40 + 80 * rnd.nextDouble();
            double phase = 2 * Math.PI * rnd.nextDouble();
            double noise = 0;
            double peak = 0;
            for (int t = 0; t < seconds; t++) {
                noise = 0.8 * noise + 0.4 * rnd.nextGaussian();
                out[i][t] = Math.max(0, level + amplitude * Math.sin(2 * Math.PI * t / period + phase) + noise);
                peak = Math.max(peak, out[i][t]);
            }
            for (int t = 0; t < seconds; t++) {
                out[i][t] = Math.max(MIN_GBPS, out[i][t] * MAX_GBPS / peak);
            }
        }
        return out;
    }

    /**
     * vNF types of n chains of a length, drawn from the profiled types.
     *
     * @param rnd seeded source
     * @param chains number of chains
     * @param length vNFs per chain
     * @param types profiled types
     * @return types per chain
     */
    public static List<List<String>> chainTypes(Random rnd, int chains, int length, List<String> types) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < chains; i++) {
            List<String> c = new ArrayList<>();
            for (int k = 0; k < length; k++) {
                c.add(types.get(rnd.nextInt(types.size())));
            }
            out.add(List.copyOf(c));
        }
        return out;
    }
}
