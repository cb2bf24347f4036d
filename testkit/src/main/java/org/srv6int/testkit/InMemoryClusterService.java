// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.cluster.ClusterEvent;
import org.onosproject.cluster.ClusterEventListener;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.Node;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.Version;
import org.osgi.service.component.annotations.Component;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One instance's view of an {@link InMemoryCluster}: its local node, every node ACTIVE
 * unless failed (then INACTIVE).
 */
@Component(immediate = true, service = ClusterService.class)
public class InMemoryClusterService implements ClusterService {

    private final InMemoryCluster cluster;
    private final ControllerNode local;
    private final Listeners<ClusterEvent, ClusterEventListener> listeners = new Listeners<>();

    /** The Karaf registration: the local node of the shared cluster. */
    public InMemoryClusterService() {
        this(InMemoryCluster.shared(), TestkitNode.LOCAL_ID);
    }

    /**
     * An instance of a cluster.
     *
     * @param cluster the cluster
     * @param node    this instance's node id
     */
    public InMemoryClusterService(InMemoryCluster cluster, NodeId node) {
        this.cluster = cluster;
        this.local = cluster.addNode(node);
    }

    @Override
    public ControllerNode getLocalNode() {
        return local;
    }

    @Override
    public Set<ControllerNode> getNodes() {
        return new LinkedHashSet<>(cluster.nodes());
    }

    @Override
    public Set<Node> getConsensusNodes() {
        return new LinkedHashSet<>(cluster.nodes());
    }

    @Override
    public ControllerNode getNode(NodeId nodeId) {
        return cluster.nodes().stream().filter(n -> n.id().equals(nodeId)).findFirst().orElse(null);
    }

    @Override
    public ControllerNode.State getState(NodeId nodeId) {
        if (getNode(nodeId) == null) {
            return null;
        }
        return cluster.isDown(nodeId) ? ControllerNode.State.INACTIVE : ControllerNode.State.ACTIVE;
    }

    @Override
    public Version getVersion(NodeId nodeId) {
        return getNode(nodeId) == null ? null : Version.version("2.7.0");
    }

    @Override
    public void addListener(ClusterEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(ClusterEventListener listener) {
        listeners.remove(listener);
    }
}
