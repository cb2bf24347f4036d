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

    /** The listing read literally: any positive slack gives, no cool-down. */
    public static final SlackPolicy LITERAL = new SlackPolicy(0, 0, 0);
    /** The project's reading: give and lend only above half the bound; no type for 1,000 windows after a revert of it.
     * */
    public static final SlackPolicy DEFAULT = new SlackPolicy(0.5, 0.5, 1000);

    private final double freeFraction;
    private final double takeFraction;
    private final int cooldownWindows;

    /**
     * Creates a policy.
     *
     * @param freeFraction line 24 frees from î only while τ[î] &gt; freeFraction · Lmax[î], in [0, 1)
     * @param takeFraction line 16 takes from î only while τ[î] &gt; takeFraction · Lmax[î], in [0, 1)
     * @param cooldownWindows after a reverted Algorithm 2 trial the donor gives none of that type
     *                        for this many of its own windows, &gt;= 0
     */
    public SlackPolicy(double freeFraction, double takeFraction, int cooldownWindows) {
        if (!(freeFraction >= 0 && freeFraction < 1)) {
            throw new IllegalArgumentException("free slack fraction must be in [0, 1), got " + freeFraction);
        }
        if (!(takeFraction >= 0 && takeFraction < 1)) {
            throw new IllegalArgumentException("take slack fraction must be in [0, 1), got " + takeFraction);
        }
        if (cooldownWindows < 0) {
            throw new IllegalArgumentException("donor cool-down must be >= 0 windows, got " + cooldownWindows);
        }
        this.freeFraction = freeFraction;
        this.takeFraction = takeFraction;
        this.cooldownWindows = cooldownWindows;
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
     * Cool-down after a revert.
     *
     * @return the donor's windows
     */
    public int cooldownWindows() {
        return cooldownWindows;
    }

    @Override
    public String toString() {
        return "free above " + freeFraction + " Lmax, lend above " + takeFraction + " Lmax, cool-down "
                + cooldownWindows + " windows";
    }
}
