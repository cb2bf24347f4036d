// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.inventory;

import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.config.ServerNuma;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The NUMA node of a new replica on the server placement chose for it (NUMASFP,
 * {@code ../shared/papers/numasfp.txt}: a chain's vNFs on one NUMA node, preferring the NIC's;
 * splitting a chain over two nodes costs it half its throughput, Fig. 5). In order:
 * <ol>
 *   <li>the node where the chain's replicas on that server are (most of them; ties: the NIC's,
 *       then the lower id), if the new replica's CPU request fits its free CPU;</li>
 *   <li>the NIC's node, if it fits;</li>
 *   <li>the node with the most free CPU where it fits;</li>
 *   <li>none: the pod asks for no node and the node agent places it (its NUMASFP, Alg. 1).</li>
 * </ol>
 * A node's free CPU is what the layout says it offers minus the CPU requests of the replicas
 * placed on it; a replica without a NUMA node (made before the layout was stated, or by hand)
 * counts on none. Plain Java, no I/O.
 */
public final class NumaPlacement {

    private NumaPlacement() {
    }

    /** A replica already on the server. */
    public static final class Resident {
        private final SfcId chain;
        private final int numaNode;
        private final long cpuMillis;

        /**
         * Creates a resident.
         *
         * @param chain     its chain
         * @param numaNode  the NUMA node it was placed on, -1 if none
         * @param cpuMillis its CPU request, millicores (0 if unknown)
         */
        public Resident(SfcId chain, int numaNode, long cpuMillis) {
            this.chain = Objects.requireNonNull(chain, "chain");
            this.numaNode = numaNode;
            this.cpuMillis = cpuMillis;
        }
    }

    /** The chosen NUMA node and why. */
    public static final class Choice {
        private final int node;
        private final String reason;

        private Choice(int node, String reason) {
            this.node = node;
            this.reason = reason;
        }

        /**
         * Returns the chosen NUMA node.
         *
         * @return node id, -1 if none fits
         */
        public int node() {
            return node;
        }

        /**
         * Returns why, for the log and the decision history.
         *
         * @return reason
         */
        public String reason() {
            return reason;
        }

        @Override
        public String toString() {
            return (node < 0 ? "no NUMA node" : "NUMA node " + node) + ": " + reason;
        }
    }

    /**
     * Chooses the NUMA node of a new replica.
     *
     * @param server    the server's name, for the reason
     * @param numa      the server's NUMA layout
     * @param residents the replicas already on the server
     * @param chain     the new replica's chain
     * @param cpuMillis the new replica's CPU request, millicores (0 if unknown: fits anywhere)
     * @return the choice
     */
    public static Choice choose(String server, ServerNuma numa, List<Resident> residents, SfcId chain,
                                long cpuMillis) {
        int n = numa.nodes();
        long[] free = new long[n];
        int[] ofChain = new int[n];
        for (int k = 0; k < n; k++) {
            free[k] = numa.cpuMillis(k);
        }
        for (Resident r : residents) {
            if (r.numaNode >= 0 && r.numaNode < n) {
                free[r.numaNode] -= r.cpuMillis;
                if (r.chain.equals(chain)) {
                    ofChain[r.numaNode]++;
                }
            }
        }
        int nic = numa.nicNode();
        int chainNode = -1;
        for (int k : order(nic, n)) {
            if (ofChain[k] > 0 && (chainNode < 0 || ofChain[k] > ofChain[chainNode])) {
                chainNode = k;
            }
        }
        String need = cpuMillis + "m";
        if (chainNode >= 0 && free[chainNode] >= cpuMillis) {
            return new Choice(chainNode, "chain " + chain + " has " + ofChain[chainNode] + " replica(s) on NUMA node "
                    + chainNode + " of " + server + (chainNode == nic ? " (the NIC's)" : "") + ", "
                    + free[chainNode] + "m free >= " + need);
        }
        String chainFull = chainNode >= 0 ? "chain " + chain + "'s NUMA node " + chainNode + " of " + server
                + " has " + free[chainNode] + "m free < " + need + "; " : "";
        if (free[nic] >= cpuMillis) {
            return new Choice(nic, chainFull + "the NIC's NUMA node " + nic + " of " + server + ", " + free[nic]
                    + "m free >= " + need);
        }
        int best = -1;
        for (int k = 0; k < n; k++) {
            if (k != nic && free[k] >= cpuMillis && (best < 0 || free[k] > free[best])) {
                best = k;
            }
        }
        if (best >= 0) {
            return new Choice(best, chainFull + "the NIC's NUMA node " + nic + " has " + free[nic] + "m free < "
                    + need + "; NUMA node " + best + " of " + server + " has " + free[best] + "m");
        }
        return new Choice(-1, "no NUMA node of " + server + " has " + need + " free (free "
                + Arrays.toString(free) + "m); the node agent places it");
    }

    // The NIC's node first, then the others by id: ties between nodes go to the NIC's.
    private static int[] order(int nic, int n) {
        int[] out = new int[n];
        out[0] = nic;
        int i = 1;
        for (int k = 0; k < n; k++) {
            if (k != nic) {
                out[i++] = k;
            }
        }
        return out;
    }
}
