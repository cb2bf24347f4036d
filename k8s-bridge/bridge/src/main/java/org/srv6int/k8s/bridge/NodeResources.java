// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

/**
 * Free resources of one node: allocatable minus the requests of its non-terminated
 * pods. CPU in millicores, memory in bytes; negative when the node is overcommitted.
 */
public final class NodeResources {
    private final String nodeName;
    private final long freeCpuMillis;
    private final long freeMemoryBytes;
    private final long allocatableCpuMillis;
    private final long allocatableMemoryBytes;

    /**
     * Creates the record.
     *
     * @param nodeName node
     * @param freeCpuMillis free CPU, millicores
     * @param freeMemoryBytes free memory, bytes
     * @param allocatableCpuMillis allocatable CPU, millicores
     * @param allocatableMemoryBytes allocatable memory, bytes
     */
    public NodeResources(String nodeName, long freeCpuMillis, long freeMemoryBytes,
                         long allocatableCpuMillis, long allocatableMemoryBytes) {
        this.nodeName = nodeName;
        this.freeCpuMillis = freeCpuMillis;
        this.freeMemoryBytes = freeMemoryBytes;
        this.allocatableCpuMillis = allocatableCpuMillis;
        this.allocatableMemoryBytes = allocatableMemoryBytes;
    }

    /**
     * Returns the node name.
     *
     * @return node
     */
    public String nodeName() {
        return nodeName;
    }

    /**
     * Returns the free CPU in millicores.
     *
     * @return free CPU
     */
    public long freeCpuMillis() {
        return freeCpuMillis;
    }

    /**
     * Returns the free memory in bytes.
     *
     * @return free memory
     */
    public long freeMemoryBytes() {
        return freeMemoryBytes;
    }

    /**
     * Returns the allocatable CPU in millicores.
     *
     * @return allocatable CPU
     */
    public long allocatableCpuMillis() {
        return allocatableCpuMillis;
    }

    /**
     * Returns the allocatable memory in bytes.
     *
     * @return allocatable memory
     */
    public long allocatableMemoryBytes() {
        return allocatableMemoryBytes;
    }

    @Override
    public String toString() {
        return nodeName + "{free cpu=" + freeCpuMillis + "m/" + allocatableCpuMillis + "m, free mem="
                + freeMemoryBytes + "/" + allocatableMemoryBytes + "}";
    }
}
