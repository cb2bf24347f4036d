// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.member;

import org.onosproject.net.DeviceId;
import org.srv6int.app.assembly.AppAssembly;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.cluster.atomix.AtomixClusterService;
import org.srv6int.cluster.atomix.AtomixLeadershipService;
import org.srv6int.cluster.atomix.AtomixMastershipService;
import org.srv6int.cluster.atomix.AtomixNode;
import org.srv6int.cluster.atomix.AtomixStorageService;
import org.srv6int.testkit.InMemoryCoreService;
import org.srv6int.testkit.InMemoryEventDeliveryService;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.testkit.InMemoryNetworkConfigRegistry;
import org.srv6int.testkit.InMemoryTopologyService;

import java.io.File;
import java.net.InetSocketAddress;
import java.time.Duration;
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
 * interface ({@link MemberControl}).
 *
 * <p>Why a plain JVM and not a Karaf with the {@code .oar}: ONOS 2.7's core bundles (the store
 * and cluster implementations that embed Atomix) are not on Maven Central, so no ONOS core can be
 * assembled here; the app's components are the same classes either way.
 *
 * <p>Usage: {@code ClusterMember --id ID --members id@host:port,... --data DIR --http host:port
 * [--devices of:1,of:2]}. Prints {@code READY <id>} on standard output once it serves.
 */
public final class ClusterMember {

    private final AtomixNode node;
    private final AtomixStorageService storage;
    private final AtomixLeadershipService leadership;
    private final AtomixMastershipService mastership;
    private final AtomixClusterService cluster;
    private final AppAssembly app;

    ClusterMember(String id, Map<String, String> members, File data, List<DeviceId> devices) {
        node = new AtomixNode(id, members, data).start(Duration.ofMinutes(2));
        storage = new AtomixStorageService(node);
        leadership = new AtomixLeadershipService(node);
        mastership = new AtomixMastershipService(node);
        cluster = new AtomixClusterService(node);
        InMemoryCoreService core = new InMemoryCoreService();
        InMemoryTopologyService topology = new InMemoryTopologyService();
        app = AppAssembly.builder()
                .storage(storage)
                .events(new InMemoryEventDeliveryService())
                .flowRules(new InMemoryFlowRuleService())
                .groups(new InMemoryGroupService())
                .mastership(mastership)
                .topology(topology, topology)
                .netcfg(new InMemoryNetworkConfigRegistry().withCoreService(core), core)
                .build();
        leadership.runForLeadership(GlobalLoopManager.TOPIC);
        mastership.runFor(devices);
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
                                           + "--http host:port [--devices of:1,of:2]");
                System.exit(2);
            }
        }
        List<DeviceId> devices = opts.containsKey("devices")
                ? Arrays.stream(opts.get("devices").split(",")).map(DeviceId::deviceId).collect(Collectors.toList())
                : List.of();
        String[] http = opts.get("http").split(":(?=[0-9]+$)");
        ClusterMember m = new ClusterMember(opts.get("id"), AtomixNode.parseMembers(opts.get("members")),
                                            new File(opts.get("data")), devices);
        MemberControl control = new MemberControl(m, new InetSocketAddress(http[0], Integer.parseInt(http[1])));
        control.start();
        System.out.println("READY " + opts.get("id"));
        System.out.flush();
    }
}
