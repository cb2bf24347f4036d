// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

/**
 * When a vNF counts as having resource to give, the part of Algorithms 1-2 the
 * paper leaves open (docs/node-agent.md section 2, "Slack policy").
 *
 * <p>The paper frees "redundant" resource from the vNF with the largest slack
 * (Algorithm 1 line 24) and takes from it for an over-bound vNF (line 16), but
 * gives no margin: read literally (every fraction 0, no cool-down) every
 * healthy window squeezes the largest-slack vNF until Algorithm 2 sees a whole
 * window above its bound, again and again. The defaults keep a margin and stop
 * a donor that just proved it had nothing to spare from being probed at once.
 */
public final class SlackPolicy {

    /** The listing read literally: any positive slack gives after one window, no cool-down, no horizon. */
    public static final SlackPolicy LITERAL = new SlackPolicy(0, 0, 0, 1, 0, 0, 0);
    /**
     * The project's reading: give and lend only above half the bound; a kept free whose donor goes over
     * its bound within 4 of its windows (and 2 s) counts as reverted; no type for 1,000 windows (and at
     * most 10 s) after a revert of it, doubling on each further revert up to 8,000 windows (80 s), back
     * to the first after 16,000 windows without one.
     */
    public static final SlackPolicy DEFAULT = new SlackPolicy(0.5, 0.5, 1000, 1, 4, 8000, 16_000)
            .withTimeCaps(10_000_000_000L, 80_000_000_000L, 2_000_000_000L);

    private final double freeFraction;
    private final double takeFraction;
    private final int cooldownWindows;
    private final int freeSlackWindows;
    private final int revertHorizonWindows;
    private final int maxCooldownWindows;
    private final int cooldownResetWindows;
    // time caps (0: none): counted in windows alone, a low-rate vNF's cool-down outlasts any run
    private long cooldownCapNanos;
    private long maxCooldownCapNanos;
    private long revertHorizonCapNanos;
    // line 24 frees nothing from a vNF within this long after its last window over the bound (0: off)
    private long freeHoldNanos;

    /**
     * Creates a policy.
     *
     * @param freeFraction line 24 frees from î only while τ[î] &gt; freeFraction · Lmax[î], in [0, 1)
     * @param takeFraction line 16 takes from î only while τ[î] &gt; takeFraction · Lmax[î], in [0, 1)
     * @param cooldownWindows after a reverted Algorithm 2 trial the donor gives none of that type
     *                        for this many of its own windows, &gt;= 0
     */
    public SlackPolicy(double freeFraction, double takeFraction, int cooldownWindows) {
        this(freeFraction, takeFraction, cooldownWindows, 1, 0, cooldownWindows, 0);
    }

    /**
     * Creates a policy with the stabilisation, the revert horizon and a growing cool-down.
     *
     * @param freeFraction line 24 frees from î only while τ[î] &gt; freeFraction · Lmax[î], in [0, 1)
     * @param takeFraction line 16 takes from î only while τ[î] &gt; takeFraction · Lmax[î], in [0, 1)
     * @param cooldownWindows cool-down after a first reverted free of a type, the donor's windows, &gt;= 0
     * @param freeSlackWindows line 24 frees from î only after this many consecutive windows of î above the
     *                         free margin (1: the last window alone), &gt;= 1
     * @param revertHorizonWindows a kept free counts as reverted when its donor has a window over its bound
     *                             within this many of its windows after the trial (0: only the trial's
     *                             window judges), &gt;= 0
     * @param maxCooldownWindows the cool-down doubles on each further revert of the type up to this,
     *                           &gt;= cooldownWindows
     * @param cooldownResetWindows after this many of the donor's windows past the end of its cool-down
     *                             without a revert, the next cool-down is the first one again
     *                             (0: never grows), &gt;= 0
     */
    public SlackPolicy(double freeFraction, double takeFraction, int cooldownWindows, int freeSlackWindows,
                       int revertHorizonWindows, int maxCooldownWindows, int cooldownResetWindows) {
        if (!(freeFraction >= 0 && freeFraction < 1)) {
            throw new IllegalArgumentException("free slack fraction must be in [0, 1), got " + freeFraction);
        }
        if (!(takeFraction >= 0 && takeFraction < 1)) {
            throw new IllegalArgumentException("take slack fraction must be in [0, 1), got " + takeFraction);
        }
        if (cooldownWindows < 0) {
            throw new IllegalArgumentException("donor cool-down must be >= 0 windows, got " + cooldownWindows);
        }
        if (freeSlackWindows < 1) {
            throw new IllegalArgumentException("free slack windows must be >= 1, got " + freeSlackWindows);
        }
        if (revertHorizonWindows < 0) {
            throw new IllegalArgumentException("revert horizon must be >= 0 windows, got " + revertHorizonWindows);
        }
        if (maxCooldownWindows < cooldownWindows) {
            throw new IllegalArgumentException("maximum donor cool-down (" + maxCooldownWindows
                    + " windows) must be >= the donor cool-down (" + cooldownWindows + ")");
        }
        if (cooldownResetWindows < 0) {
            throw new IllegalArgumentException("cool-down reset must be >= 0 windows, got " + cooldownResetWindows);
        }
        this.freeFraction = freeFraction;
        this.takeFraction = takeFraction;
        this.cooldownWindows = cooldownWindows;
        this.freeSlackWindows = freeSlackWindows;
        this.revertHorizonWindows = revertHorizonWindows;
        this.maxCooldownWindows = maxCooldownWindows;
        this.cooldownResetWindows = cooldownResetWindows;
    }

