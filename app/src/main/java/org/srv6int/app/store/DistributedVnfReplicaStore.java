// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onlab.packet.Ip6Address;
import org.onosproject.store.AbstractStore;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.MapEvent;
import org.onosproject.store.service.MapEventListener;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.VnfReplicaEvent;
import org.srv6int.app.api.model.VnfReplicaId;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Replicas in a ConsistentMap; map events of any instance become
 * {@link VnfReplicaEvent}s on every instance.
 */
@Component(immediate = true, service = VnfReplicaStore.class)
public class DistributedVnfReplicaStore extends AbstractStore<VnfReplicaEvent, VnfReplicaStoreDelegate>
        implements VnfReplicaStore {

    static final String MAP_NAME = "srv6int-replicas";
    /** SID -> the replica holding it: the claim that makes a SID one replica's (putIfAbsent). */
    static final String SIDS_MAP_NAME = "srv6int-replica-sids";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    /** Creates the store for OSGi, which sets its storage service. */
    public DistributedVnfReplicaStore() {
    }

    /**
     * Creates the store on a storage service, for a host without OSGi; call {@link #activate()}.
     *
     * @param storageService storage service
     */
    public DistributedVnfReplicaStore(StorageService storageService) {
        this.storageService = storageService;
    }

    private ConsistentMap<VnfReplicaId, VnfReplica> replicas;
    private ConsistentMap<Ip6Address, VnfReplicaId> sids;
    private final MapEventListener<VnfReplicaId, VnfReplica> listener = this::onMapEvent;

    /** Creates the map and starts listening. */
    @Activate
    public void activate() {
        replicas = storageService.<VnfReplicaId, VnfReplica>consistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(Srv6IntSerializers.SERIALIZER)
                .build();
        replicas.addListener(listener);
        sids = storageService.<Ip6Address, VnfReplicaId>consistentMapBuilder()
                .withName(SIDS_MAP_NAME)
                .withSerializer(Srv6IntSerializers.SERIALIZER)
                .build();
        // Replicas stored before SIDs were claimed (an upgrade) hold theirs from now on.
        for (VnfReplica r : getReplicas()) {
            sids.putIfAbsent(r.sid(), r.id());
        }
    }

    /** Stops listening. */
    @Deactivate
    public void deactivate() {
        replicas.removeListener(listener);
    }

    private void onMapEvent(MapEvent<VnfReplicaId, VnfReplica> e) {
        // a removal of an absent key carries no value: nothing happened
        if ((e.type() == MapEvent.Type.REMOVE && e.oldValue() == null)
                || (e.type() != MapEvent.Type.REMOVE && e.newValue() == null)) {
            return;
        }
        switch (e.type()) {
            case INSERT:
                notifyDelegate(new VnfReplicaEvent(VnfReplicaEvent.Type.REPLICA_ADDED, e.newValue().value()));
                break;
            case UPDATE:
                notifyDelegate(new VnfReplicaEvent(VnfReplicaEvent.Type.REPLICA_UPDATED, e.newValue().value()));
                break;
            case REMOVE:
                notifyDelegate(new VnfReplicaEvent(VnfReplicaEvent.Type.REPLICA_REMOVED, e.oldValue().value()));
                break;
            default:
                break;
        }
    }

    @Override
    public Collection<VnfReplica> getReplicas() {
        return replicas.values().stream().map(Versioned::value).collect(Collectors.toList());
    }

    @Override
    public Optional<VnfReplica> getReplica(VnfReplicaId id) {
        return Optional.ofNullable(Versioned.valueOrNull(replicas.get(id)));
    }

    // The SID first: two creates that read the same free SID (threads or instances) cannot both
    // claim it; the one that loses allocates again.
    @Override
    public boolean createReplica(VnfReplica replica) {
        Versioned<VnfReplicaId> held = sids.putIfAbsent(replica.sid(), replica.id());
        if (held != null && !held.value().equals(replica.id())) {
            return false;
        }
        if (replicas.putIfAbsent(replica.id(), replica) == null) {
            return true;
        }
        if (held == null) {
            // the name was taken: give back the SID this call claimed
            sids.remove(replica.sid(), replica.id());
        }
        return false;
    }

    @Override
    public Set<Ip6Address> sidsInUse() {
        Set<Ip6Address> out = new HashSet<>(sids.keySet());
        getReplicas().forEach(r -> out.add(r.sid()));
        return out;
    }

    @Override
    public Optional<VnfReplica> updateReplica(VnfReplicaId id, UnaryOperator<VnfReplica> change) {
        return Optional.ofNullable(Versioned.valueOrNull(
                replicas.computeIfPresent(id, (k, v) -> change.apply(v))));
    }

    @Override
    public Optional<VnfReplica> removeReplica(VnfReplicaId id) {
        Optional<VnfReplica> gone = Optional.ofNullable(Versioned.valueOrNull(replicas.remove(id)));
        gone.ifPresent(r -> sids.remove(r.sid(), id));
        return gone;
    }

    @Override
    public boolean removeReplica(VnfReplica replica) {
        if (!replicas.remove(replica.id(), replica)) {
            return false;
        }
        sids.remove(replica.sid(), replica.id());
        return true;
    }

    @Override
    public List<SidClaim> sidClaims() {
        return sids.entrySet().stream()
                .map(e -> new SidClaim(e.getKey(), e.getValue().value(), e.getValue().creationTime()))
                .collect(Collectors.toList());
    }

    @Override
    public boolean releaseSidClaim(Ip6Address sid, VnfReplicaId holder) {
        return sids.remove(sid, holder);
    }
}
