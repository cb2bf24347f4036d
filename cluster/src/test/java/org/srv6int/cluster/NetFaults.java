// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;

/**
 * The network faults of {@link ClusterPartitionTest}, as iptables rules inside each member's
 * namespace: in a chain of our own hooked from INPUT and OUTPUT (a heal flushes it and the NAT
 * rules), so that the test driver's own address stays reachable and nothing outside the
 * namespaces is touched.
 */
final class NetFaults {

    /** Our rules live in a chain of our own in each member's namespace. */
    static final String CHAIN = "SRV6INT-FAULTS";

    private final MemberProcesses cluster;

    NetFaults(MemberProcesses cluster) {
        this.cluster = cluster;
    }

    /** Makes the chain in a member's namespace and hooks it from INPUT and OUTPUT (before it starts). */
    void install(String id) throws IOException, InterruptedException {
        iptables(id, "-N", CHAIN);
        iptables(id, "-A", "INPUT", "-j", CHAIN);
        iptables(id, "-A", "OUTPUT", "-j", CHAIN);
    }

    void iptables(String id, String... rule) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", cluster.namespace(id), "iptables"));
        cmd.addAll(Arrays.asList(rule));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals("iptables " + String.join(" ", rule) + ": " + out, 0, p.waitFor());
    }

    /** Drops everything between a member and the other members (not the driver). */
    void cutOff(String id) throws IOException, InterruptedException {
        for (String peer : cluster.ids()) {
            if (!peer.equals(id)) {
                iptables(id, "-A", CHAIN, "-s", cluster.host(peer), "-j", "DROP");
                iptables(id, "-A", CHAIN, "-d", cluster.host(peer), "-j", "DROP");
            }
        }
    }

    /** Drops each packet from the other members with the given probability, at every member. */
    void loseBetweenMembers(String probability) throws IOException, InterruptedException {
        for (String id : cluster.ids()) {
            for (String peer : cluster.ids()) {
                if (!peer.equals(id)) {
                    iptables(id, "-A", CHAIN, "-s", cluster.host(peer), "-m", "statistic", "--mode", "random",
                             "--probability", probability, "-j", "DROP");
                }
            }
        }
    }

    /**
     * Sends every member-to-member Raft connection through the given relays (new connections
     * DNATed to the peer's relay on the driver's address, the direct ones reset so that Atomix
     * reconnects through it) and drops the given share of the packets from peers and relays.
     *
     * @param driver      the driver's address on the bridge (where the relays listen)
     * @param relayPorts  each member's relay port
     * @param probability the share of packets dropped
     */
    void relayBetweenMembers(String driver, Map<String, Integer> relayPorts, String probability)
            throws IOException, InterruptedException {
        String raft = String.valueOf(MemberProcesses.RAFT_PORT);
        for (String id : cluster.ids()) {
            for (String peer : cluster.ids()) {
                if (!peer.equals(id)) {
                    iptables(id, "-t", "nat", "-A", "OUTPUT", "-d", cluster.host(peer), "-p", "tcp", "--dport", raft,
                             "-j", "DNAT", "--to-destination", driver + ":" + relayPorts.get(peer));
                    iptables(id, "-A", CHAIN, "-o", "eth0", "-d", cluster.host(peer), "-p", "tcp", "-j", "REJECT",
                             "--reject-with", "tcp-reset");
                    iptables(id, "-A", CHAIN, "-i", "eth0", "-s", cluster.host(peer), "-m", "statistic",
                             "--mode", "random", "--probability", probability, "-j", "DROP");
                }
            }
            iptables(id, "-A", CHAIN, "-i", "eth0", "-s", driver, "-p", "tcp", "--dport", raft, "-m", "statistic",
                     "--mode", "random", "--probability", probability, "-j", "DROP");
        }
    }

    /** Removes every fault of a member. */
    void heal(String id) throws IOException, InterruptedException {
        iptables(id, "-F", CHAIN);
        iptables(id, "-t", "nat", "-F", "OUTPUT");
    }
}
