// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.numa;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.Locale;

/**
 * The agent config's {@code numa} block: NUMASFP on or off and its knobs. Off by default;
 * on, it takes over LLC ways and memory bandwidth (per chain instead of per vNF) and the
 * vNFs' cpusets from the local loop, which keeps CPU quota and frequency.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public final class NumaConfig {
    /** Run NUMASFP on this node. */
    public boolean enabled;
    /** Alg. 1 max_limit: a remote chain moves after more consecutive violating intervals than this. */
    public int maxViolations = 3;
    /** Intervals a moved chain stays where it is (ping-pong guard). */
    public int holdIntervals = 10;
    /** Least predicted gain of a move, Gbps. */
    public double minGainGbps = 0.5;
    /** Length of one interval, ms. */
    public long intervalMs = 1000;
    /** Bytes per packet to turn the packet rate the agent sees into Gbps for the profile (paper: 64 B). */
    public int frameBytes = 64;

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException naming the bad one
     */
    public void validate() {
        if (intervalMs < 10 || frameBytes < 1) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "numa.intervalMs must be >= 10 and numa.frameBytes >= 1, got %d and %d", intervalMs, frameBytes));
        }
        settings().validate();
    }

    /**
     * The engine's settings.
     *
     * @return settings
     */
    public NumaSfp.Settings settings() {
        NumaSfp.Settings s = new NumaSfp.Settings();
        s.maxViolations = maxViolations;
        s.holdIntervals = holdIntervals;
        s.minGainGbps = minGainGbps;
        return s;
    }
}
