// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.model.NodePools;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Line 10 of Algorithm 4: the nodes new replicas go to, through the app's placement, among the
 * usable nodes whose free CPU holds a replica's request, preferring those whose node agents' pool
 * reports hold the vNF type's need (docs/global-loop.md, "Pools"). Runs under the loop's lock.
 */
final class NodePicker {

    private static final long NONE = VnfState.NONE;

    private final GlobalLoop loop;
    // Replicas this loop added, until their node's next pool report shows them (leader's memory).
    final List<Joined> joined = new ArrayList<>();

    NodePicker(GlobalLoop loop) {
        this.loop = loop;
    }

    /** A replica that joined its node at a time, with its vNF's need. */
    static final class Joined {
        final String node;
        final ResourceNeed need;
        final long atMillis;

        Joined(String node, ResourceNeed need, long atMillis) {
            this.node = node;
            this.need = need;
            this.atMillis = atMillis;
        }
    }

    /** Line 10 through the app's placement; null (decision failed, cool-down, note appended) if no node. */
    List<String> pickNodes(DecisionLog.Entry d, VnfKey vnf, VnfState s, long now, int add, String note) {
        loop.pickNote = "";
        List<NodeResources> nodes;
        try {
            nodes = new ArrayList<>(loop.platform.nodeFreeResources());
        } catch (RuntimeException e) {
            s.cooldownUntil = now + loop.params.cooldownNanos();
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now,
                            "node resources unavailable: " + e.getMessage() + note);
            return null;
        }
        if (nodes.isEmpty()) {
            s.cooldownUntil = now + loop.params.cooldownNanos();
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now, "no schedulable node" + note);
            return null;
        }
        List<String> unusable = new ArrayList<>();
        nodes.removeIf(n -> !loop.nodeUsable.test(n.node()) && unusable.add(n.node()));
        if (nodes.isEmpty()) {
            s.cooldownUntil = now + loop.params.cooldownNanos();
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now, "no eligible node: " + unusable
                    + " hang off a switch port that is down" + note);
            return null;
        }
        // A replica goes only where its CPU request fits, as the scheduler would bind it: on a
        // node with less free it stays Pending, or it is bound once the node agent there frees
        // its neighbours' quota and then starves them and itself (docs/placement.md).
        long request = cpuRequestMillis(vnf);
        List<String> tooFull = new ArrayList<>();
        if (request > 0) {
            nodes.removeIf(n -> n.freeCpuMillis() < request && tooFull.add(n.node() + "(" + n.freeCpuMillis() + "m)"));
            if (nodes.isEmpty()) {
                s.cooldownUntil = now + loop.params.cooldownNanos();
                loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now,
                                "no node has " + request + "m free for a replica: "
                        + String.join(", ", tooFull) + note);
                return null;
            }
        }
        String poolNote = "";
        ResourceNeed need = need(vnf);
        if (need.beyondCpu() && loop.pools != null) {
            List<String> tooSmall = new ArrayList<>();
            List<String> cpuOnly = new ArrayList<>();
            List<NodeResources> roomy = byPools(nodes, need, tooSmall, cpuOnly);
            if (roomy.isEmpty()) {
                // LLC ways and memory bandwidth are the agents' to share, not a request Kubernetes
                // guarantees: with no node's pools holding the need, a replica where the CPU fits
                // still takes load off the violating one (placement by free CPU, as without reports).
                poolNote = "; no node's pools hold a replica (" + need + "): " + String.join(", ", tooSmall)
                        + "; placed by free CPU";
            } else {
                nodes = roomy;
                poolNote = (tooSmall.isEmpty() ? "" : "; pools too small on " + String.join(", ", tooSmall))
                        + (cpuOnly.isEmpty() ? "" : "; CPU only (no fresh pool report) on "
                        + String.join(", ", cpuOnly));
            }
        }
        List<String> where;
        try {
            // Placement keeps the chain in path order, then prefers the most free resources.
            where = List.copyOf(loop.routing.placeReplicas(vnf, nodes, add));
        } catch (RuntimeException e) {
            s.cooldownUntil = now + loop.params.cooldownNanos();
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now,
                            "placement failed: " + DecisionLog.reason(e) + note);
            return null;
        }
        if (where.size() != add) {
            s.cooldownUntil = now + loop.params.cooldownNanos();
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now, "placement gave " + where.size() + " node(s) for "
                    + add + " replica(s)" + note);
            return null;
        }
        loop.pickNote = poolNote;
        return request > 0 ? fitting(where, nodes, request) : where;
    }

    /**
     * The candidates whose fresh pool report holds one replica of {@code need}, each with its free
     * CPU cut to the need's CPU times the replicas its pools hold (so placement prefers the node
     * with the most room in its scarcest resource, and {@link #fitting} stops where the pools are
     * full); nodes without a fresh report keep their free CPU and are named in {@code cpuOnly}.
     */
    List<NodeResources> byPools(List<NodeResources> nodes, ResourceNeed need, List<String> tooSmall,
                                        List<String> cpuOnly) {
        NodePoolService p = loop.pools;
        long now = loop.clock.currentTimeMillis();
        List<NodeResources> out = new ArrayList<>();
        for (NodeResources n : nodes) {
            Optional<NodePools> report;
            try {
                report = p.pools(n.node());
            } catch (RuntimeException e) {
                report = Optional.empty();
            }
            long age = report.map(r -> now - r.receivedAtMillis()).orElse(Long.MAX_VALUE);
            if (report.isEmpty() || age > p.maxAgeMillis()) {
                cpuOnly.add(n.node() + (report.isEmpty() ? " (no report)" : " (report " + age / 1000 + " s old)"));
                out.add(n);
                continue;
            }
            // What the report cannot show yet: this loop's creations in flight on the node and the
            // replicas that joined it after the report was sent.
            long receivedAt = report.get().receivedAtMillis();
            List<ResourceNeed> coming = new ArrayList<>();
            for (Map.Entry<VnfKey, VnfState> e : loop.states.entrySet()) {
                VnfState st = e.getValue();
                if (st.phase == VnfLoopRecord.Phase.SCALING && st.plan != null) {
                    ResourceNeed n2 = need(e.getKey());
                    st.plan.stream().filter(n.node()::equals).forEach(x -> coming.add(n2));
                }
            }
            joined.removeIf(j -> now - j.atMillis > p.maxAgeMillis());
            joined.stream().filter(j -> j.node.equals(n.node()) && j.atMillis >= receivedAt)
                    .forEach(j -> coming.add(j.need));
            double holds = report.get().less(coming).holds(need);
            if (holds < 1) {
                tooSmall.add(n.node() + " (" + report.get().freeText()
                        + (coming.isEmpty() ? "" : ", less " + coming.size() + " replica(s) on their way") + ")");
                continue;
            }
            long free = need.cpuMillis() > 0 && !Double.isInfinite(holds)
                    ? Math.min(n.freeCpuMillis(), (long) Math.floor(holds * need.cpuMillis())) : n.freeCpuMillis();
            out.add(new NodeResources(n.node(), free, n.freeMemoryBytes()));
        }
        return out;
    }

    ResourceNeed need(VnfKey vnf) {
        Colocation c = loop.colocation;
        if (c == null) {
            return ResourceNeed.NONE;
        }
        try {
            return c.need(vnf);
        } catch (RuntimeException e) {
            return ResourceNeed.NONE;
        }
    }

    /** The picks in order while each node still has the request free after the picks before it. */
    static List<String> fitting(List<String> where, List<NodeResources> nodes, long request) {
        Map<String, Long> left = new HashMap<>();
        for (NodeResources n : nodes) {
            left.put(n.node(), n.freeCpuMillis());
        }
        List<String> out = new ArrayList<>();
        for (String node : where) {
            long free = left.getOrDefault(node, 0L);
            if (free >= request) {
                left.put(node, free - request);
                out.add(node);
            }
        }
        return out;
    }

    /** CPU request of a new replica of the vNF from the co-location view, 0 if unknown. */
    long cpuRequestMillis(VnfKey vnf) {
        Colocation c = loop.colocation;
        if (c == null) {
            return 0;
        }
        try {
            return Math.max(0, c.cpuRequestMillis(vnf));
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
