// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import java.util.Optional;
import java.util.TreeMap;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.PlacementService;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfWindow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The loop's {@link ChainRouting} through the app's {@link VnfInventoryService}: a new replica
 * (or one reserved PENDING before its pod was made) joins ACTIVE with weight 1, named by its platform id (the bridge's
 * deterministic workload
 * name, kept in the distributed inventory rather than in one node's memory), and every active
 * replica is set to weight 1 (even split); drain and remove map one to one. The app's placement
 * and flow programming react to the inventory change. Used by {@link GlobalLoopManager} in ONOS
 * and by the testbed twin.
 */
public final class InventoryRouting implements ChainRouting {

    private final VnfInventoryService inventory;
    private final PlacementService placement;

    /**
     * Creates the routing.
     *
     * @param inventory the app's replica inventory
     * @param placement the app's LCS placement
     */
    public InventoryRouting(VnfInventoryService inventory, PlacementService placement) {
        this.inventory = Objects.requireNonNull(inventory, "inventory is null");
        this.placement = Objects.requireNonNull(placement, "placement is null");
    }

    /**
     * {@inheritDoc}
     *
     * <p>One {@link PlacementService#chooseNode} per replica, over the candidates' free CPU; a
     * node already chosen in this call counts with its free CPU divided by one plus its picks,
     * so several replicas spread over equally good nodes.
     */
    @Override
    public List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count) {
        Map<String, Integer> picks = new HashMap<>();
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Map<String, Double> free = new TreeMap<>();
            for (NodeResources n : candidates) {
                free.put(n.node(), (double) n.freeCpuMillis() / (1 + picks.getOrDefault(n.node(), 0)));
            }
            String node = placement.chooseNode(vnf, free).orElseThrow(() -> new IllegalStateException(
                    "no candidate node has room and a switch attachment in netcfg (devices.*.srv6int.servers): "
                    + free));
            picks.merge(node, 1, Integer::sum);
            out.add(node);
        }
        return out;
    }

    @Override
    public void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas) {
        for (ReplicaInfo r : replicas) {
            VnfReplicaId id = VnfReplicaId.of(vnf, r.id());
            // A retried create may hand back a replica that already joined; a reserved one
            // (PENDING, its SID on the pod already) joins now that it is Ready.
            Optional<VnfReplica> have = inventory.getReplica(id);
            if (have.isEmpty()) {
                inventory.addReplica(vnf, r.node(), r.id());
            } else if (have.get().state() == ReplicaState.PENDING) {
                inventory.updateReplica(id, ReplicaState.ACTIVE, 1);
            }
        }
        for (VnfReplica r : inventory.getReplicas(vnf)) {
            if (r.state() == ReplicaState.ACTIVE && r.weight() != 1) {
                inventory.updateReplica(r.id(), ReplicaState.ACTIVE, 1);
            }
        }
    }

    @Override
    public void drainReplica(VnfKey vnf, String replicaId) {
        inventory.drainReplica(VnfReplicaId.of(vnf, Objects.requireNonNull(replicaId)));
    }

    @Override
    public void failReplica(VnfKey vnf, String replicaId) {
        // DEAD, weight 0: out of every segment list, distinguishable from a scale-in drain.
        inventory.failReplica(VnfReplicaId.of(vnf, Objects.requireNonNull(replicaId)));
    }

    @Override
    public void restoreReplica(VnfKey vnf, String replicaId) {
        inventory.restoreReplica(VnfReplicaId.of(vnf, Objects.requireNonNull(replicaId)));
    }

    @Override
    public void removeReplica(VnfKey vnf, String replicaId) {
        VnfReplicaId id = VnfReplicaId.of(vnf, replicaId);
        // A new leader finishing a removal may find it done already.
        if (inventory.getReplica(id).isPresent()) {
            inventory.removeReplica(id);
        }
    }

    @Override
    public int releaseOrphanSids() {
        return inventory.releaseOrphanSids();
    }

    @Override
    public Map<VnfKey, List<ReplicaInfo>> reservations() {
        Map<VnfKey, List<ReplicaInfo>> out = new HashMap<>();
        for (VnfReplica r : inventory.getReplicas()) {
            if (r.state() == ReplicaState.PENDING) {
                out.computeIfAbsent(r.vnf(), k -> new ArrayList<>())
                        .add(new ReplicaInfo(r.id().name(), r.node(), null));
            }
        }
        return out;
    }

    @Override
    public boolean releaseReservation(VnfKey vnf, String replicaId) {
        VnfReplicaId id = VnfReplicaId.of(vnf, replicaId);
        Optional<VnfReplica> have = inventory.getReplica(id);
        if (have.isPresent() && have.get().state() != ReplicaState.PENDING) {
            return false;
        }
        try {
            inventory.releaseReservation(id);
            return true;
        } catch (SfcException e) {
            // it left PENDING (joined) between the read and the release
            if (e.reason() != SfcException.Reason.CONFLICT) {
                throw e;
            }
            return false;
        }
    }

    /**
     * Builds the loop's input from one telemetry window: one observation per vNF of every chain,
     * with the chain's Lmax and the replicas that carry traffic (ACTIVE, weight &gt; 0) by name,
     * sorted; a vNF without a window gets an observation without samples.
     *
     * @param window    the closed telemetry window
     * @param sfcs      the chains
     * @param inventory the replicas
     * @return observations, chains by id, vNFs in chain order
     */
    public static List<VnfObservation> observations(TelemetrySnapshot window, SfcService sfcs,
                                                    VnfInventoryService inventory) {
        Map<VnfKey, VnfWindow> windows = window.vnfs().stream()
                .collect(Collectors.toMap(VnfWindow::vnf, w -> w));
        List<VnfObservation> out = new ArrayList<>();
        List<Sfc> chains = new ArrayList<>(sfcs.getSfcs());
        // A fixed order: the loop acts on vNFs in this order (and the twin must be deterministic).
        chains.sort(Comparator.comparingInt(c -> c.id().tag()));
        // one read of the inventory for all vNFs (each read decodes the whole replica store)
        Map<VnfKey, List<String>> carrying = new HashMap<>();
        for (VnfReplica r : inventory.getReplicas()) {
            if (r.carriesTraffic()) {
                carrying.computeIfAbsent(r.vnf(), x -> new ArrayList<>()).add(r.id().name());
            }
        }
        // sorted once here, not streamed per vNF (the observation keeps its own copy)
        carrying.values().forEach(Collections::sort);
        for (Sfc sfc : chains) {
            for (int i = 0; i < sfc.vnfs().size(); i++) {
                VnfKey k = VnfKey.of(sfc.id(), i);
                VnfWindow w = windows.get(k);
                List<String> active = carrying.getOrDefault(k, List.of());
                out.add(w == null
                        ? new VnfObservation(k, sfc.vnfs().get(i).lmaxNanos(), 0, 0, 0, active, Map.of())
                        : new VnfObservation(k, sfc.vnfs().get(i).lmaxNanos(), w.ratePps(), w.p95Nanos(),
                                             w.samples(), active, w.replicaPackets()));
            }
        }
        return out;
    }
}
