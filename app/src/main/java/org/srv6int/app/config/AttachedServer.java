// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.google.common.base.MoreObjects;
import org.onlab.packet.MacAddress;
import org.onosproject.net.PortNumber;

import java.util.Objects;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * A vNF server (Kubernetes worker) attached to a switch port.
 */
public final class AttachedServer {

    private final String node;
    private final PortNumber port;
    private final MacAddress mac;
    private final ServerNuma numa;

    /**
     * Creates the record of a server whose NUMA layout is not stated.
     *
     * @param node Kubernetes node name
     * @param port switch port
     * @param mac  the server NIC's MAC on that port
     */
    public AttachedServer(String node, PortNumber port, MacAddress mac) {
        this(node, port, mac, null);
    }

    /**
     * Creates the record.
     *
     * @param node Kubernetes node name
     * @param port switch port
     * @param mac  the server NIC's MAC on that port
     * @param numa its NUMA layout, null if not stated
     */
    public AttachedServer(String node, PortNumber port, MacAddress mac, ServerNuma numa) {
        this.node = checkNotNull(node);
        this.port = checkNotNull(port);
        this.mac = checkNotNull(mac);
        this.numa = numa;
    }

    /**
     * Returns the Kubernetes node name.
     *
     * @return node
     */
    public String node() {
        return node;
    }

    /**
     * Returns the switch port.
     *
     * @return port
     */
    public PortNumber port() {
        return port;
    }

    /**
     * Returns the server NIC's MAC.
     *
     * @return MAC
     */
    public MacAddress mac() {
        return mac;
    }

    /**
     * Returns the server's NUMA layout, if netcfg states it.
     *
     * @return layout
     */
    public Optional<ServerNuma> numa() {
        return Optional.ofNullable(numa);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AttachedServer)) {
            return false;
        }
        AttachedServer that = (AttachedServer) o;
        return node.equals(that.node) && port.equals(that.port) && mac.equals(that.mac)
                && Objects.equals(numa, that.numa);
    }

    @Override
    public int hashCode() {
        return Objects.hash(node, port, mac, numa);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("node", node).add("port", port).add("mac", mac).add("numa", numa)
                .toString();
    }
}
