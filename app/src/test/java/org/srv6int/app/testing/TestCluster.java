package org.srv6int.app.testing;

import com.google.common.collect.ImmutableMap;
import org.onlab.packet.IpAddress;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipServiceAdapter;
import org.onosproject.cluster.NodeId;
import org.onosproject.cluster.RoleInfo;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipInfo;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.MastershipRole;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * An in-memory ONOS cluster membership for tests: the leader of each topic and the master of
 * each device, shared by several instances in one JVM, each seeing it through its own
 * {@link ClusterServiceAdapter}, {@link LeadershipServiceAdapter} and
 * {@link MastershipServiceAdapter} view. Leadership and mastership move on command, as ONOS
 * moves them when an instance fails or an operator balances masters; the change is announced to
 * every live instance's listeners, synchronously.
 */
public final class TestCluster {

    private final Map<String, List<NodeId>> candidates = new HashMap<>();
    private final Map<String, Leader> leaders = new HashMap<>();
    private final Map<DeviceId, NodeId> masters = new HashMap<>();
    private final Map<NodeId, List<LeadershipEventListener>> leadershipListeners = new HashMap<>();
    private final Map<NodeId, List<MastershipListener>> mastershipListeners = new HashMap<>();
    private final Set<NodeId> down = new LinkedHashSet<>();
    private long term;

    /**
     * Returns an instance's cluster service.
     *
     * @param node the instance
     * @return its view
     */
    public ClusterServiceAdapter cluster(NodeId node) {
        ControllerNode local = new DefaultControllerNode(node, IpAddress.valueOf("127.0.0.1"));
        return new ClusterServiceAdapter() {
            @Override
            public ControllerNode getLocalNode() {
                return local;
            }
        };
    }

    /**
     * Returns an instance's leadership service.
     *
     * @param node the instance
     * @return its view
     */
    public LeadershipServiceAdapter leadership(NodeId node) {
        List<LeadershipEventListener> listeners =
                leadershipListeners.computeIfAbsent(node, n -> new CopyOnWriteArrayList<>());
        return new LeadershipServiceAdapter() {
            @Override
            public NodeId getLeader(String topic) {
                synchronized (TestCluster.this) {
                    Leader l = leaders.get(topic);
                    return l == null ? null : l.nodeId();
                }
            }

            @Override
            public Leadership getLeadership(String topic) {
                return leadershipOf(topic);
            }

            @Override
            public Leadership runForLeadership(String topic) {
                return run(node, topic);
            }

            @Override
            public void withdraw(String topic) {
                withdrawFrom(node, topic);
            }

            @Override
            public void addListener(LeadershipEventListener l) {
                listeners.add(l);
            }

            @Override
            public void removeListener(LeadershipEventListener l) {
                listeners.remove(l);
            }
        };
    }

    /**
     * Returns an instance's mastership service.
     *
     * @param node the instance
     * @return its view
     */
    public MastershipServiceAdapter mastership(NodeId node) {
        List<MastershipListener> listeners = mastershipListeners.computeIfAbsent(node, n -> new CopyOnWriteArrayList<>());
        return new MastershipServiceAdapter() {
            @Override
            public MastershipRole getLocalRole(DeviceId d) {
                return node.equals(getMasterFor(d)) ? MastershipRole.MASTER : MastershipRole.STANDBY;
            }

            @Override
            public boolean isLocalMaster(DeviceId d) {
                return node.equals(getMasterFor(d));
            }

            @Override
            public NodeId getMasterFor(DeviceId d) {
                synchronized (TestCluster.this) {
                    return masters.get(d);
                }
            }

            @Override
            public RoleInfo getNodesFor(DeviceId d) {
                return new RoleInfo(getMasterFor(d), List.of());
            }

            @Override
            public Set<DeviceId> getDevicesOf(NodeId n) {
                synchronized (TestCluster.this) {
                    return masters.entrySet().stream().filter(e -> e.getValue().equals(n)).map(Map.Entry::getKey)
                            .collect(Collectors.toSet());
                }
            }

            @Override
            public void addListener(MastershipListener l) {
                listeners.add(l);
            }

            @Override
            public void removeListener(MastershipListener l) {
                listeners.remove(l);
            }
        };
    }

    private synchronized Leadership leadershipOf(String topic) {
        return new Leadership(topic, leaders.get(topic), List.copyOf(candidates.getOrDefault(topic, List.of())));
    }

    private Leadership run(NodeId node, String topic) {
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
        return leadershipOf(topic);
    }

    private void withdrawFrom(NodeId node, String topic) {
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
     * Makes a node the leader of a topic (it must be a candidate).
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
     * Makes a node the master of a device.
     *
     * @param device device
     * @param node   new master
     */
    public void moveMastership(DeviceId device, NodeId node) {
        synchronized (this) {
            masters.put(device, node);
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
        }
        topics.forEach(this::announce);
        devices.forEach(this::announce);
    }

    private void announce(String topic) {
        LeadershipEvent e = new LeadershipEvent(LeadershipEvent.Type.LEADER_CHANGED, leadershipOf(topic));
        for (Map.Entry<NodeId, List<LeadershipEventListener>> l : liveListeners(leadershipListeners)) {
            l.getValue().forEach(x -> x.event(e));
        }
    }

    private void announce(DeviceId device) {
        MastershipInfo info;
        synchronized (this) {
            NodeId m = masters.get(device);
            info = new MastershipInfo(++term, Optional.ofNullable(m),
                                      m == null ? ImmutableMap.of() : ImmutableMap.of(m, MastershipRole.MASTER));
        }
        MastershipEvent e = new MastershipEvent(MastershipEvent.Type.MASTER_CHANGED, device, info);
        for (Map.Entry<NodeId, List<MastershipListener>> l : liveListeners(mastershipListeners)) {
            l.getValue().forEach(x -> x.event(e));
        }
    }

    private synchronized <L> List<Map.Entry<NodeId, List<L>>> liveListeners(Map<NodeId, List<L>> all) {
        return all.entrySet().stream().filter(e -> !down.contains(e.getKey())).collect(Collectors.toList());
    }
}
