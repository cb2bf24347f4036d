// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import com.google.common.collect.ImmutableMap;
import org.onlab.packet.IpAddress;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.NodeId;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipInfo;
import org.onosproject.net.DeviceId;
import org.onosproject.net.MastershipRole;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The membership of an in-memory ONOS cluster: its nodes, the leader of each topic and the
 * master of each device, shared by every instance in one JVM, each seeing it through its own
 * {@link InMemoryClusterService}, {@link InMemoryLeadershipService} and
 * {@link InMemoryMastershipService}. Leadership and mastership move on command, as ONOS moves
 * them when an instance fails or an operator balances masters; each change is announced to
 * the listeners of every live instance, synchronously. A device nobody was made master of is
 * mastered by the first node (in a one-instance cluster, the local node masters every device).
 */
public final class InMemoryCluster {

    private static final InMemoryCluster SHARED = new InMemoryCluster();

    private final Map<NodeId, ControllerNode> nodes = new LinkedHashMap<>();
    private final Map<String, List<NodeId>> candidates = new HashMap<>();
    private final Map<String, Leader> leaders = new HashMap<>();
    private final Map<DeviceId, NodeId> masters = new HashMap<>();
    private final Map<NodeId, Listeners<LeadershipEvent, org.onosproject.cluster.LeadershipEventListener>>
            leadershipListeners = new HashMap<>();
    private final Map<NodeId, Listeners<MastershipEvent, org.onosproject.mastership.MastershipListener>>
            mastershipListeners = new HashMap<>();
    private final Set<NodeId> down = new LinkedHashSet<>();
    private long term;

    /**
     * Returns the cluster the Karaf registrations share (one per JVM).
     *
     * @return the shared cluster
     */
    public static InMemoryCluster shared() {
        return SHARED;
    }

    /**
     * Adds a node (idempotent).
     *
     * @param node node id
     * @return the node
     */
    public synchronized ControllerNode addNode(NodeId node) {
        return nodes.computeIfAbsent(node, n -> new DefaultControllerNode(n, IpAddress.valueOf("127.0.0.1")));
    }

    /**
     * Returns the nodes.
     *
     * @return nodes in the order they joined
     */
    public synchronized List<ControllerNode> nodes() {
        return List.copyOf(nodes.values());
    }

    /**
     * Tells whether a node has failed.
     *
     * @param node node id
     * @return true if failed
     */
    public synchronized boolean isDown(NodeId node) {
        return down.contains(node);
    }

    synchronized Listeners<LeadershipEvent, org.onosproject.cluster.LeadershipEventListener>
            leadershipListeners(NodeId node) {
        return leadershipListeners.computeIfAbsent(node, n -> new Listeners<>());
    }

    synchronized Listeners<MastershipEvent, org.onosproject.mastership.MastershipListener>
            mastershipListeners(NodeId node) {
        return mastershipListeners.computeIfAbsent(node, n -> new Listeners<>());
    }

    /**
     * Returns a topic's leadership.
     *
     * @param topic topic
     * @return leader (null if none) and candidates
     */
    public synchronized Leadership leadership(String topic) {
        return new Leadership(topic, leaders.get(topic), List.copyOf(candidates.getOrDefault(topic, List.of())));
    }

    synchronized Set<String> topicsLedBy(NodeId node) {
        return leaders.entrySet().stream().filter(e -> e.getValue().nodeId().equals(node))
                .map(Map.Entry::getKey).collect(Collectors.toSet());
    }

    Leadership run(NodeId node, String topic) {
        boolean changed;
        synchronized (this) {
            List<NodeId> c = candidates.computeIfAbsent(topic, t -> new ArrayList<>());
            if (!c.contains(node)) {
                c.add(node);
            }
            changed = !leaders.containsKey(topic) && !down.contains(node);
            if (changed) {
                leaders.put(topic, new Leader(node, ++term, System.currentTimeMillis()));
            }
        }
        if (changed) {
            announce(topic);
        }
        return leadership(topic);
    }

