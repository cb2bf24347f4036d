// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import org.onosproject.ui.topo.NodeBadge;

/**
 * Colour class of a vNF's tail latency slack τ = Lmax − L95, as a share of Lmax.
 * Thresholds: green when τ ≥ 20 % of Lmax, amber when 0 ≤ τ &lt; 20 % of Lmax
 * (the local loop is working close to the bound), red when τ &lt; 0 (L95 is
 * above Lmax: the bound is broken), grey when no latency window exists yet.
 */
public enum SlackLevel {
    /** No p95 measured yet. */
    UNKNOWN(NodeBadge.Status.INFO, "unknown"),
    /** Slack at least {@link #AMBER_BELOW} of Lmax. */
    GREEN(NodeBadge.Status.INFO, "ok"),
    /** Non-negative slack under {@link #AMBER_BELOW} of Lmax. */
    AMBER(NodeBadge.Status.WARN, "near bound"),
    /** L95 above Lmax. */
    RED(NodeBadge.Status.ERROR, "over bound");

    /** Slack share (of Lmax) under which a vNF counts as near its bound. */
    public static final double AMBER_BELOW = 0.20;

    private final NodeBadge.Status status;
    private final String word;

    SlackLevel(NodeBadge.Status status, String word) {
        this.status = status;
        this.word = word;
    }

    /** @return ONOS badge status (INFO is re-coloured green by the overlay's CSS) */
    public NodeBadge.Status badgeStatus() {
        return status;
    }

    /** @return short word for panels and tooltips */
    public String word() {
        return word;
    }

    /**
     * Classifies a p95 against its bound.
     *
     * @param p95Ns  tail latency in ns, negative if unknown
     * @param lmaxNs bound in ns (positive)
     * @return the level
     */
    public static SlackLevel of(long p95Ns, long lmaxNs) {
        if (p95Ns < 0) {
            return UNKNOWN;
        }
        double slack = (double) (lmaxNs - p95Ns) / lmaxNs;
        if (slack < 0) {
            return RED;
        }
        return slack < AMBER_BELOW ? AMBER : GREEN;
    }

    /**
     * Slack share of Lmax: (Lmax − L95) / Lmax.
     *
     * @param p95Ns  tail latency in ns (non-negative)
     * @param lmaxNs bound in ns (positive)
     * @return slack share, negative when the bound is broken
     */
    public static double slackShare(long p95Ns, long lmaxNs) {
        return (double) (lmaxNs - p95Ns) / lmaxNs;
    }
}
