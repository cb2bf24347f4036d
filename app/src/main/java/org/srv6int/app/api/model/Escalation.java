// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import java.util.List;
import java.util.Objects;

/**
 * A node agent's escalation: its local loop of one vNF tried every resource type it may move
 * and the vNF is still over its bound (docs/node-agent.md, docs/global-loop.md).
 */
public final class Escalation {

    private final VnfKey vnf;
    private final String node;
    private final long l95Nanos;
    private final long lmaxNanos;
    private final List<String> triedResources;

    /**
     * Creates an escalation.
     *
     * @param vnf            the vNF
     * @param node           the reporting node
     * @param l95Nanos       the agent's L95 of its last window, ns
     * @param lmaxNanos      the agent's bound, ns
     * @param triedResources resource types the agent tried
     */
    public Escalation(VnfKey vnf, String node, long l95Nanos, long lmaxNanos, List<String> triedResources) {
        this.vnf = Objects.requireNonNull(vnf, "vnf");
        this.node = Objects.requireNonNull(node, "node");
        this.l95Nanos = l95Nanos;
        this.lmaxNanos = lmaxNanos;
        this.triedResources = List.copyOf(triedResources);
    }

    /** The vNF. */
    public VnfKey vnf() {
        return vnf;
    }

    /** The reporting node. */
    public String node() {
        return node;
    }

    /** The agent's L95, ns. */
    public long l95Nanos() {
        return l95Nanos;
    }

    /** The agent's bound, ns. */
    public long lmaxNanos() {
        return lmaxNanos;
    }

    /** Resource types the agent tried. */
    public List<String> triedResources() {
        return triedResources;
    }

    @Override
    public String toString() {
        return vnf + " " + node + " " + l95Nanos + " " + lmaxNanos + " " + triedResources;
    }
}