    void withdraw(NodeId node, String topic) {
        boolean changed;
        synchronized (this) {
            candidates.getOrDefault(topic, new ArrayList<>()).remove(node);
            Leader l = leaders.get(topic);
            changed = l != null && l.nodeId().equals(node);
            if (changed) {
                electNext(topic);
            }
        }
        if (changed) {
            announce(topic);
        }
    }

    // The first live candidate leads, with a new term; nobody if none is left.
    private void electNext(String topic) {
        Optional<NodeId> next = candidates.getOrDefault(topic, List.of()).stream()
                .filter(n -> !down.contains(n)).findFirst();
        if (next.isPresent()) {
            leaders.put(topic, new Leader(next.get(), ++term, System.currentTimeMillis()));
        } else {
            leaders.remove(topic);
        }
    }

    /**
     * Makes a node the leader of a topic (it must be a live candidate).
     *
     * @param topic topic
     * @param node  new leader
     */
    public void moveLeadership(String topic, NodeId node) {
        synchronized (this) {
            if (!candidates.getOrDefault(topic, List.of()).contains(node) || down.contains(node)) {
                throw new IllegalArgumentException(node + " is not a live candidate for " + topic);
            }
            leaders.put(topic, new Leader(node, ++term, System.currentTimeMillis()));
        }
        announce(topic);
    }

    /**
     * Returns the master of a device.
     *
     * @param device device
     * @return master, or null in a cluster without nodes
     */
    public synchronized NodeId master(DeviceId device) {
        NodeId m = masters.get(device);
        if (m == null && !nodes.isEmpty()) {
            m = nodes.keySet().iterator().next();
        }
        return m;
    }

    synchronized Set<DeviceId> devicesOf(NodeId node) {
        return masters.entrySet().stream().filter(e -> e.getValue().equals(node)).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    synchronized MastershipInfo mastershipInfo(DeviceId device) {
        NodeId m = master(device);
        return new MastershipInfo(term, Optional.ofNullable(m),
                                  m == null ? ImmutableMap.of() : ImmutableMap.of(m, MastershipRole.MASTER));
    }

    /**
     * Makes a node the master of a device.
     *
     * @param device device
     * @param node   new master
     */
    public void moveMastership(DeviceId device, NodeId node) {
        synchronized (this) {
            addNode(node);
            masters.put(device, node);
            term++;
        }
        announce(device);
    }

    /**
     * Fails a node, as the cluster sees it: it stops hearing events, loses every topic it led
     * (the next live candidate leads) and every device it mastered (to the given survivor).
     *
     * @param node     the failed node
     * @param survivor who takes over its devices
     */
    public void fail(NodeId node, NodeId survivor) {
        List<String> topics = new ArrayList<>();
        List<DeviceId> devices = new ArrayList<>();
        synchronized (this) {
            down.add(node);
            for (Map.Entry<String, Leader> e : new HashMap<>(leaders).entrySet()) {
                if (e.getValue().nodeId().equals(node)) {
                    electNext(e.getKey());
                    topics.add(e.getKey());
                }
            }
            for (Map.Entry<DeviceId, NodeId> e : masters.entrySet()) {
                if (e.getValue().equals(node)) {
                    e.setValue(survivor);
                    devices.add(e.getKey());
                }
            }
            term++;
        }
        topics.forEach(this::announce);
        devices.forEach(this::announce);
    }

    private void announce(String topic) {
        LeadershipEvent e = new LeadershipEvent(LeadershipEvent.Type.LEADER_CHANGED, leadership(topic));
        for (Listeners<LeadershipEvent, org.onosproject.cluster.LeadershipEventListener> l
                : live(leadershipListeners)) {
            l.post(e);
        }
    }

    private void announce(DeviceId device) {
        MastershipEvent e = new MastershipEvent(MastershipEvent.Type.MASTER_CHANGED, device,
                                                mastershipInfo(device));
        for (Listeners<MastershipEvent, org.onosproject.mastership.MastershipListener> l
                : live(mastershipListeners)) {
            l.post(e);
        }
    }

    private synchronized <T> List<T> live(Map<NodeId, T> all) {
        return all.entrySet().stream().filter(e -> !down.contains(e.getKey())).map(Map.Entry::getValue)
                .collect(Collectors.toList());
    }
}