    /**
     * The same policy with time caps on the cool-down and the revert horizon, which otherwise count
     * the donor's windows only: a window of N packets lasts a second at 1,000 pps, so 1,000 windows
     * outlast any run. Each ends at its window count or its time, whichever comes first.
     *
     * @param cooldownCapNanos cap of a first cool-down, ns (0: none); it doubles with the windows
     * @param maxCooldownCapNanos cap of the grown cool-down, ns, &gt;= cooldownCapNanos (0: none)
     * @param revertHorizonCapNanos cap of the revert horizon, ns (0: none)
     * @return the new policy
     * @throws IllegalArgumentException if a cap is negative or the caps disagree
     */
    public SlackPolicy withTimeCaps(long cooldownCapNanos, long maxCooldownCapNanos, long revertHorizonCapNanos) {
        if (cooldownCapNanos < 0 || maxCooldownCapNanos < 0 || revertHorizonCapNanos < 0) {
            throw new IllegalArgumentException("time caps must be >= 0, got " + cooldownCapNanos + ", "
                    + maxCooldownCapNanos + ", " + revertHorizonCapNanos + " ns");
        }
        if ((cooldownCapNanos == 0) != (maxCooldownCapNanos == 0) || maxCooldownCapNanos < cooldownCapNanos) {
            throw new IllegalArgumentException("maximum cool-down cap (" + maxCooldownCapNanos
                    + " ns) must be >= the cool-down cap (" + cooldownCapNanos + " ns), both 0 or neither");
        }
        SlackPolicy p = new SlackPolicy(freeFraction, takeFraction, cooldownWindows, freeSlackWindows,
                revertHorizonWindows, maxCooldownWindows, cooldownResetWindows);
        p.cooldownCapNanos = cooldownCapNanos;
        p.maxCooldownCapNanos = maxCooldownCapNanos;
        p.revertHorizonCapNanos = revertHorizonCapNanos;
        p.freeHoldNanos = freeHoldNanos;
        return p;
    }

    /**
     * The same policy with a free hold: line 24 frees nothing from a vNF within this long after its
     * last window over the bound, as HPA's scale-down stabilisation follows a scale-up (the windows
     * right after a raise are served from a just-drained backlog and look like slack).
     *
     * @param holdNanos the hold, ns, &gt;= 0 (0: off)
     * @return the new policy
     */
    public SlackPolicy withFreeHold(long holdNanos) {
        if (holdNanos < 0) {
            throw new IllegalArgumentException("free hold must be >= 0 ns, got " + holdNanos);
        }
        SlackPolicy p = withTimeCaps(cooldownCapNanos, maxCooldownCapNanos, revertHorizonCapNanos);
        p.freeHoldNanos = holdNanos;
        return p;
    }

