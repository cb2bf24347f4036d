// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

/**
 * The kernel's CFS bandwidth accounting of one vNF's cgroup, on the fluid model: what its
 * {@code cpu.stat} counts ({@code usage_usec}, {@code nr_periods}, {@code nr_throttled}).
 *
 * <p>Per enforcement period (the period of the pod's {@code cpu.max}): the period counts in
 * {@code nr_periods} when the vNF had work in it (a backlog at its start or arrivals during it;
 * the kernel's period timer idles while the group has nothing to run), and in
 * {@code nr_throttled} when that work exceeded what its quota serves in one period (the quota ran
 * out with work left; the kernel throttles the group then). Work and quota are both in packets:
 * the backlog at the period's start plus the arrivals in it, against the service capacity
 * (quota × packets per core, contention included) summed over the period's ticks. As in the
 * kernel, the counters move at the end of a period.
 */
public final class CfsPeriods {
    private double periodS = 0.1;
    private double elapsedS;
    private double work;
    private double capacity;
    private double usageCoreS;
    private long periods;
    private long throttled;

    /**
     * Sets the enforcement period (from the pod's {@code cpu.max}); a running period keeps its length.
     *
     * @param seconds period, seconds, &gt; 0
     */
    public void period(double seconds) {
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("CFS period must be > 0 s, got " + seconds);
        }
        periodS = seconds;
    }

    /**
     * Accounts one tick (called by the vNF's fluid model).
     *
     * @param backlog packets queued at the tick's start
     * @param arrivals packets that arrived in the tick (served, queued or dropped)
     * @param servable packets the quota could serve in the tick
     * @param busyCores cores the vNF used in the tick
     * @param dtS tick length, seconds
     */
    public void tick(double backlog, double arrivals, double servable, double busyCores, double dtS) {
        if (elapsedS == 0) {
            work = backlog;
        }
        work += arrivals;
        capacity += servable;
        usageCoreS += busyCores * dtS;
        elapsedS += dtS;
        if (elapsedS >= periodS * (1 - 1e-9)) {
            if (work > 0) {
                periods++;
                if (work > capacity * (1 + 1e-9)) {
                    throttled++;
                }
            }
            elapsedS = 0;
            work = 0;
            capacity = 0;
        }
    }

    /** The pod restarted (VPA eviction): a new cgroup, counters from zero. */
    void reset() {
        elapsedS = 0;
        work = 0;
        capacity = 0;
        usageCoreS = 0;
        periods = 0;
        throttled = 0;
    }

    /** Periods in which the vNF had work ({@code nr_periods}). */
    public long periods() {
        return periods;
    }

    /** Periods whose quota ran out with work left ({@code nr_throttled}). */
    public long throttled() {
        return throttled;
    }

    /** CPU time used, microseconds ({@code usage_usec}). */
    public long usageUs() {
        return Math.round(usageCoreS * 1e6);
    }

    /**
     * The cgroup v2 {@code cpu.stat} lines the model counts ({@code throttled_usec} and the user/system split
     * are not modelled, so not written).
     *
     * @return file content
     */
    public String cpuStat() {
        return "usage_usec " + usageUs() + "\nnr_periods " + periods + "\nnr_throttled " + throttled;
    }
}
