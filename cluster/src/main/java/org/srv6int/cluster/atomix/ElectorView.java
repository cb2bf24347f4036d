// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.core.election.LeaderElector;
import io.atomix.primitive.PrimitiveState;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.NodeId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One member's view of an Atomix {@link LeaderElector} of node ids (ONOS's leadership and its
 * per-device mastership are both elections): the leaderships it learnt, kept current by the
 * elector's events so that a lookup never blocks on Raft, and announced on a thread of its own so
 * that a listener may call back into the services (Atomix's event thread must not block).
 *
 * <p>Connected means: this member reaches a majority of the members (Atomix's failure detector)
 * and its primitive is not closed. A member that loses the majority cannot know who leads: every
 * topic reads as leaderless and that is announced, so a cut-off leader stops acting as one within
 * the failure detector's time. A <em>suspended</em> session is not a loss: it means one partition
 * is electing a new Raft leader (its requests wait for it) and the leaderships stay as learnt,
 * as ONOS's DistributedLeadershipStore keeps them (it only flags a disruption).
 *
 * <p>Every {@link #REFRESH_MS}, while connected, the view (1) reads the learnt topics again (one
 * linearizable read each, in the background): events reach a member through the server its
 * session talks to, and come late when that server is the one cut off; (2) runs again for every
 * topic this member runs for but is no candidate of any more (its session expired while it was
 * cut off, or the majority evicted it), as ONOS re-runs its topics when its session is restored;
 * (3) evicts from every topic the members the failure detector reports unreachable, as ONOS's
 * LeadershipAdminService.unregister(node) does: a dead or cut-off member's candidacies go within
 * the failure detector's time, not the (longer) Raft session timeout.
 */
final class ElectorView {

    /** How often the learnt leaderships are read again and the quorum checked. */
    static final long REFRESH_MS = 500;

    private final LeaderElector<String> elector;
    private final String local;
    private final BooleanSupplier quorum;
    private final Supplier<Set<String>> unreachable;
    private final Supplier<Set<String>> unreachableNow;
    // since when (System.nanoTime) each member has been seen unreachable by this member while it
    // was connected without a break (cleared when it loses or regains the majority)
    private final Map<String, Long> lostSince = new ConcurrentHashMap<>();
    /** Topics this member runs for (kept a candidate of while connected). */
    private final Set<String> mine = ConcurrentHashMap.newKeySet();
    private final Set<String> evicting = ConcurrentHashMap.newKeySet();
    private final String name;
    private final Logger log = LoggerFactory.getLogger(ElectorView.class);
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
     * @param elector     the elector
     * @param name        thread name
     * @param announce    called with (old, new) for each change, on the view's own thread
     * @param node        this member (its id, whether it reaches a majority, who it cannot reach)
     */
    ElectorView(LeaderElector<String> elector, String name, BiConsumer<Leadership, Leadership> announce,
                AtomixNode node) {
        this(elector, name, announce, node.id(), node::hasQuorum, node::unreachableMembers,
             () -> node.unreachable(Duration.ZERO));
    }

    ElectorView(LeaderElector<String> elector, String name, BiConsumer<Leadership, Leadership> announce,
                String local, BooleanSupplier quorum, Supplier<Set<String>> unreachable,
                Supplier<Set<String>> unreachableNow) {
        this.elector = elector;
        this.name = name;
        this.local = local;
        this.quorum = quorum;
        this.unreachable = unreachable;
        this.unreachableNow = unreachableNow;
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
            // SUSPENDED: a partition elects a new Raft leader; only a closed primitive is gone
            sessionUp = s != PrimitiveState.CLOSED;
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
        if (!connected) {
            return;
        }
        evictUnreachable();
        if (!refreshing.compareAndSet(false, true)) {
            return;
        }
        List<String> topics = List.copyOf(known.keySet());
        CompletableFuture<?>[] reads = topics.stream()
                .map(t -> elector.async().getLeadership(t).thenCompose(l -> {
                    Leadership now = onos(t, l);
                    if (connected) {
                        learn(t, now);
                    }
                    return rerun(t, now);
                }))
                .toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(reads).orTimeout(5, TimeUnit.SECONDS)
                .whenComplete((v, e) -> refreshing.set(false));
    }

    // Evicts, at most one request in flight per member, the unreachable members still candidates
    // as learnt (not read first: a read can wait for a partition's election, the evict need not).
    // The loss must have lasted EVICT_AFTER while this member was connected: a member just
    // healed from a cut still has its peers as unreachable since the cut (its failure detector
    // hears them again one by one) and, once one of them gives it the majority back, evicted the
    // other, a member of the majority, and with it the majority's leader (c1/c2's rejoin misses).
    private void evictUnreachable() {
        long now = System.nanoTime();
        Set<String> lost = unreachableNow.get();
        lostSince.keySet().retainAll(lost);
        lost.forEach(m -> lostSince.putIfAbsent(m, now));
        Set<String> gone = unreachable.get();
        for (String member : gone) {
            Long since = lostSince.get(member);
            if (since == null || now - since < AtomixNode.EVICT_AFTER.toNanos()) {
                continue;
            }
            boolean candidate = known.values().stream()
                    .anyMatch(l -> l.candidates().contains(NodeId.nodeId(member)));
            if (candidate && evicting.add(member)) {
                log.warn("{}: evicting {} from every topic (unreachable for {} ms)", name, member,
                         AtomixNode.EVICT_AFTER.toMillis());
                elector.async().evict(member).orTimeout(5, TimeUnit.SECONDS)
                        .whenComplete((v, e) -> evicting.remove(member));
            }
        }
    }

    // Runs again for a topic of ours we are no candidate of (expired session, evicted).
    private CompletableFuture<?> rerun(String topic, Leadership now) {
        if (!connected || !mine.contains(topic) || now.candidates().contains(NodeId.nodeId(local))) {
            return CompletableFuture.completedFuture(null);
        }
        log.warn("{}: running again for {} (no longer a candidate)", name, topic);
        return elector.async().run(topic, local).thenAccept(l -> learn(topic, onos(topic, l)));
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
        lostSince.clear();
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
        if (node.equals(local)) {
            mine.add(topic);
        }
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
        if (node.equals(local)) {
            mine.remove(topic);
        }
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
