// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.google.common.base.MoreObjects;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.PortNumber;

import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * A host prefix reachable out of a switch port through a next hop MAC.
 */
public final class AttachedHosts {

    private final IpPrefix prefix;
    private final PortNumber port;
    private final MacAddress mac;

    /**
     * Creates the record.
     *
     * @param prefix host prefix (IPv4 or IPv6)
     * @param port   switch port
     * @param mac    next-hop MAC on that port
     */
    public AttachedHosts(IpPrefix prefix, PortNumber port, MacAddress mac) {
        this.prefix = checkNotNull(prefix);
        this.port = checkNotNull(port);
        this.mac = checkNotNull(mac);
    }

    /**
     * Returns the prefix.
     *
     * @return prefix
     */
    public IpPrefix prefix() {
        return prefix;
    }

    /**
     * Returns the port.
     *
     * @return port
     */
    public PortNumber port() {
        return port;
    }

    /**
     * Returns the next-hop MAC.
     *
     * @return MAC
     */
    public MacAddress mac() {
        return mac;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AttachedHosts)) {
            return false;
        }
        AttachedHosts that = (AttachedHosts) o;
        return prefix.equals(that.prefix) && port.equals(that.port) && mac.equals(that.mac);
    }

    @Override
    public int hashCode() {
        return Objects.hash(prefix, port, mac);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("prefix", prefix).add("port", port).add("mac", mac).toString();
    }
}
