// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import java.util.Arrays;

/**
 * The interference matrix as learned so far, as kept in the cluster's store so that a new leader
 * goes on from it instead of the paper's seed: per (target, competitor) pair of {@link VnfClass}es,
 * row-major by ordinal, the current normalized throughput and how many observations moved it.
 */
public final class LearnedInterference {

    private static final int CELLS = VnfClass.values().length * VnfClass.values().length;

    private final double[] values;
    private final long[] samples;

    /**
     * Creates the snapshot.
     *
     * @param values  normalized throughput per pair, row-major (target, competitor)
     * @param samples observations per pair, same order
     * @throws IllegalArgumentException if either does not have one entry per pair
     */
    public LearnedInterference(double[] values, long[] samples) {
        if (values.length != CELLS || samples.length != CELLS) {
            throw new IllegalArgumentException("learned interference needs " + CELLS + " values and samples, got "
                    + values.length + " and " + samples.length);
        }
        this.values = values.clone();
        this.samples = samples.clone();
    }

    /**
     * Returns a pair's normalized throughput.
     *
     * @param target     target class
     * @param competitor competitor class
     * @return value
     */
    public double value(VnfClass target, VnfClass competitor) {
        return values[index(target, competitor)];
    }

    /**
     * Returns how many observations moved a pair.
     *
     * @param target     target class
     * @param competitor competitor class
     * @return observations
     */
    public long samples(VnfClass target, VnfClass competitor) {
        return samples[index(target, competitor)];
    }

    private static int index(VnfClass target, VnfClass competitor) {
        return target.ordinal() * VnfClass.values().length + competitor.ordinal();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof LearnedInterference)) {
            return false;
        }
        LearnedInterference that = (LearnedInterference) o;
        return Arrays.equals(values, that.values) && Arrays.equals(samples, that.samples);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(values) + Arrays.hashCode(samples);
    }

    @Override
    public String toString() {
        return "LearnedInterference" + Arrays.toString(values) + " samples " + Arrays.toString(samples);
    }
}
