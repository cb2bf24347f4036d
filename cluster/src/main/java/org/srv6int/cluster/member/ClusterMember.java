// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.member;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.provider.ProviderId;
import org.srv6int.app.assembly.AppAssembly;
import org.srv6int.app.assembly.LoopAssembly;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.cluster.atomix.AtomixClusterService;
import org.srv6int.cluster.atomix.AtomixLeadershipService;
import org.srv6int.cluster.atomix.AtomixMastershipService;
import org.srv6int.cluster.atomix.AtomixNode;
import org.srv6int.cluster.atomix.AtomixStorageService;
import org.srv6int.testkit.InMemoryCoreService;
import org.srv6int.testkit.InMemoryEventDeliveryService;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.testkit.InMemoryLinkService;
import org.srv6int.testkit.InMemoryNetworkConfigRegistry;
import org.srv6int.testkit.InMemoryTopologyService;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One ONOS instance of a real cluster, as a plain JVM: an Atomix 3.1.9 member (Raft voter of the
 * cluster's partitions) under the app's own assembly ({@link AppAssembly}: the chain, replica,
 * loop-state, summary and pool stores, chains, inventory, paths, programming), whose storage,
 * leadership, mastership and membership are the Atomix-backed services of this module; the
 * switches' flow rules, groups, topology and netcfg stay the test kit's in-memory ones (no switch
 * connects here). It runs for the global loop's leadership topic as the loop does, for the
 * mastership of the devices it is given, and answers a test driver on a loopback HTTP control
 * interface ({@link MemberControl}). It runs the app's closed loop as {@link LoopAssembly} builds
 * it: the INT collector, the cluster-wide telemetry summaries, the Kubernetes replica platform and
 * the global loop, acting while it leads. Given a netcfg ({@code --netcfg}) the collector listens
 * on {@code --int-address} (127.0.0.1 unless given; a member in a network namespace of its own
 * gives its namespace's address) at {@code --int-port} (netcfg's {@code collector.instances.<id>}) and the platform
 * is the real bridge against the API server of netcfg's {@code kubernetes} section; without one,
 * the app's defaults: no collector socket, windows every 500 ms, no platform configured.
 *
 * <p>Why a plain JVM and not a Karaf with the {@code .oar}: ONOS 2.7's core bundles (the store
 * and cluster implementations that embed Atomix) are not on Maven Central, so no ONOS core can be
 * assembled here; the app's components are the same classes either way.
 *
 * <p>Usage: {@code ClusterMember --id ID --members id@host:port,... --data DIR --http host:port
 * [--devices of:1,of:2] [--session-timeout-ms MS] [--join-timeout-ms MS]}. Prints {@code READY <id>} on standard
 * output once it serves; a member that cannot join within the join timeout (2 min unless given), or
 * fails otherwise before it serves, says why on standard error and exits with status 1.
 */
public final class ClusterMember {

    /** How long a member may take to join the cluster unless {@code --join-timeout-ms} says. */
    static final Duration JOIN_TIMEOUT = Duration.ofMinutes(2);
    /** The exit status of a member that could not start (usage errors exit with 2). */
    static final int START_FAILED = 1;

    private final AtomixNode node;
    private final AtomixStorageService storage;
    private final AtomixLeadershipService leadership;
    private final AtomixMastershipService mastership;
    private final AtomixClusterService cluster;
    private final AppAssembly app;
    private final LoopAssembly loop;

    /**
     * Starts the member.
     *
     * @param node    this member's Atomix node, not started yet
     * @param joinTimeout how long it may take to join the cluster
     * @param devices devices it runs for the mastership of
     * @param netcfg  the netcfg document (app config and devices), null to run the stores only
     * @param intAddress address of this member's INT collector (with a netcfg): 127.0.0.1, or its
     *                   namespace's address
     * @param intPort UDP port of this member's INT collector (with a netcfg)
     * @param links   the fabric's links (paths; no switch connects to tell them)
     */
    ClusterMember(AtomixNode node, Duration joinTimeout, List<DeviceId> devices, JsonNode netcfg,
                  String intAddress, int intPort, List<Link> links) {
        this.node = node.start(joinTimeout);
        storage = new AtomixStorageService(node);
        leadership = new AtomixLeadershipService(node);
        mastership = new AtomixMastershipService(node);
        cluster = new AtomixClusterService(node);
        InMemoryCoreService core = new InMemoryCoreService();
        InMemoryLinkService linkService = new InMemoryLinkService();
        links.forEach(linkService::addLink);
        InMemoryTopologyService topology = new InMemoryTopologyService().withLinkService(linkService);
        InMemoryNetworkConfigRegistry registry = new InMemoryNetworkConfigRegistry().withCoreService(core);
        app = AppAssembly.builder()
                .storage(FaultPoint.apply(storage)) // a test-only fault point when configured
                .events(new InMemoryEventDeliveryService())
                .flowRules(new InMemoryFlowRuleService())
                .groups(new InMemoryGroupService())
                .mastership(mastership)
                .topology(topology, topology)
                .netcfg(registry, core)
                .build();
        if (netcfg != null) {
            // This member's collector: the address and port it was given.
            ObjectNode doc = netcfg.deepCopy();
            ObjectNode collector = (ObjectNode) doc.with("apps").with(Srv6IntConfigService.APP_NAME)
                    .with(Srv6IntAppConfig.KEY).with("collector");
            collector.with("instances").putObject(node.id()).put("address", intAddress).put("port", intPort);
            AppAssembly.applyNetcfg(core, registry, doc);
        }
        mastership.runFor(devices);
        // Without a netcfg the same loop runs on the app's defaults: no collector socket (no
        // address for this member), 500 ms windows, a Kubernetes platform that is not configured.
        loop = LoopAssembly.over(app).cluster(leadership, cluster).build();
    }

