// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;


/**
 * A vNF replica that the platform reported Ready.
 */
public final class ReplicaInfo {

    private final String id;
    private final String node;
    private final String podIp;
    private final int numaNode;

    /**
     * Creates replica information of a pod that asks for no NUMA node.
     *
     * @param id    replica id (the bridge's deterministic name)
     * @param node  node the pod runs on
     * @param podIp pod IP address
     */
    public ReplicaInfo(String id, String node, String podIp) {
        this(id, node, podIp, -1);
    }

    /**
     * Creates replica information.
     *
     * @param id    replica id (the bridge's deterministic name)
     * @param node  node the pod runs on
     * @param podIp pod IP address
     * @param numaNode the NUMA node its pod asks for, -1 if none
     */
    public ReplicaInfo(String id, String node, String podIp, int numaNode) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("replica id is empty");
        }
        this.id = id;
        this.node = node;
        this.podIp = podIp;
        this.numaNode = numaNode;
    }

    /**
     * Returns the replica id.
     *
     * @return id
     */
    public String id() {
        return id;
    }

    /**
     * Returns the node the replica runs on.
     *
     * @return node name
     */
    public String node() {
        return node;
    }

    /**
     * Returns the pod IP.
     *
     * @return pod IP
     */
    public String podIp() {
        return podIp;
    }

    /**
     * Returns the NUMA node of its node that placement chose (its pod asks for it).
     *
     * @return NUMA node, -1 if none
     */
    public int numaNode() {
        return numaNode;
    }

    @Override
    public String toString() {
        return id + "@" + node + (numaNode >= 0 ? ":numa" + numaNode : "") + "(" + podIp + ")";
    }
}
