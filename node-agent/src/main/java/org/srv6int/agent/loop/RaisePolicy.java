// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

/**
 * How fast Algorithm 1 reacts to a vNF over its bound, the part the paper's listing fixes at one
 * step per window of N packets (docs/node-agent.md section 2, "Raise and windows").
 *
 * <p>Read literally, a vNF whose load steps far past what its allocation serves gets one step
 * per window, and a window of N packets of a low-rate vNF lasts long: the lab's vNF at 1,000 pps
 * and N = 1,000 needed several one-second windows of 50-millicore steps to climb out of a
 * backlog (docs/lab.md). Two changes, as a mature controller makes them:
 * <ul>
 *   <li><b>A raise proportional to the overshoot</b> (line 14): the allocation a vNF needs grows
 *       with how far its L95 is over Lmax, as Kubernetes' HPA scales by metric / target; the add
 *       is alloc · (L95 − Lmax) / Lmax rounded up to whole steps, at least one step, at most
 *       {@link #maxSteps()} (the listing's single step is {@code maxSteps = 1}, the default). Only
 *       a window over the bound after one over the bound counts (a one-window spike adds one
 *       step). Off by default: on the lab's real vNF the L95 lags the quota (the backlog and the
 *       switch's own transient at a load step), so a proportional raise compounded on stale windows
 *       and went to the ceiling (docs/lab.md, session 14).</li>
 *   <li><b>Windows closed by time as well as by count</b>: a window closes after N samples or
 *       after {@link #windowMaxNanos()}, whichever comes first, once it holds at least
 *       {@link #minWindowSamples()} (0: by count only, the listing).</li>
 * </ul>
 * Freeing is unchanged (one step, judged by Algorithm 2 and the slack policy): raising fast and
 * freeing slowly is the asymmetry HPA and VPA keep too.
 */
public final class RaisePolicy {

    /** The listing: one step per window, windows of N samples only. */
    public static final RaisePolicy LITERAL = new RaisePolicy(1, 0, 20);
    /**
     * The project's default: one step a window (a proportional raise overshot in the lab: docs/lab.md),
     * a window closes after 200 ms with 20 samples.
     */
    public static final RaisePolicy DEFAULT = new RaisePolicy(1, 200_000_000L, 20);

    private final int maxSteps;
    private final long windowMaxNanos;
    private final int minWindowSamples;
    private final double minThrottledShare;
    private final long throttleSpanNanos;

    /**
     * Creates a policy.
     *
     * @param maxSteps most steps one over-bound window adds, &gt;= 1 (1: the listing's fixed step)
     * @param windowMaxNanos a window closes after this long even if short of N samples, &gt;= 0 (0: never)
     * @param minWindowSamples fewest samples a window closed by time must hold, &gt;= 1
     */
    public RaisePolicy(int maxSteps, long windowMaxNanos, int minWindowSamples) {
        this(maxSteps, windowMaxNanos, minWindowSamples, 0);
    }

    /**
     * Creates a policy that raises CPU quota only for a vNF its quota throttled ({@link ThrottleGate}).
     *
     * @param maxSteps most steps one over-bound window adds, &gt;= 1 (1: the listing's fixed step)
     * @param windowMaxNanos a window closes after this long even if short of N samples, &gt;= 0 (0: never)
     * @param minWindowSamples fewest samples a window closed by time must hold, &gt;= 1
     * @param minThrottledShare least share of its quota periods a vNF over its bound must have been throttled
     *                          in for a raise of its CPU quota, in [0, 1] (0: raise regardless, the listing)
     */
    public RaisePolicy(int maxSteps, long windowMaxNanos, int minWindowSamples, double minThrottledShare) {
        this(maxSteps, windowMaxNanos, minWindowSamples, minThrottledShare, 0);
    }

