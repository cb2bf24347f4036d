// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.core.election.LeaderElector;
import io.atomix.primitive.PrimitiveState;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.NodeId;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * One member's view of an Atomix {@link LeaderElector} of node ids (ONOS's leadership and its
 * per-device mastership are both elections): the leaderships it learnt, kept current by the
 * elector's events so that a lookup never blocks on Raft, and announced on a thread of its own so
 * that a listener may call back into the services (Atomix's event thread must not block).
 *
 * <p>While this member's session with the cluster is not connected (cut off, or the cluster lost
 * its quorum) it cannot know who leads: every topic reads as leaderless and that is announced, so
 * a leader that is cut off stops acting as one; when the session is back the leaderships are read
 * again and announced. ONOS's DistributedLeadershipStore suspends its leaderships the same way.
 */
final class ElectorView {

    private final LeaderElector<String> elector;
    private final Map<String, Leadership> known = new ConcurrentHashMap<>();
    private final ExecutorService announcer;
    private final BiConsumer<Leadership, Leadership> announce;
    private volatile boolean connected = true;

    /**
     * Watches an elector.
     *
     * @param elector  the elector
     * @param name     thread name
     * @param announce called with (old, new) for each change, on the view's own thread
     */
    ElectorView(LeaderElector<String> elector, String name, BiConsumer<Leadership, Leadership> announce) {
        this.elector = elector;
        this.announce = announce;
        this.announcer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        elector.addListener(e -> learn(e.topic(), onos(e.topic(), e.newLeadership())));
        elector.addStateChangeListener(this::stateChanged);
    }

    static Leadership onos(String topic, io.atomix.core.election.Leadership<String> l) {
        if (l == null) {
            return new Leadership(topic, null, List.of());
        }
        Leader leader = l.leader() == null ? null
                : new Leader(NodeId.nodeId(l.leader().id()), l.leader().term(), l.leader().timestamp());
        return new Leadership(topic, leader, l.candidates().stream().map(NodeId::nodeId).collect(Collectors.toList()));
    }

    private void learn(String topic, Leadership now) {
        Leadership before = known.put(topic, now);
        if (!Objects.equals(before, now)) {
            announcer.execute(() -> announce.accept(before, now));
        }
    }

    private void stateChanged(PrimitiveState state) {
        boolean now = state == PrimitiveState.CONNECTED;
        if (now == connected) {
            return;
        }
        connected = now;
        if (!now) {
            for (String topic : known.keySet()) {
                Leadership l = known.get(topic);
                learn(topic, new Leadership(topic, null, l == null ? List.of() : l.candidates()));
            }
        } else {
            announcer.execute(() -> known.keySet().forEach(t -> {
                try {
                    learn(t, onos(t, elector.getLeadership(t)));
                } catch (RuntimeException e) {
                    // still unreachable: the next state change reads again
                }
            }));
        }
    }

    /**
     * Tells whether this member's session is connected.
     *
     * @return true if connected
     */
    boolean connected() {
        return connected;
    }

    /**
     * A topic's leadership: the learnt one, read from the elector the first time.
     *
     * @param topic topic
     * @return leadership (leaderless while disconnected)
     */
    Leadership leadership(String topic) {
        Leadership l = known.get(topic);
        if (l != null) {
            return l;
        }
        if (!connected) {
            return new Leadership(topic, null, List.of());
        }
        Leadership read = onos(topic, elector.getLeadership(topic));
        known.putIfAbsent(topic, read);
        return known.get(topic);
    }

    /**
     * Every topic learnt so far.
     *
     * @return topic to leadership
     */
    Map<String, Leadership> all() {
        return Map.copyOf(known);
    }

    /**
     * Runs for a topic and learns the result.
     *
     * @param topic topic
     * @param node  candidate
     * @return leadership
     */
    Leadership run(String topic, String node) {
        Leadership l = onos(topic, elector.run(topic, node));
        learn(topic, l);
        return l;
    }

    /**
     * Withdraws from a topic.
     *
     * @param topic topic
     * @param node  candidate
     */
    void withdraw(String topic, String node) {
        elector.withdraw(topic, node);
        learn(topic, onos(topic, elector.getLeadership(topic)));
    }

    /**
     * Makes a candidate the leader.
     *
     * @param topic topic
     * @param node  candidate
     * @return true if it leads now
     */
    boolean anoint(String topic, String node) {
        return elector.anoint(topic, node);
    }

    /** Stops announcing. */
    void close() {
        announcer.shutdownNow();
    }
}
