// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * CoCo's push-aside scaling up as a step of the global loop ({@link LoopParams#pushAside()}): the
 * plan ({@link PushAside}) over this round's observations, then each move started as a new replica
 * of the neighbour whose old one drains once the new one is in. Runs under the loop's lock.
 */
final class PushAsideStep {

    private static final long NONE = VnfState.NONE;

    private final GlobalLoop loop;

    PushAsideStep(GlobalLoop loop) {
        this.loop = loop;
    }

    /**
     * CoCo's push-aside scaling up (coco.txt III-A): instead of a new replica, neighbours with
     * slack on the hot vNF's node move to other nodes (each new replica joins before its old one
     * drains: make-before-break) and the node agent gives their CPU to the hot vNF.
     *
     * @return null if a push-aside started, else why not (the scale-out decision says it)
     */
    String pushAside(VnfObservation o, VnfState s, long now) {
        Colocation c = loop.colocation;
        if (c == null) {
            return "no co-location view";
        }
        if (s.pushAsideAt != NONE && now - s.pushAsideAt < loop.params.pushAsideTimeoutNanos()) {
            return "pushed aside " + (now - s.pushAsideAt) / 1_000_000 + " ms ago and still violating";
        }
        int replicas = o.activeReplicas().size();
        double cStar = loop.scaling.capacity(s);
        if (cStar <= 0) {
            return "no window within the bound yet: what a replica's CPU carries is unknown";
        }
        // CoCo's needed resource: the replicas' worth of capacity missing, C_i / C* - replicas.
        double over = loop.scaling.demand(o, s) / cStar - replicas;
        if (over <= 0) {
            return "demand within the replicas' capacity C*; the latency is not from load";
        }
        // Step 1: more than one replica's worth is past what scaling up on one node gives.
        if (over > 1) {
            return String.format(Locale.ROOT, "needs %.2f more replicas' capacity, push-aside gives at "
                    + "most one", over);
        }
        long cpu;
        Map<String, String> hotNodes;
        List<NodeResources> nodes;
        try {
            cpu = c.cpuRequestMillis(o.vnf());
            hotNodes = c.replicaNodes(o.vnf());
            nodes = new ArrayList<>(loop.platform.nodeFreeResources());
        } catch (RuntimeException e) {
            return "co-location unknown: " + e.getMessage();
        }
        if (cpu <= 0) {
            return "CPU request of " + o.vnf() + " unknown";
        }
        long needed = (long) Math.ceil(over * cpu);
        nodes.removeIf(n -> !loop.nodeUsable.test(n.node()));
        Map<String, Long> free = new HashMap<>();
        for (NodeResources n : nodes) {
            free.put(n.node(), n.freeCpuMillis());
        }
        PushAside.Result best = null;
        String bestNode = null;
        String why = "no active replica with a known node";
        for (String node : new TreeSet<>(hotNodes.values())) {
            PushAside.Result r = PushAside.plan(node, needed, free.getOrDefault(node, 0L), residents(c, o.vnf(), node),
                                                nodes, loop.params.pushAsideMinSlack());
            if (!r.feasible()) {
                why = r.reason();
            } else if (best == null || r.moves().size() < best.moves().size()
                    || r.moves().size() == best.moves().size() && r.newHops() < best.newHops()) {
                best = r;
                bestNode = node;
            }
        }
        if (best == null) {
            return why;
        }
        long id = loop.newDecisionId();
        if (id < 0) {
            return "no decision id";
        }
        DecisionLog.Entry d = loop.record(id, o, s, now, 0, replicas, LoopDecision.Action.PUSH_ASIDE);
        s.violationSince = NONE;
        s.escalatedAt = NONE;
        s.pushAsideAt = now;
        // Scale out only if the violation outlasts the moves, the agent's reaction and t-hat.
        s.cooldownUntil = now + loop.params.cooldownNanos();
        List<String> started = new ArrayList<>();
        for (PushAside.Move m : best.moves()) {
            String err = move(m, o.vnf(), bestNode, now);
            started.add(m + (err == null ? "" : " FAILED: " + err));
        }
        loop.log.finish(d.id, LoopDecision.Outcome.SUCCEEDED, now,
                        "push-aside on " + bestNode + " for " + needed + "m (" + best.reason()
                + ", cost model: fewest moves, then no new hop): " + String.join("; ", started)
                + "; the node agent gives the freed CPU to " + o.vnf());
        return null;
    }

    /** Other vNFs' active replicas on a node, with their slack from this round and their chain neighbours' nodes. */
    List<PushAside.Resident> residents(Colocation c, VnfKey hot, String node) {
        List<PushAside.Resident> out = new ArrayList<>();
        for (VnfObservation p : loop.seen.values()) {
            VnfState ps = loop.states.get(p.vnf());
            if (p.vnf().equals(hot) || ps != null && ps.phase != VnfLoopRecord.Phase.IDLE
                    || p.samples() < loop.params.minSamples() || p.activeReplicas().isEmpty()) {
                continue;
            }
            Map<String, String> where = c.replicaNodes(p.vnf());
            for (String r : p.activeReplicas()) {
                if (!node.equals(where.get(r))) {
                    continue;
                }
                Set<String> adjacent = new HashSet<>();
                for (int d = -1; d <= 1; d += 2) {
                    int idx = p.vnf().index() + d;
                    if (idx >= 0) {
                        adjacent.addAll(c.replicaNodes(VnfKey.of(p.vnf().sfcId(), idx)).values());
                    }
                }
                adjacent.remove(node);
                double slack = 1 - (double) p.latencyNanos() / p.lmaxNanos();
                out.add(new PushAside.Resident(p.vnf(), r, c.cpuRequestMillis(p.vnf()), slack, adjacent));
            }
        }
        out.sort(Comparator.comparing((PushAside.Resident r) -> r.vnf().toString())
                         .thenComparing(PushAside.Resident::replica));
        return out;
    }

    /** Starts one move: a new replica of the neighbour on the target; its old one drains once the new one is in. */
    String move(PushAside.Move m, VnfKey hot, String from, long now) {
        VnfKey nb = m.resident().vnf();
        VnfState ns = loop.states.computeIfAbsent(nb, k -> new VnfState());
        long id = loop.newDecisionId();
        if (id < 0) {
            return "no decision id";
        }
        VnfObservation p = loop.seen.get(nb);
        DecisionLog.Entry d = loop.record(id, p, ns, now, 0, p.activeReplicas().size(), LoopDecision.Action.PUSH_ASIDE);
        ns.phase = VnfLoopRecord.Phase.SCALING;
        ns.pendingDecision = d.id;
        ns.plan = List.of(m.to());
        ns.movingOut = m.resident().replica();
        ns.movedFor = hot.toString();
        if (!loop.save(nb, ns)) {
            ns.phase = VnfLoopRecord.Phase.IDLE;
            ns.plan = List.of();
            ns.movingOut = null;
            loop.log.finish(d.id, LoopDecision.Outcome.FAILED, now, "loop state could not be stored: not started");
            return "loop state not stored";
        }
        List<CompletableFuture<ReplicaInfo>> futures = loop.actions.createAll(nb, d.id, List.of(m.to()));
        String plan = "pushed aside for " + hot + ": replica " + m.resident().replica() + " moves from " + from
                + " to " + m.to() + (m.newHop() ? " (new hop)" : " (no new hop)");
        CompletableFuture.allOf(futures.toArray(new CompletableFuture[0]))
                .whenComplete((v, err) -> loop.actions.scaleOutDone(nb, d.id, futures, plan));
        return null;
    }
}
