// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import org.srv6int.app.api.model.InterferenceView;
import org.srv6int.app.api.model.LearnedInterference;
import org.srv6int.app.api.model.VnfClass;

import java.util.EnumMap;
import java.util.Map;

/**
 * Interference between co-located vNF classes: m[target][competitor] is the target's normalized
 * throughput next to the competitor. Seeded from vnf-interference.txt and moved online by what
 * the telemetry shows (an exponentially weighted mean of the observed slowdowns). Thread-safe.
 *
 * <p>The seed: the text gives each target's mean over the five competitors (Table III: I 87.64,
 * II 49.69, III 64.07, IV 64.78, V 61.14 %) and three pairs exactly (I next to III 85.41 %,
 * II next to III 61.53 %, III next to II 64.49 %, Table I); Fig. 3's other bars are not in the
 * text, so the other cells are set to give each row its Table III mean while following the
 * text's orderings: IV and V are the most aggressive competitors, I the least aggressive one on
 * IV and V the most, I barely slowed by IV and V. Several competitors on one node multiply.
 */
public final class InterferenceMatrix {

    /** Weight of one new observation in the running mean. */
    public static final double ALPHA = 0.3;

    private static final VnfClass[] C = VnfClass.values();
    // Rows: target I..V; columns: competitor I..V; percent.
    private static final double[][] PAPER = {
        {90.50, 86.00, 85.41, 88.80, 87.49},
        {58.00, 52.00, 61.53, 40.50, 36.42},
        {72.00, 64.49, 66.00, 60.00, 57.86},
        {76.00, 68.00, 65.00, 60.00, 54.90},
        {72.00, 64.50, 61.50, 56.00, 51.70},
    };

    private final double[][] seed = new double[C.length][C.length];
    private final double[][] m = new double[C.length][C.length];
    private final long[][] n = new long[C.length][C.length];

    /** Creates the matrix at the paper's values. */
    public InterferenceMatrix() {
        for (int i = 0; i < C.length; i++) {
            for (int j = 0; j < C.length; j++) {
                seed[i][j] = PAPER[i][j] / 100;
                m[i][j] = seed[i][j];
            }
        }
    }

    /**
     * Returns the paper's seed value of a pair.
     *
     * @param target     target class
     * @param competitor competitor class
     * @return normalized throughput in (0, 1]
     */
    public static double paper(VnfClass target, VnfClass competitor) {
        return PAPER[target.ordinal()][competitor.ordinal()] / 100;
    }

    /**
     * Returns the target's normalized throughput next to the competitor.
     *
     * @param target     target class
     * @param competitor competitor class
     * @return in (0, 1]
     */
    public synchronized double normalized(VnfClass target, VnfClass competitor) {
        return m[target.ordinal()][competitor.ordinal()];
    }

    /**
     * Records a slowdown the telemetry showed: the target's capacity after the competitor
     * arrived over its capacity before.
     *
     * @param target     target class
     * @param competitor competitor class
     * @param observed   observed normalized throughput; clamped to [0.05, 1]
     * @throws IllegalArgumentException if observed is not a finite number
     */
    public synchronized void observe(VnfClass target, VnfClass competitor, double observed) {
        if (!Double.isFinite(observed)) {
            throw new IllegalArgumentException("observed normalized throughput is not a number: " + observed);
        }
        double x = Math.max(0.05, Math.min(1, observed));
        int i = target.ordinal();
        int j = competitor.ordinal();
        m[i][j] = (1 - ALPHA) * m[i][j] + ALPHA * x;
        n[i][j]++;
    }

    /**
     * Expected throughput lost if a vNF of class {@code newcomer} joins a node with these
     * residents: the newcomer's loss (its normalized throughput multiplies over the residents)
     * plus each resident's loss next to it.
     *
     * @param newcomer  class of the vNF to place
     * @param residents classes of the vNFs on the node
     * @return lost fractions of a vNF's throughput, summed; 0 on an empty node
     */
    public synchronized double placementLoss(VnfClass newcomer, Iterable<VnfClass> residents) {
        double own = 1;
        double theirs = 0;
        for (VnfClass r : residents) {
            own *= m[newcomer.ordinal()][r.ordinal()];
            theirs += 1 - m[r.ordinal()][newcomer.ordinal()];
        }
        return 1 - own + theirs;
    }

    /**
     * Returns what was learned so far, for the cluster's store.
     *
     * @return the current values and sample counts
     */
    public synchronized LearnedInterference learned() {
        double[] v = new double[C.length * C.length];
        long[] k = new long[C.length * C.length];
        for (int i = 0; i < C.length; i++) {
            for (int j = 0; j < C.length; j++) {
                v[i * C.length + j] = m[i][j];
                k[i * C.length + j] = n[i][j];
            }
        }
        return new LearnedInterference(v, k);
    }

    /**
     * Goes on from what another instance learned (a new leader): its values and sample counts
     * replace these; the seed stays the paper's.
     *
     * @param learned the learned matrix
     */
    public synchronized void restore(LearnedInterference learned) {
        for (VnfClass t : C) {
            for (VnfClass c : C) {
                m[t.ordinal()][c.ordinal()] = learned.value(t, c);
                n[t.ordinal()][c.ordinal()] = learned.samples(t, c);
            }
        }
    }

    /**
     * Returns a snapshot for the CLI and REST.
     *
     * @return the seed, the current values and the sample counts
     */
    public synchronized InterferenceView view() {
        Map<VnfClass, Map<VnfClass, Double>> s = new EnumMap<>(VnfClass.class);
        Map<VnfClass, Map<VnfClass, Double>> cur = new EnumMap<>(VnfClass.class);
        Map<VnfClass, Map<VnfClass, Long>> cnt = new EnumMap<>(VnfClass.class);
        for (VnfClass t : C) {
            Map<VnfClass, Double> sr = new EnumMap<>(VnfClass.class);
            Map<VnfClass, Double> cr = new EnumMap<>(VnfClass.class);
            Map<VnfClass, Long> nr = new EnumMap<>(VnfClass.class);
            for (VnfClass c : C) {
                sr.put(c, seed[t.ordinal()][c.ordinal()]);
                cr.put(c, m[t.ordinal()][c.ordinal()]);
                nr.put(c, n[t.ordinal()][c.ordinal()]);
            }
            s.put(t, sr);
            cur.put(t, cr);
            cnt.put(t, nr);
        }
        return new InterferenceView(s, cur, cnt);
    }
}
