package org.srv6int.twin.control;

import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.api.model.ReplicaHealthRecord;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;
import org.srv6int.app.api.model.VnfReplicaId;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cluster's loop state store of a twin run with several ONOS instances: the twin is one
 * process, so the store is a map (in ONOS it is {@code DistributedLoopStateStore}).
 */
final class InMemoryLoopState implements LoopStateStore {

    private final Map<VnfKey, VnfLoopRecord> records = new LinkedHashMap<>();
    private long lastId;
    private final Map<VnfReplicaId, ReplicaHealthRecord> health =
            new LinkedHashMap<>();
    private final Map<SfcId, ChainState> down = new LinkedHashMap<>();
    private final java.util.Set<org.srv6int.app.api.model.SfcId> paused = new java.util.TreeSet<>();
    private org.srv6int.app.api.model.LearnedInterference interference;

    @Override
    public synchronized Map<VnfKey, VnfLoopRecord> records() {
        return new LinkedHashMap<>(records);
    }

    @Override
    public synchronized void put(VnfKey vnf, VnfLoopRecord record) {
        records.put(vnf, record);
    }

    @Override
    public synchronized void remove(VnfKey vnf) {
        records.remove(vnf);
    }

    @Override
    public synchronized java.util.Set<org.srv6int.app.api.model.SfcId> pausedChains() {
        return new java.util.TreeSet<>(paused);
    }

    @Override
    public synchronized void setPaused(org.srv6int.app.api.model.SfcId sfc, boolean p) {
        if (p) {
            paused.add(sfc);
        } else {
            paused.remove(sfc);
        }
    }

    @Override
    public synchronized long nextDecisionId() {
        return ++lastId;
    }

    @Override
    public synchronized Map<VnfReplicaId, ReplicaHealthRecord> replicaHealth() {
        return new LinkedHashMap<>(health);
    }

    @Override
    public synchronized void putReplicaHealth(VnfReplicaId replica, ReplicaHealthRecord record) {
        health.put(replica, record);
    }

    @Override
    public synchronized void removeReplicaHealth(VnfReplicaId replica) {
        health.remove(replica);
    }

    @Override
    public synchronized Map<SfcId, ChainState> downChains() {
        return new LinkedHashMap<>(down);
    }

    @Override
    public synchronized void putDownChain(ChainState state) {
        down.put(state.sfc(), state);
    }

    @Override
    public synchronized void removeDownChain(SfcId sfc) {
        down.remove(sfc);
    }

    @Override
    public synchronized java.util.Optional<org.srv6int.app.api.model.LearnedInterference> learnedInterference() {
        return java.util.Optional.ofNullable(interference);
    }

    @Override
    public synchronized void putLearnedInterference(org.srv6int.app.api.model.LearnedInterference learned) {
        interference = learned;
    }
}
