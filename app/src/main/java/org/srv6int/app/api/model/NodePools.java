// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A node agent's report of the resources it can still hand out on its node (docs/node-agent.md,
 * "Pool report"): per NUMA node, or once for the whole node, the CPU quota, LLC ways and
 * memory-bandwidth share its pools hold unassigned, beside each pool's budget. Kubernetes' free
 * CPU (allocatable minus requests) does not show LLC or memory bandwidth, nor quota the agent
 * moved beyond the pods' requests.
 */
public final class NodePools {

    /** {@link Pool#numaNode()} of a report for the whole node. */
    public static final int WHOLE_NODE = -1;

    private final String node;
    private final List<Pool> pools;
    private final long receivedAtMillis;

    /**
     * Creates a report.
     *
     * @param node             Kubernetes node name
     * @param pools            one entry per NUMA node, or one {@link #WHOLE_NODE} entry
     * @param receivedAtMillis when the app received it (the app's clock)
     */
    public NodePools(String node, List<Pool> pools, long receivedAtMillis) {
        if (node == null || node.isEmpty()) {
            throw new IllegalArgumentException("node name is empty");
        }
        if (pools == null || pools.isEmpty()) {
            throw new IllegalArgumentException("no pool");
        }
        this.node = node;
        this.pools = List.copyOf(pools);
        this.receivedAtMillis = receivedAtMillis;
    }

    /**
     * Node name.
     *
     * @return name
     */
    public String node() {
        return node;
    }

    /**
     * The pools.
     *
     * @return per NUMA node, or one for the whole node
     */
    public List<Pool> pools() {
        return pools;
    }

    /**
     * When the app received the report.
     *
     * @return the app's wall-clock milliseconds
     */
    public long receivedAtMillis() {
        return receivedAtMillis;
    }

    /**
     * How many replicas needing {@code need} one pool (one NUMA node) of this node still holds,
     * as a fraction: the smallest of free / need over the known parts of the need that the node
     * partitions (budget &gt; 0), best pool.
     *
     * @param need a replica's need
     * @return replicas' worth, {@link Double#POSITIVE_INFINITY} if the need is empty
     */
    public double holds(ResourceNeed need) {
        double best = 0;
        for (Pool p : pools) {
            best = Math.max(best, p.holds(need));
        }
        return best;
    }

    /**
     * This report with the needs of replicas it cannot show yet (on their way to the node) taken
     * from every pool's free part (from each NUMA node: where they land is not known), at least 0.
     *
     * @param coming needs of replicas on their way
     * @return the report as it will be once they run
     */
    public NodePools less(List<ResourceNeed> coming) {
        if (coming.isEmpty()) {
            return this;
        }
        long cpu = 0;
        long llc = 0;
        long mb = 0;
        for (ResourceNeed c : coming) {
            cpu += c.cpuMillis();
            llc += c.llcWays();
            mb += c.memoryBandwidthPercent();
        }
        List<Pool> out = new ArrayList<>();
        for (Pool p : pools) {
            long[] c = take(p.cpuFreeMillis, p.cpuReclaimableMillis, cpu);
            long[] l = take(p.llcWaysFree, p.llcWaysReclaimable, llc);
            long[] m = take(p.memoryBandwidthFreePercent, p.memoryBandwidthReclaimablePercent, mb);
            out.add(new Pool(p.numaNode, c[0], c[1], p.cpuBudgetMillis, l[0], l[1], p.llcWays, m[0], m[1],
                             p.memoryBandwidthPercent));
        }
        return new NodePools(node, out, receivedAtMillis);
    }

    /** Takes an amount from free first, then from reclaimable; neither below 0. */
    private static long[] take(long free, long reclaimable, long amount) {
        long f = Math.max(0, free - amount);
        long r = Math.max(0, reclaimable - Math.max(0, amount - free));
        return new long[] {f, r};
    }

    private static String plus(long reclaimable) {
        return reclaimable == 0 ? "" : "+" + reclaimable;
    }

