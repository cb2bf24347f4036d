// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.window;

/**
 * A fixed window of N latency samples (ns) of one vNF. When the N-th sample
 * arrives the window computes L95, the 95th percentile by the nearest-rank
 * definition (the sample of rank ceil(0.95 N)), and starts over
 * (Algorithm 1 lines 5-6: "reset the packet counter").
 *
 * <p>A window can also be closed early by time ({@link #closeEarly}): the loop closes the window
 * of a vNF whose N samples take longer than its time cap, so a low-rate vNF is judged as often
 * as a fast one (docs/node-agent.md section 2, "Windows").
 *
 * <p>Selection runs in place on the window's own array (it is discarded
 * anyway), so the hot path allocates nothing. Not thread-safe: one capture
 * thread feeds a window.
 */
public final class LatencyWindow {

    /** The paper's window size. */
    public static final int DEFAULT_N = 1500;

    private final long[] samples;
    private final int rankIndex;
    private int count;

    /**
     * Creates a window of n samples.
     *
     * @param n window size, at least 1
     */
    public LatencyWindow(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("window size must be >= 1, got " + n);
        }
        this.samples = new long[n];
        this.rankIndex = percentileIndex(n, 95);
    }

    /**
     * Index (0-based) in sorted order of the nearest-rank p-th percentile of n samples.
     *
     * @param n sample count
     * @param p percentile, 1..100
     * @return index in [0, n)
     */
    public static int percentileIndex(int n, int p) {
        // ceil(p * n / 100) - 1 in integer arithmetic
        int rank = (int) ((p * (long) n + 99) / 100);
        return Math.max(0, Math.min(n - 1, rank - 1));
    }

    /**
     * Adds one sample.
     *
     * @param latencyNs latency in ns (non-negative)
     * @return L95 in ns when this sample completed the window, else -1
     */
    public long add(long latencyNs) {
        samples[count++] = latencyNs;
        if (count < samples.length) {
            return -1;
        }
        count = 0;
        return Selection.select(samples, samples.length, rankIndex);
    }

    /**
     * Closes the current window before it is full: its L95 over the samples it has, nearest rank
     * as for a full window, and starts over.
     *
     * @param minSamples fewest samples that make a window, at least 1
     * @return L95 in ns, or -1 (and nothing changes) when fewer than minSamples are recorded
     */
    public long closeEarly(int minSamples) {
        if (count < Math.max(1, minSamples)) {
            return -1;
        }
        int k = count;
        count = 0;
        return Selection.select(samples, k, percentileIndex(k, 95));
    }

    /**
     * Samples recorded in the current (incomplete) window.
     *
     * @return count in [0, N)
     */
    public int count() {
        return count;
    }

    /**
     * Window size N.
     *
     * @return N
     */
    public int size() {
        return samples.length;
    }

    /** Drops the samples of the current window (e.g. after a resource change). */
    public void reset() {
        count = 0;
    }
}
