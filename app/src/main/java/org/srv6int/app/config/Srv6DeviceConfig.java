package org.srv6int.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.Ip6Prefix;
import org.onlab.packet.IpAddress;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.srv6int.app.config.ConfigChecks.integer;
import static org.srv6int.app.config.ConfigChecks.ip;
import static org.srv6int.app.config.ConfigChecks.mac;
import static org.srv6int.app.config.ConfigChecks.onlyFields;
import static org.srv6int.app.config.ConfigChecks.prefix;
import static org.srv6int.app.config.ConfigChecks.text;

/**
 * Per-switch SRv6 settings, netcfg {@code devices/<id>/srv6int}:
 * <pre>
 * {
 *   "intDeviceId": 2,
 *   "mySid": "fc00:0:2::1",
 *   "myMac": "00:00:00:00:02:00",
 *   "vnfSidPrefix": "fc00:0:2:f::/64",
 *   "reportAddress": "10.0.0.2",
 *   "servers": [ { "node": "worker1", "port": 3, "mac": "00:00:00:00:02:03" } ]
 * }
 * </pre>
 * {@code mySid} is the switch's own SID (End.T.INT when transited, End.DT.INT
 * when it is the last segment); vNF replica SIDs on servers of this switch
 * are allocated from {@code vnfSidPrefix}. A switch without this config is
 * not programmed.
 */
public final class Srv6DeviceConfig extends Config<DeviceId> {

    static final String INT_DEVICE_ID = "intDeviceId";
    static final String MY_SID = "mySid";
    static final String MY_MAC = "myMac";
    static final String VNF_SID_PREFIX = "vnfSidPrefix";
    static final String REPORT_ADDRESS = "reportAddress";
    static final String SERVERS = "servers";
    static final String NODE = "node";
    static final String PORT = "port";
    static final String MAC = "mac";

    @Override
    public boolean isValid() {
        validate();
        return true;
    }

    /**
     * Checks every field.
     *
     * @throws InvalidFieldException naming the first bad field and why
     */
    public void validate() {
        if (!object.isObject()) {
            throw new InvalidFieldException(Srv6IntAppConfig.KEY, "must be an object");
        }
        onlyFields(object, "", INT_DEVICE_ID, MY_SID, MY_MAC, VNF_SID_PREFIX, REPORT_ADDRESS, SERVERS);
        integer(object, "", INT_DEVICE_ID, true, 1, 0xFFFF);
        ip(object, "", MY_SID, true, IpAddress.Version.INET6);
        mac(object, "", MY_MAC, true);
        ip(object, "", REPORT_ADDRESS, false, IpAddress.Version.INET);
        JsonNode servers = object.get(SERVERS);
        boolean hasServers = servers != null && !servers.isNull() && servers.size() > 0;
        prefix(object, "", VNF_SID_PREFIX, hasServers, IpAddress.Version.INET6, 120);
        if (servers == null || servers.isNull()) {
            return;
        }
        if (!servers.isArray()) {
            throw new InvalidFieldException(SERVERS, "must be an array");
        }
        Set<String> nodes = new HashSet<>();
        Set<Long> ports = new HashSet<>();
        for (int i = 0; i < servers.size(); i++) {
            String path = SERVERS + "[" + i + "]";
            JsonNode s = servers.get(i);
            if (!s.isObject()) {
                throw new InvalidFieldException(path, "must be an object");
            }
            onlyFields((ObjectNode) s, path, NODE, PORT, MAC);
            String node = text(s, path, NODE, true);
            if (node.isEmpty()) {
                throw new InvalidFieldException(path + "." + NODE, "must not be empty");
            }
            if (!nodes.add(node)) {
                throw new InvalidFieldException(path + "." + NODE, "duplicate node " + node);
            }
            long port = integer(s, path, PORT, true, 1, 0xFFFF_FFFEL);
            if (!ports.add(port)) {
                throw new InvalidFieldException(path + "." + PORT, "duplicate port " + port);
            }
            mac(s, path, MAC, true);
        }
    }

    /**
     * Returns the 16-bit Device_ID this switch writes into INT metadata.
     *
     * @return id 1..65535
     */
    public int intDeviceId() {
        return object.path(INT_DEVICE_ID).asInt();
    }

    /**
     * Returns the switch's own SID.
     *
     * @return SID
     */
    public Ip6Address mySid() {
        return Ip6Address.valueOf(object.path(MY_SID).asText());
    }

    /**
     * Returns the MAC of the switch's ports (source MAC of routed packets).
     *
     * @return MAC
     */
    public MacAddress myMac() {
        return MacAddress.valueOf(object.path(MY_MAC).asText());
    }

    /**
     * Returns the locator from which vNF replica SIDs are allocated.
     *
     * @return prefix, empty if the switch has no vNF servers
     */
    public Optional<Ip6Prefix> vnfSidPrefix() {
        String t = get(VNF_SID_PREFIX, null);
        return t == null ? Optional.empty() : Optional.of(Ip6Prefix.valueOf(t));
    }

    /**
     * Returns the IPv4 source address of this switch's INT reports.
     *
     * @return address, empty if not configured
     */
    public Optional<Ip4Address> reportAddress() {
        String t = get(REPORT_ADDRESS, null);
        return t == null ? Optional.empty() : Optional.of(Ip4Address.valueOf(t));
    }

    /**
     * Returns the vNF servers attached to this switch.
     *
     * @return servers
     */
    public List<AttachedServer> servers() {
        JsonNode servers = object.get(SERVERS);
        if (servers == null || !servers.isArray()) {
            return ImmutableList.of();
        }
        ImmutableList.Builder<AttachedServer> b = ImmutableList.builder();
        servers.forEach(s -> b.add(new AttachedServer(s.path(NODE).asText(),
                                                      PortNumber.portNumber(s.path(PORT).asLong()),
                                                      MacAddress.valueOf(s.path(MAC).asText()))));
        return b.build();
    }

    /**
     * Returns the server with the given Kubernetes node name.
     *
     * @param node node name
     * @return server, empty if not attached here
     */
    public Optional<AttachedServer> server(String node) {
        return servers().stream().filter(s -> s.node().equals(node)).findFirst();
    }
}
