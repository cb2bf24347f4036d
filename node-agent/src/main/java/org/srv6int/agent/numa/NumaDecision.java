// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.numa;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One decision of the NUMASFP engine, with its reason (for the decision log and counters).
 * Made at most once per chain and interval, never per packet.
 */
public final class NumaDecision {

    /** What the engine did. */
    public enum Kind {
        /** Algorithm 1 lines 3-7: a new chain placed on a node. */
        PLACE,
        /** Algorithm 2: a remote chain moved to the NIC's node (room there, no swap needed). */
        MIGRATE,
        /** Algorithm 2 line 8: a remote chain and a NIC-node chain exchanged nodes. */
        SWAP,
        /** resource_adjustment: a chain's LLC ways / memory bandwidth changed. */
        ALLOCATE
    }

    private final Kind kind;
    private final String chain;
    private final String peer;
    private final int fromNode;
    private final int toNode;
    private final NumaNeed allocation;
    private final String reason;

    /**
     * Creates a record.
     *
     * @param kind what
     * @param chain chain acted on
     * @param peer the swapped chain, or null
     * @param fromNode node before (-1 for a placement)
     * @param toNode node after
     * @param allocation ways and bandwidth after (null when unchanged)
     * @param reason why, short
     */
    public NumaDecision(Kind kind, String chain, String peer, int fromNode, int toNode, NumaNeed allocation,
                        String reason) {
        this.kind = kind;
        this.chain = chain;
        this.peer = peer;
        this.fromNode = fromNode;
        this.toNode = toNode;
        this.allocation = allocation;
        this.reason = reason;
    }

    /**
     * What.
     *
     * @return kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The chain.
     *
     * @return id
     */
    public String chain() {
        return chain;
    }

    /**
     * The other chain of a swap.
     *
     * @return id or null
     */
    public String peer() {
        return peer;
    }

    /**
     * Node before.
     *
     * @return node, -1 when newly placed
     */
    public int fromNode() {
        return fromNode;
    }

    /**
     * Node after.
     *
     * @return node
     */
    public int toNode() {
        return toNode;
    }

    /**
     * Allocation after.
     *
     * @return tuple or null
     */
    public NumaNeed allocation() {
        return allocation;
    }

    /**
     * Why.
     *
     * @return reason
     */
    public String reason() {
        return reason;
    }

    /**
     * Fields for a JSON decision line.
     *
     * @return ordered map
     */
    public Map<String, Object> fields() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("action", "NUMA_" + kind.name());
        m.put("chain", chain);
        if (peer != null) {
            m.put("peer", peer);
        }
        if (fromNode >= 0) {
            m.put("fromNode", fromNode);
        }
        m.put("toNode", toNode);
        if (allocation != null) {
            m.put("llcWays", allocation.ways());
            m.put("mbPercent", allocation.mbPercent());
        }
        m.put("reason", reason);
        return m;
    }

    @Override
    public String toString() {
        return kind + " " + chain + (peer != null ? " <-> " + peer : "") + " node " + fromNode + "->" + toNode
                + (allocation != null ? " " + allocation : "") + ": " + reason;
    }
}
