// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.window;

/**
 * In-place k-th smallest selection, the nth_element idea: O(n) expected
 * instead of a full O(n log n) sort, and no allocation. It is Floyd and
 * Rivest's SELECT (CACM 18(3), 1975): on a range larger than 600 it first
 * selects within a small sample-sized sub-range around k, so the partition
 * that follows has a pivot very close to the answer; for the 95th percentile
 * of 1500 samples that needs about n + 0.05 n comparisons instead of the
 * 2n-3n of a plain quickselect.
 */
public final class Selection {

    private static final int SAMPLE_ABOVE = 600;

    private Selection() {
    }

    /**
     * Reorders {@code a[0..n)} so that {@code a[k]} holds the value it would
     * have if the range were sorted, everything before it is not larger and
     * everything after it not smaller, and returns it.
     *
     * @param a values
     * @param n length of the range to consider
     * @param k wanted rank, 0-based, in [0, n)
     * @return the k-th smallest value
     */
    public static long select(long[] a, int n, int k) {
        if (k < 0 || k >= n || n > a.length) {
            throw new IllegalArgumentException("bad rank " + k + " of " + n);
        }
        select(a, 0, n - 1, k);
        return a[k];
    }

    private static void select(long[] a, int left, int right, int k) {
        while (right > left) {
            if (right - left > SAMPLE_ABOVE) {
                // narrow to a range that holds a[k] with high probability, recursively
                int n = right - left + 1;
                int i = k - left + 1;
                double z = Math.log(n);
                double s = 0.5 * Math.exp(2 * z / 3);
                double sd = 0.5 * Math.sqrt(z * s * (n - s) / n) * Math.signum(i - n / 2.0);
                int newLeft = Math.max(left, (int) Math.floor(k - i * s / n + sd));
                int newRight = Math.min(right, (int) Math.floor(k + (n - i) * s / n + sd));
                select(a, newLeft, newRight, k);
            }
            long t = a[k];
            int i = left;
            int j = right;
            swap(a, left, k);
            if (a[right] > t) {
                swap(a, right, left);
            }
            while (i < j) {
                swap(a, i, j);
                i++;
                j--;
                while (a[i] < t) {
                    i++;
                }
                while (a[j] > t) {
                    j--;
                }
            }
            if (a[left] == t) {
                swap(a, left, j);
            } else {
                j++;
                swap(a, j, right);
            }
            if (j <= k) {
                left = j + 1;
            }
            if (k <= j) {
                right = j - 1;
            }
        }
    }

    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
