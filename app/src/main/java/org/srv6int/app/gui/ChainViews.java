// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import java.util.Locale;
import com.google.common.collect.ImmutableList;
import org.onosproject.net.DeviceId;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.api.model.VnfTelemetry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads the app's services into the overlay's view of every chain: chains
 * (SfcService), replicas (VnfInventoryService), segment lists' switch paths
 * (SfcPathService), telemetry (TelemetryService) and the global loop's
 * decisions (GlobalLoopService). Each supplier may return null while that
 * service is not (yet) available; the chain is then drawn without that data.
 */
public final class ChainViews implements Supplier<List<ChainView>> {
    /** Most recent loop decisions read per refresh (over all chains). */
    static final int DECISIONS_READ = 200;

    private final Supplier<SfcService> sfcs;
    private final Supplier<VnfInventoryService> inventory;
    private final Supplier<SfcPathService> paths;
    private final Supplier<TelemetryService> telemetry;
    private final Supplier<GlobalLoopService> loop;

    /**
     * Creates the reader.
     *
     * @param sfcs      chain service
     * @param inventory replica inventory
     * @param paths     segment lists of each chain
     * @param telemetry INT telemetry
     * @param loop      global loop
     */
    public ChainViews(Supplier<SfcService> sfcs, Supplier<VnfInventoryService> inventory,
                      Supplier<SfcPathService> paths, Supplier<TelemetryService> telemetry,
                      Supplier<GlobalLoopService> loop) {
        this.sfcs = sfcs;
        this.inventory = inventory;
        this.paths = paths;
        this.telemetry = telemetry;
        this.loop = loop;
    }

    /**
     * Current view of every chain, by chain id.
     *
     * @return chains, ordered by id
     */
    @Override
    public List<ChainView> get() {
        SfcService sfcService = sfcs.get();
        if (sfcService == null) {
            return ImmutableList.of();
        }
        List<Sfc> chains = new ArrayList<>(sfcService.getSfcs());
        chains.sort(Comparator.comparing(Sfc::id));
        GlobalLoopService gl = loop.get();
        List<LoopDecision> decisions = gl == null ? ImmutableList.of() : gl.decisions(DECISIONS_READ);
        // Empty on an instance that does not run the loop: the chains are drawn without liveness.
        Map<SfcId, ChainState> states = new HashMap<>();
        if (gl != null) {
            gl.chainStates().forEach(c -> states.put(c.sfc(), c));
        }
        ImmutableList.Builder<ChainView> out = ImmutableList.builder();
        for (Sfc sfc : chains) {
            out.add(view(sfc, decisions, states.get(sfc.id())));
        }
        return out.build();
    }

    private ChainView view(Sfc sfc, List<LoopDecision> decisions, ChainState state) {
        TelemetryService tel = telemetry.get();
        VnfInventoryService inv = inventory.get();
        SfcPathService ps = paths.get();

        List<List<DeviceId>> switchPaths = new ArrayList<>();
        Optional<SfcPaths> sp = ps == null ? Optional.empty() : ps.getPaths(sfc.id());
        if (sp.isPresent()) {
            for (SegmentList sl : sp.get().segmentLists()) {
                switchPaths.add(sl.switchPath());
            }
        }

        List<VnfView> vnfs = new ArrayList<>();
        for (int i = 0; i < sfc.vnfs().size(); i++) {
            VnfSpec spec = sfc.vnfs().get(i);
            VnfKey key = VnfKey.of(sfc.id(), i);
            long p95 = tel == null ? VnfView.UNKNOWN
                    : tel.vnfTelemetry(key).map(VnfTelemetry::p95LatencyNanos).orElse(VnfView.UNKNOWN);
            List<VnfReplica> reps = inv == null ? new ArrayList<>() : new ArrayList<>(inv.getReplicas(key));
            reps.sort(Comparator.comparing(VnfReplica::id));
            List<ReplicaView> rv = new ArrayList<>();
            for (VnfReplica r : reps) {
                boolean dead = state != null && state.deadReplicas().contains(key + "/" + r.id().name());
                rv.add(new ReplicaView(r.id().name(), r.node(), r.deviceId(), r.state().name(), r.weight(), dead));
            }
            vnfs.add(new VnfView(key.toString(), spec.type(), spec.lmaxNanos(), p95, rv));
        }

        Optional<SfcTelemetry> st = tel == null ? Optional.empty() : tel.sfcTelemetry(sfc.id());
        List<LoopDecisionView> history = new ArrayList<>();
        for (LoopDecision d : decisions) {  // newest first
            if (d.vnf().sfcId().equals(sfc.id())) {
                history.add(0, decision(d));
            }
        }
        return new ChainView(sfc.id().toString(), sfc.name(), switchPaths, vnfs,
                st.map(SfcTelemetry::throughputPps).orElse(-1.0),
                st.map(SfcTelemetry::p95E2eLatencyNanos).orElse(ChainView.UNKNOWN), history, sfc.ingress().deviceId(),
                        state);
    }

    /** One decision as the panels show it: replica change, outcome, the loop's reason. */
    static LoopDecisionView decision(LoopDecision d) {
        StringBuilder sb = new StringBuilder();
        if (d.replicasBefore() != d.replicasAfter()) {
            sb.append(d.replicasBefore()).append(" → ").append(d.replicasAfter()).append(" replicas, ");
        }
        sb.append(d.outcome().name().toLowerCase(Locale.ROOT));
        if (!d.detail().isEmpty()) {
            sb.append("; ").append(d.detail());
        }
        return new LoopDecisionView(d.timeMillis(), d.vnf().toString(), d.action().name(), sb.toString());
    }
}
