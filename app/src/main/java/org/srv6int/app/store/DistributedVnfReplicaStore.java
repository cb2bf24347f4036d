package org.srv6int.app.store;

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
import org.srv6int.app.api.VnfReplica;
import org.srv6int.app.api.VnfReplicaEvent;
import org.srv6int.app.api.VnfReplicaId;

import java.util.Collection;
import java.util.Optional;
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

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    private ConsistentMap<VnfReplicaId, VnfReplica> replicas;
    private final MapEventListener<VnfReplicaId, VnfReplica> listener = this::onMapEvent;

    /** Creates the map and starts listening. */
    @Activate
    public void activate() {
        replicas = storageService.<VnfReplicaId, VnfReplica>consistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(Srv6IntSerializers.SERIALIZER)
                .build();
        replicas.addListener(listener);
    }

    /** Stops listening. */
    @Deactivate
    public void deactivate() {
        replicas.removeListener(listener);
    }

    private void onMapEvent(MapEvent<VnfReplicaId, VnfReplica> e) {
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

    @Override
    public boolean createReplica(VnfReplica replica) {
        return replicas.putIfAbsent(replica.id(), replica) == null;
    }

    @Override
    public Optional<VnfReplica> updateReplica(VnfReplicaId id, UnaryOperator<VnfReplica> change) {
        return Optional.ofNullable(Versioned.valueOrNull(
                replicas.computeIfPresent(id, (k, v) -> change.apply(v))));
    }

    @Override
    public Optional<VnfReplica> removeReplica(VnfReplicaId id) {
        return Optional.ofNullable(Versioned.valueOrNull(replicas.remove(id)));
    }
}
