// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.cluster.ClusterMembershipEvent;
import io.atomix.cluster.Member;
import org.onlab.packet.IpAddress;
import org.onosproject.cluster.ClusterEvent;
import org.onosproject.cluster.ClusterEventListener;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.Node;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.Version;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * ONOS's cluster service over Atomix's membership: the nodes are the Atomix members (node id =
 * member id), ACTIVE while reachable (Atomix's failure detector, and the member's own unreachable-
 * members reports: a peer silent for 1 s is unreachable, {@link AtomixNode#unreachable}), INACTIVE
 * otherwise. Events come from Atomix's membership only.
 */
public final class AtomixClusterService implements ClusterService {

    private final AtomixNode node;
    private final CopyOnWriteArrayList<ClusterEventListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * The service on a member.
     *
     * @param node the started member
     */
    public AtomixClusterService(AtomixNode node) {
        this.node = node;
        node.atomix().getMembershipService().addListener(this::membershipChanged);
    }

    private static ControllerNode controllerNode(Member m) {
        IpAddress ip;
        try {
            ip = IpAddress.valueOf(InetAddress.getByName(m.address().host()));
        } catch (UnknownHostException e) {
            ip = IpAddress.valueOf("127.0.0.1");
        }
        return new DefaultControllerNode(NodeId.nodeId(m.id().id()), ip, m.address().port());
    }

    private void membershipChanged(ClusterMembershipEvent e) {
        ClusterEvent.Type type;
        switch (e.type()) {
            case MEMBER_ADDED:
                type = ClusterEvent.Type.INSTANCE_ADDED;
                break;
            case MEMBER_REMOVED:
                type = ClusterEvent.Type.INSTANCE_DEACTIVATED;
                break;
            case REACHABILITY_CHANGED:
                type = e.subject().isReachable() ? ClusterEvent.Type.INSTANCE_ACTIVATED
                        : ClusterEvent.Type.INSTANCE_DEACTIVATED;
                break;
            default:
                return;
        }
        ClusterEvent ce = new ClusterEvent(type, controllerNode(e.subject()));
        listeners.forEach(l -> l.event(ce));
    }

    @Override
    public ControllerNode getLocalNode() {
        return controllerNode(node.atomix().getMembershipService().getLocalMember());
    }

    @Override
    public Set<ControllerNode> getNodes() {
        return node.atomix().getMembershipService().getMembers().stream().map(AtomixClusterService::controllerNode)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Override
    public Set<Node> getConsensusNodes() {
        return new LinkedHashSet<>(getNodes());
    }

    @Override
    public ControllerNode getNode(NodeId nodeId) {
        Member m = node.atomix().getMembershipService().getMember(nodeId.id());
        return m == null ? null : controllerNode(m);
    }

    @Override
    public ControllerNode.State getState(NodeId nodeId) {
        Member m = node.atomix().getMembershipService().getMember(nodeId.id());
        if (m == null) {
            return null;
        }
        boolean reachable = m.isReachable() && !node.unreachable(Duration.ZERO).contains(nodeId.id());
        return reachable && m.isActive() ? ControllerNode.State.ACTIVE : ControllerNode.State.INACTIVE;
    }

    @Override
    public Version getVersion(NodeId nodeId) {
        return getNode(nodeId) == null ? null : Version.version("2.7.0");
    }

    @Override
    public void addListener(ClusterEventListener listener) {
        listeners.addIfAbsent(listener);
    }

    @Override
    public void removeListener(ClusterEventListener listener) {
        listeners.remove(listener);
    }
}
