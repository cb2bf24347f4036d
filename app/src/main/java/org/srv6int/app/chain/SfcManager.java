// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.chain;

import org.srv6int.app.store.SfcStore;
import org.srv6int.app.store.SfcStoreDelegate;
import org.srv6int.app.store.VnfReplicaStore;
import org.onosproject.event.AbstractListenerManager;
import org.onosproject.event.EventDeliveryService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcEvent;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcListener;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.inventory.ReplicaLifecycle;

import java.util.Collection;
import java.util.Optional;

/**
 * Chain service over the distributed chain store.
 */
@Component(immediate = true, service = SfcService.class)
public class SfcManager extends AbstractListenerManager<SfcEvent, SfcListener> implements SfcService {

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcStore store;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfReplicaStore replicaStore;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;

    // A chain's replicas leave through the life cycle too (REMOVE is allowed from any state).
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ReplicaLifecycle lifecycle;

    private final SfcStoreDelegate delegate = this::post;

    /** Creates the component for OSGi, which sets its references. */
    public SfcManager() {
    }

    /**
     * Creates the component with its references, for a host without OSGi; call {@link #activate()}.
     *
     * @param store         chain store
     * @param replicaStore  replica store (read here)
     * @param lifecycle     the replica life cycle over that store (the one the inventory uses)
     * @param configService the app's netcfg
     * @param events        event delivery
     */
    public SfcManager(SfcStore store, VnfReplicaStore replicaStore, ReplicaLifecycle lifecycle,
                      Srv6IntConfigService configService, EventDeliveryService events) {
        this.store = store;
        this.replicaStore = replicaStore;
        this.lifecycle = lifecycle;
        this.configService = configService;
        this.eventDispatcher = events;
    }

    /** Starts forwarding store events. */
    @Activate
    public void activate() {
        eventDispatcher.addSink(SfcEvent.class, listenerRegistry);
        store.setDelegate(delegate);
        log.info("Started");
    }

    /** Stops forwarding store events. */
    @Deactivate
    public void deactivate() {
        store.unsetDelegate(delegate);
        eventDispatcher.removeSink(SfcEvent.class);
        log.info("Stopped");
    }

    @Override
    public Collection<Sfc> getSfcs() {
        return store.getSfcs();
    }

    @Override
    public Optional<Sfc> getSfc(SfcId id) {
        return store.getSfc(id);
    }

    @Override
    public void addSfc(Sfc sfc) {
        check(sfc);
        if (!store.createSfc(sfc)) {
            throw new SfcException(SfcException.Reason.CONFLICT, "chain " + sfc.id() + " exists");
        }
        log.info("Added chain {}", sfc.id());
    }

    @Override
    public void updateSfc(Sfc sfc) {
        Sfc old = store.getSfc(sfc.id()).orElseThrow(() -> notFound(sfc.id()));
        check(sfc);
        if (old.vnfs().size() > sfc.vnfs().size()) {
            // replicas of vNFs that no longer exist would be left behind
            replicaStore.getReplicas().stream()
                    .filter(r -> r.vnf().sfcId().equals(sfc.id()) && r.vnf().index() >= sfc.vnfs().size())
                    .forEach(r -> lifecycle.remove(r.id(), ReplicaLifecycle.Step.REMOVE));
        }
        if (!store.updateSfc(sfc)) {
            throw notFound(sfc.id());
        }
        log.info("Updated chain {}", sfc.id());
    }

    @Override
    public Sfc removeSfc(SfcId id) {
        Sfc removed = store.removeSfc(id).orElseThrow(() -> notFound(id));
        for (VnfReplica r : replicaStore.getReplicas()) {
            if (r.vnf().sfcId().equals(id)) {
                lifecycle.remove(r.id(), ReplicaLifecycle.Step.REMOVE);
            }
        }
        log.info("Removed chain {}", id);
        return removed;
    }

    private void check(Sfc sfc) {
        Srv6Devices devices = configService.devices();
        if (devices.get(sfc.ingress().deviceId()).isEmpty()) {
            throw new IllegalArgumentException("ingress: device " + sfc.ingress().deviceId()
                                                       + " has no srv6int device config");
        }
        if (devices.get(sfc.egress().deviceId()).isEmpty()) {
            throw new IllegalArgumentException("egress: device " + sfc.egress().deviceId()
                                                       + " has no srv6int device config");
        }
        for (Sfc other : store.getSfcs()) {
            if (!other.id().equals(sfc.id()) && other.ingress().equals(sfc.ingress())
                    && other.classifier().equals(sfc.classifier())) {
                throw new SfcException(SfcException.Reason.CONFLICT, "classifier: chain " + other.id()
                        + " already classifies the same traffic at " + sfc.ingress());
            }
        }
    }

    private static SfcException notFound(SfcId id) {
        return new SfcException(SfcException.Reason.NOT_FOUND, "chain " + id + " not found");
    }
}
