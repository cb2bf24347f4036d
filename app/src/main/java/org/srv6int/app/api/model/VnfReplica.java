// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;


import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * One running instance of a chain's vNF: the Kubernetes node (server) it runs
 * on, the switch port that server hangs off, the SID the replica answers to
 * (the End.T.INT SID in SFC mode, also the IPv6 destination the node agent sees),
 * the server NIC's MAC, its state and its multipath weight.
 */
public final class VnfReplica {

    /** {@link #numaNode()} of a replica placement gave no NUMA node (its server's node agent chooses). */
    public static final int NO_NUMA_NODE = -1;

    private final VnfReplicaId id;
    private final String node;
    private final DeviceId deviceId;
    private final PortNumber port;
    private final Ip6Address sid;
    private final MacAddress mac;
    private final ReplicaState state;
    private final int weight;
    private final int numaNode;

    /**
     * Creates a replica record.
     *
     * @param id       replica id
     * @param node     Kubernetes node name of the server it runs on
     * @param deviceId switch the server hangs off
     * @param port     switch port of the server
     * @param sid      the replica's SID
     * @param mac      MAC address of the server NIC on that port
     * @param state    state
     * @param weight   multipath weight, 0..255 (0 = no new traffic)
     */
    public VnfReplica(VnfReplicaId id, String node, DeviceId deviceId, PortNumber port, Ip6Address sid,
                      MacAddress mac, ReplicaState state, int weight) {
        this(id, node, deviceId, port, sid, mac, state, weight, NO_NUMA_NODE);
    }

    private VnfReplica(VnfReplicaId id, String node, DeviceId deviceId, PortNumber port, Ip6Address sid,
                       MacAddress mac, ReplicaState state, int weight, int numaNode) {
        checkArgument(numaNode >= NO_NUMA_NODE, "NUMA node must be >= 0, got %s", numaNode);
        this.numaNode = numaNode;
        this.id = checkNotNull(id, "replica id is null");
        this.node = checkNotNull(node, "node is null");
        checkArgument(!node.isEmpty(), "node is empty");
        this.deviceId = checkNotNull(deviceId, "device id is null");
        this.port = checkNotNull(port, "port is null");
        this.sid = checkNotNull(sid, "SID is null");
        this.mac = checkNotNull(mac, "MAC is null");
        this.state = checkNotNull(state, "state is null");
        checkArgument(weight >= 0 && weight <= 255, "weight must be in 0..255, got %s", weight);
        this.weight = weight;
    }

    /**
     * Returns the replica id.
     *
     * @return id
     */
    public VnfReplicaId id() {
        return id;
    }

    /**
     * Returns the vNF this is a replica of.
     *
     * @return vNF key
     */
    public VnfKey vnf() {
        return id.vnf();
    }

    /**
     * Returns the Kubernetes node name.
     *
     * @return node
     */
    public String node() {
        return node;
    }

    /**
     * Returns the switch the server hangs off.
     *
     * @return device id
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * Returns the switch port of the server.
     *
     * @return port
     */
    public PortNumber port() {
        return port;
    }

    /**
     * Returns device and port as a connect point.
     *
     * @return connect point
     */
    public ConnectPoint location() {
        return new ConnectPoint(deviceId, port);
    }

    /**
     * Returns the replica's SID.
     *
     * @return SID
     */
    public Ip6Address sid() {
        return sid;
    }

    /**
     * Returns the server NIC's MAC address.
     *
     * @return MAC
     */
    public MacAddress mac() {
        return mac;
    }

    /**
     * Returns the state.
     *
     * @return state
     */
    public ReplicaState state() {
        return state;
    }

    /**
     * Returns the multipath weight.
     *
     * @return weight 0..255
     */
    public int weight() {
        return weight;
    }

    /**
     * Returns whether new traffic may be sent to this replica.
     *
     * @return true if ACTIVE with a positive weight
     */
    public boolean carriesTraffic() {
        return state == ReplicaState.ACTIVE && weight > 0;
    }

    /**
     * Returns a copy with another state.
     *
     * @param newState state
     * @return replica
     */
    public VnfReplica withState(ReplicaState newState) {
        return new VnfReplica(id, node, deviceId, port, sid, mac, newState, weight, numaNode);
    }

    /**
     * Returns a copy with another weight.
     *
     * @param newWeight weight 0..255
     * @return replica
     */
    public VnfReplica withWeight(int newWeight) {
        return new VnfReplica(id, node, deviceId, port, sid, mac, state, newWeight, numaNode);
    }

    /**
     * Returns the NUMA node of its server that placement chose for it (written on its pod as
     * {@code srv6int.org/numa-node}, which the node agent honours).
     *
     * @return NUMA node, {@link #NO_NUMA_NODE} if none was chosen
     */
    public int numaNode() {
        return numaNode;
    }

    /**
     * Returns a copy placed on a NUMA node of its server.
     *
     * @param newNumaNode NUMA node, or {@link #NO_NUMA_NODE}
     * @return replica
     */
    public VnfReplica withNumaNode(int newNumaNode) {
        return new VnfReplica(id, node, deviceId, port, sid, mac, state, weight, newNumaNode);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof VnfReplica)) {
            return false;
        }
        VnfReplica that = (VnfReplica) o;
        return weight == that.weight && id.equals(that.id) && node.equals(that.node)
                && deviceId.equals(that.deviceId) && port.equals(that.port) && sid.equals(that.sid)
                && mac.equals(that.mac) && state == that.state && numaNode == that.numaNode;
    }

    @Override
    public int hashCode() {
        // Objects.hash(id, node, deviceId, port, sid, mac, state, weight, numaNode)'s value, without its
        // array and boxing (every field is non-null: the constructor checks).
        int h = 31 + id.hashCode();
        h = 31 * h + node.hashCode();
        h = 31 * h + deviceId.hashCode();
        h = 31 * h + port.hashCode();
        h = 31 * h + sid.hashCode();
        h = 31 * h + mac.hashCode();
        h = 31 * h + state.hashCode();
        h = 31 * h + weight;
        return 31 * h + numaNode;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("id", id).add("node", node).add("device", deviceId)
                .add("port", port).add("sid", sid).add("mac", mac).add("state", state).add("weight", weight)
                .add("numaNode", numaNode).toString();
    }
}
