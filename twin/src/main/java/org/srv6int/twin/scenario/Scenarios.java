// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Supplier;
import org.srv6int.twin.Experiment;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfType;

/** The five scenarios of the paper's section V (docs/twin.md section 5 lists every number). */
public final class Scenarios {
    /** Packet size used by every scenario (the paper's Fig. 11 size; Table II's largest). */
    public static final int SIZE = 1024;
    /** E2E p95 bound of every chain, microseconds (the paper's 1 ms line). */
    public static final double BOUND_US = 1000;
    /** An allocation that makes every vNF's latency abnormally long (Figs. 9-10 start). */
    static final Allocation STARVED = new Allocation(0.5, 1, 10, 1000);
    /**
     * Requests of four co-located vNFs (Figs. 11-12 start), in VnfType order: 6.5 of 10 cores
     * sized for about 1 Gbps each at the even LLC/MBA split (Snort needs the most cycles).
     */
    static final Allocation[] REQUESTS = {
        new Allocation(1.0, 2, 25, 1900), new Allocation(2.5, 3, 25, 1900),
        new Allocation(1.5, 3, 25, 1900), new Allocation(1.5, 3, 25, 1900)};

    private Scenarios() {
    }

    /** All scenario names in order. */
    public static List<String> names() {
        return List.of("fig8", "fig9", "fig10", "fig11", "fig12", "shared-worker");
    }

    /** A scenario by name. */
    public static Scenario byName(String name) {
        switch (name) {
            case "fig8":
                return fig8();
            case "fig9":
                return fig9();
            case "fig10":
                return fig10();
            case "fig11":
                return fig11();
            case "fig12":
                return fig12();
            case "shared-worker":
                return sharedWorker();
            case "scale":
                return Scale.scenario(Scale.DEFAULT_WORKERS, 1);
            default:
                throw new IllegalArgumentException("unknown scenario '" + name + "' (" + String.join(", ", names())
                        + ", all)");
        }
    }

    /** Piecewise-linear function through (t, v) pairs, constant outside. */
    static DoubleUnaryOperator curve(double... tv) {
        return t -> {
            if (t <= tv[0]) {
                return tv[1];
            }
            for (int i = 2; i < tv.length; i += 2) {
                if (t <= tv[i]) {
                    double f = (t - tv[i - 2]) / (tv[i] - tv[i - 2]);
                    return tv[i - 1] + f * (tv[i + 1] - tv[i - 1]);
                }
            }
            return tv[tv.length - 1];
        };
    }

    /** Fig. 8: four SFCs, SFC 2 (Snort, vNF 3 on Worker 1) +1 Gbps at 10 s and at 25 s. */
    public static Scenario fig8() {
        Supplier<Experiment> b = () -> {
            Fabric f = new Fabric();
            Host w1 = f.addHost(new Host("worker1", "sw2"));
            Host w2 = f.addHost(new Host("worker2", "sw3"));
            w1.addInstance("vnf1", VnfType.FWD, new Allocation(0.5, 1, 10, 1500), 0);
            w1.addInstance("vnf3", VnfType.SNORT, new Allocation(4.5, 4, 40, 2100), 0);
            w1.addInstance("vnf5", VnfType.NDPI, new Allocation(2.0, 3, 25, 2000), 0);
            w1.addInstance("vnf7", VnfType.NTOPNG, new Allocation(2.0, 3, 25, 2000), 0);
            w2.addInstance("vnf2", VnfType.NDPI, new Allocation(2.5, 4, 30, 2000), 0);
            f.addChain(new Chain("sfc1", List.of("vnf1", "vnf2"), t -> 1.0, SIZE, BOUND_US));
            f.addChain(new Chain("sfc2", List.of("vnf3"), t -> t < 10 ? 1.0 : t < 25 ? 2.0 : 3.0, SIZE,
                    BOUND_US));
            f.addChain(new Chain("sfc3", List.of("vnf5"), t -> 1.0, SIZE, BOUND_US));
            f.addChain(new Chain("sfc4", List.of("vnf7"), t -> 1.0, SIZE, BOUND_US));
            return new Experiment("", f, 50).withReplicaTemplate("vnf3", new Allocation(3.0, 4, 30, 2000));
        };
        return new Scenario("fig8", "Horizontal scaling of a vNF (paper Fig. 8)", List.of(b));
    }

