package org.srv6int.k8s.agent.window;

/**
 * In-place k-th smallest selection (Hoare's quickselect with median-of-three
 * pivots and an insertion sort for short ranges), the nth_element idea: O(n)
 * expected instead of a full O(n log n) sort, and no allocation.
 */
public final class Selection {

    private static final int INSERTION_LIMIT = 16;

    private Selection() {
    }

    /**
     * Reorders {@code a[0..n)} so that {@code a[k]} holds the value it would
     * have if the range were sorted, and returns it.
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
        int lo = 0;
        int hi = n - 1;
        while (hi - lo > INSERTION_LIMIT) {
            int mid = (lo + hi) >>> 1;
            // median of three to a[mid], with a[lo] <= a[mid] <= a[hi]
            if (a[mid] < a[lo]) {
                swap(a, mid, lo);
            }
            if (a[hi] < a[lo]) {
                swap(a, hi, lo);
            }
            if (a[hi] < a[mid]) {
                swap(a, hi, mid);
            }
            long pivot = a[mid];
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
                    swap(a, i, j);
                    i++;
                    j--;
                }
            }
            // now a[lo..j] <= pivot <= a[i..hi], and a[j+1..i-1] == pivot
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return a[k];
            }
        }
        for (int x = lo + 1; x <= hi; x++) {
            long v = a[x];
            int y = x - 1;
            while (y >= lo && a[y] > v) {
                a[y + 1] = a[y];
                y--;
            }
            a[y + 1] = v;
        }
        return a[k];
    }

    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
