// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.NodeId;
import org.osgi.service.component.annotations.Component;

import java.util.Set;

/**
 * One instance's view of the leadership of an {@link InMemoryCluster}: the first live
 * candidate of a topic leads until it withdraws or fails, or
 * {@link InMemoryCluster#moveLeadership} moves it.
 */
@Component(immediate = true, service = LeadershipService.class)
public class InMemoryLeadershipService implements LeadershipService {

    private final InMemoryCluster cluster;
    private final NodeId node;

    /** The Karaf registration: the local node of the shared cluster. */
    public InMemoryLeadershipService() {
        this(InMemoryCluster.shared(), TestkitNode.LOCAL_ID);
    }

    /**
     * An instance of a cluster.
     *
     * @param cluster the cluster
     * @param node    this instance's node id
     */
    public InMemoryLeadershipService(InMemoryCluster cluster, NodeId node) {
        this.cluster = cluster;
        this.node = node;
        cluster.addNode(node);
    }

    @Override
    public Leadership getLeadership(String topic) {
        return cluster.leadership(topic);
    }

    @Override
    public Set<String> ownedTopics(NodeId nodeId) {
        return cluster.topicsLedBy(nodeId);
    }

    @Override
    public Leadership runForLeadership(String topic) {
        return cluster.run(node, topic);
    }

    @Override
    public void withdraw(String topic) {
        cluster.withdraw(node, topic);
    }

    @Override
    public void addListener(LeadershipEventListener listener) {
        cluster.leadershipListeners(node).add(listener);
    }

    @Override
    public void removeListener(LeadershipEventListener listener) {
        cluster.leadershipListeners(node).remove(listener);
    }
}