    /** Fig. 9: one vNF per server, each type, starting starved (Fwd at 3 Gbps, the others at 1 Gbps). */
    public static Scenario fig9() {
        List<Supplier<Experiment>> exps = new ArrayList<>();
        for (VnfType t : VnfType.values()) {
            exps.add(() -> {
                Fabric f = new Fabric();
                Host w1 = f.addHost(new Host("worker1", "sw2"));
                String v = t.label().toLowerCase(Locale.ROOT);
                w1.addInstance(v, t, STARVED, 0);
                double gbps = t == VnfType.FWD ? 3.0 : 1.0;
                f.addChain(new Chain(t.label(), List.of(v), x -> gbps, SIZE, BOUND_US));
                return new Experiment(t.label(), f, 20);
            });
        }
        return new Scenario("fig9", "One vNF per server, local loop (paper Fig. 9)", exps);
    }

    /** Fig. 10: SFC 1 with two vNFs (Worker 1, Worker 2), the six type pairs, starting starved. */
    public static Scenario fig10() {
        List<Supplier<Experiment>> exps = new ArrayList<>();
        VnfType[] all = VnfType.values();
        for (int i = 0; i < all.length; i++) {
            for (int j = i + 1; j < all.length; j++) {
                VnfType a = all[i];
                VnfType b = all[j];
                String label = a.label() + "+" + b.label();
                exps.add(() -> {
                    Fabric f = new Fabric();
                    Host w1 = f.addHost(new Host("worker1", "sw2"));
                    Host w2 = f.addHost(new Host("worker2", "sw3"));
                    w1.addInstance("vnf1", a, STARVED, 0);
                    w2.addInstance("vnf2", b, STARVED, 0);
                    f.addChain(new Chain(label, List.of("vnf1", "vnf2"), x -> 1.0, SIZE, BOUND_US));
                    return new Experiment(label, f, 20);
                });
            }
        }
        return new Scenario("fig10", "Two-vNF chain, local loop (paper Fig. 10)", exps);
    }

    /**
     * A two-vNF chain whose vNFs share Worker 1 (the whole chain on one node): after vNF 1
     * returns, SW2 processes vNF 2's SID too (docs/p4-tables.md, "Consecutive SIDs of one
     * switch"). SFC 1 = Snort + nDPI at Fig. 11's requests, ramped from 0.5 Gbps like Fig. 11.
     */
    public static Scenario sharedWorker() {
        Supplier<Experiment> b = () -> {
            Fabric f = new Fabric();
            Host w1 = f.addHost(new Host("worker1", "sw2"));
            f.addHost(new Host("worker2", "sw3"));
            w1.addInstance("vnf1", VnfType.SNORT, REQUESTS[VnfType.SNORT.ordinal()], 0);
            w1.addInstance("vnf2", VnfType.NDPI, REQUESTS[VnfType.NDPI.ordinal()], 0);
            f.addChain(new Chain("sfc1", List.of("vnf1", "vnf2"), Scenarios::ramp, SIZE, BOUND_US));
            return new Experiment("", f, 30).withRamp("sfc1", RAMP_STEP_S);
        };
        return new Scenario("shared-worker", "Two-vNF chain with both vNFs on Worker 1 (one switch serves "
                + "both vNF SIDs)", List.of(b));
    }

    /** Four co-located vNFs on Worker 1, one chain each; rates and requests given per type. */
    static Fabric colocated(DoubleUnaryOperator[] rates, Allocation[] requests) {
        Fabric f = new Fabric();
        Host w1 = f.addHost(new Host("worker1", "sw2"));
        for (VnfType t : VnfType.values()) {
            String v = t.label().toLowerCase(Locale.ROOT);
            w1.addInstance(v, t, requests[t.ordinal()], 0);
            f.addChain(new Chain(t.label(), List.of(v), rates[t.ordinal()], SIZE, BOUND_US));
        }
        return f;
    }

    /** Fig. 11 ramp: the target starts at 0.5 Gbps and gains 0.25 Gbps every this many seconds. */
    static final double RAMP_STEP_S = 3.0;
    /** Label prefix of the Fig. 11(b) experiments (SFC 1 with a pair of types, Fig. 5 layout). */
    public static final String FIG11B = "SFC1 ";

    private static double ramp(double t) {
        return 0.5 + 0.25 * Math.floor(t / RAMP_STEP_S);
    }

    /**
     * Fig. 11: (a) largest throughput of each vNF while the three others carry 1 Gbps;
     * (b) largest E2E throughput of SFC 1 (vNF 1 on Worker 1, vNF 2 on Worker 2, the six type
     * pairs of Fig. 10) while SFCs 2-4 (Snort, nDPI, ntopng on Worker 1, Fig. 5) carry 1 Gbps.
     */
    public static Scenario fig11() {
        List<Supplier<Experiment>> exps = new ArrayList<>();
        for (VnfType target : VnfType.values()) {
            exps.add(() -> fig11a(target, false));
        }
        exps.addAll(fig11b());
        return new Scenario("fig11", "Throughput of a vNF co-located with three others, and of SFC 1 co-located "
                + "with SFCs 2-4 (paper Fig. 11a, 11b)", exps);
    }

