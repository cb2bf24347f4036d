package org.srv6int.twin.control;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.srv6int.twin.Percentile;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;

/**
 * The twin's own local closed loop (paper Algorithms 1-3) for one worker. It sees only the
 * Detection Result stream and the node's resource values; it has no model of the vNFs.
 * This is the stand-in at the agent boundary until the node agent's implementation is wired
 * in (see docs/twin.md section 6).
 *
 * <p>Parameters the paper leaves open are ours: a vNF gives resources back only while its
 * slack exceeds {@link #FREE_SLACK} of its bound (so a healthy vNF is not squeezed to the edge
 * every window); a vNF whose trial was reverted gives nothing for
 * {@link #DONOR_COOLDOWN_WINDOWS} of its windows; a violating vNF takes from the largest-slack vNF only while that one's slack
 * exceeds {@link #STEAL_SLACK} of its bound (so one overloaded vNF cannot drag its neighbours
 * over their bounds); at most one Algorithm 2 trial per vNF is pending at a time, and a
 * reverted trial gives the resource back from the pool or, failing that, from the vNF that
 * took it.
 */
public final class LocalLoop implements Fabric.DetectionSink {
    /** Window length N (paper: 1,500 packets). */
    public static final int WINDOW = 1500;
    /** A vNF gives resources back only while tau > FREE_SLACK * Lmax. */
    public static final double FREE_SLACK = 0.5;
    /** A violating vNF takes resources only from a vNF whose tau > STEAL_SLACK * Lmax. */
    public static final double STEAL_SLACK = 0.5;
    /** After a reverted trial a vNF gives nothing for this many of its windows. */
    public static final int DONOR_COOLDOWN_WINDOWS = 1000;

    private final NodeResources node;
    private final ToDoubleFunction<String> boundUs;
    private final Map<String, State> states = new LinkedHashMap<>();
    private long actions;

    /**
     * Creates the loop.
     *
     * @param node the worker's resources
     * @param boundUs Lmax of a pod id, microseconds
     */
    public LocalLoop(NodeResources node, ToDoubleFunction<String> boundUs) {
        this.node = node;
        this.boundUs = boundUs;
    }

    /** Resource changes made so far. */
    public long actions() {
        return actions;
    }

    @Override
    public void onDetection(VnfInstance instance, long latencyNs) {
        State st = states.computeIfAbsent(instance.id(), id -> new State(id, boundUs.applyAsDouble(id)));
        st.window[st.n++] = latencyNs / 1000.0;
        if (st.n == WINDOW) {
            st.n = 0;
            onWindow(st, Percentile.of(st.window, WINDOW, 0.95));
        }
    }

    private static final boolean TRACE = Boolean.getBoolean("twin.trace");

    private void onWindow(State st, double l95) {
        if (TRACE) {
            System.err.printf("win %s l95=%.0f type=%s trial=%s alloc=%s/%s/%s/%s free=%s/%s/%s/%s%n", st.id, l95, st.type,
                st.trialType, node.get(st.id, Resource.CPU_QUOTA), node.get(st.id, Resource.LLC_WAYS),
                node.get(st.id, Resource.MEM_BW_PCT), node.get(st.id, Resource.CPU_FREQ_MHZ),
                node.free(Resource.CPU_QUOTA), node.free(Resource.LLC_WAYS), node.free(Resource.MEM_BW_PCT),
                node.free(Resource.CPU_FREQ_MHZ));
        }
        if (st.trialType != null) {
            // Algorithm 2, lines 3-7: judge the deallocation on this vNF's next window.
            Resource r = st.trialType;
            st.trialType = null;
            if (l95 > st.lmax) {
                revert(st, r);
                st.cooldown = DONOR_COOLDOWN_WINDOWS;
                st.type = st.type.next();
            }
        }
        st.tau = st.lmax - l95;
        if (st.cooldown > 0) {
            st.cooldown--;
        }
        State hat = largestSlack();
        if (l95 > st.lmax) {
            if (!Double.isNaN(st.lastL95) && l95 >= st.lastL95) {
                st.type = st.type.next(); // Algorithm 3
            }
            if (!tryAdd(st)) {
                if (hat != null && hat != st && hat.tau > STEAL_SLACK * hat.lmax && hat.trialType == null
                        && free(hat, st.type) && tryAdd(st)) {
                    hat.borrower = st.id;
                }
            }
        } else if (hat != null && hat.trialType == null && hat.tau > FREE_SLACK * hat.lmax) {
            free(hat, st.type);
        }
        st.lastL95 = l95;
    }

    private State largestSlack() {
        State best = null;
        for (State s : states.values()) {
            if (!Double.isNaN(s.tau) && s.cooldown == 0 && (best == null || s.tau > best.tau)) {
                best = s;
            }
        }
        return best;
    }

    private boolean tryAdd(State st) {
        Resource r = st.type;
        double cur = node.get(st.id, r);
        if (cur + r.step() > r.max() + 1e-9) {
            st.type = r.next(); // nothing more of this type can help; try the next one
            return false;
        }
        if (node.free(r) + 1e-9 < r.step()) {
            return false;
        }
        boolean ok = node.set(st.id, r, cur + r.step());
        if (ok) {
            actions++;
            st.n = 0; // judge the next window on packets served after the change only
        }
        return ok;
    }

    private boolean free(State from, Resource r) {
        double cur = node.get(from.id, r);
        if (cur - r.step() < r.min() - 1e-9) {
            return false;
        }
        if (node.set(from.id, r, cur - r.step())) {
            actions++;
            from.trialType = r;
            from.trialAmount = r.step();
            from.borrower = null;
            from.n = 0; // Algorithm 2, line 2: N packets after the deallocation
            return true;
        }
        return false;
    }

    /** Undoes a trial deallocation: from the pool, or else back from the vNF that took it. */
    private void revert(State st, Resource r) {
        double need = st.trialAmount;
        double fromPool = Math.min(need, Math.max(0, node.free(r)));
        double deficit = need - fromPool;
        if (deficit > 1e-9 && st.borrower != null && node.vnfs().contains(st.borrower)) {
            double b = node.get(st.borrower, r);
            double give = Math.min(deficit, b - r.min());
            if (give > 0 && node.set(st.borrower, r, b - give)) {
                actions++;
                fromPool += give;
            }
        }
        if (fromPool > 0 && node.set(st.id, r, node.get(st.id, r) + fromPool)) {
            actions++;
        }
        st.borrower = null;
    }

    private static final class State {
        final String id;
        final double lmax;
        final double[] window = new double[WINDOW];
        int n;
        Resource type = Resource.CPU_QUOTA;
        double lastL95 = Double.NaN;
        double tau = Double.NaN;
        Resource trialType;
        double trialAmount;
        String borrower;
        int cooldown;

        State(String id, double lmax) {
            this.id = id;
            this.lmax = lmax;
        }
    }
}
