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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
 * (3) evicts from every topic the members the failure detector reports unreachable and a majority
 * of members agrees are ({@link EvictionQuorum}), as ONOS's LeadershipAdminService.unregister(node)
 * does: a dead or cut-off member's candidacies go within the failure detector's time, not the
 * (longer) Raft session timeout; (4) beats, every {@link LeaderHeartbeat#EVERY_MS}, each topic
 * this member leads, which keeps its sessions alive where Atomix's keep-alives alone let them
 * expire while a follower member is cut off.
 *
 * <p>Every answer, whatever its source, goes through {@link LearntLeaderships}: an answer older
 * than the one learnt (lower term, or the same term to an earlier request) is refused, counted
 * and logged, so a late read or a replayed event cannot bring back a deposed leader. A periodic
 * read that fails is counted and logged once per streak ({@link FailureStreak}).
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
    private final LearntLeaderships learnt = new LearntLeaderships();
    private final ExecutorService announcer;
    private final BiConsumer<Leadership, Leadership> announce;
    private volatile boolean connected = true;
    private final FailureStreak readFailures;
    private final AtomicLong staleAnswers = new AtomicLong();
    private final LeaderHeartbeat heartbeat;

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
        this.heartbeat = new LeaderHeartbeat(name, this::beat);
        this.readFailures = new FailureStreak(log, name, "reads of the leaderships");
        this.announcer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        elector.addListener(e -> {
            long stamp = learnt.stamp();
            if (connected) {
                learn(e.topic(), onos(e.topic(), e.newLeadership()), stamp, "event");
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
        // an exception out of a scheduled task would cancel every later refresh: never let one out
        try {
            check();
            if (!connected) {
                return;
            }
            evictUnreachable();
            heartbeat.tick(System.nanoTime(), this::ledTopics);
            if (refreshing.compareAndSet(false, true)) {
                readAll("read").whenComplete((v, e) -> refreshing.set(false));
            }
        } catch (RuntimeException e) {
            refreshing.set(false);
            readFailures.failed(e);
        }
    }

    // Reads every learnt topic again (and runs again where we are no candidate): done when all
    // answered, failed or 5 s passed (a later answer is still ordered by LearntLeaderships).
    private CompletableFuture<?> readAll(String source) {
        CompletableFuture<?>[] reads = learnt.topics().stream().map(t -> {
            long stamp = learnt.stamp();
            return elector.async().getLeadership(t).thenCompose(l -> {
                readFailures.answered();
                Leadership now = onos(t, l);
                if (connected) {
                    learn(t, now, stamp, source);
                }
                return rerun(t, now);
            }).whenComplete((v, e) -> {
                if (e != null) {
                    readFailures.failed(e);
                }
            });
        }).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(reads).orTimeout(5, TimeUnit.SECONDS);
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
            boolean candidate = learnt.all().values().stream()
                    .anyMatch(l -> l.candidates().contains(NodeId.nodeId(member)));
            if (candidate && evicting.add(member)) {
                log.warn("{}: evicting {} from every topic (unreachable for {} ms, a majority agrees)", name, member,
                         AtomixNode.EVICT_AFTER.toMillis());
                elector.async().evict(member).orTimeout(5, TimeUnit.SECONDS)
                        .whenComplete((v, e) -> evicting.remove(member));
            }
        }
    }

    // The topics of ours this member leads, as learnt.
    private Collection<String> ledTopics() {
        NodeId me = NodeId.nodeId(local);
        return learnt.all().values().stream()
                .filter(l -> l.leader() != null && me.equals(l.leader().nodeId()) && mine.contains(l.topic()))
                .map(Leadership::topic).collect(Collectors.toList());
    }

    // A run for a topic we are a candidate of: a command that changes nothing but our session.
    private CompletableFuture<?> beat(String topic) {
        long stamp = learnt.stamp();
        return elector.async().run(topic, local).thenAccept(l -> {
            if (connected) {
                learn(topic, onos(topic, l), stamp, "heartbeat");
            }
        });
    }

    // Runs again for a topic of ours we are no candidate of (expired session, evicted).
    private CompletableFuture<?> rerun(String topic, Leadership now) {
        if (!connected || !mine.contains(topic) || now.candidates().contains(NodeId.nodeId(local))) {
            return CompletableFuture.completedFuture(null);
        }
        log.warn("{}: running again for {} (no longer a candidate)", name, topic);
        long stamp = learnt.stamp();
        return elector.async().run(topic, local).thenAccept(l -> learn(topic, onos(topic, l), stamp, "rerun"));
    }

    static Leadership onos(String topic, io.atomix.core.election.Leadership<String> l) {
        if (l == null) {
            return new Leadership(topic, null, List.of());
        }
        Leader leader = l.leader() == null ? null
                : new Leader(NodeId.nodeId(l.leader().id()), l.leader().term(), l.leader().timestamp());
        return new Leadership(topic, leader, l.candidates().stream().map(NodeId::nodeId).collect(Collectors.toList()));
    }

    private void learn(String topic, Leadership now, long stamp, String source) {
        LearntLeaderships.Offer o = learnt.offer(topic, now, stamp);
        if (!o.applied) {
            if (!Objects.equals(o.before, now)) {
                staleAnswers.incrementAndGet();
                log.warn("{}: {} refused an older answer for {} ({}): {}, keeping {}", name, source, topic,
                         o.rejected, who(now), who(o.before));
            }
            return;
        }
        changed(o.before, now, source);
    }

    private void changed(Leadership before, Leadership now, String source) {
        if (Objects.equals(before, now)) {
            return;
        }
        if (before != null && !Objects.equals(before.leader(), now.leader())) {
            log.info("{}: {} {} -> {} ({})", name, now.topic(), who(before), who(now), source);
        }
        announcer.execute(() -> announce.accept(before, now));
    }

    private static String who(Leadership l) {
        return l == null ? "none" : l.leader() == null ? "no leader " + l.candidates()
                : l.leader().nodeId() + "/term " + l.leader().term() + " " + l.candidates();
    }

    private synchronized void check() {
        boolean now = sessionUp && quorum.getAsBoolean();
        if (now == connected) {
            return;
        }
        connected = now;
        lostSince.clear();
        if (!now) {
            learnt.blank().forEach(c -> changed(c[0], c[1], "disconnected"));
        } else {
            // read at once, in the background (a read can wait out a partition's election)
            try {
                refresher.execute(() -> readAll("reconnect read"));
            } catch (RejectedExecutionException e) {
                // closed
            }
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
     * Periodic reads that failed since the start.
     *
     * @return count
     */
    long readFailures() {
        return readFailures.failures();
    }

    /**
     * Answers refused because the view had learnt a newer one (and they differed from it).
     *
     * @return count
     */
    long staleAnswers() {
        return staleAnswers.get();
    }

    /**
     * Leader's heartbeats sent, and those that failed or timed out.
     *
     * @return {sent, failed}
     */
    long[] heartbeats() {
        return new long[] {heartbeat.sent(), heartbeat.failures()};
    }

    /**
     * A topic's leadership: the learnt one, read from the elector the first time.
     *
     * @param topic topic
     * @return leadership (leaderless while disconnected)
     */
    Leadership leadership(String topic) {
        Optional<Leadership> l = learnt.get(topic);
        if (l.isPresent()) {
            return l.get();
        }
        if (!connected) {
            return new Leadership(topic, null, List.of());
        }
        long stamp = learnt.stamp();
        learn(topic, onos(topic, elector.getLeadership(topic)), stamp, "first read");
        return learnt.get(topic).orElseThrow();
    }

    /**
     * Every topic learnt so far.
     *
     * @return topic to leadership
     */
    Map<String, Leadership> all() {
        return learnt.all();
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
        long stamp = learnt.stamp();
        Leadership l = onos(topic, elector.run(topic, node));
        learn(topic, l, stamp, "run");
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
        long stamp = learnt.stamp();
        learn(topic, onos(topic, elector.getLeadership(topic)), stamp, "withdraw");
    }

    /**
     * Makes a candidate the leader, and its first candidate, as ONOS's mastership store sets a
     * master (makeTopCandidate, then transferLeadership): Atomix 3.1.9's anoint leaves the
     * candidate list as it was, and the next candidate to run (a member running again after an
     * eviction or an expired session) makes the list's head the leader again, undoing the move
     * (c3's rounds of moves that no member showed).
     *
     * @param topic topic
     * @param node  candidate
     * @return true if it leads now
     */
    boolean anoint(String topic, String node) {
        return elector.promote(topic, node) && elector.anoint(topic, node);
    }

    /** Stops announcing. */
    void close() {
        refresher.shutdownNow();
        announcer.shutdownNow();
    }
}
