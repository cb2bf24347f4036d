package org.srv6int.app.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.TestApplicationId;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.provider.ProviderId;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;

import org.srv6int.testkit.InMemoryLinkService;
import org.srv6int.testkit.InMemoryTopologyService;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The paper's testbed (Fig. 5): SW1-SW4 in a row, Worker 1 on SW2, Worker 2 on
 * SW3, the source hosts on SW1 port 1, the sinks on SW4 port 2, the collector
 * on SW4 port 10. Ports: SWn port 2 links to SW(n+1) port 1. Netcfg is
 * tests/fixtures/paper-testbed-netcfg.json (copied next to this class).
 *
 * <p>SFC 1 (paper): SW1→SW2→SW3→SW4, vNF 1 (Fwd) on Worker 1 and vNF 2 (nDPI)
 * on Worker 2; UDP to port 5001. SFC 2: the Snort vNF (vNF 3) on Worker 1,
 * UDP to port 5002; the global loop later adds a Snort replica on Worker 2.
 * The paper does not give SFC 2's classifier or path, so these are ours.
 */
public final class PaperTestbed {

    /** App id used for every rule. */
    public static final ApplicationId APP_ID = new TestApplicationId("org.srv6int.app");

    /** SW1..SW4. */
    public static final DeviceId SW1 = DeviceId.deviceId("of:0000000000000001");
    /** SW2 (Worker 1). */
    public static final DeviceId SW2 = DeviceId.deviceId("of:0000000000000002");
    /** SW3 (Worker 2). */
    public static final DeviceId SW3 = DeviceId.deviceId("of:0000000000000003");
    /** SW4. */
    public static final DeviceId SW4 = DeviceId.deviceId("of:0000000000000004");
    /** All switches. */
    public static final List<DeviceId> SWITCHES = List.of(SW1, SW2, SW3, SW4);

    /** SFC 1 id. */
    public static final SfcId SFC1 = SfcId.of(1);
    /** SFC 2 id. */
    public static final SfcId SFC2 = SfcId.of(2);
    /** Lmax of every vNF here: 1 ms. */
    public static final long LMAX = 1_000_000;

    private static final ProviderId PID = new ProviderId("test", "srv6int");

    private PaperTestbed() {
    }

