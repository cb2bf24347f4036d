// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;


/**
 * Free (allocatable minus requested) resources of one Kubernetes node.
 */
public final class NodeResources {

    private final String node;
    private final long freeCpuMillis;
    private final long freeMemoryBytes;

    /**
     * Creates a node's free-resource figure.
     *
     * @param node            node name
     * @param freeCpuMillis   free CPU in millicores
     * @param freeMemoryBytes free memory in bytes
     */
    public NodeResources(String node, long freeCpuMillis, long freeMemoryBytes) {
        if (node == null || node.isEmpty()) {
            throw new IllegalArgumentException("node name is empty");
        }
        this.node = node;
        this.freeCpuMillis = freeCpuMillis;
        this.freeMemoryBytes = freeMemoryBytes;
    }

    /**
     * Returns the node name.
     *
     * @return node name
     */
    public String node() {
        return node;
    }

    /**
     * Returns free CPU in millicores.
     *
     * @return millicores
     */
    public long freeCpuMillis() {
        return freeCpuMillis;
    }

    /**
     * Returns free memory in bytes.
     *
     * @return bytes
     */
    public long freeMemoryBytes() {
        return freeMemoryBytes;
    }

    @Override
    public String toString() {
        return node + "(cpu=" + freeCpuMillis + "m,mem=" + freeMemoryBytes + ")";
    }
}
