// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.srv6int.app.config.AttachedHosts;
import org.srv6int.app.config.AttachedServer;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.twin.control.AppCore;
import org.srv6int.twin.control.TestbedNetcfg;

/**
 * The switches of a BMv2 fabric, their links and their edge ports (where frames leave the fabric:
 * hosts, vNF servers, the collector). Switch {@code k} (1-based, in the order given) is BMv2
 * device id {@code k}.
 */
public final class Bmv2Topology {

    private final List<DeviceId> switches;
    private final List<ConnectPoint[]> links;
    private final Set<ConnectPoint> edges;

    /**
     * Creates a topology.
     *
     * @param switches switches, in device-id order
     * @param links    cables, each once (either direction)
     * @param edges    edge ports
     * @throws IllegalArgumentException if a port is used twice or a link or edge names an unknown switch
     */
    public Bmv2Topology(List<DeviceId> switches, List<ConnectPoint[]> links, Set<ConnectPoint> edges) {
        this.switches = List.copyOf(switches);
        this.links = new ArrayList<>(links);
        this.edges = Collections.unmodifiableSet(new LinkedHashSet<>(edges));
        Set<ConnectPoint> used = new HashSet<>();
        for (ConnectPoint[] l : links) {
            check(l[0], used);
            check(l[1], used);
        }
        for (ConnectPoint e : edges) {
            check(e, used);
        }
    }

    private void check(ConnectPoint p, Set<ConnectPoint> used) {
        if (!switches.contains(p.deviceId())) {
            throw new IllegalArgumentException("port " + p + " is on an unknown switch");
        }
        if (p.port().toLong() < 1 || p.port().toLong() > 510) {
            throw new IllegalArgumentException("port " + p + " is not a BMv2 data port (1..510)");
        }
        if (!used.add(p)) {
            throw new IllegalArgumentException("port " + p + " is used twice");
        }
    }

    /**
     * The paper's testbed ({@link TestbedNetcfg}): SW1-SW4 in a row, SWn port 2 to
     * SW(n+1) port 1; edge ports from its netcfg: host ports, vNF server ports, the collector port.
     *
     * @return topology
     */
    public static Bmv2Topology paperTestbed() {
        Map<String, ConnectPoint[]> cables = new LinkedHashMap<>();
        for (Link l : TestbedNetcfg.links()) {
            ConnectPoint a = l.src();
            ConnectPoint b = l.dst();
            String k = a.toString().compareTo(b.toString()) < 0 ? a + "|" + b : b + "|" + a;
            cables.putIfAbsent(k, new ConnectPoint[] {a, b});
        }
        Set<ConnectPoint> edges = new LinkedHashSet<>();
        Srv6Devices devices = AppCore.readNetcfg(TestbedNetcfg.netcfg()).devices();
        for (DeviceId d : TestbedNetcfg.SWITCHES) {
            Srv6DeviceConfig c = devices.get(d).orElseThrow();
            for (AttachedHosts h : c.hosts()) {
                edges.add(new ConnectPoint(d, h.port()));
            }
            for (AttachedServer s : c.servers()) {
                edges.add(new ConnectPoint(d, s.port()));
            }
            c.collectorPort().ifPresent(p -> edges.add(new ConnectPoint(d, p)));
        }
        return new Bmv2Topology(TestbedNetcfg.SWITCHES, new ArrayList<>(cables.values()), edges);
    }

    /** @return switches, in device-id order */
    public List<DeviceId> switches() {
        return switches;
    }

    /**
     * @param d switch
     * @return its BMv2 device id (1-based position)
     * @throws IllegalArgumentException if the switch is not in the topology
     */
    public int number(DeviceId d) {
        int i = switches.indexOf(d);
        if (i < 0) {
            throw new IllegalArgumentException("switch " + d + " is not in the BMv2 fabric");
        }
        return i + 1;
    }

    /** @return cables, each as its two ends */
    public List<ConnectPoint[]> links() {
        return Collections.unmodifiableList(links);
    }

    /** @return edge ports */
    public Set<ConnectPoint> edges() {
        return edges;
    }

    /**
     * @param d switch
     * @return every data port of the switch (links and edges)
     */
    public List<PortNumber> ports(DeviceId d) {
        List<PortNumber> out = new ArrayList<>();
        for (ConnectPoint[] l : links) {
            for (ConnectPoint p : l) {
                if (p.deviceId().equals(d)) {
                    out.add(p.port());
                }
            }
        }
        for (ConnectPoint e : edges) {
            if (e.deviceId().equals(d)) {
                out.add(e.port());
            }
        }
        return out;
    }
}
