// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.window;

import org.junit.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.Assert.assertEquals;

public class SelectionTest {

    @Test
    public void selectMatchesSortOnRandomAndAdversarialInputs() {
        Random rnd = new Random(42);
        for (int round = 0; round < 500; round++) {
            int n = 1 + rnd.nextInt(2000);
            long[] a = new long[n];
            int shape = round % 5;
            for (int i = 0; i < n; i++) {
                switch (shape) {
                    case 0: a[i] = rnd.nextInt(); break;
                    case 1: a[i] = rnd.nextInt(4); break;          // many duplicates
                    case 2: a[i] = i; break;                        // sorted
                    case 3: a[i] = n - i; break;                    // reversed
                    default: a[i] = (long) (Math.exp(rnd.nextGaussian()) * 1e5); // long tail
                }
            }
            long[] sorted = a.clone();
            Arrays.sort(sorted);
            int k = rnd.nextInt(n);
            assertEquals("round " + round + " n=" + n + " k=" + k, sorted[k], Selection.select(a.clone(), n, k));
        }
    }

    @Test
    public void percentileIndexIsNearestRank() {
        assertEquals(1424, LatencyWindow.percentileIndex(1500, 95)); // rank 1425 of 1500
        assertEquals(94, LatencyWindow.percentileIndex(100, 95));
        assertEquals(0, LatencyWindow.percentileIndex(1, 95));
        assertEquals(18, LatencyWindow.percentileIndex(20, 95)); // rank ceil(19.0) = 19
    }

    @Test
    public void windowReportsL95EveryNSamplesAndResets() {
        LatencyWindow w = new LatencyWindow(1500);
        long[] samples = new long[1500];
        Random rnd = new Random(7);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 1500; i++) {
                samples[i] = 1000 + rnd.nextInt(100_000);
                long r = w.add(samples[i]);
                if (i < 1499) {
                    assertEquals(-1, r);
                } else {
                    long[] s = samples.clone();
                    Arrays.sort(s);
                    assertEquals(s[1424], r);
                }
            }
            assertEquals(0, w.count());
        }
    }

    @Test(expected = IllegalArgumentException.class)
    public void rejectsEmptyWindow() {
        new LatencyWindow(0);
    }
}