    /**
     * The free part of each pool (and "+" what can be taken back from vNFs with slack), for
     * decision details.
     *
     * @return e.g. "cpu 3000m, llc 1+2 ways, mb 10 %"
     */
    public String freeText() {
        StringBuilder b = new StringBuilder();
        for (Pool p : pools) {
            if (b.length() > 0) {
                b.append("; ");
            }
            if (p.numaNode != WHOLE_NODE) {
                b.append("numa ").append(p.numaNode).append(": ");
            }
            b.append("cpu ").append(p.cpuFreeMillis).append(plus(p.cpuReclaimableMillis)).append("m, llc ")
                    .append(p.llcWaysFree).append(plus(p.llcWaysReclaimable)).append(" ways, mb ")
                    .append(p.memoryBandwidthFreePercent)
                            .append(plus(p.memoryBandwidthReclaimablePercent)).append(" %");
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof NodePools)) {
            return false;
        }
        NodePools n = (NodePools) o;
        return node.equals(n.node) && pools.equals(n.pools) && receivedAtMillis == n.receivedAtMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(node, pools, receivedAtMillis);
    }

    @Override
    public String toString() {
        return node + "{" + freeText() + "}";
    }

    /** The unassigned part and the budget of each resource on one NUMA node (or the node). */
    public static final class Pool {
        private final int numaNode;
        private final long cpuFreeMillis;
        private final long cpuBudgetMillis;
        private final long llcWaysFree;
        private final long llcWays;
        private final long memoryBandwidthFreePercent;
        private final long memoryBandwidthPercent;
        private final long cpuReclaimableMillis;
        private final long llcWaysReclaimable;
        private final long memoryBandwidthReclaimablePercent;

        /**
         * Creates a pool entry; free values must lie within [0, budget].
         *
         * @param numaNode                   NUMA node id, or {@link #WHOLE_NODE}
         * @param cpuFreeMillis              CPU quota the agent can still give, millicores
         * @param cpuBudgetMillis            CPU quota budget, millicores
         * @param llcWaysFree                unassigned LLC ways
         * @param llcWays                    LLC ways of the budget
         * @param memoryBandwidthFreePercent unassigned memory-bandwidth share, percent
         * @param memoryBandwidthPercent     memory-bandwidth budget, percent
         */
        public Pool(int numaNode, long cpuFreeMillis, long cpuBudgetMillis, long llcWaysFree, long llcWays,
                    long memoryBandwidthFreePercent, long memoryBandwidthPercent) {
            this(numaNode, cpuFreeMillis, 0, cpuBudgetMillis, llcWaysFree, 0, llcWays, memoryBandwidthFreePercent, 0,
                 memoryBandwidthPercent);
        }

        /**
         * Creates a pool entry with what the agent could take back from vNFs with slack; free
         * plus reclaimable must lie within [0, budget].
         *
         * @param numaNode                          NUMA node id, or {@link #WHOLE_NODE}
         * @param cpuFreeMillis                     unassigned CPU quota, millicores
         * @param cpuReclaimableMillis              CPU quota held by vNFs with slack above their floor
         * @param cpuBudgetMillis                   CPU quota budget, millicores
         * @param llcWaysFree                       unassigned LLC ways
         * @param llcWaysReclaimable                LLC ways held by vNFs with slack above their floor
         * @param llcWays                           LLC ways of the budget
         * @param memoryBandwidthFreePercent        unassigned memory-bandwidth share, percent
         * @param memoryBandwidthReclaimablePercent share held by vNFs with slack above their floor
         * @param memoryBandwidthPercent            memory-bandwidth budget, percent
         */
        public Pool(int numaNode, long cpuFreeMillis, long cpuReclaimableMillis, long cpuBudgetMillis,
                    long llcWaysFree, long llcWaysReclaimable, long llcWays, long memoryBandwidthFreePercent,
                    long memoryBandwidthReclaimablePercent, long memoryBandwidthPercent) {
            check("cpu", cpuFreeMillis, cpuBudgetMillis);
            check("llc", llcWaysFree, llcWays);
            check("memory bandwidth", memoryBandwidthFreePercent, memoryBandwidthPercent);
            check("cpu reclaimable", cpuReclaimableMillis, cpuBudgetMillis - cpuFreeMillis);
            check("llc reclaimable", llcWaysReclaimable, llcWays - llcWaysFree);
            check("memory bandwidth reclaimable", memoryBandwidthReclaimablePercent,
                  memoryBandwidthPercent - memoryBandwidthFreePercent);
            this.cpuReclaimableMillis = cpuReclaimableMillis;
            this.llcWaysReclaimable = llcWaysReclaimable;
            this.memoryBandwidthReclaimablePercent = memoryBandwidthReclaimablePercent;
            if (numaNode < WHOLE_NODE) {
                throw new IllegalArgumentException("numaNode " + numaNode + " is negative");
            }
            this.numaNode = numaNode;
            this.cpuFreeMillis = cpuFreeMillis;
            this.cpuBudgetMillis = cpuBudgetMillis;
            this.llcWaysFree = llcWaysFree;
            this.llcWays = llcWays;
            this.memoryBandwidthFreePercent = memoryBandwidthFreePercent;
            this.memoryBandwidthPercent = memoryBandwidthPercent;
        }

        private static void check(String what, long free, long budget) {
            if (free < 0 || budget < 0 || free > budget) {
                throw new IllegalArgumentException(what + ": " + free + " must lie in [0, " + budget + "]");
            }
        }

        double holds(ResourceNeed need) {
            // What the agent can give a newcomer: unassigned plus what it can take back from vNFs
            // with slack. A budget of 0: the node does not partition it (no CAT/MBA), not checked.
            double h = Double.POSITIVE_INFINITY;
            if (need.cpuMillis() > 0 && cpuBudgetMillis > 0) {
                h = Math.min(h, (double) (cpuFreeMillis + cpuReclaimableMillis) / need.cpuMillis());
            }
            if (need.llcWays() > 0 && llcWays > 0) {
                h = Math.min(h, (double) (llcWaysFree + llcWaysReclaimable) / need.llcWays());
            }
            if (need.memoryBandwidthPercent() > 0 && memoryBandwidthPercent > 0) {
                h = Math.min(h, (double) (memoryBandwidthFreePercent + memoryBandwidthReclaimablePercent)
                        / need.memoryBandwidthPercent());
            }
            return h;
        }

        /** @return NUMA node id, or {@link #WHOLE_NODE} */
        public int numaNode() {
            return numaNode;
        }

        /** @return free CPU quota, millicores */
        public long cpuFreeMillis() {
            return cpuFreeMillis;
        }

        /** @return CPU quota budget, millicores */
        public long cpuBudgetMillis() {
            return cpuBudgetMillis;
        }

        /** @return free LLC ways */
        public long llcWaysFree() {
            return llcWaysFree;
        }

        /** @return LLC ways of the budget */
        public long llcWays() {
            return llcWays;
        }

        /** @return free memory-bandwidth share, percent */
        public long memoryBandwidthFreePercent() {
            return memoryBandwidthFreePercent;
        }

        /** @return CPU quota the agent can take back from vNFs with slack, millicores */
        public long cpuReclaimableMillis() {
            return cpuReclaimableMillis;
        }

        /** @return LLC ways the agent can take back from vNFs with slack */
        public long llcWaysReclaimable() {
            return llcWaysReclaimable;
        }

        /** @return memory-bandwidth share the agent can take back from vNFs with slack, percent */
        public long memoryBandwidthReclaimablePercent() {
            return memoryBandwidthReclaimablePercent;
        }

        /** @return memory-bandwidth budget, percent */
        public long memoryBandwidthPercent() {
            return memoryBandwidthPercent;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Pool)) {
                return false;
            }
            Pool p = (Pool) o;
            return numaNode == p.numaNode && cpuFreeMillis == p.cpuFreeMillis && cpuBudgetMillis == p.cpuBudgetMillis
                    && llcWaysFree == p.llcWaysFree && llcWays == p.llcWays
                    && memoryBandwidthFreePercent == p.memoryBandwidthFreePercent
                    && memoryBandwidthPercent == p.memoryBandwidthPercent
                    && cpuReclaimableMillis == p.cpuReclaimableMillis && llcWaysReclaimable == p.llcWaysReclaimable
                    && memoryBandwidthReclaimablePercent == p.memoryBandwidthReclaimablePercent;
        }

        @Override
        public int hashCode() {
            return Objects.hash(numaNode, cpuFreeMillis, cpuBudgetMillis, llcWaysFree, llcWays,
                                memoryBandwidthFreePercent, memoryBandwidthPercent, cpuReclaimableMillis,
                                llcWaysReclaimable, memoryBandwidthReclaimablePercent);
        }
    }
}
