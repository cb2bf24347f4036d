// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The NUMA layout of a vNF server as netcfg states it ({@code servers[].numa}): the NUMA node of
 * the NIC facing the switch port, and the CPU each NUMA node offers vNF pods. Kubernetes does not
 * publish either on its Node objects, and the NIC is the one the attachment names, so the operator
 * states them with the attachment (the NIC's node is {@code /sys/class/net/<if>/device/numa_node}).
 */
public final class ServerNuma {

    private final int nicNode;
    private final List<Long> cpuMillis;

    /**
     * Creates the layout.
     *
     * @param nicNode   NUMA node of the NIC facing the switch
     * @param cpuMillis per NUMA node (index = node id), millicores it offers vNF pods; at least two
     */
    public ServerNuma(int nicNode, List<Long> cpuMillis) {
        checkArgument(cpuMillis.size() >= 2, "a NUMA layout needs at least two NUMA nodes, got %s",
                      cpuMillis.size());
        checkArgument(nicNode >= 0 && nicNode < cpuMillis.size(), "NIC's NUMA node %s is not one of 0..%s",
                      nicNode, cpuMillis.size() - 1);
        this.nicNode = nicNode;
        this.cpuMillis = ImmutableList.copyOf(cpuMillis);
    }

    /**
     * Returns the NUMA node of the NIC facing the switch.
     *
     * @return node id
     */
    public int nicNode() {
        return nicNode;
    }

    /**
     * Returns the number of NUMA nodes.
     *
     * @return at least two
     */
    public int nodes() {
        return cpuMillis.size();
    }

    /**
     * Returns the CPU a NUMA node offers vNF pods.
     *
     * @param node node id
     * @return millicores
     */
    public long cpuMillis(int node) {
        return cpuMillis.get(node);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ServerNuma)) {
            return false;
        }
        ServerNuma that = (ServerNuma) o;
        return nicNode == that.nicNode && cpuMillis.equals(that.cpuMillis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(nicNode, cpuMillis);
    }

    @Override
    public String toString() {
        return "numa(nic=" + nicNode + ", cpuMillis=" + cpuMillis + ")";
    }
}
