// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import com.google.common.collect.ImmutableList;
import org.onosproject.net.DeviceId;
import org.srv6int.app.api.model.ChainState;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A service function chain as the overlay draws it: its switch paths (one per
 * segment list of its multipath group), its vNFs with their replicas, its live
 * telemetry and the global loop's decisions about it.
 */
public final class ChainView {
    /** Marker for "not measured yet". */
    public static final long UNKNOWN = -1;

    private final String id;
    private final String name;
    private final List<List<DeviceId>> paths;
    private final List<VnfView> vnfs;
    private final double throughputPps;
    private final long e2eP95Ns;
    private final List<LoopDecisionView> history;
    private final DeviceId ingress;
    private final ChainState state;

    /**
     * Creates a chain view.
     *
     * @param id            chain id (the SRH tag as text)
     * @param name          operator's name of the chain
     * @param paths         switch paths, one per segment list; the first is the primary
     * @param vnfs          vNFs in chain order
     * @param throughputPps measured throughput in packets/s, negative if unknown
     * @param e2eP95Ns      end-to-end p95 latency in ns, or {@link #UNKNOWN}
     * @param history       global loop decisions about this chain, oldest first
     */
    public ChainView(String id, String name, List<List<DeviceId>> paths, List<VnfView> vnfs,
                     double throughputPps, long e2eP95Ns, List<LoopDecisionView> history) {
        this(id, name, paths, vnfs, throughputPps, e2eP95Ns, history, null, null);
    }

    /**
     * Creates a chain view with the failure detection's state of the chain.
     *
     * @param id            chain id (the SRH tag as text)
     * @param name          operator's name of the chain
     * @param paths         switch paths, one per segment list; the first is the primary
     * @param vnfs          vNFs in chain order
     * @param throughputPps measured throughput in packets/s, negative if unknown
     * @param e2eP95Ns      end-to-end p95 latency in ns, or {@link #UNKNOWN}
     * @param history       global loop decisions about this chain, oldest first
     * @param ingress       the chain's ingress switch (where a DOWN chain's badge goes), null if unknown
     * @param state         liveness from the failure detection, null if not known here (the loop
     *                      runs on another instance or not at all)
     */
    public ChainView(String id, String name, List<List<DeviceId>> paths, List<VnfView> vnfs,
                     double throughputPps, long e2eP95Ns, List<LoopDecisionView> history, DeviceId ingress,
                     ChainState state) {
        this.id = Objects.requireNonNull(id, "id");
        this.name = Objects.requireNonNull(name, "name");
        ImmutableList.Builder<List<DeviceId>> b = ImmutableList.builder();
        for (List<DeviceId> p : paths) {
            b.add(ImmutableList.copyOf(p));
        }
        this.paths = b.build();
        this.vnfs = ImmutableList.copyOf(vnfs);
        this.throughputPps = throughputPps;
        this.e2eP95Ns = e2eP95Ns < 0 ? UNKNOWN : e2eP95Ns;
        this.history = ImmutableList.copyOf(history);
        this.ingress = ingress;
        this.state = state;
    }

    /** @return the ingress switch, if known */
    public Optional<DeviceId> ingress() {
        return Optional.ofNullable(ingress);
    }

    /** @return the failure detection's state of the chain, if known on this instance */
    public Optional<ChainState> state() {
        return Optional.ofNullable(state);
    }

    /** @return true if the failure detection reports the chain DOWN */
    public boolean down() {
        return state != null && state.liveness() == ChainState.Liveness.DOWN;
    }

    /** @return chain id */
    public String id() {
        return id;
    }

    /** @return chain name */
    public String name() {
        return name;
    }

    /** @return switch paths, primary first */
    public List<List<DeviceId>> paths() {
        return paths;
    }

    /** @return vNFs in chain order */
    public List<VnfView> vnfs() {
        return vnfs;
    }

    /** @return throughput in packets/s, negative if unknown */
    public double throughputPps() {
        return throughputPps;
    }

    /** @return end-to-end p95 in ns, or {@link #UNKNOWN} */
    public long e2eP95Ns() {
        return e2eP95Ns;
    }

    /** @return decisions, oldest first */
    public List<LoopDecisionView> history() {
        return history;
    }

    /** @return the most recent decision, if any */
    public Optional<LoopDecisionView> lastDecision() {
        return history.isEmpty() ? Optional.empty() : Optional.of(history.get(history.size() - 1));
    }

    /** @return number of running replicas over all vNFs */
    public int replicaCount() {
        int n = 0;
        for (VnfView v : vnfs) {
            n += v.replicas().size();
        }
        return n;
    }
}