    /**
     * The free hold after a window over the bound.
     *
     * @return ns, 0 for none
     */
    public long freeHoldNanos() {
        return freeHoldNanos;
    }

    /**
     * Time cap of the cool-down of a revert, doubling like {@link #cooldownAfter(int)}.
     *
     * @param reverts reverts of the type in a row, counting this one, &gt;= 1
     * @return ns, 0 for no cap
     */
    public long cooldownCapAfter(int reverts) {
        if (cooldownCapNanos == 0 || cooldownResetWindows == 0) {
            return cooldownCapNanos;
        }
        int shift = Math.min(Math.max(0, reverts - 1), 20);
        return Math.min(maxCooldownCapNanos, cooldownCapNanos << shift);
    }

    /**
     * Time cap of the revert horizon.
     *
     * @return ns, 0 for none
     */
    public long revertHorizonCapNanos() {
        return revertHorizonCapNanos;
    }

    /**
     * Whether a healthy window may free from a vNF (line 24).
     *
     * @param tau its slack, ns
     * @param lmax its bound, ns
     * @return true if it has redundant resource
     */
    public boolean mayFree(long tau, long lmax) {
        return tau > 0 && tau > freeFraction * lmax;
    }

    /**
     * Whether an over-bound vNF may take from a vNF (line 16).
     *
     * @param tau the donor's slack, ns
     * @param lmax the donor's bound, ns
     * @return true if the donor can lend
     */
    public boolean mayTake(long tau, long lmax) {
        return tau > 0 && tau > takeFraction * lmax;
    }

    /**
     * Free fraction.
     *
     * @return fraction of Lmax
     */
    public double freeFraction() {
        return freeFraction;
    }

    /**
     * Take fraction.
     *
     * @return fraction of Lmax
     */
    public double takeFraction() {
        return takeFraction;
    }

    /**
     * Cool-down after a first revert.
     *
     * @return the donor's windows
     */
    public int cooldownWindows() {
        return cooldownWindows;
    }

    /**
     * Consecutive windows above the free margin line 24 needs.
     *
     * @return windows, at least 1
     */
    public int freeSlackWindows() {
        return freeSlackWindows;
    }

    /**
     * Windows after a kept free within which a window over the bound still reverts it.
     *
     * @return the donor's windows, 0 for none
     */
    public int revertHorizonWindows() {
        return revertHorizonWindows;
    }

    /**
     * Cap of the growing cool-down.
     *
     * @return the donor's windows
     */
    public int maxCooldownWindows() {
        return maxCooldownWindows;
    }

    /**
     * Windows without a revert after a cool-down before the next cool-down starts small again.
     *
     * @return the donor's windows, 0: the cool-down never grows
     */
    public int cooldownResetWindows() {
        return cooldownResetWindows;
    }

    /**
     * The cool-down of a revert, doubling from {@link #cooldownWindows()} up to {@link #maxCooldownWindows()}.
     *
     * @param reverts reverts of the type in a row, counting this one, &gt;= 1
     * @return the donor's windows
     */
    public int cooldownAfter(int reverts) {
        if (cooldownResetWindows == 0) {
            return cooldownWindows;
        }
        long len = (long) cooldownWindows << Math.min(Math.max(0, reverts - 1), 32);
        return (int) Math.min(maxCooldownWindows, len);
    }

    @Override
    public String toString() {
        return "free above " + freeFraction + " Lmax after " + freeSlackWindows + " window(s), lend above "
                + takeFraction + " Lmax, revert horizon " + revertHorizonWindows + " windows, cool-down "
                + cooldownWindows + " windows doubling to " + maxCooldownWindows + ", reset after "
                + cooldownResetWindows + (cooldownCapNanos > 0 || revertHorizonCapNanos > 0
                ? ", time caps: cool-down " + cooldownCapNanos / 1_000_000 + " ms doubling to "
                + maxCooldownCapNanos / 1_000_000 + " ms, horizon " + revertHorizonCapNanos / 1_000_000 + " ms" : "")
                + (freeHoldNanos > 0 ? ", no free within " + freeHoldNanos / 1_000_000 + " ms of a violation" : "");
    }
}
