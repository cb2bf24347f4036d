// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.cluster.Node;
import io.atomix.cluster.discovery.BootstrapDiscoveryProvider;
import io.atomix.cluster.protocol.HeartbeatMembershipProtocol;
import io.atomix.core.Atomix;
import io.atomix.protocols.raft.MultiRaftProtocol;
import io.atomix.protocols.raft.ReadConsistency;
import io.atomix.protocols.raft.partition.RaftPartitionGroup;
import io.atomix.primitive.Recovery;
import io.atomix.primitive.protocol.ProxyProtocol;

import java.io.File;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * One member of an Atomix 3.1.9 cluster laid out as ONOS 2.7 lays out its own: every member is a
 * Raft voter of a management group ({@code system}, one partition) and of the data group
 * ({@link #GROUP}, {@link #PARTITIONS} partitions of all members), found through a fixed member
 * list (bootstrap discovery), data on disk under the member's directory. Atomix's Raft election
 * timeout is fixed at 2.5 s (Raft heartbeat 250 ms) in this release.
 */
public final class AtomixNode {

    /** The data partition group the primitives live in. */
    public static final String GROUP = "raft";
    /** Partitions of the data group (each replicated on every member). */
    public static final int PARTITIONS = 3;
    /** Atomix 3.1.9's Raft election timeout (RaftPartitionServer, not configurable). */
    public static final Duration ELECTION_TIMEOUT = Duration.ofMillis(2500);

    /**
     * Longest a member's Raft session lives without a keep-alive or a command, by default: eight
     * election timeouts. A longer session does not outlast a partition's re-election any better:
     * Atomix 3.1.9's client sends its next keep-alive {@code timeout - 2.5 s} after the last, and
     * after a failed one (a partition without a Raft leader yet) as long again, while the servers
     * count from the last keep-alive or the new Raft leader's first entry: a keep-alive failed
     * within 2.5 s before that entry, then a first try that waits out the 5 s request timeout at
     * the cut-off Raft leader, expire the session whatever its timeout. What keeps a leader's
     * candidacies is {@link LeaderHeartbeat} (c2's leadership moves in sessions 17 and 18). A dead
     * or cut-off member's candidacies do not wait for its session: the majority evicts them within
     * the failure detector's time ({@link EvictionQuorum}).
     */
    public static final Duration SESSION_TIMEOUT = ELECTION_TIMEOUT.multipliedBy(8);
    /** Retries of a failed operation (a timeout under loss, a partition between leaders), as ONOS's. */
    public static final int MAX_RETRIES = 5;

    /**
     * How often a member sends every other its heartbeat (Atomix's HeartbeatMembershipProtocol
     * default); a heartbeat whose request times out marks the peer unreachable until the next one
     * answers. 250 ms was tried (session 18): a cut-off leader then stopped 6.4-6.7 s after the cut
     * (4 runs), not sooner; the unreachable-members reports now tell a silent peer within 1 s
     * ({@link EvictionQuorum#SILENT_AFTER_MS}).
     */
    public static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(1);
    /** How long a majority must have been unreachable before this member reads itself cut off. */
    public static final Duration QUORUM_LOST_AFTER = Duration.ofSeconds(1);
    /** How long a member must have been unreachable before the others evict its candidacies. */
    public static final Duration EVICT_AFTER = Duration.ofSeconds(2);

    private final String id;
    private final Set<String> peers;
    // since when (System.nanoTime) each peer has been unreachable without a break
    private final Map<String, Long> unreachableSince = new ConcurrentHashMap<>();
    private final int members;
    private final Atomix atomix;
    private final ProxyProtocol protocol;
    private final EvictionQuorum evictionQuorum;
    private final AtomicLong badReports = new AtomicLong();
    private final ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "unreachable-reports");
        t.setDaemon(true);
        return t;
    });

    /**
     * Builds (does not start) a member.
     *
     * @param id      this member's id (also its ONOS node id)
     * @param members every member's id and host:port, this one's included, in a fixed order
     * @param dataDir where this member keeps its Raft logs and snapshots
     */
    public AtomixNode(String id, Map<String, String> members, File dataDir) {
        this(id, members, dataDir, SESSION_TIMEOUT);
    }

    /**
     * Builds (does not start) a member whose Raft sessions live the given time without a
     * keep-alive.
     *
     * @param id             this member's id (also its ONOS node id)
     * @param members        every member's id and host:port, this one's included, in a fixed order
     * @param dataDir        where this member keeps its Raft logs and snapshots
     * @param sessionTimeout its sessions' timeout, at least {@link #ELECTION_TIMEOUT}
     */
    public AtomixNode(String id, Map<String, String> members, File dataDir, Duration sessionTimeout) {
        if (sessionTimeout.compareTo(ELECTION_TIMEOUT) < 0) {
            throw new IllegalArgumentException("session timeout " + sessionTimeout.toMillis()
                                                       + " ms is shorter than the Raft election timeout "
                                                       + ELECTION_TIMEOUT.toMillis() + " ms");
        }
        if (!members.containsKey(id)) {
            throw new IllegalArgumentException("member " + id + " is not in the member list " + members.keySet());
        }
        this.id = id;
        this.members = members.size();
        this.peers = members.keySet().stream().filter(m -> !m.equals(id)).collect(Collectors.toSet());
        this.evictionQuorum = new EvictionQuorum(id, members.size());
        List<Node> nodes = members.entrySet().stream()
                .map(e -> Node.builder().withId(e.getKey()).withAddress(e.getValue()).build())
                .collect(Collectors.toList());
        this.atomix = Atomix.builder()
                .withClusterId("srv6int")
                .withMemberId(id)
                .withAddress(members.get(id))
                .withMembershipProvider(BootstrapDiscoveryProvider.builder().withNodes(nodes).build())
                // The failure detector is the membership protocol's (the discovery provider's own
                // heartbeat settings, set here until session 18, are ignored by 3.1.9)
                .withMembershipProtocol(HeartbeatMembershipProtocol.builder()
                                                .withHeartbeatInterval(HEARTBEAT_INTERVAL)
                                                .build())
                .withManagementGroup(RaftPartitionGroup.builder("system")
                                             .withMembers(members.keySet())
                                             .withNumPartitions(1)
                                             .withDataDirectory(new File(dataDir, "system"))
                                             .build())
                .withPartitionGroups(RaftPartitionGroup.builder(GROUP)
                                             .withMembers(members.keySet())
                                             .withNumPartitions(PARTITIONS)
                                             .withPartitionSize(members.size())
                                             .withDataDirectory(new File(dataDir, GROUP))
                                             .build())
                .withShutdownHook(false)
                .build();
        // Linearizable reads, as ONOS reads its consistent maps; sessions recover (a new session
        // when one expired) and failed operations retry, as ONOS builds its primitives (Raft
        // sessions number their commands, so a retried write is applied once).
        this.protocol = MultiRaftProtocol.builder(GROUP)
                .withReadConsistency(ReadConsistency.LINEARIZABLE)
                .withRecoveryStrategy(Recovery.RECOVER)
                .withMaxRetries(MAX_RETRIES)
                .withMinTimeout(Duration.ofMillis(250))
                .withMaxTimeout(sessionTimeout)
                .build();
    }

    /**
     * Parses a member list {@code id@host:port,id@host:port,...}.
     *
     * @param spec the list
     * @return ids to addresses, in order
     */
    public static Map<String, String> parseMembers(String spec) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String m : spec.split(",")) {
            String[] idAddr = m.trim().split("@", 2);
            if (idAddr.length != 2 || idAddr[0].isEmpty() || !idAddr[1].contains(":")) {
                throw new IllegalArgumentException("member '" + m + "' is not id@host:port");
            }
            out.put(idAddr[0], idAddr[1]);
        }
        return out;
    }

    /**
     * Joins the cluster: returns once the partitions have a quorum.
     *
     * @param timeout how long to wait
     * @return this
     * @throws IllegalStateException if the cluster did not form in time
     */
    public AtomixNode start(Duration timeout) {
        try {
            atomix.start().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            atomix.getCommunicationService().<byte[]>subscribe(
                    EvictionQuorum.SUBJECT, b -> b, this::heard, reporter)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("member " + id + " could not join the cluster in " + timeout, e);
        }
        reporter.scheduleWithFixedDelay(this::report, 0, EvictionQuorum.REPORT_EVERY_MS, TimeUnit.MILLISECONDS);
        return this;
    }

    // Tells the others whom this member holds unreachable (every time, an empty set included: a
    // peer's vote lapses when its reports stop or stop naming the member).
    private void report() {
        try {
            atomix.getCommunicationService().broadcast(EvictionQuorum.SUBJECT,
                                                       EvictionQuorum.encode(id, unreachable(EVICT_AFTER)), b -> b);
        } catch (RuntimeException e) {
            // an exception out of a scheduled task would cancel every later report: a lost report is a lost vote
        }
    }

    private void heard(byte[] report) {
        try {
            evictionQuorum.heard(report, System.nanoTime());
        } catch (IllegalArgumentException e) {
            badReports.incrementAndGet();
        }
    }

    /** Leaves the cluster (graceful stop). */
    public void stop() {
        reporter.shutdownNow();
        atomix.stop().join();
    }

    /**
     * Tells whether this member reaches a majority of the members, itself included: a peer counts
     * as lost once Atomix's failure detector has reported it unreachable for
     * {@link #QUORUM_LOST_AFTER} without a break (one failed heartbeat under packet loss is not a cut).
     *
     * @return true if it does
     */
    public boolean hasQuorum() {
        long lost = unreachable(QUORUM_LOST_AFTER).size();
        return members - lost > members / 2;
    }

    /**
     * The members Atomix's failure detector has reported unreachable (or removed), or whose
     * unreachable-members reports have stopped for {@link EvictionQuorum#SILENT_AFTER_MS}, for at
     * least a while without a break.
     *
     * @param atLeast how long
     * @return their ids
     */
    public Set<String> unreachable(Duration atLeast) {
        long now = System.nanoTime();
        Set<String> reachable = atomix.getMembershipService().getMembers().stream()
                .filter(m -> m.isReachable()).map(m -> m.id().id()).collect(Collectors.toSet());
        // a peer whose unreachable-members reports stopped is unreachable sooner than Atomix tells
        reachable.removeAll(evictionQuorum.silent(now));
        Set<String> out = new HashSet<>();
        for (String peer : peers) {
            if (reachable.contains(peer)) {
                unreachableSince.remove(peer);
            } else if (now - unreachableSince.computeIfAbsent(peer, p -> now) >= atLeast.toNanos()) {
                out.add(peer);
            }
        }
        return out;
    }

    /**
     * The members whose candidacies the others evict: unreachable for {@link #EVICT_AFTER}, as this
     * member and a majority of all members agree ({@link EvictionQuorum}).
     *
     * @return their ids
     */
    public Set<String> unreachableMembers() {
        return evictionQuorum.agreed(unreachable(EVICT_AFTER), System.nanoTime());
    }

    /**
     * Unreachable-members reports from peers that could not be read (counted, not thrown).
     *
     * @return count
     */
    public long unreadableReports() {
        return badReports.get();
    }

    /**
     * This member's id.
     *
     * @return id
     */
    public String id() {
        return id;
    }

    /**
     * The Atomix instance.
     *
     * @return atomix
     */
    public Atomix atomix() {
        return atomix;
    }

    /**
     * The protocol every primitive of the app uses (the data group, linearizable).
     *
     * @return protocol
     */
    public ProxyProtocol protocol() {
        return protocol;
    }
}
