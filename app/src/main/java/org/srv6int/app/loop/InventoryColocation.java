// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.model.VnfClass;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The loop's {@link Colocation} over the app's replica inventory (where each replica runs) and
 * the Kubernetes settings (what one replica of a vNF type requests), and the vNF classes on each
 * node (a vNF type's class: {@link VnfClass#ofType}). Used by
 * {@link GlobalLoopManager} in ONOS and by the testbed twin.
 */
public final class InventoryColocation implements Colocation, NodeResidents {

    private final VnfInventoryService inventory;
    private final SfcService sfcs;
    private final ToLongFunction<String> cpuByType;
    private final Function<String, ResourceNeed> needByType;

    /**
     * Creates the view.
     *
     * @param inventory the app's replica inventory
     * @param sfcs      the chains (a vNF's type)
     * @param cpuByType CPU request of one replica by vNF type, millicores, 0 if unknown
     */
    public InventoryColocation(VnfInventoryService inventory, SfcService sfcs, ToLongFunction<String> cpuByType) {
        this(inventory, sfcs, cpuByType, t -> new ResourceNeed(cpuByType.applyAsLong(t), 0, 0));
    }

    /**
     * Creates the view with each type's whole need (CPU, LLC ways, memory bandwidth).
     *
     * @param inventory  the app's replica inventory
     * @param sfcs       the chains (a vNF's type)
     * @param cpuByType  CPU request of one replica by vNF type, millicores, 0 if unknown
     * @param needByType what one replica of a vNF type needs on its node
     */
    public InventoryColocation(VnfInventoryService inventory, SfcService sfcs, ToLongFunction<String> cpuByType,
                               Function<String, ResourceNeed> needByType) {
        this.inventory = Objects.requireNonNull(inventory, "inventory is null");
        this.sfcs = Objects.requireNonNull(sfcs, "chains are null");
        this.cpuByType = Objects.requireNonNull(cpuByType, "CPU requests are null");
        this.needByType = Objects.requireNonNull(needByType, "needs are null");
    }

    @Override
    public Map<String, String> replicaNodes(VnfKey vnf) {
        Map<String, String> out = new TreeMap<>();
        for (VnfReplica r : inventory.getReplicas(vnf)) {
            if (r.carriesTraffic()) {
                out.put(r.id().name(), r.node());
            }
        }
        return out;
    }

    @Override
    public Map<VnfKey, Map<String, String>> replicaNodes(Collection<VnfKey> vnfs) {
        // One read of the inventory for all: a read decodes every replica's record.
        Map<VnfKey, Map<String, String>> out = new HashMap<>();
        for (VnfKey v : vnfs) {
            out.put(v, new TreeMap<>());
        }
        for (VnfReplica r : inventory.getReplicas()) {
            Map<String, String> at = out.get(r.vnf());
            if (at != null && r.carriesTraffic()) {
                at.put(r.id().name(), r.node());
            }
        }
        return out;
    }

    @Override
    public long cpuRequestMillis(VnfKey vnf) {
        Optional<Sfc> sfc = sfcs.getSfc(vnf.sfcId());
        if (sfc.isEmpty() || vnf.index() >= sfc.get().vnfs().size()) {
            return 0;
        }
        return cpuByType.applyAsLong(sfc.get().vnfs().get(vnf.index()).type());
    }

    @Override
    public ResourceNeed need(VnfKey vnf) {
        Optional<Sfc> sfc = sfcs.getSfc(vnf.sfcId());
        if (sfc.isEmpty() || vnf.index() >= sfc.get().vnfs().size()) {
            return ResourceNeed.NONE;
        }
        return needByType.apply(sfc.get().vnfs().get(vnf.index()).type());
    }

    @Override
    public Map<String, List<VnfClass>> classesByNode() {
        Map<String, List<VnfClass>> out = new TreeMap<>();
        for (VnfReplica r : inventory.getReplicas()) {
            // Every replica on a node uses it, draining or not.
            classOf(r.vnf()).ifPresent(c -> out.computeIfAbsent(r.node(), n -> new ArrayList<>()).add(c));
        }
        return out;
    }

    @Override
    public Optional<VnfClass> classOf(VnfKey vnf) {
        Optional<Sfc> sfc = sfcs.getSfc(vnf.sfcId());
        if (sfc.isEmpty() || vnf.index() >= sfc.get().vnfs().size()) {
            return Optional.empty();
        }
        return VnfClass.ofType(sfc.get().vnfs().get(vnf.index()).type());
    }
}
