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

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Telemetry summaries in a ConsistentMap keyed by node id: one small write per instance per
 * evaluation period, read by every instance (the leader's loop uses them).
 */
@Component(immediate = true, service = TelemetrySummaryStore.class)
public class DistributedTelemetrySummaryStore implements TelemetrySummaryStore {

    static final String MAP_NAME = "srv6int-telemetry-summaries";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    /** Creates the store for OSGi, which sets its storage service. */
    public DistributedTelemetrySummaryStore() {
    }

    /**
     * Creates the store on a storage service, for a host without OSGi; call {@link #activate()}.
     *
     * @param storageService storage service
     */
    public DistributedTelemetrySummaryStore(StorageService storageService) {
        this.storageService = storageService;
    }

    private ConsistentMap<String, byte[]> summaries;

    /** Creates the map. */
    @Activate
    public void activate() {
        summaries = storageService.<String, byte[]>consistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(Serializer.using(KryoNamespaces.BASIC))
                .build();
    }

    @Override
    public void publish(String node, byte[] summary) {
        summaries.put(node, summary);
    }

    @Override
    public Map<String, byte[]> summaries() {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (Map.Entry<String, Versioned<byte[]>> e : summaries.entrySet()) {
            out.put(e.getKey(), e.getValue().value());
        }
        return out;
    }

    @Override
    public void withdraw(String node) {
        summaries.remove(node);
    }
}
