// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.numa;

import java.util.List;
import java.util.Map;
import org.srv6int.agent.numa.NumaNeed;
import org.srv6int.agent.numa.NumaProfile;
import org.srv6int.agent.numa.NumaSfp;
import org.srv6int.twin.model.MeasuredCurves;

/**
 * The hardware of one server of the NUMASFP experiment (numasfp.txt §II-C, §VI-A): two NUMA
 * nodes, the NIC on node 0; what a chain delivers given its node, its LLC ways and memory
 * bandwidth, and how the node's resources are partitioned. The numbers and where they come from:
 *
 * <ul>
 *   <li>12 cores, 11 LLC ways, 100 % memory bandwidth per node: Xeon Gold 6126 (12 cores per
 *       socket, "eleven LLC ways", MBA in percent), §II-C;</li>
 *   <li>throughput of a chain on the NIC's node and on the remote node for its ways and
 *       bandwidth: Table I (Max_alloc of its vNFs, Observation 5); the remote node carries at most
 *       7 Gbps (Table I's "—" entries; Fig. 5 puts the all-remote chain 22 % below the local one);</li>
 *   <li>a chain split over both nodes: 52 % below the all-local chain (Fig. 5, placement 1-0-1);
 *       none of the mechanisms compared splits a chain, the constant is for the record;</li>
 *   <li>contention when the node's LLC and memory bandwidth are not both partitioned and another
 *       chain shares the node: 45 % less without any partitioning, 20 % less with LLC ways only
 *       (Fig. 7, Firewall next to a noisy neighbour).</li>
 * </ul>
 */
public final class NumaServerModel {

    /** Cores per NUMA node (Xeon Gold 6126). */
    public static final int CORES = 12;
    /** LLC ways per NUMA node (§II-C). */
    public static final int LLC_WAYS = 11;
    /** Memory bandwidth per node, percent (MBA). */
    public static final int MB_PERCENT = 100;
    /** The NIC's node (§II-C: both NICs on node 0). */
    public static final int NIC_NODE = 0;
    /** Throughput lost by a chain split over the nodes (Fig. 5, 1-0-1 vs 0-0-0). */
    public static final double SPLIT_LOSS = 0.52;
    /** Throughput lost next to another workload without LLC or MB partitioning (Fig. 7, Unmanaged). */
    public static final double UNMANAGED_LOSS = 0.45;
    /** Throughput lost next to another workload with LLC ways only (Fig. 7, LLC-only). */
    public static final double LLC_ONLY_LOSS = 0.20;

    /** How the nodes' LLC and memory bandwidth are partitioned between co-located chains. */
    public enum Isolation {
        /** CAT and MBA together (Fig. 7 "LLC+MB"): the profile's throughput. */
        JOINT,
        /** CAT only: memory bandwidth contended (Fig. 7 "LLC-only"). */
        LLC_ONLY,
        /** Neither (Fig. 7 "Unmanaged"). */
        NONE
    }

    private final NumaProfile profile;

    /**
     * Creates the model on the paper's profile.
     *
     * @param profile Table I
     */
    public NumaServerModel(NumaProfile profile) {
        this.profile = profile;
    }

    /**
     * Capacity of the server's nodes.
     *
     * @return node 0 (NIC) and node 1
     */
    public static List<NumaSfp.NodeCapacity> nodes() {
        return List.of(new NumaSfp.NodeCapacity(CORES, LLC_WAYS, MB_PERCENT),
                new NumaSfp.NodeCapacity(CORES, LLC_WAYS, MB_PERCENT));
    }

    /**
     * With the measured vNF models ({@code --vnf-models measured}): cores a chain needs per Gbps,
     * the sum of its vNFs' measured cost per packet of the mix at one core (docs/lab.md "curves";
     * router is vnf-fwd, monitor vnf-dpi, the engine ntopng-like monitors classify with) at
     * 1e9 / (8 * 498) packets per Gbps.
     *
     * @param types the chain's vNF types
     * @return cores per Gbps
     */
    public static double measuredCoresPerGbps(List<String> types) {
        double us = 0;
        for (String t : types) {
            us += MeasuredCurves.instance().costUs("router".equals(t) ? "fwd" : "dpi", 1.0);
        }
        return us * 1e-6 * 1e9 / (8 * MeasuredCurves.MIX_BYTES);
    }

    /**
     * Caps what the chains of each node deliver by the node's cores: when their demand
     * (rate x cores per Gbps) exceeds {@link #CORES}, each gets its share in proportion to
     * its demand (CFS shares the node's cores that way when every vNF is busy).
     *
     * @param phi delivered Gbps per chain, rewritten
     * @param node node per chain
     * @param coresPerGbps cores per Gbps per chain
     */
    public static void capByCores(Map<String, Double> phi, Map<String, Integer> node,
                                  Map<String, Double> coresPerGbps) {
        double[] demand = new double[2];
        phi.forEach((id, g) -> demand[node.get(id)] += g * coresPerGbps.get(id));
        phi.replaceAll((id, g) -> demand[node.get(id)] > CORES ? g * CORES / demand[node.get(id)] : g);
    }

    /**
     * What a chain delivers.
     *
     * @param types vNF types
     * @param node its node
     * @param alloc its ways and bandwidth
     * @param offeredGbps offered rate
     * @param isolation how the node is partitioned
     * @param shared whether another chain runs on the same node
     * @return delivered Gbps
     */
    public double throughput(List<String> types, int node, NumaNeed alloc, double offeredGbps, Isolation isolation,
                             boolean shared) {
        double phi = Math.min(offeredGbps, profile.achievable(types, alloc, node == NIC_NODE));
        if (shared && isolation == Isolation.NONE) {
            phi *= 1 - UNMANAGED_LOSS;
        } else if (shared && isolation == Isolation.LLC_ONLY) {
            phi *= 1 - LLC_ONLY_LOSS;
        }
        return phi;
    }
}
