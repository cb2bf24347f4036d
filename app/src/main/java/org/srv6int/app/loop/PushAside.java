// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import java.util.TreeMap;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.VnfKey;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * CoCo's push-aside scaling up (coco.txt, section III-A, steps 2-4) as a pure planner: which
 * neighbours of an overloaded vNF on its node move to other nodes so that the node's agent can
 * give their CPU to the hot vNF instead of starting a new replica.
 *
 * <p>Cost model (the paper's): fewest moves first; among plans with as many moves, fewest new
 * hops, where a move adds a hop unless its target node already runs a vNF adjacent to the moved
 * one in its chain (CoCo moves a border element to the VM of its upstream or downstream
 * element); then most slack left on the moved vNFs; then names, so the plan is deterministic.
 * A moved replica goes to the fitting node with the least room left (CoCo's greedy
 * consolidation: no empty node is opened while a working one has room).
 * Step 1 (can one replica's worth of CPU help at all) is the caller's.
 */
public final class PushAside {

    /** Largest number of neighbours moved for one hot vNF (CoCo keeps migrations few). */
    public static final int MAX_MOVES = 3;

    /** Candidates considered, most slack first (bounds the subset search). */
    static final int MAX_CANDIDATES = 12;

    private PushAside() {
    }

    /** A replica of another vNF on the hot vNF's node: a border element that may be pushed aside. */
    public static final class Resident {
        private final VnfKey vnf;
        private final String replica;
        private final long cpuMillis;
        private final double slack;
        private final Set<String> adjacentNodes;

        /**
         * Creates a resident.
         *
         * @param vnf           its vNF
         * @param replica       its replica id
         * @param cpuMillis     CPU its pod requests (freed when it moves), millicores
         * @param slack         1 - L_i/Lmax_i of its vNF in the last window
         * @param adjacentNodes nodes running the vNFs before and after it in its chain
         */
        public Resident(VnfKey vnf, String replica, long cpuMillis, double slack, Set<String> adjacentNodes) {
            this.vnf = Objects.requireNonNull(vnf);
            this.replica = Objects.requireNonNull(replica);
            this.cpuMillis = cpuMillis;
            this.slack = slack;
            this.adjacentNodes = Set.copyOf(adjacentNodes);
        }

        /** @return its vNF */
        public VnfKey vnf() {
            return vnf;
        }

        /** @return its replica id */
        public String replica() {
            return replica;
        }

        /** @return CPU request, millicores */
        public long cpuMillis() {
            return cpuMillis;
        }

        /** @return slack of its vNF */
        public double slack() {
            return slack;
        }
    }

    /** One neighbour replica moved to another node. */
    public static final class Move {
        private final Resident resident;
        private final String to;
        private final boolean newHop;

        Move(Resident resident, String to, boolean newHop) {
            this.resident = resident;
            this.to = to;
            this.newHop = newHop;
        }

        /** @return what moves */
        public Resident resident() {
            return resident;
        }

        /** @return the node it moves to */
        public String to() {
            return to;
        }

        /** @return whether its chain gets an inter-node hop it did not have */
        public boolean newHop() {
            return newHop;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s (replica %s, %dm, slack %.2f) to %s%s", resident.vnf,
                                 resident.replica, resident.cpuMillis, resident.slack, to,
                                 newHop ? " (new hop)" : " (no new hop)");
        }
    }

    /** What the planner decided: the moves, or why push-aside does not apply. */
    public static final class Result {
        private final List<Move> moves;
        private final long freedMillis;
        private final String reason;

        private Result(List<Move> moves, long freedMillis, String reason) {
            this.moves = List.copyOf(moves);
            this.freedMillis = freedMillis;
            this.reason = reason;
        }

        /** @return true if there is a plan */
        public boolean feasible() {
            return !moves.isEmpty();
        }

        /** @return the moves, empty if none */
        public List<Move> moves() {
            return moves;
        }

        /** @return CPU the moves free on the hot node, millicores */
        public long freedMillis() {
            return freedMillis;
        }

        /** @return new inter-node hops of the plan */
        public int newHops() {
            int n = 0;
            for (Move m : moves) {
                n += m.newHop ? 1 : 0;
            }
            return n;
        }

        /** @return why there is no plan, or a summary of the plan */
        public String reason() {
            return reason;
        }
    }

    /**
     * Plans a push-aside.
     *
     * @param hotNode      node of the overloaded replica
     * @param neededMillis CPU the hot vNF needs beyond what it has, millicores
     * @param hotNodeFree  CPU free on the hot node already, millicores
     * @param residents    other vNFs' replicas on the hot node, with their slack
     * @param nodes        nodes that may take a moved replica, with their free CPU (the hot node is skipped)
     * @param minSlack     slack a resident needs to be moved
     * @return the plan of fewest moves (then fewest new hops), or the reason there is none
     */
    public static Result plan(String hotNode, long neededMillis, long hotNodeFree, List<Resident> residents,
                              List<NodeResources> nodes, double minSlack) {
        long missing = neededMillis - Math.max(0, hotNodeFree);
        if (missing <= 0) {
            return new Result(List.of(), 0, "node " + hotNode + " has " + hotNodeFree + "m free already");
        }
        // Step 2: border elements with slack, known size, most slack first.
        List<Resident> cand = new ArrayList<>();
        for (Resident r : residents) {
            if (r.slack >= minSlack && r.cpuMillis > 0) {
                cand.add(r);
            }
        }
        if (cand.isEmpty()) {
            return new Result(List.of(), 0, "no neighbour on " + hotNode + " has slack >= " + minSlack);
        }
        cand.sort(Comparator.comparingDouble((Resident r) -> -r.slack).thenComparing(r -> r.vnf.toString())
                          .thenComparing(r -> r.replica));
        if (cand.size() > MAX_CANDIDATES) {
            cand = new ArrayList<>(cand.subList(0, MAX_CANDIDATES));
        }
        Map<String, Long> free = new HashMap<>();
        for (NodeResources n : nodes) {
            if (!n.node().equals(hotNode)) {
                free.put(n.node(), n.freeCpuMillis());
            }
        }
        // Step 3: can any of them move at all?
        boolean anyFits = false;
        for (Resident r : cand) {
            for (long f : free.values()) {
                anyFits |= f >= r.cpuMillis;
            }
        }
        if (!anyFits) {
            return new Result(List.of(), 0, "no other node has room for a neighbour of " + hotNode);
        }
        // Step 4: the smallest subset that frees enough, best by the cost model.
        for (int k = 1; k <= Math.min(MAX_MOVES, cand.size()); k++) {
            List<Move> best = null;
            double bestSlack = 0;
            for (List<Resident> subset : subsets(cand, k)) {
                long freed = 0;
                for (Resident r : subset) {
                    freed += r.cpuMillis;
                }
                if (freed < missing) {
                    continue;
                }
                List<Move> moves = assign(subset, free);
                if (moves == null) {
                    continue;
                }
                double slack = 0;
                for (Resident r : subset) {
                    slack += r.slack;
                }
                if (best == null || hops(moves) < hops(best) || hops(moves) == hops(best) && slack > bestSlack) {
                    best = moves;
                    bestSlack = slack;
                }
            }
            if (best != null) {
                long freed = 0;
                for (Move m : best) {
                    freed += m.resident.cpuMillis;
                }
                return new Result(best, freed, String.format(Locale.ROOT,
                        "%d move(s), %d new hop(s), frees %dm of %dm missing on %s", best.size(), hops(best),
                        freed, missing, hotNode));
            }
        }
        return new Result(List.of(), 0, "moving up to " + MAX_MOVES + " neighbours that fit elsewhere frees less than "
                + missing + "m on " + hotNode);
    }

    private static int hops(List<Move> moves) {
        int n = 0;
        for (Move m : moves) {
            n += m.newHop ? 1 : 0;
        }
        return n;
    }

    /**
     * Targets for a subset: a node running an adjacent vNF first, then the one with least room
     * that fits (CoCo's greedy consolidation onto working nodes); null if one does not fit.
     */
    private static List<Move> assign(List<Resident> subset, Map<String, Long> free) {
        Map<String, Long> left = new HashMap<>(free);
        List<Move> out = new ArrayList<>();
        for (Resident r : subset) {
            String pick = null;
            boolean adjacent = false;
            for (Map.Entry<String, Long> e : new TreeMap<>(left).entrySet()) {
                if (e.getValue() < r.cpuMillis) {
                    continue;
                }
                boolean adj = r.adjacentNodes.contains(e.getKey());
                // Best fit: the node left fullest, so moves consolidate rather than open an empty node.
                if (pick == null || adj && !adjacent || adj == adjacent && e.getValue() < left.get(pick)) {
                    pick = e.getKey();
                    adjacent = adj;
                }
            }
            if (pick == null) {
                return null;
            }
            left.merge(pick, -r.cpuMillis, Long::sum);
            out.add(new Move(r, pick, !adjacent));
        }
        return out;
    }

    private static List<List<Resident>> subsets(List<Resident> items, int k) {
        List<List<Resident>> out = new ArrayList<>();
        collect(items, k, 0, new ArrayList<>(), out);
        return out;
    }

    private static void collect(List<Resident> items, int k, int from, List<Resident> cur, List<List<Resident>> out) {
        if (cur.size() == k) {
            out.add(new ArrayList<>(cur));
            return;
        }
        for (int i = from; i < items.size(); i++) {
            cur.add(items.get(i));
            collect(items, k, i + 1, cur, out);
            cur.remove(cur.size() - 1);
        }
    }
}
