// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onlab.packet.Ip6Address;
import org.onosproject.store.service.StorageService;
import org.srv6int.app.api.model.VnfReplicaId;

/**
 * The app's distributed stores over a test storage service, wired and activated as OSGi would,
 * for tests of other packages.
 */
public final class TestStores {

    private TestStores() {
    }

    /**
     * Returns an active telemetry summary store.
     *
     * @param storage storage service (shared by name for a cluster)
     * @return store
     */
    public static DistributedTelemetrySummaryStore summaries(StorageService storage) {
        DistributedTelemetrySummaryStore s = new DistributedTelemetrySummaryStore(storage);
        s.activate();
        return s;
    }

    /**
     * Returns an active loop state store.
     *
     * @param storage storage service (shared by name for a cluster)
     * @return store
     */
    public static DistributedLoopStateStore loopState(StorageService storage) {
        DistributedLoopStateStore s = new DistributedLoopStateStore(storage);
        s.activate();
        return s;
    }

    /**
     * Returns an active escalation store.
     *
     * @param storage storage service (shared by name for a cluster)
     * @return store
     */
    public static DistributedEscalationStore escalations(StorageService storage) {
        DistributedEscalationStore s = new DistributedEscalationStore(storage);
        s.activate();
        return s;
    }

    /**
     * Returns an active replica store.
     *
     * @param storage storage service (shared by name for a cluster)
     * @return store
     */
    public static DistributedVnfReplicaStore replicas(StorageService storage) {
        DistributedVnfReplicaStore s = new DistributedVnfReplicaStore(storage);
        s.activate();
        return s;
    }

    /**
     * Claims a SID for a replica in the store's claim map and stops there, as an instance does that
     * dies between a create's claim and its store.
     *
     * @param storage storage service of the cluster
     * @param sid     SID
     * @param holder  the replica that never reaches the store
     */
    public static void claimSidAndDie(StorageService storage, Ip6Address sid, VnfReplicaId holder) {
        storage.<Ip6Address, VnfReplicaId>consistentMapBuilder()
                .withName(DistributedVnfReplicaStore.SIDS_MAP_NAME)
                .withSerializer(Srv6IntSerializers.SERIALIZER)
                .build().putIfAbsent(sid, holder);
    }
}
