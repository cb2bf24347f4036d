// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.core.election.LeaderElector;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.NodeId;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * ONOS's leadership service over an Atomix leader elector ({@code onos-leadership-elector}, as
 * ONOS 2.7's DistributedLeadershipStore names it): a topic's leader is the elector's; a member
 * that dies loses its candidacies when its Raft session expires, and the next candidate leads
 * with a new term.
 */
public final class AtomixLeadershipService implements LeadershipService {

    private final String local;
    private final ElectorView view;
    private final CopyOnWriteArrayList<LeadershipEventListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * The service on a member.
     *
     * @param node the started member
     */
    public AtomixLeadershipService(AtomixNode node) {
        this.local = node.id();
        LeaderElector<String> elector = node.atomix().<String>leaderElectorBuilder("onos-leadership-elector")
                .withProtocol(node.protocol()).build();
        this.view = new ElectorView(elector, "leadership-events-" + local, this::announce, node);
    }

    private void announce(Leadership before, Leadership now) {
        boolean leaderChanged = before == null || !Objects.equals(before.leader(), now.leader());
        boolean candidatesChanged = before == null || !before.candidates().equals(now.candidates());
        LeadershipEvent.Type type = leaderChanged && candidatesChanged
                ? LeadershipEvent.Type.LEADER_AND_CANDIDATES_CHANGED
                : leaderChanged ? LeadershipEvent.Type.LEADER_CHANGED : LeadershipEvent.Type.CANDIDATES_CHANGED;
        LeadershipEvent e = new LeadershipEvent(type, now);
        for (LeadershipEventListener l : listeners) {
            l.event(e);
        }
    }

    /**
     * Tells whether this member's session with the cluster is connected (if not, it leads nothing).
     *
     * @return true if connected
     */
    public boolean connected() {
        return view.connected();
    }

    /**
     * The view's periodic reads that failed, answers it refused as older than the one it had, and
     * its leader's heartbeats sent and failed.
     *
     * @return {failed reads, refused answers, heartbeats sent, heartbeats failed}
     */
    public long[] viewCounters() {
        long[] beats = view.heartbeats();
        return new long[] {view.readFailures(), view.staleAnswers(), beats[0], beats[1]};
    }

    @Override
    public Leadership getLeadership(String topic) {
        return view.leadership(topic);
    }

    @Override
    public Set<String> ownedTopics(NodeId nodeId) {
        return view.all().values().stream()
                .filter(l -> l.leader() != null && l.leader().nodeId().equals(nodeId))
                .map(Leadership::topic).collect(Collectors.toSet());
    }

    @Override
    public Leadership runForLeadership(String topic) {
        return view.run(topic, local);
    }

    @Override
    public void withdraw(String topic) {
        view.withdraw(topic, local);
    }

    @Override
    public void addListener(LeadershipEventListener listener) {
        listeners.addIfAbsent(listener);
    }

    @Override
    public void removeListener(LeadershipEventListener listener) {
        listeners.remove(listener);
    }

    /** Stops announcing. */
    public void close() {
        view.close();
    }
}
