// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.Ip6Prefix;
import org.onlab.packet.IpAddress;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.srv6int.app.config.ConfigChecks.integer;
import static org.srv6int.app.config.ConfigChecks.ip;
import static org.srv6int.app.config.ConfigChecks.mac;
import static org.srv6int.app.config.ConfigChecks.object;
import static org.srv6int.app.config.ConfigChecks.onlyFields;
import static org.srv6int.app.config.ConfigChecks.prefix;
import static org.srv6int.app.config.ConfigChecks.text;

/**
 * Per-switch SRv6 settings, netcfg {@code devices/<id>/srv6int}:
 * <pre>
 * {
 *   "intDeviceId": 2,
 *   "mySid": "fc00:0:2::1",
 *   "dtSid": "fc00:0:2::d",
 *   "myMac": "00:00:00:00:02:00",
 *   "vnfSidPrefix": "fc00:0:2:f::/64",
 *   "reportAddress": "10.0.0.2",
 *   "collectorPort": 10,
 *   "servers": [ { "node": "worker1", "port": 3, "mac": "00:00:00:00:02:03",
 *                  "numa": { "nicNode": 0, "cpuMillis": [10000, 10000] } } ],
 *   "hosts": [ { "prefix": "10.0.2.0/24", "port": 4, "mac": "00:00:00:00:02:04" } ]
 * }
 * </pre>
 * {@code mySid} is the switch's own SID (End.T.INT, the IPv6 source and first
 * segment of the encapsulation), {@code dtSid} its End.DT.INT SID (the last
 * segment of chains leaving here); vNF replica SIDs on servers of this switch
 * are allocated from {@code vnfSidPrefix} (host part 1..1023, which is also the
 * vNF's register index). {@code collectorPort} is the port INT reports leave
 * on; {@code hosts} are the prefixes routed out of a local port (where
 * decapsulated traffic goes). A server's optional {@code numa} states its NUMA
 * layout (the NIC's node, the CPU each node offers vNF pods) for the placement's
 * NUMA choice ({@link ServerNuma}). A switch without this config is not programmed.
 */
public final class Srv6DeviceConfig extends Config<DeviceId> {

    /** Largest vNF id of a switch (vNF ids index the program's per-vNF registers; 0 is unused). */
    public static final int MAX_VNF_ID = org.srv6int.pipeconf.Srv6IntPipelineConstants.MAX_VNFS - 1;

