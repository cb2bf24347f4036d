// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.provider.ProviderId;

/**
 * A fabric as ONOS knows it: its switches, the directed links between them, the netcfg the app
 * reads (devices with their SIDs, servers and hosts), and where every chain enters and leaves.
 * The paper's testbed ({@link #paperTestbed()}) or a generated leaf-spine fabric
 * ({@link #leafSpine}).
 */
public final class Topology {
    private static final ProviderId PID = new ProviderId("twin", "srv6int");
    /** Leaf port of the traffic source (ingress leaf) and of the sink (egress leaf). */
    static final int HOST_IN_PORT = 1;
    /** Egress leaf's port to the sink. */
    static final int HOST_OUT_PORT = 2;
    /** First leaf port of the servers. */
    static final int FIRST_SERVER_PORT = 3;
    /** A leaf's port to spine s (1-based) is this plus s. */
    static final int UPLINK_PORT_BASE = 100;
    /** The egress leaf's port to the collector (as SW4's in the testbed). */
    static final int COLLECTOR_PORT = 99;

    private final List<DeviceId> switches;
    private final List<Link> links;
    private final JsonNode netcfg;
    private final ConnectPoint ingress;
    private final ConnectPoint egress;

    /**
     * Creates a topology.
     *
     * @param switches every switch
     * @param links    directed links (both directions of each cable)
     * @param netcfg   netcfg document ("apps" and "devices")
     * @param ingress  where every chain's traffic enters
     * @param egress   where it leaves (the reporting switch)
     */
    public Topology(List<DeviceId> switches, List<Link> links, JsonNode netcfg, ConnectPoint ingress,
                    ConnectPoint egress) {
        this.switches = List.copyOf(switches);
        this.links = List.copyOf(links);
        this.netcfg = netcfg;
        this.ingress = ingress;
        this.egress = egress;
    }

    /** The paper's testbed: SW1-SW4 in a row, chains from SW1 port 1 to SW4 port 2. */
    public static Topology paperTestbed() {
        return new Topology(TestbedNetcfg.SWITCHES, TestbedNetcfg.links(), TestbedNetcfg.netcfg(),
                new ConnectPoint(TestbedNetcfg.SW1, PortNumber.portNumber(HOST_IN_PORT)),
                new ConnectPoint(TestbedNetcfg.SW4, PortNumber.portNumber(HOST_OUT_PORT)));
    }

