// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import java.util.LinkedHashSet;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import org.onlab.osgi.TestServiceDirectory;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.IpPrefix;
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
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.api.model.VnfTelemetry;

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
 * (the paper's Fig. 8 event). The app's state lives in fakes of its services
 * ({@link FakeSrv6intServices}); the overlay reads it through {@link ChainViews}.
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
                        .collect(Collectors.toCollection(LinkedHashSet::new));
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

    // ---- the app's state, in fakes of its services

    final FakeSrv6intServices app = new FakeSrv6intServices();

    static final SfcId SFC1 = SfcId.of(1);
    static final SfcId SFC2 = SfcId.of(2);
    static final VnfKey FWD = VnfKey.of(SFC1, 0);
    static final VnfKey NDPI = VnfKey.of(SFC1, 1);
    static final VnfKey SNORT = VnfKey.of(SFC2, 0);
    /** 1 Gb/s of 1024-byte packets. */
    static final double PPS_1G = 1e9 / 8 / 1024;

    /** Puts the testbed's state before the global loop scales Snort out (paper, Fig. 8, t ≈ 27 s). */
    GuiTestbed before() {
        app.sfcService.addSfc(sfc(SFC1, "SFC 1", new VnfSpec("Fwd", MS), new VnfSpec("nDPI", MS)));
        app.sfcService.addSfc(sfc(SFC2, "SFC 2", new VnfSpec("Snort", MS)));
        app.inventory.registerReplica(replica(FWD, "fwd-0", WORKER1, SW2, 0x21));
        app.inventory.registerReplica(replica(NDPI, "ndpi-0", WORKER2, SW3, 0x31));
        app.inventory.registerReplica(replica(SNORT, "snort-0", WORKER1, SW2, 0x22));
        app.paths.put(SFC1, new SfcPaths(SFC1, ImmutableList.of(segmentList(1, "fwd-0", "ndpi-0"))));
        app.paths.put(SFC2, new SfcPaths(SFC2, ImmutableList.of(segmentList(2, "snort-0"))));
        app.sfcTelemetry.put(SFC1, new SfcTelemetry(SFC1, PPS_1G, 1_450_000, 12, 5000, T0 + 27_000));
        app.sfcTelemetry.put(SFC2, new SfcTelemetry(SFC2, 3 * PPS_1G, 7_600_000, 180, 9000, T0 + 27_000));
        app.vnfTelemetry.put(FWD, new VnfTelemetry(FWD, PPS_1G, 420_000, 3, 1500, T0 + 27_000));
        app.vnfTelemetry.put(NDPI, new VnfTelemetry(NDPI, PPS_1G, 880_000, 9, 1500, T0 + 27_000));
        app.vnfTelemetry.put(SNORT, new VnfTelemetry(SNORT, 3 * PPS_1G, 7_200_000, 170, 1500, T0 + 27_000));
        app.decisions.add(decision(T0 + 2_000, NDPI, 880_000, LoopDecision.Action.HOLD, 1, 1, "L_i below Lmax_i"));
        app.decisions.add(decision(T0 + 25_000, SNORT, 7_200_000, LoopDecision.Action.HOLD, 1, 1,
                "over Lmax_i for 0.0 s < t̂ 4 s"));
        app.decisions.add(decision(T0 + 27_000, SNORT, 7_200_000, LoopDecision.Action.HOLD, 1, 1,
                "over Lmax_i for 2.0 s < t̂ 4 s"));
        return this;
    }

    /** The global loop adds a Snort replica on Worker 2 and re-routes SFC 2 over both (t ≈ 29 s). */
    GuiTestbed addSnortReplica() {
        app.decisions.add(decision(T0 + 29_000, SNORT, 7_300_000, LoopDecision.Action.SCALE_OUT, 1, 2,
                "n = ceil(C_i / C*_i) = 2, new replica on worker-2"));
        app.inventory.registerReplica(replica(SNORT, "snort-1", WORKER2, SW3, 0x32));
        app.paths.put(SFC2, new SfcPaths(SFC2, ImmutableList.of(
                segmentList(2, "snort-0"), segmentList(2, "snort-1"))));
        app.sfcTelemetry.put(SFC2, new SfcTelemetry(SFC2, 3 * PPS_1G, 1_100_000, 20, 12000, T0 + 35_000));
        app.vnfTelemetry.put(SNORT, new VnfTelemetry(SNORT, 3 * PPS_1G, 610_000, 6, 1500, T0 + 35_000));
        return this;
    }

    /**
     * Failures (t ≈ 40 s): Snort's pod on Worker 1 is gone, so the loop takes snort-0 out of the
     * group (DEAD, weight 0) and it counts dead; and SFC 1's traffic vanishes after Fwd (a black
     * hole before nDPI), so the failure detection reports SFC 1 DOWN with Fwd as the last hop seen.
     */
    GuiTestbed failures() {
        VnfReplicaId snort0 = VnfReplicaId.of(SNORT, "snort-0");
        app.inventory.failReplica(snort0);
        app.paths.put(SFC2, new SfcPaths(SFC2, ImmutableList.of(segmentList(2, "snort-1"))));
        app.decisions.add(new LoopDecision(T0 + 40_000, SNORT, ImmutableMap.of(), LoopDecision.Action.REPLICA_DEAD,
                2, 1, LoopDecision.Outcome.SUCCEEDED,
                "snort-0 at device:sw2/3: pod gone or not Ready (platform); weight 0"));
        String reason = "ingress classified traffic but no INT report arrived for 3000 ms";
        String lastHop = "vNF 0 (fwd-0 at device:sw2/3)";
        app.decisions.add(new LoopDecision(T0 + 43_000, NDPI, ImmutableMap.of(), LoopDecision.Action.CHAIN_DOWN,
                0, 0, LoopDecision.Outcome.FAILED, reason + "; last hop seen: " + lastHop));
        app.chainStates.put(SFC1, new ChainState(SFC1, ChainState.Liveness.DOWN, T0 + 43_000, lastHop, reason,
                90_000, T0 + 40_000, ImmutableList.of()));
        app.chainStates.put(SFC2, new ChainState(SFC2, ChainState.Liveness.UP, T0 + 2_000, "", "",
                250_000, T0 + 43_000, ImmutableList.of(snort0.toString())));
        return this;
    }

    private static Sfc sfc(SfcId id, String name, VnfSpec... vnfs) {
        return Sfc.builder().id(id).name(name)
                .ingress(new ConnectPoint(SW1, SERVER)).egress(new ConnectPoint(SW4, SERVER))
                .classifier(FlowClassifier.between(IpPrefix.valueOf("10.0.1.0/24"), IpPrefix.valueOf("10.0.4.0/24")))
                .vnfs(ImmutableList.copyOf(vnfs)).build();
    }

    private static VnfReplica replica(VnfKey vnf, String name, String node, DeviceId sw, int low) {
        return new VnfReplica(VnfReplicaId.of(vnf, name), node, sw, SERVER,
                Ip6Address.valueOf("2001:db8:f::" + Integer.toHexString(low)),
                MacAddress.valueOf(String.format("00:00:00:00:%02x:%02x", low >> 4, low & 0xf)),
                ReplicaState.ACTIVE, 1);
    }

    /** SW1 → SW4 through the named replicas (a row has one switch path). */
    private SegmentList segmentList(int chain, String... replicaNames) {
        ImmutableList.Builder<VnfReplicaId> reps = ImmutableList.builder();
        ImmutableList.Builder<Ip6Address> sids = ImmutableList.builder();
        sids.add(Ip6Address.valueOf("2001:db8:0:1::1"));
        for (int i = 0; i < replicaNames.length; i++) {
            VnfReplicaId id = VnfReplicaId.of(VnfKey.of(SfcId.of(chain), i), replicaNames[i]);
            reps.add(id);
            sids.add(app.replicas.get(id).sid());
        }
        sids.add(Ip6Address.valueOf("2001:db8:0:4::1"));
        return new SegmentList(sids.build(), row(), reps.build(), 1);
    }

    private static LoopDecision decision(long t, VnfKey vnf, long latency, LoopDecision.Action action,
                                         int before, int after, String detail) {
        return new LoopDecision(t, vnf, ImmutableMap.of(LoopDecision.IN_LATENCY, (double) latency,
                LoopDecision.IN_LMAX, (double) MS), action, before, after, LoopDecision.Outcome.SUCCEEDED, detail);
    }
}
