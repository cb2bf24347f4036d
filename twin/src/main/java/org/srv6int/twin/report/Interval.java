// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Mean and two-sided 95 % confidence interval of repeated measurements (Student's t, n - 1
 * degrees of freedom), NaN values (e.g. a chain that never recovered) counted apart.
 */
public final class Interval {
    /** t(0.975, df) for df = 1..30; above 30 the normal 1.96 is within 2 %. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};

    /** Mean of the finite values (NaN when none). */
    public final double mean;
    /** Half-width of the 95 % interval (NaN with fewer than two finite values). */
    public final double halfWidth;
    /** Finite values. */
    public final int n;
    /** NaN values left out. */
    public final int missing;

    private Interval(double mean, double halfWidth, int n, int missing) {
        this.mean = mean;
        this.halfWidth = halfWidth;
        this.n = n;
        this.missing = missing;
    }

    /** The interval of these values. */
    public static Interval of(List<Double> values) {
        double sum = 0;
        int n = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        int missing = values.size() - n;
        if (n == 0) {
            return new Interval(Double.NaN, Double.NaN, 0, missing);
        }
        double mean = sum / n;
        if (n == 1) {
            return new Interval(mean, Double.NaN, 1, missing);
        }
        double ss = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                ss += (v - mean) * (v - mean);
            }
        }
        double sd = Math.sqrt(ss / (n - 1));
        return new Interval(mean, t975(n - 1) * sd / Math.sqrt(n), n, missing);
    }

    /** t(0.975, df). */
    static double t975(int df) {
        return df <= T975.length ? T975[df - 1] : 1.96;
    }

    /** As a JSON object: mean, ci95 (half-width), n, missing. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mean", mean);
        m.put("ci95", halfWidth);
        m.put("n", n);
        m.put("missing", missing);
        return m;
    }
}
