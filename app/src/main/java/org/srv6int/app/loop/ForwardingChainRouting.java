// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.VnfKey;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A routing that passes every call to another: the one place a wrapper forwards from, so that a
 * method added to {@link ChainRouting} reaches the inner routing through every wrapper (a wrapper
 * written out by hand once kept the interface's default for the orphan SID check, and no orphan
 * claim was ever released with interference-aware placement).
 */
public abstract class ForwardingChainRouting implements ChainRouting {

    private final ChainRouting inner;

    /**
     * Wraps a routing.
     *
     * @param inner the routing every call not overridden goes to
     */
    protected ForwardingChainRouting(ChainRouting inner) {
        this.inner = Objects.requireNonNull(inner, "inner routing is null");
    }

    /**
     * The wrapped routing.
     *
     * @return inner routing
     */
    protected final ChainRouting inner() {
        return inner;
    }

    @Override
    public List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count) {
        return inner.placeReplicas(vnf, candidates, count);
    }

    @Override
    public String placementNote() {
        return inner.placementNote();
    }

    @Override
    public void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas) {
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
        return inner.releaseReservation(vnf, replicaId);
    }
}
