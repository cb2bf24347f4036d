// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.cluster.NodeId;
import org.onosproject.cluster.RoleInfo;
import org.onosproject.mastership.MastershipInfo;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.MastershipRole;
import org.osgi.service.component.annotations.Component;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One instance's view of device mastership in an {@link InMemoryCluster}; masters move with
 * {@link InMemoryCluster#moveMastership}. A request for a role answers the current role (this
 * model has no device agents to negotiate with).
 */
@Component(immediate = true, service = MastershipService.class)
public class InMemoryMastershipService implements MastershipService {

    private final InMemoryCluster cluster;
    private final NodeId node;

    /** The Karaf registration: the local node of the shared cluster. */
    public InMemoryMastershipService() {
        this(InMemoryCluster.shared(), TestkitNode.LOCAL_ID);
    }

    /**
     * An instance of a cluster.
     *
     * @param cluster the cluster
     * @param node    this instance's node id
     */
    public InMemoryMastershipService(InMemoryCluster cluster, NodeId node) {
        this.cluster = cluster;
        this.node = node;
        cluster.addNode(node);
    }

    @Override
    public MastershipRole getLocalRole(DeviceId deviceId) {
        return node.equals(cluster.master(deviceId)) ? MastershipRole.MASTER : MastershipRole.STANDBY;
    }

    @Override
    public CompletableFuture<MastershipRole> requestRoleFor(DeviceId deviceId) {
        return CompletableFuture.completedFuture(getLocalRole(deviceId));
    }

    @Override
    public CompletableFuture<Void> relinquishMastership(DeviceId deviceId) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public NodeId getMasterFor(DeviceId deviceId) {
        return cluster.master(deviceId);
    }

    @Override
    public RoleInfo getNodesFor(DeviceId deviceId) {
        return new RoleInfo(cluster.master(deviceId), List.of());
    }

    @Override
    public MastershipInfo getMastershipFor(DeviceId deviceId) {
        return cluster.mastershipInfo(deviceId);
    }

    @Override
    public Set<DeviceId> getDevicesOf(NodeId nodeId) {
        return cluster.devicesOf(nodeId);
    }

    @Override
    public void addListener(MastershipListener listener) {
        cluster.mastershipListeners(node).add(listener);
    }

    @Override
    public void removeListener(MastershipListener listener) {
        cluster.mastershipListeners(node).remove(listener);
    }
}
