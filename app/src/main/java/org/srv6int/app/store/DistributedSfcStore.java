// SPDX-License-Identifier: Apache-2.0
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
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcEvent;
import org.srv6int.app.api.model.SfcId;

import java.util.Collection;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Chains in a ConsistentMap; map events of any instance become
 * {@link SfcEvent}s on every instance.
 */
@Component(immediate = true, service = SfcStore.class)
public class DistributedSfcStore extends AbstractStore<SfcEvent, SfcStoreDelegate> implements SfcStore {

    static final String MAP_NAME = "srv6int-sfcs";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    /** Creates the store for OSGi, which sets its storage service. */
    public DistributedSfcStore() {
    }

    /**
     * Creates the store on a storage service, for a host without OSGi; call {@link #activate()}.
     *
     * @param storageService storage service
     */
    public DistributedSfcStore(StorageService storageService) {
        this.storageService = storageService;
    }

    private ConsistentMap<SfcId, Sfc> sfcs;
    private final MapEventListener<SfcId, Sfc> listener = this::onMapEvent;

    /** Creates the map and starts listening. */
    @Activate
    public void activate() {
        sfcs = storageService.<SfcId, Sfc>consistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(Srv6IntSerializers.SERIALIZER)
                .build();
        sfcs.addListener(listener);
    }

    /** Stops listening. */
    @Deactivate
    public void deactivate() {
        sfcs.removeListener(listener);
    }

    private void onMapEvent(MapEvent<SfcId, Sfc> e) {
        // a removal of an absent key carries no value: nothing happened
        if ((e.type() == MapEvent.Type.REMOVE && e.oldValue() == null)
                || (e.type() != MapEvent.Type.REMOVE && e.newValue() == null)) {
            return;
        }
        switch (e.type()) {
            case INSERT:
                notifyDelegate(new SfcEvent(SfcEvent.Type.SFC_ADDED, e.newValue().value()));
                break;
            case UPDATE:
                notifyDelegate(new SfcEvent(SfcEvent.Type.SFC_UPDATED, e.newValue().value()));
                break;
            case REMOVE:
                notifyDelegate(new SfcEvent(SfcEvent.Type.SFC_REMOVED, e.oldValue().value()));
                break;
            default:
                break;
        }
    }

    @Override
    public Collection<Sfc> getSfcs() {
        return sfcs.values().stream().map(Versioned::value).collect(Collectors.toList());
    }

    @Override
    public Optional<Sfc> getSfc(SfcId id) {
        return Optional.ofNullable(Versioned.valueOrNull(sfcs.get(id)));
    }

    @Override
    public boolean createSfc(Sfc sfc) {
        return sfcs.putIfAbsent(sfc.id(), sfc) == null;
    }

    @Override
    public boolean updateSfc(Sfc sfc) {
        return sfcs.replace(sfc.id(), sfc) != null;
    }

    @Override
    public Optional<Sfc> removeSfc(SfcId id) {
        return Optional.ofNullable(Versioned.valueOrNull(sfcs.remove(id)));
    }
}