    AtomixNode node() {
        return node;
    }

    AtomixStorageService storage() {
        return storage;
    }

    AtomixLeadershipService leadership() {
        return leadership;
    }

    AtomixMastershipService mastership() {
        return mastership;
    }

    AtomixClusterService cluster() {
        return cluster;
    }

    AppAssembly app() {
        return app;
    }

    /** The collector, platform and loop. */
    LoopAssembly loop() {
        return loop;
    }

    // "of:1/2-of:2/1,...": both directions of each cable
    private static List<Link> links(String spec) {
        List<Link> out = new ArrayList<>();
        if (spec == null || spec.isBlank()) {
            return out;
        }
        ProviderId pid = new ProviderId("cluster", "org.srv6int.cluster");
        for (String cable : spec.split(",")) {
            String[] ends = cable.split("-");
            if (ends.length != 2) {
                throw new IllegalArgumentException("link must be dev/port-dev/port: " + cable);
            }
            ConnectPoint a = ConnectPoint.deviceConnectPoint(ends[0]);
            ConnectPoint b = ConnectPoint.deviceConnectPoint(ends[1]);
            out.add(DefaultLink.builder().providerId(pid).src(a).dst(b).type(Link.Type.DIRECT)
                            .state(Link.State.ACTIVE).build());
            out.add(DefaultLink.builder().providerId(pid).src(b).dst(a).type(Link.Type.DIRECT)
                            .state(Link.State.ACTIVE).build());
        }
        return out;
    }

    private static long positive(String option, String value) {
        try {
            long v = Long.parseLong(value);
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--" + option + " must be a positive number of milliseconds, got '"
                                                   + value + "'");
    }

    /**
     * Starts a member.
     *
     * @param args see the class comment
     * @throws Exception if it cannot start
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value, got " + args[i]);
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        for (String required : List.of("id", "members", "data", "http")) {
            if (!opts.containsKey(required)) {
                System.err.println("usage: ClusterMember --id ID --members id@host:port,... --data DIR "
                                           + "--http host:port [--devices of:1,of:2] [--session-timeout-ms MS] "
                                           + "[--join-timeout-ms MS] [--netcfg FILE --int-port P "
                                           + "[--int-address A] --links of:1/2-of:2/1,...]");
                System.exit(2);
            }
        }
        List<DeviceId> devices = opts.containsKey("devices")
                ? Arrays.stream(opts.get("devices").split(",")).map(DeviceId::deviceId).collect(Collectors.toList())
                : List.of();
        String[] http = opts.get("http").split(":(?=[0-9]+$)");
        JsonNode netcfg = opts.containsKey("netcfg") ? new ObjectMapper().readTree(new File(opts.get("netcfg"))) : null;
        int intPort = Integer.parseInt(opts.getOrDefault("int-port", "0"));
        if (netcfg != null && intPort <= 0) {
            throw new IllegalArgumentException("--netcfg needs --int-port (the member's INT collector port)");
        }
        Duration sessionTimeout = opts.containsKey("session-timeout-ms")
                ? Duration.ofMillis(positive("session-timeout-ms", opts.get("session-timeout-ms")))
                : AtomixNode.SESSION_TIMEOUT;
        Duration joinTimeout = opts.containsKey("join-timeout-ms")
                ? Duration.ofMillis(positive("join-timeout-ms", opts.get("join-timeout-ms")))
                : JOIN_TIMEOUT;
        AtomixNode node = new AtomixNode(opts.get("id"), AtomixNode.parseMembers(opts.get("members")),
                                         new File(opts.get("data")), sessionTimeout);
        try {
            ClusterMember m = new ClusterMember(node, joinTimeout, devices, netcfg,
                                                opts.getOrDefault("int-address", "127.0.0.1"), intPort,
                                                links(opts.get("links")));
            MemberControl control = new MemberControl(m, new InetSocketAddress(http[0], Integer.parseInt(http[1])));
            control.start();
        } catch (RuntimeException | IOException e) {
            // Atomix's threads would keep a JVM that never serves alive: exit, for a supervisor to restart it
            System.err.println("member " + opts.get("id") + " failed to start: " + e);
            e.printStackTrace();
            System.exit(START_FAILED);
        }
        System.out.println("READY " + opts.get("id"));
        System.out.flush();
    }
}
