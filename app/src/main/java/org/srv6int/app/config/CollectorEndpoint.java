// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.google.common.base.MoreObjects;
import org.onlab.packet.IpAddress;
import org.onlab.packet.MacAddress;

import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * Where one ONOS instance's INT collector listens and the MAC the switches address its reports
 * to: what a switch's report configuration names when that instance masters it.
 */
public final class CollectorEndpoint {

    private final IpAddress address;
    private final MacAddress mac;
    private final int port;

    /**
     * Creates an endpoint.
     *
     * @param address IPv4 address
     * @param mac     MAC the reports are sent to (the collector's or its next hop's)
     * @param port    UDP port
     */
    public CollectorEndpoint(IpAddress address, MacAddress mac, int port) {
        this.address = checkNotNull(address, "collector address is null");
        this.mac = checkNotNull(mac, "collector MAC is null");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("collector port out of range: " + port);
        }
        this.port = port;
    }

    /** @return IPv4 address */
    public IpAddress address() {
        return address;
    }

    /** @return MAC the reports are sent to */
    public MacAddress mac() {
        return mac;
    }

    /** @return UDP port */
    public int port() {
        return port;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof CollectorEndpoint)) {
            return false;
        }
        CollectorEndpoint that = (CollectorEndpoint) o;
        return port == that.port && address.equals(that.address) && mac.equals(that.mac);
    }

    @Override
    public int hashCode() {
        return Objects.hash(address, mac, port);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("address", address).add("mac", mac).add("port", port)
                .toString();
    }
}
