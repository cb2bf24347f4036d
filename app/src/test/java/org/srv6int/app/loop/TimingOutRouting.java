// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.onosproject.store.service.StorageException;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.VnfKey;

import java.util.List;

/**
 * The loop's routing over another whose store calls time out while a Raft partition re-elects:
 * the next {@link #addTimeouts} group updates and {@link #releaseTimeouts} give-backs throw
 * {@link StorageException.Timeout} (message-less, as Atomix's) before reaching the inventory.
 */
final class TimingOutRouting extends ForwardingChainRouting {

    int addTimeouts;
    int releaseTimeouts;

    TimingOutRouting(ChainRouting inner) {
        super(inner);
    }

    @Override
    public void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas) {
        if (addTimeouts > 0) {
            addTimeouts--;
            throw new StorageException.Timeout();
        }
        inner().addReplicas(vnf, replicas);
    }

    @Override
    public boolean releaseReservation(VnfKey vnf, String replicaId) {
        if (releaseTimeouts > 0) {
            releaseTimeouts--;
            throw new StorageException.Timeout();
        }
        return inner().releaseReservation(vnf, replicaId);
    }
}
