package org.srv6int.app.gui;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import org.onlab.osgi.TestServiceDirectory;
import org.onlab.packet.MacAddress;
import org.onlab.packet.VlanId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.DefaultHost;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Host;
import org.onosproject.net.HostId;
import org.onosproject.net.HostLocation;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.host.HostService;
import org.onosproject.net.host.HostServiceAdapter;
import org.onosproject.net.link.LinkService;
import org.onosproject.net.link.LinkServiceAdapter;
import org.onosproject.net.provider.ProviderId;
import org.onlab.packet.ChassisId;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The paper's testbed as ONOS would see it (fakes of ONOS's device, link and host
 * inventory): SW1–SW4 in a row, Worker 1 on SW2, Worker 2 on SW3; SFC 1 through
 * vNF 1 (Fwd) on Worker 1 and vNF 2 (nDPI) on Worker 2; SFC 2 through vNF 3
 * (Snort) on Worker 1, which the global loop scales out with a replica on Worker 2
 * (the paper's Fig. 8 event).
 */
final class GuiTestbed {
    static final ProviderId PID = new ProviderId("p4runtime", "org.srv6int.test");
    static final DeviceId SW1 = DeviceId.deviceId("device:sw1");
    static final DeviceId SW2 = DeviceId.deviceId("device:sw2");
    static final DeviceId SW3 = DeviceId.deviceId("device:sw3");
    static final DeviceId SW4 = DeviceId.deviceId("device:sw4");
    static final List<DeviceId> SWITCHES = ImmutableList.of(SW1, SW2, SW3, SW4);
    static final PortNumber WEST = PortNumber.portNumber(1);
    static final PortNumber EAST = PortNumber.portNumber(2);
    static final PortNumber SERVER = PortNumber.portNumber(3);
    static final String WORKER1 = "worker-1";
    static final String WORKER2 = "worker-2";
    static final long MS = 1_000_000L;
    /** 2026-11-22 10:00:00 UTC: decision times are offsets from here. */
    static final long T0 = 1_795_341_600_000L;

    final Map<DeviceId, Device> devices = new LinkedHashMap<>();
    final List<Link> links = new ArrayList<>();
    final List<Host> hosts = new ArrayList<>();

    GuiTestbed() {
        for (int i = 0; i < SWITCHES.size(); i++) {
            DeviceId id = SWITCHES.get(i);
            devices.put(id, new DefaultDevice(PID, id, Device.Type.SWITCH, "bmv2", "1", "1", "0",
                    new ChassisId(i + 1), DefaultAnnotations.builder().set("name", "SW" + (i + 1)).build()));
        }
        for (int i = 0; i + 1 < SWITCHES.size(); i++) {
            links.add(link(SWITCHES.get(i), EAST, SWITCHES.get(i + 1), WEST));
            links.add(link(SWITCHES.get(i + 1), WEST, SWITCHES.get(i), EAST));
        }
        hosts.add(host("00:00:00:00:02:01", WORKER1, SW2));
        hosts.add(host("00:00:00:00:03:01", WORKER2, SW3));
    }

    private static Link link(DeviceId a, PortNumber pa, DeviceId b, PortNumber pb) {
        return DefaultLink.builder().providerId(PID).type(Link.Type.DIRECT).state(Link.State.ACTIVE)
                .src(new ConnectPoint(a, pa)).dst(new ConnectPoint(b, pb)).build();
    }

    private static Host host(String mac, String name, DeviceId sw) {
        return new DefaultHost(PID, HostId.hostId(MacAddress.valueOf(mac)), MacAddress.valueOf(mac),
                VlanId.NONE, new HostLocation(sw, SERVER, 0), ImmutableSet.of(),
                DefaultAnnotations.builder().set("name", name).build());
    }

    LinkService linkService() {
        return new LinkServiceAdapter() {
            @Override
            public Set<Link> getDeviceEgressLinks(DeviceId deviceId) {
                return links.stream().filter(l -> l.src().deviceId().equals(deviceId))
                        .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
            }

            @Override
            public Iterable<Link> getLinks() {
                return links;
            }
        };
    }

    HostService hostService() {
        return new HostServiceAdapter() {
            @Override
            public Iterable<Host> getHosts() {
                return hosts;
            }
        };
    }

    /** Only getDevice is answered: the overlay reads nothing else from the device inventory. */
    DeviceService deviceService() {
        return (DeviceService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{DeviceService.class}, (proxy, m, args) -> {
                    if ("getDevice".equals(m.getName())) {
                        return devices.get((DeviceId) args[0]);
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
    }

    TestServiceDirectory directory() {
        return new TestServiceDirectory()
                .add(LinkService.class, linkService())
                .add(HostService.class, hostService())
                .add(DeviceService.class, deviceService());
    }

    static List<DeviceId> row() {
        return SWITCHES;
    }

    /** SFC 1: vNF 1 (Fwd) on Worker 1, vNF 2 (nDPI) on Worker 2; nDPI near its bound. */
    static ChainView sfc1() {
        return new ChainView("1", "SFC 1", ImmutableList.of(row()), ImmutableList.of(
                new VnfView("vnf-1", "Fwd", MS, ImmutableList.of(
                        new ReplicaView("fwd-0", WORKER1, SW2, 420_000))),
                new VnfView("vnf-2", "nDPI", MS, ImmutableList.of(
                        new ReplicaView("ndpi-0", WORKER2, SW3, 880_000)))),
                1e9, 1_450_000, ImmutableList.of(
                        new LoopDecisionView(T0 + 2_000, "vnf-2", "NONE", "p95 below Lmax")));
    }

    /** SFC 2 before scale-out: Snort on Worker 1 far over its bound for longer than t̂. */
    static ChainView sfc2Before() {
        return new ChainView("2", "SFC 2", ImmutableList.of(row()), ImmutableList.of(
                new VnfView("vnf-3", "Snort", MS, ImmutableList.of(
                        new ReplicaView("snort-0", WORKER1, SW2, 7_200_000)))),
                3e9, 7_600_000, ImmutableList.of(
                        new LoopDecisionView(T0 + 25_000, "vnf-3", "NONE", "over Lmax for 0.0 s < t̂ 4 s"),
                        new LoopDecisionView(T0 + 27_000, "vnf-3", "NONE", "over Lmax for 2.0 s < t̂ 4 s")));
    }

    /** SFC 2 after the global loop added a Snort replica on Worker 2 (two segment lists). */
    static ChainView sfc2After() {
        List<LoopDecisionView> history = new ArrayList<>(sfc2Before().history());
        history.add(new LoopDecisionView(T0 + 29_000, "vnf-3", "SCALE_OUT", "n = 2 replicas, new on worker-2"));
        return new ChainView("2", "SFC 2", ImmutableList.of(row(), row()), ImmutableList.of(
                new VnfView("vnf-3", "Snort", MS, ImmutableList.of(
                        new ReplicaView("snort-0", WORKER1, SW2, 610_000),
                        new ReplicaView("snort-1", WORKER2, SW3, 540_000)))),
                3e9, 1_100_000, history);
    }

    static List<ChainView> before() {
        return ImmutableList.of(sfc1(), sfc2Before());
    }

    static List<ChainView> after() {
        return ImmutableList.of(sfc1(), sfc2After());
    }
}
