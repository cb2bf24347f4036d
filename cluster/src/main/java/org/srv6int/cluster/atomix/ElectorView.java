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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * One member's view of an Atomix {@link LeaderElector} of node ids (ONOS's leadership and its
 * per-device mastership are both elections): the leaderships it learnt, kept current by the
 * elector's events so that a lookup never blocks on Raft, and announced on a thread of its own so
 * that a listener may call back into the services (Atomix's event thread must not block).
 *
 * <p>While this member's session with the cluster is not connected, or this member cannot reach
 * a majority of the members (Atomix's failure detector), it cannot know who leads: every topic
 * reads as leaderless and that is announced, so a leader that is cut off stops acting as one
 * within the failure detector's timeout rather than when its Raft session gives up (~15 s
 * measured); when it is back the leaderships are read again and announced. ONOS's
 * DistributedLeadershipStore suspends its leaderships on a suspended session the same way.
 *
 * <p>Every {@link #REFRESH_MS} the learnt topics are also read again (one linearizable read each,
 * in the background): events reach a member through the server its session talks to, and when
 * that server is the one cut off they come late; the read goes to whichever server answers.
 */
final class ElectorView {

    /** How often the learnt leaderships are read again and the quorum checked. */
    static final long REFRESH_MS = 500;

    private final LeaderElector<String> elector;
    private final BooleanSupplier quorum;
    private final ScheduledExecutorService refresher;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile boolean sessionUp = true;
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
     * @param quorum   whether this member reaches a majority of the members
     */
    ElectorView(LeaderElector<String> elector, String name, BiConsumer<Leadership, Leadership> announce,
                BooleanSupplier quorum) {
        this.elector = elector;
        this.quorum = quorum;
        this.announce = announce;
        this.announcer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        elector.addListener(e -> {
            if (connected) {
                learn(e.topic(), onos(e.topic(), e.newLeadership()));
            }
        });
        elector.addStateChangeListener(s -> {
            sessionUp = s == PrimitiveState.CONNECTED;
            check();
        });
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-refresh");
            t.setDaemon(true);
            return t;
        });
        refresher.scheduleWithFixedDelay(this::refresh, REFRESH_MS, REFRESH_MS, TimeUnit.MILLISECONDS);
    }

    private void refresh() {
        check();
        if (!connected || !refreshing.compareAndSet(false, true)) {
            return;
        }
        List<String> topics = List.copyOf(known.keySet());
        CompletableFuture<?>[] reads = topics.stream()
                .map(t -> elector.async().getLeadership(t).thenAccept(l -> {
                    if (connected) {
                        learn(t, onos(t, l));
                    }
                }))
                .toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(reads).orTimeout(5, TimeUnit.SECONDS)
                .whenComplete((v, e) -> refreshing.set(false));
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

    private synchronized void check() {
        boolean now = sessionUp && quorum.getAsBoolean();
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
        refresher.shutdownNow();
        announcer.shutdownNow();
    }
}
