// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.LearnedInterference;
import org.srv6int.app.api.model.ReplicaHealthRecord;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;
import org.srv6int.app.api.model.VnfReplicaId;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The global loop's state in ConsistentMaps: one record per vNF, the decision id sequence (one
 * key, advanced by compare-and-set on its version), the paused chains, the failure detection's
 * memory of replicas and of DOWN chains, and the learned interference matrix (one key).
 */
@Component(immediate = true, service = LoopStateStore.class)
public class DistributedLoopStateStore implements LoopStateStore {

    static final String MAP_NAME = "srv6int-loop-state";
    static final String IDS_NAME = "srv6int-loop-ids";
    static final String PAUSED_NAME = "srv6int-loop-paused";
    static final String HEALTH_NAME = "srv6int-loop-health";
    static final String DOWN_NAME = "srv6int-loop-down-chains";
    static final String INTERFERENCE_NAME = "srv6int-loop-interference";
    private static final String LEARNED = "learned";
    private static final String DECISION = "decision";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    /** Creates the store for OSGi, which sets its storage service. */
    public DistributedLoopStateStore() {
    }

    /**
     * Creates the store on a storage service, for a host without OSGi; call {@link #activate()}.
     *
     * @param storageService storage service
     */
    public DistributedLoopStateStore(StorageService storageService) {
        this.storageService = storageService;
    }

    private ConsistentMap<VnfKey, VnfLoopRecord> records;
    private ConsistentMap<String, Long> ids;
    private ConsistentMap<Integer, Boolean> paused;
    private ConsistentMap<VnfReplicaId, ReplicaHealthRecord> health;
    private ConsistentMap<SfcId, ChainState> down;
    private ConsistentMap<String, LearnedInterference> interference;

    /** Creates the maps. */
    @Activate
    public void activate() {
        records = storageService.<VnfKey, VnfLoopRecord>consistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(Srv6IntSerializers.SERIALIZER)
                .build();
        ids = storageService.<String, Long>consistentMapBuilder()
                .withName(IDS_NAME)
                .withSerializer(Serializer.using(KryoNamespaces.BASIC))
                .build();
        paused = storageService.<Integer, Boolean>consistentMapBuilder()
                .withName(PAUSED_NAME)
                .withSerializer(Serializer.using(KryoNamespaces.BASIC))
                .build();
        health = storageService.<VnfReplicaId, ReplicaHealthRecord>consistentMapBuilder()
                .withName(HEALTH_NAME)
                .withSerializer(Srv6IntSerializers.SERIALIZER)
                .build();
        down = storageService.<SfcId, ChainState>consistentMapBuilder()
                .withName(DOWN_NAME)
                .withSerializer(Srv6IntSerializers.SERIALIZER)
                .build();
        interference = storageService.<String, LearnedInterference>consistentMapBuilder()
                .withName(INTERFERENCE_NAME)
                .withSerializer(Srv6IntSerializers.SERIALIZER)
                .build();
    }

    @Override
    public Map<SfcId, ChainState> downChains() {
        Map<SfcId, ChainState> out = new LinkedHashMap<>();
        for (Map.Entry<SfcId, Versioned<ChainState>> e : down.entrySet()) {
            out.put(e.getKey(), e.getValue().value());
        }
        return out;
    }

    @Override
    public void putDownChain(ChainState state) {
        down.put(state.sfc(), state);
    }

    @Override
    public void removeDownChain(SfcId sfc) {
        down.remove(sfc);
    }

    @Override
    public Map<VnfReplicaId, ReplicaHealthRecord> replicaHealth() {
        Map<VnfReplicaId, ReplicaHealthRecord> out = new LinkedHashMap<>();
        for (Map.Entry<VnfReplicaId, Versioned<ReplicaHealthRecord>> e : health.entrySet()) {
            out.put(e.getKey(), e.getValue().value());
        }
        return out;
    }

    @Override
    public void putReplicaHealth(VnfReplicaId replica, ReplicaHealthRecord record) {
        health.put(replica, record);
    }

    @Override
    public Set<VnfReplicaId> putReplicaHealthAll(Map<VnfReplicaId, ReplicaHealthRecord> many) {
        return ParallelPuts.putAll(health, many);
    }

    @Override
    public void removeReplicaHealth(VnfReplicaId replica) {
        health.remove(replica);
    }

    @Override
    public Optional<LearnedInterference> learnedInterference() {
        return Optional.ofNullable(Versioned.valueOrNull(interference.get(LEARNED)));
    }

    @Override
    public void putLearnedInterference(LearnedInterference learned) {
        interference.put(LEARNED, learned);
    }

    @Override
    public Map<VnfKey, VnfLoopRecord> records() {
        Map<VnfKey, VnfLoopRecord> out = new LinkedHashMap<>();
        for (Map.Entry<VnfKey, Versioned<VnfLoopRecord>> e : records.entrySet()) {
            out.put(e.getKey(), e.getValue().value());
        }
        return out;
    }

    @Override
    public void put(VnfKey vnf, VnfLoopRecord record) {
        records.put(vnf, record);
    }

    @Override
    public Set<VnfKey> putAll(Map<VnfKey, VnfLoopRecord> many) {
        return ParallelPuts.putAll(records, many);
    }

    @Override
    public void remove(VnfKey vnf) {
        records.remove(vnf);
    }

    @Override
    public Set<SfcId> pausedChains() {
        Set<SfcId> out = new TreeSet<>();
        paused.keySet().forEach(k -> out.add(SfcId.of(k)));
        return out;
    }

    @Override
    public void setPaused(SfcId sfc, boolean p) {
        if (p) {
            paused.put(sfc.id(), Boolean.TRUE);
        } else {
            paused.remove(sfc.id());
        }
    }

    @Override
    public long nextDecisionId() {
        // Compare-and-set on the entry's version: two instances never get the same id.
        while (true) {
            Versioned<Long> cur = ids.get(DECISION);
            if (cur == null) {
                if (ids.putIfAbsent(DECISION, 1L) == null) {
                    return 1;
                }
            } else if (ids.replace(DECISION, cur.version(), Long.valueOf(cur.value() + 1))) {
                return cur.value() + 1;
            }
        }
    }
}
