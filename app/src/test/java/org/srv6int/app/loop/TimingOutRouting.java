// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.onosproject.store.service.StorageException;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.VnfKey;

import java.util.List;
import java.util.Map;

/**
 * The loop's routing over another whose store calls time out while a Raft partition re-elects:
 * the next {@link #addTimeouts} group updates and {@link #releaseTimeouts} give-backs throw
 * {@link StorageException.Timeout} (message-less, as Atomix's) before reaching the inventory.
 */
final class TimingOutRouting implements ChainRouting {

    private final ChainRouting inner;
    int addTimeouts;
    int releaseTimeouts;

    TimingOutRouting(ChainRouting inner) {
        this.inner = inner;
    }

    @Override
    public List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count) {
        return inner.placeReplicas(vnf, candidates, count);
    }

    @Override
    public void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas) {
        if (addTimeouts > 0) {
            addTimeouts--;
            throw new StorageException.Timeout();
        }
        inner.addReplicas(vnf, replicas);
    }

    @Override
    public void drainReplica(VnfKey vnf, String replicaId) {
        inner.drainReplica(vnf, replicaId);
    }

    @Override
    public void removeReplica(VnfKey vnf, String replicaId) {
        inner.removeReplica(vnf, replicaId);
    }

    @Override
    public void failReplica(VnfKey vnf, String replicaId) {
        inner.failReplica(vnf, replicaId);
    }

    @Override
    public void restoreReplica(VnfKey vnf, String replicaId) {
        inner.restoreReplica(vnf, replicaId);
    }

    @Override
    public int releaseOrphanSids() {
        return inner.releaseOrphanSids();
    }

    @Override
    public Map<VnfKey, List<ReplicaInfo>> reservations() {
        return inner.reservations();
    }

    @Override
    public boolean releaseReservation(VnfKey vnf, String replicaId) {
        if (releaseTimeouts > 0) {
            releaseTimeouts--;
            throw new StorageException.Timeout();
        }
        return inner.releaseReservation(vnf, replicaId);
    }
}
