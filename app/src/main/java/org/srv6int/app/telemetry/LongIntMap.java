// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import java.util.Arrays;

/**
 * Open-addressing long to int map for the hot path: lookups never allocate. Built once per
 * configuration change, then only read (safe to publish through a volatile reference).
 */
final class LongIntMap {

    private static final long EMPTY = -1L;

    private final long[] keys;
    private final int[] values;
    private final int mask;

    LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        mask = cap - 1;
        Arrays.fill(keys, EMPTY);
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    void put(long key, int value) {
        if (key < 0) {
            throw new IllegalArgumentException("negative key");
        }
        int i = mix(key) & mask;
        while (keys[i] != EMPTY && keys[i] != key) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
    }

    int get(long key, int missing) {
        int i = mix(key) & mask;
        while (true) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == EMPTY) {
                return missing;
            }
            i = (i + 1) & mask;
        }
    }
}
