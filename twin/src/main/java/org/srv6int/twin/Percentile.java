// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import java.util.List;

/** Tail latency of a window of samples (nearest-rank, by selection, no full sort). */
public final class Percentile {
    private Percentile() {
    }

    /** The p-quantile (0..1) of the first n values of a; reorders a. NaN when n is 0. */
    public static double of(double[] a, int n, double p) {
        if (n == 0) {
            return Double.NaN;
        }
        int k = Math.min(n - 1, Math.max(0, (int) Math.ceil(p * n) - 1));
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            double pivot = a[(lo + hi) >>> 1];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (a[i] < pivot) {
                    i++;
                }
                while (a[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    double t = a[i];
                    a[i] = a[j];
                    a[j] = t;
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                break;
            }
        }
        return a[k];
    }

    /** The p-quantile of a list; NaN when empty. */
    public static double of(List<Double> values, double p) {
        double[] a = new double[values.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = values.get(i);
        }
        return of(a, a.length, p);
    }
}
