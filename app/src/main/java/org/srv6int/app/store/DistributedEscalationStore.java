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
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.QueuedEscalation;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link EscalationStore} in the ConsistentMap {@code srv6int-loop-escalations}: key
 * "chain/vnf@node", value {@link QueuedEscalation#encode()}. A repeat is merged with
 * {@code compute} (the map's compare-and-set on the version), so concurrent posts through
 * different instances are each counted once.
 */
@Component(immediate = true, service = EscalationStore.class)
public class DistributedEscalationStore implements EscalationStore {

    static final String MAP_NAME = "srv6int-loop-escalations";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    private ConsistentMap<String, String> queued;
    private final AtomicLong undecodable = new AtomicLong();

    /** Creates the store for OSGi, which sets its storage service. */
    public DistributedEscalationStore() {
    }

    /**
     * Creates the store on a storage service, for a host without OSGi; call {@link #activate()}.
     *
     * @param storageService storage service
     */
    public DistributedEscalationStore(StorageService storageService) {
        this.storageService = storageService;
    }

    /** Opens the map. */
    @Activate
    public void activate() {
        queued = storageService.<String, String>consistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(Serializer.using(KryoNamespaces.BASIC))
                .build();
    }

    @Override
    public QueuedEscalation queue(Escalation e, long nowMillis, String by) {
        Versioned<String> v = queued.compute(QueuedEscalation.key(e), (k, old) -> {
            QueuedEscalation prev = null;
            if (old != null) {
                try {
                    prev = QueuedEscalation.decode(old);
                } catch (IllegalArgumentException ex) {
                    undecodable.incrementAndGet();
                }
            }
            return (prev == null ? new QueuedEscalation(e, nowMillis, nowMillis, 1, by)
                    : prev.repeated(e, nowMillis, by)).encode();
        });
        return QueuedEscalation.decode(v.value());
    }

    @Override
    public Map<String, Versioned<QueuedEscalation>> pending() {
        Map<String, Versioned<QueuedEscalation>> out = new LinkedHashMap<>();
        for (Map.Entry<String, Versioned<String>> e : queued.entrySet()) {
            Versioned<String> v = e.getValue();
            try {
                out.put(e.getKey(), new Versioned<>(QueuedEscalation.decode(v.value()), v.version(),
                                                    v.creationTime()));
            } catch (IllegalArgumentException ex) {
                // Nothing to act on: counted and dropped (a newer post of the key was merged in since, if it stays).
                undecodable.incrementAndGet();
                queued.remove(e.getKey(), v.version());
            }
        }
        return out;
    }

    @Override
    public boolean remove(String key, long version) {
        return queued.remove(key, version);
    }

    /** @return entries read that could not be decoded */
    public long undecodable() {
        return undecodable.get();
    }
}