    /**
     * A leaf-spine fabric: spines {@code 1..spines} and leaves after them (Device_IDs in that
     * order), every leaf cabled to every spine (leaf port {@value #UPLINK_PORT_BASE} + s to spine
     * s, spine port l to leaf l), the traffic source on leaf 1 port {@value #HOST_IN_PORT}, the
     * sink and the collector on the last leaf (ports {@value #HOST_OUT_PORT} and
     * {@value #COLLECTOR_PORT}), and each server on its leaf from port
     * {@value #FIRST_SERVER_PORT} on. Every switch's netcfg has the testbed's shape
     * ({@link TestbedNetcfg}): Device_ID n, mySid fc00:0:n::1, dtSid fc00:0:n::d, a vNF SID
     * prefix fc00:0:n:f::/64 on leaves with servers, the app's collector and loop settings.
     *
     * @param spines   number of spines (at least 1)
     * @param leaves   number of leaves (at least 2)
     * @param servers  node names per leaf (index 0 = leaf 1), in port order
     * @return the fabric
     */
    public static Topology leafSpine(int spines, int leaves, List<List<String>> servers) {
        if (spines < 1 || leaves < 2 || servers.size() != leaves) {
            throw new IllegalArgumentException("a leaf-spine fabric needs >= 1 spine, >= 2 leaves and a server list "
                    + "per leaf");
        }
        List<DeviceId> sw = new ArrayList<>();
        for (int n = 1; n <= spines + leaves; n++) {
            sw.add(DeviceId.deviceId(String.format(Locale.ROOT, "of:%016x", n)));
        }
        List<Link> links = new ArrayList<>();
        for (int l = 1; l <= leaves; l++) {
            for (int s = 1; s <= spines; s++) {
                ConnectPoint up = new ConnectPoint(sw.get(spines + l - 1), PortNumber.portNumber(UPLINK_PORT_BASE + s));
                ConnectPoint down = new ConnectPoint(sw.get(s - 1), PortNumber.portNumber(l));
                links.add(link(up, down));
                links.add(link(down, up));
            }
        }
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        // The app's settings are the testbed's (collector, loop, t-hat).
        root.set("apps", TestbedNetcfg.netcfg().get("apps").deepCopy());
        ObjectNode devices = root.putObject("devices");
        for (int n = 1; n <= sw.size(); n++) {
            ObjectNode c = devices.putObject(sw.get(n - 1).toString()).putObject("srv6int");
            c.put("intDeviceId", n);
            c.put("mySid", String.format(Locale.ROOT, "fc00:0:%x::1", n));
            c.put("dtSid", String.format(Locale.ROOT, "fc00:0:%x::d", n));
            c.put("myMac", String.format(Locale.ROOT, "00:00:00:00:%02x:00", n));
            c.put("reportAddress", "10.0.0." + n);
            int leaf = n - spines;
            if (leaf < 1) {
                continue;
            }
            List<String> mine = servers.get(leaf - 1);
            if (!mine.isEmpty()) {
                c.put("vnfSidPrefix", String.format(Locale.ROOT, "fc00:0:%x:f::/64", n));
                ArrayNode a = c.putArray("servers");
                for (int k = 0; k < mine.size(); k++) {
                    int port = FIRST_SERVER_PORT + k;
                    a.addObject().put("node", mine.get(k)).put("port", port)
                            .put("mac", String.format(Locale.ROOT, "00:00:00:00:%02x:%02x", n, port));
                }
            }
            if (leaf == 1) {
                c.putArray("hosts").addObject().put("prefix", "10.0.1.0/24").put("port", HOST_IN_PORT)
                        .put("mac", String.format(Locale.ROOT, "00:00:00:00:%02x:%02x", n, HOST_IN_PORT));
            }
            if (leaf == leaves) {
                c.put("collectorPort", COLLECTOR_PORT);
                c.putArray("hosts").addObject().put("prefix", "10.0.4.0/24").put("port", HOST_OUT_PORT)
                        .put("mac", String.format(Locale.ROOT, "00:00:00:00:%02x:%02x", n, HOST_OUT_PORT));
            }
        }
        return new Topology(sw, links, root, new ConnectPoint(sw.get(spines), PortNumber.portNumber(HOST_IN_PORT)),
                new ConnectPoint(sw.get(sw.size() - 1), PortNumber.portNumber(HOST_OUT_PORT)));
    }

    private static Link link(ConnectPoint src, ConnectPoint dst) {
        return DefaultLink.builder().providerId(PID).src(src).dst(dst).type(Link.Type.DIRECT)
                .state(Link.State.ACTIVE).build();
    }

    /** Every switch. */
    public List<DeviceId> switches() {
        return switches;
    }

    /** Directed inter-switch links. */
    public List<Link> links() {
        return links;
    }

    /** The netcfg document, a fresh copy each call. */
    public JsonNode netcfg() {
        return netcfg.deepCopy();
    }

    /** Where every chain enters. */
    public ConnectPoint ingress() {
        return ingress;
    }

    /** Where every chain leaves; its switch sends the INT reports. */
    public ConnectPoint egress() {
        return egress;
    }

    /** True for the paper's four switches in a row (the only fabric BMv2 runs here). */
    public boolean isPaperTestbed() {
        return switches.equals(TestbedNetcfg.SWITCHES) && links.equals(TestbedNetcfg.links());
    }
}
