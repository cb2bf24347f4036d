// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.numa;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The NUMASFP placement engine of one server (the paper's Algorithms 1 and 2): places whole
 * chains on NUMA nodes, the NIC's ("local") node first in descending order of traffic; each
 * interval adjusts every chain's LLC ways and memory bandwidth to its rate from the profile
 * (resource_adjustment), counts consecutive violations, and moves a chain that has been in
 * violation on a remote node more than {@link Settings#maxViolations} intervals to the local
 * node, alone when it fits there, else swapped with a local chain whose rate a remote node can
 * carry (L_mig), when the profile predicts a gain. A chain that moved stays put for
 * {@link Settings#holdIntervals} intervals and a move must gain at least
 * {@link Settings#minGainGbps} (the ping-pong guard the paper leaves open, its §VI-B).
 *
 * <p>No I/O, deterministic (ties broken by chain id); not thread-safe (one loop thread).
 */
public final class NumaSfp {

    /** Knobs of the engine. */
    public static final class Settings {
        /** Alg. 1 max_limit: a remote chain moves when its consecutive violations exceed this (paper: 3). */
        public int maxViolations = 3;
        /** Intervals a moved chain is not moved again. */
        public int holdIntervals = 10;
        /** Least predicted gain of aggregate throughput for a move, Gbps. */
        public double minGainGbps = 0.5;
        /** False: static placement (the baselines), resource adjustment only. */
        public boolean migrate = true;

        /**
         * Rejects values the engine cannot work with.
         *
         * @throws IllegalArgumentException naming the bad value
         */
        public void validate() {
            if (maxViolations < 0 || holdIntervals < 0 || !(minGainGbps >= 0)) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "numa settings: maxViolations %d, holdIntervals %d, minGainGbps %s must be >= 0",
                        maxViolations, holdIntervals, minGainGbps));
            }
        }
    }

    /** What one NUMA node offers: cores, LLC ways, memory bandwidth (percent). */
    public static final class NodeCapacity {
        final int cores;
        final NumaNeed resources;

        /**
         * Creates a capacity.
         *
         * @param cores cores for vNFs (one per vNF)
         * @param ways LLC ways
         * @param mbPercent memory bandwidth, percent
         */
        public NodeCapacity(int cores, int ways, int mbPercent) {
            this.cores = cores;
            this.resources = new NumaNeed(ways, mbPercent);
        }
    }

    private static final class Chain {
        final String id;
        final List<String> types;
        int node;
        NumaNeed alloc = NumaNeed.ZERO;
        int violations;
        double rate;
        double prevRate;
        long heldUntil;

        Chain(String id, List<String> types, int node, double rate) {
            this.id = id;
            this.types = List.copyOf(types);
            this.node = node;
            this.rate = rate;
            this.prevRate = rate;
        }
    }

    private static final Comparator<Chain> BY_RATE_DESC =
            Comparator.comparingDouble((Chain c) -> -c.rate).thenComparing(c -> c.id);

    private final NumaProfile profile;
    private final int localNode;
    private final List<NodeCapacity> nodes;
    private final Settings settings;
    private final Map<String, Chain> chains = new LinkedHashMap<>();
    private long interval;

    /**
     * Creates an engine.
     *
     * @param profile the lookup table
     * @param localNode the NIC's node
     * @param nodes capacity of each node, indexed by node id
     * @param settings knobs
     */
    public NumaSfp(NumaProfile profile, int localNode, List<NodeCapacity> nodes, Settings settings) {
        if (nodes.size() < 2) {
            throw new IllegalArgumentException("NUMASFP needs at least two NUMA nodes, got " + nodes.size());
        }
        if (localNode < 0 || localNode >= nodes.size()) {
            throw new IllegalArgumentException("NIC node " + localNode + " is not one of " + nodes.size() + " nodes");
        }
        settings.validate();
        this.profile = profile;
        this.localNode = localNode;
        this.nodes = List.copyOf(nodes);
        this.settings = settings;
    }

    private boolean local(int node) {
        return node == localNode;
    }

    /** Rate the chain asks of a node: its offered rate, capped by what the node can carry. */
    private double target(Chain c, int node) {
        return Math.min(c.rate, profile.maxRate(c.types, local(node)));
    }

    private NumaNeed lowest(Chain c, int node) {
        Map<Double, NumaNeed> l = profile.ladder(c.types, local(node));
        return l.isEmpty() ? NumaNeed.ZERO : l.values().iterator().next();
    }

    /**
     * Algorithm 1 lines 3-7 for one chain: the NIC's node if its cores and the profile's
     * tuple at the rate fit what the chains already there need, else the remote node with
     * the most room that fits, else the node with the most free cores.
     *
     * @param id chain id
     * @param types vNF types in chain order
     * @param rateGbps offered rate
     * @return the placement
     * @throws IllegalArgumentException if the id is taken or no node has the cores
     */
    public NumaDecision place(String id, List<String> types, double rateGbps) {
        if (chains.containsKey(id)) {
            throw new IllegalArgumentException("chain " + id + " is already placed");
        }
        Chain c = new Chain(id, types, localNode, rateGbps);
        List<Integer> order = new ArrayList<>();
        order.add(localNode);
        List<Integer> remotes = new ArrayList<>();
        for (int k = 0; k < nodes.size(); k++) {
            if (k != localNode) {
                remotes.add(k);
            }
        }
        remotes.sort(Comparator.comparingInt((Integer k) -> -freeCores(k)).thenComparing(k -> k));
        order.addAll(remotes);
        String reason = null;
        int chosen = -1;
        for (int k : order) {
            NumaNeed want = profile.need(c.types, target(c, k), local(k));
            if (freeCores(k) >= c.types.size() && want != null && want.fitsIn(freeAtRates(k))) {
                chosen = k;
                reason = (local(k) ? "NIC's node" : "NIC's node full") + String.format(Locale.ROOT,
                        ": %.1f Gbps needs %s and %d cores", c.rate, want, c.types.size());
                break;
            }
        }
        if (chosen < 0) {
            for (int k : order) {
                if (freeCores(k) >= c.types.size() && (chosen < 0 || freeCores(k) > freeCores(chosen))) {
                    chosen = k;
                }
            }
            if (chosen < 0) {
                throw new IllegalArgumentException("chain " + id + ": no NUMA node has " + c.types.size()
                        + " free cores");
            }
            reason = String.format(Locale.ROOT, "no node has the LLC/MB for %.1f Gbps; most free cores", c.rate);
        }
        c.node = chosen;
        chains.put(id, c);
        return new NumaDecision(NumaDecision.Kind.PLACE, id, null, -1, chosen, null, reason);
    }

    /**
     * Algorithm 1 lines 3-7 for a set of chains: in descending order of rate.
     *
     * @param types vNF types of each chain
     * @param rates offered rate of each chain
     * @return the placements
     */
    public List<NumaDecision> placeAll(Map<String, List<String>> types, Map<String, Double> rates) {
        List<String> ids = new ArrayList<>(types.keySet());
        ids.sort(Comparator.comparingDouble((String id) -> -rates.getOrDefault(id, 0.0)).thenComparing(id -> id));
        List<NumaDecision> out = new ArrayList<>();
        for (String id : ids) {
            out.add(place(id, types.get(id), rates.getOrDefault(id, 0.0)));
        }
        return out;
    }

    /**
     * Takes a chain where it already is (a baseline's static placement, or found on a restart).
     *
     * @param id chain id
     * @param types vNF types
     * @param node its node
     * @param rateGbps offered rate
     */
    public void pin(String id, List<String> types, int node, double rateGbps) {
        if (node < 0 || node >= nodes.size()) {
            throw new IllegalArgumentException("chain " + id + ": node " + node + " does not exist");
        }
        chains.put(id, new Chain(id, types, node, rateGbps));
    }

    /**
     * Forgets a chain (its pods went).
     *
     * @param id chain id
     */
    public void remove(String id) {
        chains.remove(id);
    }

    private int freeCores(int node) {
        int used = 0;
        for (Chain c : chains.values()) {
            if (c.node == node) {
                used += c.types.size();
            }
        }
        return nodes.get(node).cores - used;
    }

    private NumaNeed freeAtRates(int node) {
        NumaNeed used = NumaNeed.ZERO;
        for (Chain c : chains.values()) {
            if (c.node == node) {
                NumaNeed n = profile.need(c.types, target(c, node), local(node));
                used = used.plus(n == null ? NumaNeed.ZERO : n);
            }
        }
        return nodes.get(node).resources.minus(used);
    }

    /**
     * resource_adjustment of one node: chains in descending order of rate each get the
     * profile's tuple for their rate when it fits, else the highest level that fits while the
     * chains after them keep their lowest level; what is left is left free.
     */
    private Map<Chain, NumaNeed> adjust(int node, Collection<Chain> on) {
        List<Chain> sorted = new ArrayList<>(on);
        sorted.sort(BY_RATE_DESC);
        NumaNeed free = nodes.get(node).resources;
        Map<Chain, NumaNeed> out = new HashMap<>();
        for (int p = 0; p < sorted.size(); p++) {
            Chain c = sorted.get(p);
            NumaNeed reserve = NumaNeed.ZERO;
            for (int q = p + 1; q < sorted.size(); q++) {
                reserve = reserve.plus(lowest(sorted.get(q), node));
            }
            NumaNeed avail = free.minus(reserve);
            NumaNeed want = profile.need(c.types, target(c, node), local(node));
            NumaNeed give = null;
            if (want != null && want.fitsIn(avail)) {
                give = want;
            } else {
                for (NumaNeed n : profile.ladder(c.types, local(node)).values()) {
                    if (n.fitsIn(avail) && (want == null || n.fitsIn(want))) {
                        give = n; // ascending: the last that fits is the highest
                    }
                }
            }
            if (give == null) {
                NumaNeed low = lowest(c, node);
                give = new NumaNeed(Math.min(low.ways(), free.ways()), Math.min(low.mbPercent(), free.mbPercent()));
            }
            out.put(c, give);
            free = free.minus(give);
        }
        return out;
    }

    /** Aggregate throughput the profile predicts for the chains on a node. */
    private double predicted(int node, Collection<Chain> on) {
        if (coresUsed(on) > nodes.get(node).cores) {
            return Double.NEGATIVE_INFINITY;
        }
        double sum = 0;
        for (Map.Entry<Chain, NumaNeed> e : adjust(node, on).entrySet()) {
            Chain c = e.getKey();
            sum += Math.min(c.rate, profile.achievable(c.types, e.getValue(), local(node)));
        }
        return sum;
    }

    private static int coresUsed(Collection<Chain> on) {
        int n = 0;
        for (Chain c : on) {
            n += c.types.size();
        }
        return n;
    }

    private List<Chain> on(int node) {
        List<Chain> l = new ArrayList<>();
        for (Chain c : chains.values()) {
            if (c.node == node) {
                l.add(c);
            }
        }
        return l;
    }

    /**
     * One interval of Algorithm 1 (lines 10-27): takes this interval's rates and which chains
     * violated (delivered less than offered, or above their latency bound) in the last one,
     * migrates (Algorithm 2) and re-adjusts every chain's LLC ways and memory bandwidth.
     *
     * @param ratesGbps offered rate per chain (a chain missing keeps its last rate)
     * @param violated chains that violated in the last interval
     * @return migrations and allocation changes, in that order
     */
    public List<NumaDecision> interval(Map<String, Double> ratesGbps, Set<String> violated) {
        interval++;
        for (Chain c : chains.values()) {
            c.prevRate = c.rate;
            Double r = ratesGbps.get(c.id);
            if (r != null && r >= 0) {
                c.rate = r;
            }
            c.violations = violated.contains(c.id) ? c.violations + 1 : 0;
        }
        List<NumaDecision> out = new ArrayList<>();
        if (settings.migrate) {
            migrate(out);
        }
        for (int k = 0; k < nodes.size(); k++) {
            for (Map.Entry<Chain, NumaNeed> e : adjust(k, on(k)).entrySet()) {
                Chain c = e.getKey();
                if (!e.getValue().equals(c.alloc)) {
                    NumaNeed want = profile.need(c.types, target(c, k), local(k));
                    out.add(new NumaDecision(NumaDecision.Kind.ALLOCATE, c.id, null, k, k, e.getValue(),
                            String.format(Locale.ROOT, "%.1f Gbps on %s node %d needs %s%s", c.rate,
                                    local(k) ? "the NIC's" : "remote", k, want == null ? "more than the node" : want,
                                    e.getValue().equals(want) ? "" : "; node short")));
                    c.alloc = e.getValue();
                }
            }
        }
        out.sort(Comparator.comparingInt((NumaDecision d) -> d.kind() == NumaDecision.Kind.ALLOCATE ? 1 : 0));
        return out;
    }

    /** Algorithm 2 (dynamic_placement) over R_mig and L_mig. */
    private void migrate(List<NumaDecision> out) {
        List<Chain> rMig = new ArrayList<>();
        List<Chain> lMig = new ArrayList<>();
        for (Chain c : chains.values()) {
            if (interval < c.heldUntil) {
                continue;
            }
            if (!local(c.node) && c.violations > settings.maxViolations) {
                rMig.add(c);
            } else if (local(c.node) && c.rate <= profile.maxRate(c.types, false) + 1e-9) {
                lMig.add(c);
            }
        }
        if (rMig.isEmpty()) {
            return;
        }
        rMig.sort(Comparator.comparingDouble((Chain c) -> -(c.rate - c.prevRate)).thenComparing(c -> c.id));
        lMig.sort(Comparator.comparingDouble((Chain c) -> c.rate).thenComparing(c -> c.id));
        Set<Chain> swapped = new HashSet<>();
        for (Chain r : rMig) {
            int from = r.node;
            double base = predicted(localNode, on(localNode)) + predicted(from, on(from));
            for (Chain l : lMig) {
                if (swapped.contains(l) || l.node != localNode) {
                    continue;
                }
                List<Chain> la = new ArrayList<>(on(localNode));
                la.remove(l);
                la.add(r);
                List<Chain> ra = new ArrayList<>(on(from));
                ra.remove(r);
                ra.add(l);
                double gain = predicted(localNode, la) + predicted(from, ra) - base;
                if (gain >= settings.minGainGbps) {
                    move(r, localNode);
                    move(l, from);
                    swapped.add(l);
                    out.add(new NumaDecision(NumaDecision.Kind.SWAP, r.id, l.id, from, localNode, null,
                            String.format(Locale.ROOT, "%d consecutive violations on remote node %d at %.1f Gbps"
                                    + " (remote carries %.0f); %s at %.1f Gbps fits remote; predicted +%.1f Gbps",
                                    r.violations, from, r.rate, profile.maxRate(r.types, false), l.id, l.rate,
                                    gain)));
                    r.violations = 0;
                    break;
                }
            }
        }
    }

    private void move(Chain c, int node) {
        c.node = node;
        c.heldUntil = interval + settings.holdIntervals;
    }

    /**
     * Node of a chain.
     *
     * @param id chain id
     * @return node, -1 if unknown
     */
    public int node(String id) {
        Chain c = chains.get(id);
        return c == null ? -1 : c.node;
    }

    /**
     * LLC ways and memory bandwidth a chain holds since the last interval.
     *
     * @param id chain id
     * @return tuple, ZERO if unknown or not yet adjusted
     */
    public NumaNeed allocation(String id) {
        Chain c = chains.get(id);
        return c == null ? NumaNeed.ZERO : c.alloc;
    }

    /**
     * Consecutive violations counted for a chain.
     *
     * @param id chain id
     * @return count
     */
    public int violations(String id) {
        Chain c = chains.get(id);
        return c == null ? 0 : c.violations;
    }

    /**
     * Chains known, in placement order.
     *
     * @return ids
     */
    public List<String> chains() {
        return new ArrayList<>(chains.keySet());
    }

    /**
     * The NIC's node.
     *
     * @return node id
     */
    public int localNode() {
        return localNode;
    }

    /**
     * Number of nodes.
     *
     * @return K
     */
    public int nodeCount() {
        return nodes.size();
    }

    /**
     * The lookup table.
     *
     * @return profile
     */
    public NumaProfile profile() {
        return profile;
    }
}