    /**
     * One Fig. 11(a) experiment: the target's ramp while the three others carry 1 Gbps.
     *
     * @param target the vNF whose throughput is measured
     * @param givenFreeCores false: every pod at its request (the paper's setup); true: the target
     *                       also holds every core of the NIC's node the others do not request, as a
     *                       controller handing out CPU quota at once would give it (docs/twin.md
     *                       section 8, what decides an (a) bar)
     * @return the experiment, labelled with the target's name
     */
    public static Experiment fig11a(VnfType target, boolean givenFreeCores) {
        DoubleUnaryOperator[] rates = new DoubleUnaryOperator[4];
        Allocation[] requests = new Allocation[4];
        double othersCores = 0;
        for (VnfType t : VnfType.values()) {
            rates[t.ordinal()] = t == target ? Scenarios::ramp : x -> 1.0;
            requests[t.ordinal()] = REQUESTS[t.ordinal()].copy();
            othersCores += t == target ? 0 : REQUESTS[t.ordinal()].get(Resource.CPU_QUOTA);
        }
        if (givenFreeCores) {
            requests[target.ordinal()].set(Resource.CPU_QUOTA, Resource.CPU_QUOTA.pool() - othersCores);
        }
        return new Experiment(target.label(), colocated(rates, requests), 60).withRamp(target.label(), RAMP_STEP_S);
    }

    /** Fig. 11(b) experiments, one per type pair, labelled {@link #FIG11B} + "A+B". */
    static List<Supplier<Experiment>> fig11b() {
        List<Supplier<Experiment>> exps = new ArrayList<>();
        VnfType[] all = VnfType.values();
        for (int i = 0; i < all.length; i++) {
            for (int j = i + 1; j < all.length; j++) {
                VnfType a = all[i];
                VnfType b = all[j];
                String label = FIG11B + a.label() + "+" + b.label();
                exps.add(() -> {
                    Fabric f = new Fabric();
                    Host w1 = f.addHost(new Host("worker1", "sw2"));
                    Host w2 = f.addHost(new Host("worker2", "sw3"));
                    w1.addInstance("vnf1", a, REQUESTS[a.ordinal()], 0);
                    w1.addInstance("vnf3", VnfType.SNORT, REQUESTS[VnfType.SNORT.ordinal()], 0);
                    w1.addInstance("vnf5", VnfType.NDPI, REQUESTS[VnfType.NDPI.ordinal()], 0);
                    w1.addInstance("vnf7", VnfType.NTOPNG, REQUESTS[VnfType.NTOPNG.ordinal()], 0);
                    w2.addInstance("vnf2", b, REQUESTS[b.ordinal()], 0);
                    f.addChain(new Chain(label, List.of("vnf1", "vnf2"), Scenarios::ramp, SIZE, BOUND_US));
                    f.addChain(new Chain("sfc2", List.of("vnf3"), x -> 1.0, SIZE, BOUND_US));
                    f.addChain(new Chain("sfc3", List.of("vnf5"), x -> 1.0, SIZE, BOUND_US));
                    f.addChain(new Chain("sfc4", List.of("vnf7"), x -> 1.0, SIZE, BOUND_US));
                    return new Experiment(label, f, 60).withRamp(label, RAMP_STEP_S);
                });
            }
        }
        return exps;
    }

    /** Fig. 12: four co-located vNFs under changing traffic (our reconstruction of Fig. 12a). */
    public static Scenario fig12() {
        Supplier<Experiment> b = () -> {
            DoubleUnaryOperator[] rates = new DoubleUnaryOperator[4];
            rates[VnfType.FWD.ordinal()] = curve(0, 1.0, 68, 1.0, 70, 3.0, 90, 3.0, 92, 1.0);
            rates[VnfType.SNORT.ordinal()] = curve(0, 0.5);
            rates[VnfType.NDPI.ordinal()] = curve(0, 0.5, 10, 0.5, 42, 1.6, 57, 1.6, 60, 0.5);
            rates[VnfType.NTOPNG.ordinal()] = curve(0, 0.5, 55, 0.5, 70, 1.6, 90, 1.6, 92, 0.5);
            return new Experiment("", colocated(rates, REQUESTS), 100);
        };
        return new Scenario("fig12", "Dynamic traffic, four co-located vNFs (paper Figs. 12-13)", List.of(b));
    }
}