    /**
     * Creates a policy that raises CPU quota only for a vNF its quota throttled, judged over at least a
     * given time ({@link ThrottleGate}: the kernel moves the counters only at the end of a quota period,
     * so windows shorter than a period say nothing about it).
     *
     * @param maxSteps most steps one over-bound window adds, &gt;= 1 (1: the listing's fixed step)
     * @param windowMaxNanos a window closes after this long even if short of N samples, &gt;= 0 (0: never)
     * @param minWindowSamples fewest samples a window closed by time must hold, &gt;= 1
     * @param minThrottledShare least share of its quota periods a vNF over its bound must have been throttled
     *                          in for a raise of its CPU quota, in [0, 1] (0: raise regardless, the listing)
     * @param throttleSpanNanos least time the share covers, &gt;= 0 (e.g. two quota periods; 0: the last two
     *                          windows however short)
     */
    public RaisePolicy(int maxSteps, long windowMaxNanos, int minWindowSamples, double minThrottledShare,
                       long throttleSpanNanos) {
        if (!(minThrottledShare >= 0 && minThrottledShare <= 1)) {
            throw new IllegalArgumentException("least throttled share must be in [0, 1], got " + minThrottledShare);
        }
        if (throttleSpanNanos < 0) {
            throw new IllegalArgumentException("throttle span must be >= 0, got " + throttleSpanNanos);
        }
        this.minThrottledShare = minThrottledShare;
        this.throttleSpanNanos = throttleSpanNanos;
        if (maxSteps < 1) {
            throw new IllegalArgumentException("maximum raise must be >= 1 step, got " + maxSteps);
        }
        if (windowMaxNanos < 0) {
            throw new IllegalArgumentException("window time cap must be >= 0 ns, got " + windowMaxNanos);
        }
        if (minWindowSamples < 1) {
            throw new IllegalArgumentException("a window needs >= 1 sample, got " + minWindowSamples);
        }
        this.maxSteps = maxSteps;
        this.windowMaxNanos = windowMaxNanos;
        this.minWindowSamples = minWindowSamples;
    }

    /**
     * Steps one over-bound window adds.
     *
     * @param allocation the vNF's allocation now
     * @param step the pool's step
     * @param l95 the window's L95, ns (over lmax)
     * @param lmax the vNF's bound, ns
     * @return steps in [1, maxSteps]
     */
    public int steps(long allocation, long step, long l95, long lmax) {
        if (maxSteps == 1 || lmax <= 0 || l95 <= lmax || allocation <= 0) {
            return 1;
        }
        try { // ceil(alloc * (L95 - Lmax) / (Lmax * step)) in integers: exact at the step boundaries
            long num = Math.multiplyExact(allocation, l95 - lmax);
            long den = Math.multiplyExact(lmax, step);
            long steps = (num + den - 1) / den;
            return (int) Math.max(1, Math.min(maxSteps, steps));
        } catch (ArithmeticException e) {
            return maxSteps; // overflow: far over
        }
    }

    /**
     * Line 14's amount: the pool's step, or {@link #steps} of them cut at the ceiling and at what is free.
     *
     * @param pool the type's pool
     * @param vnf index
     * @param l95 the window's L95, ns
     * @param lmax the vNF's bound, ns
     * @return amount, at least {@link ResourcePool#addAmount}
     */
    long amount(ResourcePool pool, int vnf, long l95, long lmax) {
        long one = pool.addAmount(vnf);
        int steps = steps(pool.allocation(vnf), pool.step(), l95, lmax);
        if (steps <= 1) {
            return one;
        }
        long room = Math.min(pool.ceiling(vnf) - pool.allocation(vnf), pool.free());
        return Math.max(one, Math.min(steps * pool.step(), room));
    }

    /**
     * Most steps per raise.
     *
     * @return steps, 1 for the listing
     */
    public int maxSteps() {
        return maxSteps;
    }

    /**
     * Time cap of a window.
     *
     * @return ns, 0 for none
     */
    public long windowMaxNanos() {
        return windowMaxNanos;
    }

    /**
     * Least share of its quota periods an over-bound vNF must have been throttled in for a raise of its CPU quota.
     *
     * @return share, 0 when off
     */
    public double minThrottledShare() {
        return minThrottledShare;
    }

    /**
     * Least time the throttled share covers (the share is over the last two windows, or back this far if they
     * are shorter).
     *
     * @return nanoseconds, 0: the last two windows
     */
    public long throttleSpanNanos() {
        return throttleSpanNanos;
    }

    /**
     * Fewest samples of a window closed by time.
     *
     * @return count
     */
    public int minWindowSamples() {
        return minWindowSamples;
    }

    @Override
    public String toString() {
        return "raise up to " + maxSteps + " step(s) in proportion to L95 over Lmax, windows of N samples"
                + (windowMaxNanos > 0 ? " or " + windowMaxNanos / 1_000_000 + " ms (>= " + minWindowSamples
                + " samples)" : "") + (minThrottledShare > 0 ? ", CPU quota raised only when throttled in >= "
                + Math.round(minThrottledShare * 100) + " % of its periods" + (throttleSpanNanos > 0 ? " over >= "
                + throttleSpanNanos / 1_000_000 + " ms" : "") : "");
    }
}