    /**
     * Returns the directed links (both directions of each cable).
     *
     * @return links
     */
    public static List<Link> links() {
        List<Link> links = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ConnectPoint a = new ConnectPoint(SWITCHES.get(i), PortNumber.portNumber(2));
            ConnectPoint b = new ConnectPoint(SWITCHES.get(i + 1), PortNumber.portNumber(1));
            links.add(link(a, b));
            links.add(link(b, a));
        }
        return links;
    }

    /**
     * Returns an active direct link.
     *
     * @param src source port
     * @param dst destination port
     * @return link
     */
    public static Link link(ConnectPoint src, ConnectPoint dst) {
        return DefaultLink.builder().providerId(PID).src(src).dst(dst).type(Link.Type.DIRECT)
                .state(Link.State.ACTIVE).build();
    }

    /**
     * Returns a link service holding the testbed's links.
     *
     * @return link service
     */
    public static InMemoryLinkService linkService() {
        InMemoryLinkService links = new InMemoryLinkService();
        links().forEach(links::addLink);
        return links;
    }

    /**
     * Returns a path service over the testbed's links.
     *
     * @return path service
     */
    public static InMemoryTopologyService pathService() {
        return new InMemoryTopologyService().withLinkService(linkService());
    }

    /**
     * Returns the netcfg fixture as JSON.
     *
     * @return root node
     */
    public static JsonNode netcfg() {
        try (InputStream in = PaperTestbed.class.getResourceAsStream("paper-testbed-netcfg.json")) {
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Returns the device configs of the fixture.
     *
     * @return snapshot
     */
    public static Srv6Devices devices() {
        Map<DeviceId, Srv6DeviceConfig> map = new HashMap<>();
        JsonNode devices = netcfg().get("devices");
        Iterator<String> names = devices.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            map.put(DeviceId.deviceId(n), deviceConfig(DeviceId.deviceId(n), devices.get(n).get("srv6int")));
        }
        return new Srv6Devices(map);
    }

    /**
     * Builds a device config from JSON, as netcfg would.
     *
     * @param d    device
     * @param json config JSON
     * @return config (not validated)
     */
    public static Srv6DeviceConfig deviceConfig(DeviceId d, JsonNode json) {
        Srv6DeviceConfig c = new Srv6DeviceConfig();
        c.init(d, Srv6IntAppConfig.KEY, json, new ObjectMapper(), x -> { });
        return c;
    }

    /**
     * Builds the app config from JSON, as netcfg would.
     *
     * @param json config JSON
     * @return config (not validated)
     */
    public static Srv6IntAppConfig appConfig(JsonNode json) {
        Srv6IntAppConfig c = new Srv6IntAppConfig();
        c.init(APP_ID, Srv6IntAppConfig.KEY, json, new ObjectMapper(), x -> { });
        return c;
    }

    /**
     * Returns the app config of the fixture.
     *
     * @return config
     */
    public static Srv6IntAppConfig appConfig() {
        return appConfig(netcfg().get("apps").get("org.srv6int.app").get("srv6int"));
    }

    /**
     * Returns SFC 1: Fwd then nDPI, UDP 10.0.1.0/24 → 10.0.4.0/24 port 5001.
     *
     * @return chain
     */
    public static Sfc sfc1() {
        return Sfc.builder().id(SFC1).name("sfc1")
                .ingress(new ConnectPoint(SW1, PortNumber.portNumber(1)))
                .egress(new ConnectPoint(SW4, PortNumber.portNumber(2)))
                .classifier(new FlowClassifier(IpPrefix.valueOf("10.0.1.0/24"), IpPrefix.valueOf("10.0.4.0/24"),
                                               17, 0, 5001))
                .vnfs(List.of(new VnfSpec("fwd", LMAX), new VnfSpec("ndpi", LMAX)))
                .intSamplingRate(1)
                .build();
    }

    /**
     * Returns SFC 2: Snort, UDP 10.0.1.0/24 → 10.0.4.0/24 port 5002, INT on 1 in 10.
     *
     * @return chain
     */
    public static Sfc sfc2() {
        return Sfc.builder().id(SFC2).name("sfc2")
                .ingress(new ConnectPoint(SW1, PortNumber.portNumber(1)))
                .egress(new ConnectPoint(SW4, PortNumber.portNumber(2)))
                .classifier(new FlowClassifier(IpPrefix.valueOf("10.0.1.0/24"), IpPrefix.valueOf("10.0.4.0/24"),
                                               17, 0, 5002))
                .vnfs(List.of(new VnfSpec("snort", LMAX)))
                .intSamplingRate(10)
                .build();
    }

    /**
     * Returns a replica on Worker 1 (SW2 port 3) or Worker 2 (SW3 port 3).
     *
     * @param vnf   vNF
     * @param name  replica name
     * @param node  "worker1" or "worker2"
     * @param vnfId host part of its SID in the switch's locator
     * @return replica, ACTIVE, weight 1
     */
    public static VnfReplica replica(VnfKey vnf, String name, String node, int vnfId) {
        boolean w1 = node.equals("worker1");
        return new VnfReplica(VnfReplicaId.of(vnf, name), node, w1 ? SW2 : SW3, PortNumber.portNumber(3),
                              Ip6Address.valueOf((w1 ? "fc00:0:2:f::" : "fc00:0:3:f::") + Integer.toHexString(vnfId)),
                              MacAddress.valueOf(w1 ? "00:00:00:00:02:03" : "00:00:00:00:03:03"),
                              ReplicaState.ACTIVE, 1);
    }

    /**
     * Returns the initial replicas of Fig. 5: SFC 1's Fwd on Worker 1 (vNF id 1),
     * its nDPI on Worker 2 (vNF id 1), SFC 2's Snort on Worker 1 (vNF id 2).
     *
     * @return replicas
     */
    public static List<VnfReplica> initialReplicas() {
        return List.of(replica(VnfKey.of(SFC1, 0), "r0", "worker1", 1),
                       replica(VnfKey.of(SFC1, 1), "r0", "worker2", 1),
                       replica(VnfKey.of(SFC2, 0), "r0", "worker1", 2));
    }
}
