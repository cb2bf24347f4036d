// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.VnfReplicaListener;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Replicas in memory with the inventory's contract (ACTIVE weight 1 on add); safe for the platform's threads. */
public final class FakeInventory implements VnfInventoryService {
    public final Map<VnfReplicaId, VnfReplica> replicas = new TreeMap<>();
    public final List<String> calls = new ArrayList<>();

    public synchronized VnfReplica make(VnfKey vnf, String name, String node) {
        return new VnfReplica(VnfReplicaId.of(vnf, name), node, DeviceId.deviceId("device:s2"),
                              PortNumber.portNumber(3), Ip6Address.valueOf("2001:db8::" + (replicas.size() + 1)),
                              MacAddress.valueOf("00:00:00:00:00:0" + (replicas.size() + 1)),
                              ReplicaState.ACTIVE, 1);
    }

    @Override
    public synchronized Collection<VnfReplica> getReplicas() {
        return new ArrayList<>(replicas.values());
    }

    @Override
    public synchronized Collection<VnfReplica> getReplicas(SfcId sfcId) {
        return replicas.values().stream().filter(r -> r.id().vnf().sfcId().equals(sfcId))
                .collect(Collectors.toList());
    }

    @Override
    public synchronized Collection<VnfReplica> getReplicas(VnfKey vnf) {
        return replicas.values().stream().filter(r -> r.id().vnf().equals(vnf)).collect(Collectors.toList());
    }

    @Override
    public synchronized Optional<VnfReplica> getReplica(VnfReplicaId id) {
        return Optional.ofNullable(replicas.get(id));
    }

    @Override
    public synchronized VnfReplica addReplica(VnfKey vnf, String node) {
        VnfReplica r = make(vnf, "r" + replicas.size(), node);
        replicas.put(r.id(), r);
        calls.add("addReplica " + vnf + " " + node + " -> " + r.id().name());
        return r;
    }

    @Override
    public synchronized VnfReplica addReplica(VnfKey vnf, String node, String name) {
        VnfReplica r = make(vnf, name, node);
        if (replicas.putIfAbsent(r.id(), r) != null) {
            throw new IllegalStateException("replica " + r.id() + " exists");
        }
        calls.add("addReplica " + vnf + " " + node + " -> " + name);
        return r;
    }

    @Override
    public synchronized VnfReplica reserveReplica(VnfKey vnf, String node, String name) {
        VnfReplicaId id = VnfReplicaId.of(vnf, name);
        VnfReplica have = replicas.get(id);
        if (have != null) {
            if (!have.node().equals(node)) {
                throw new IllegalStateException("replica " + id + " exists on " + have.node());
            }
            return have;
        }
        VnfReplica r = make(vnf, name, node).withState(ReplicaState.PENDING).withWeight(0);
        replicas.put(id, r);
        calls.add("reserveReplica " + vnf + " " + node + " -> " + name);
        return r;
    }

    @Override
    public synchronized void registerReplica(VnfReplica replica) {
        replicas.put(replica.id(), replica);
    }

    @Override
    public synchronized VnfReplica drainReplica(VnfReplicaId id) {
        calls.add("drainReplica " + id);
        return replicas.compute(id, (k, r) -> r.withState(ReplicaState.DRAINING).withWeight(0));
    }

    @Override
    public synchronized VnfReplica updateReplica(VnfReplicaId id, ReplicaState state, int weight) {
        calls.add("updateReplica " + id + " " + state + " " + weight);
        return replicas.compute(id, (k, r) -> r.withState(state).withWeight(weight));
    }

    @Override
    public synchronized VnfReplica removeReplica(VnfReplicaId id) {
        calls.add("removeReplica " + id);
        return replicas.remove(id);
    }

    @Override
    public synchronized VnfReplica failReplica(VnfReplicaId id) {
        return updateReplica(id, ReplicaState.PENDING, 0);
    }

    @Override
    public synchronized VnfReplica restoreReplica(VnfReplicaId id) {
        return updateReplica(id, ReplicaState.ACTIVE, 1);
    }

    @Override
    public synchronized Optional<VnfReplica> releaseReservation(VnfReplicaId id) {
        VnfReplica r = replicas.get(id);
        if (r == null || r.state() != ReplicaState.PENDING) {
            return Optional.empty();
        }
        return Optional.of(removeReplica(id));
    }

    @Override
    public int releaseOrphanSids() {
        return 0;
    }

    @Override
    public synchronized void addListener(VnfReplicaListener listener) {
    }

    @Override
    public synchronized void removeListener(VnfReplicaListener listener) {
    }
}
