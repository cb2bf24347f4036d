package org.srv6int.twin.control;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.srv6int.twin.Percentile;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.IntSample;

/**
 * The twin's own global closed loop (paper Algorithm 4), fed by INT samples at the egress: per
 * logical vNF, every {@link #PERIOD_S} s, L = p95 of the vNF_Latency values, R = throughput.
 * If L stays above the vNF's bound for more than t-hat, it scales the vNF to
 * {@code n = max(current + 1, ceil(R_in / R*))} replicas, where R* is the largest throughput
 * the vNF carried within its bound and R_in the rate the chain offers at the ingress
 * (Port_Counter); see docs/twin.md section 6 for why this reading of C = R L.
 * Stand-in at the collector boundary until the app's loop is wired in.
 */
public final class GlobalLoop implements Fabric.IntSink {
    /** Evaluation period. */
    public static final double PERIOD_S = 0.1;

    private final Orchestrator orchestrator;
    private final double tHatS;
    private final Map<String, VnfState> vnfs = new LinkedHashMap<>();
    private final Map<String, Chain> chainsById = new LinkedHashMap<>();
    private final Map<String, Double> triggerByChain = new LinkedHashMap<>();
    private double nextEval = PERIOD_S;

    /**
     * Creates the loop.
     *
     * @param orchestrator where scaling decisions go
     * @param chains chains to watch
     * @param tHatS persistence threshold t-hat
     */
    public GlobalLoop(Orchestrator orchestrator, List<Chain> chains, double tHatS) {
        this.orchestrator = orchestrator;
        this.tHatS = tHatS;
        for (Chain c : chains) {
            chainsById.put(c.id(), c);
            for (String v : c.vnfs()) {
                vnfs.put(v, new VnfState(c, c.vnfBoundUs()));
            }
        }
    }

    /** First scaling time per chain id. */
    public Map<String, Double> triggers() {
        return Map.copyOf(triggerByChain);
    }

    @Override
    public void onIntSample(IntSample s) {
        for (int k = 0; k < s.hopCount(); k++) {
            VnfState st = vnfs.get(s.hop(k).vnf());
            if (st != null) {
                st.latencies.add(s.vnfLatencyNs(k) / 1000.0);
                st.packets += Fabric.INT_SAMPLING;
            }
        }
    }

    /** Called every tick. */
    public void tick(double nowS) {
        if (nowS + 1e-9 < nextEval) {
            return;
        }
        nextEval += PERIOD_S;
        for (Map.Entry<String, VnfState> e : vnfs.entrySet()) {
            VnfState st = e.getValue();
            double l = Percentile.of(st.latencies, 0.95);
            double rGbps = st.packets * st.chain.sizeBytes() * 8 / PERIOD_S / 1e9;
            st.latencies.clear();
            st.packets = 0;
            if (Double.isNaN(l) || nowS < st.holdUntil) {
                continue;
            }
            if (l <= st.bound) {
                st.rStar = Math.max(st.rStar, rGbps);
                st.since = Double.NaN;
                continue;
            }
            if (Double.isNaN(st.since)) {
                st.since = nowS;
            }
            if (nowS - st.since >= tHatS && st.rStar > 0) {
                int cur = orchestrator.replicas(e.getKey()).size();
                double rIn = st.chain.gbps(nowS);
                int n = Math.max(cur + 1, (int) Math.ceil(rIn / st.rStar));
                orchestrator.scaleTo(e.getKey(), n, nowS);
                triggerByChain.putIfAbsent(st.chain.id(), nowS);
                st.since = Double.NaN;
                st.holdUntil = nowS + Orchestrator.POD_STARTUP_S + tHatS;
            }
        }
    }

    private static final class VnfState {
        final Chain chain;
        final double bound;
        final List<Double> latencies = new ArrayList<>();
        long packets;
        double rStar;
        double since = Double.NaN;
        double holdUntil;

        VnfState(Chain chain, double bound) {
            this.chain = chain;
            this.bound = bound;
        }
    }
}