    static final String INT_DEVICE_ID = "intDeviceId";
    static final String MY_SID = "mySid";
    static final String DT_SID = "dtSid";
    static final String MY_MAC = "myMac";
    static final String COLLECTOR_PORT = "collectorPort";
    static final String HOSTS = "hosts";
    static final String PREFIX = "prefix";
    static final String VNF_SID_PREFIX = "vnfSidPrefix";
    static final String REPORT_ADDRESS = "reportAddress";
    static final String SERVERS = "servers";
    static final String NODE = "node";
    static final String PORT = "port";
    static final String MAC = "mac";
    static final String NUMA = "numa";
    static final String NIC_NODE = "nicNode";
    static final String CPU_MILLIS = "cpuMillis";

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
        onlyFields(object, "", INT_DEVICE_ID, MY_SID, DT_SID, MY_MAC, VNF_SID_PREFIX, REPORT_ADDRESS,
                   COLLECTOR_PORT, SERVERS, HOSTS);
        integer(object, "", INT_DEVICE_ID, true, 1, 0xFFFF);
        IpAddress my = ip(object, "", MY_SID, true, IpAddress.Version.INET6);
        IpAddress dt = ip(object, "", DT_SID, true, IpAddress.Version.INET6);
        if (my.equals(dt)) {
            throw new InvalidFieldException(DT_SID, "must differ from mySid");
        }
        integer(object, "", COLLECTOR_PORT, false, 1, 0x1FE);
        validateHosts();
        mac(object, "", MY_MAC, true);
        ip(object, "", REPORT_ADDRESS, false, IpAddress.Version.INET);
        JsonNode servers = object.get(SERVERS);
        boolean hasServers = servers != null && !servers.isNull() && servers.size() > 0;
        prefix(object, "", VNF_SID_PREFIX, hasServers, IpAddress.Version.INET6, 118);
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
            onlyFields((ObjectNode) s, path, NODE, PORT, MAC, NUMA);
            String node = text(s, path, NODE, true);
            if (node.isEmpty()) {
                throw new InvalidFieldException(path + "." + NODE, "must not be empty");
            }
            if (!nodes.add(node)) {
                throw new InvalidFieldException(path + "." + NODE, "duplicate node " + node);
            }
            long port = integer(s, path, PORT, true, 1, 0x1FE);
            if (!ports.add(port)) {
                throw new InvalidFieldException(path + "." + PORT, "duplicate port " + port);
            }
            mac(s, path, MAC, true);
            numa(s, path);
        }
    }

    // A server's NUMA layout: at least two nodes, each with the CPU it offers, the NIC on one of them.
    private static ServerNuma numa(JsonNode server, String serverPath) {
        ObjectNode n = object(server, serverPath, NUMA, false);
        if (n == null) {
            return null;
        }
        String path = serverPath + "." + NUMA;
        onlyFields(n, path, NIC_NODE, CPU_MILLIS);
        JsonNode cpus = n.get(CPU_MILLIS);
        if (cpus == null || !cpus.isArray() || cpus.size() < 2) {
            throw new InvalidFieldException(path + "." + CPU_MILLIS, "must be an array with the millicores of "
                    + "each NUMA node (index = node id), at least two; leave numa out for one NUMA node");
        }
        List<Long> millis = new ArrayList<>();
        for (int k = 0; k < cpus.size(); k++) {
            JsonNode c = cpus.get(k);
            if (!c.isIntegralNumber() || c.asLong() < 0) {
                throw new InvalidFieldException(path + "." + CPU_MILLIS + "[" + k + "]",
                                                "must be an integer >= 0 (millicores), got " + c);
            }
            millis.add(c.asLong());
        }
        int nic = (int) integer(n, path, NIC_NODE, true, 0, cpus.size() - 1);
        return new ServerNuma(nic, millis);
    }

    private void validateHosts() {
        JsonNode hosts = object.get(HOSTS);
        if (hosts == null || hosts.isNull()) {
            return;
        }
        if (!hosts.isArray()) {
            throw new InvalidFieldException(HOSTS, "must be an array");
        }
        for (int i = 0; i < hosts.size(); i++) {
            String path = HOSTS + "[" + i + "]";
            JsonNode h = hosts.get(i);
            if (!h.isObject()) {
                throw new InvalidFieldException(path, "must be an object");
            }
            onlyFields((ObjectNode) h, path, PREFIX, PORT, MAC);
            String t = text(h, path, PREFIX, true);
            try {
                IpPrefix.valueOf(t);
            } catch (IllegalArgumentException e) {
                throw new InvalidFieldException(path + "." + PREFIX, "is not an IP prefix: " + t);
            }
            integer(h, path, PORT, true, 1, 0x1FE);
            mac(h, path, MAC, true);
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
     * Returns the switch's End.DT.INT SID.
     *
     * @return SID
     */
    public Ip6Address dtSid() {
        return Ip6Address.valueOf(object.path(DT_SID).asText());
    }

    /**
     * Returns the port INT reports leave on.
     *
     * @return port, empty if this switch sends no reports
     */
    public Optional<PortNumber> collectorPort() {
        return object.has(COLLECTOR_PORT)
                ? Optional.of(PortNumber.portNumber(object.path(COLLECTOR_PORT).asLong()))
                : Optional.empty();
    }

    /**
     * Returns the host prefixes routed out of local ports.
     *
     * @return hosts
     */
    public List<AttachedHosts> hosts() {
        JsonNode hosts = object.get(HOSTS);
        if (hosts == null || !hosts.isArray()) {
            return ImmutableList.of();
        }
        ImmutableList.Builder<AttachedHosts> b = ImmutableList.builder();
        hosts.forEach(h -> b.add(new AttachedHosts(IpPrefix.valueOf(h.path(PREFIX).asText()),
                                                   PortNumber.portNumber(h.path(PORT).asLong()),
                                                   MacAddress.valueOf(h.path(MAC).asText()))));
        return b.build();
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
     * Returns the vNF id (register index) of a replica SID: its host part
     * within the switch's vNF SID locator.
     *
     * @param sid replica SID
     * @return 1..{@value #MAX_VNF_ID}, empty if the SID is outside the locator or
     *         its host part out of range
     */
    public Optional<Integer> vnfId(Ip6Address sid) {
        return vnfSidPrefix().filter(p -> p.contains(sid)).flatMap(p -> {
            BigInteger host = new BigInteger(1, sid.toOctets())
                    .subtract(new BigInteger(1, p.address().toOctets()));
            return host.signum() > 0 && host.compareTo(BigInteger.valueOf(MAX_VNF_ID)) <= 0
                    ? Optional.of(host.intValue()) : Optional.empty();
        });
    }

    /**
     * Returns the SID with the given vNF id in this switch's vNF SID locator.
     *
     * @param vnfId 1..{@value #MAX_VNF_ID}
     * @return SID
     */
    public Ip6Address vnfSid(int vnfId) {
        byte[] base = vnfSidPrefix().orElseThrow().address().toOctets();
        BigInteger v = new BigInteger(1, base).add(BigInteger.valueOf(vnfId));
        byte[] raw = v.toByteArray();
        byte[] out = new byte[16];
        int n = Math.min(raw.length, 16);
        System.arraycopy(raw, raw.length - n, out, 16 - n, n);
        return Ip6Address.valueOf(out);
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
                                                      MacAddress.valueOf(s.path(MAC).asText()),
                                                      numa(s, SERVERS))));
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
