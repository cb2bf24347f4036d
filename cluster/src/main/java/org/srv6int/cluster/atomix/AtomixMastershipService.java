// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import com.google.common.collect.ImmutableMap;
import io.atomix.core.election.LeaderElector;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.NodeId;
import org.onosproject.cluster.RoleInfo;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipInfo;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.MastershipRole;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * ONOS's mastership service over an Atomix leader elector ({@code onos-device-mastership}), as
 * ONOS 2.7's ConsistentDeviceMastershipStore keeps it: each device is an election topic
 * ({@code device:<id>}) whose leader is its master and whose other candidates are its standbys;
 * a master that dies or is cut off loses its devices when its Raft session expires, the next
 * standby becomes master (a new term) and every member hears {@code MASTER_CHANGED}. Here a member
 * runs for the devices it is told to ({@link #runFor}), since no switch connects to it.
 */
public final class AtomixMastershipService implements MastershipService {

    private static final String PREFIX = "device:";

    private final String local;
    private final ElectorView view;
    private final CopyOnWriteArrayList<MastershipListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * The service on a member.
     *
     * @param node the started member
     */
    public AtomixMastershipService(AtomixNode node) {
        this.local = node.id();
        LeaderElector<String> elector = node.atomix().<String>leaderElectorBuilder("onos-device-mastership")
                .withProtocol(node.protocol()).build();
        this.view = new ElectorView(elector, "mastership-events-" + local, this::announce, node);
    }

    private static String topic(DeviceId device) {
        return PREFIX + device;
    }

    private void announce(Leadership before, Leadership now) {
        if (!now.topic().startsWith(PREFIX)) {
            return;
        }
        DeviceId device = DeviceId.deviceId(now.topic().substring(PREFIX.length()));
        boolean masterChanged = before == null || !Objects.equals(before.leaderNodeId(), now.leaderNodeId());
        MastershipEvent e = new MastershipEvent(masterChanged ? MastershipEvent.Type.MASTER_CHANGED
                                                        : MastershipEvent.Type.BACKUPS_CHANGED, device, info(now));
        for (MastershipListener l : listeners) {
            l.event(e);
        }
    }

    private static MastershipInfo info(Leadership l) {
        ImmutableMap.Builder<NodeId, MastershipRole> roles = ImmutableMap.builder();
        NodeId master = l.leaderNodeId();
        if (master != null) {
            roles.put(master, MastershipRole.MASTER);
        }
        l.candidates().stream().filter(n -> !n.equals(master)).forEach(n -> roles.put(n, MastershipRole.STANDBY));
        return new MastershipInfo(l.leader() == null ? 0 : l.leader().term(), Optional.ofNullable(master),
                                  roles.build());
    }

    /**
     * Makes this member a candidate (master if first, standby otherwise) for devices.
     *
     * @param devices devices
     */
    public void runFor(List<DeviceId> devices) {
        devices.forEach(d -> view.run(topic(d), local));
    }

    /**
     * Moves a device's mastership to another candidate, as an operator's balancing does.
     *
     * @param device device
     * @param node   the new master (a candidate)
     * @return true if it masters the device now
     */
    public boolean moveMastership(DeviceId device, NodeId node) {
        return view.anoint(topic(device), node.id());
    }

    /**
     * The masters of the devices this member knows of (those it runs for and those it heard of).
     *
     * @return device to master (null while leaderless)
     */
    public Map<DeviceId, NodeId> knownMasters() {
        Map<DeviceId, NodeId> out = new HashMap<>();
        view.all().values().stream().filter(l -> l.topic().startsWith(PREFIX))
                .forEach(l -> out.put(DeviceId.deviceId(l.topic().substring(PREFIX.length())), l.leaderNodeId()));
        return out;
    }

    @Override
    public MastershipRole getLocalRole(DeviceId deviceId) {
        Leadership l = view.leadership(topic(deviceId));
        if (local.equals(Optional.ofNullable(l.leaderNodeId()).map(NodeId::id).orElse(null))) {
            return MastershipRole.MASTER;
        }
        return l.candidates().contains(NodeId.nodeId(local)) ? MastershipRole.STANDBY : MastershipRole.NONE;
    }

    @Override
    public CompletableFuture<MastershipRole> requestRoleFor(DeviceId deviceId) {
        return CompletableFuture.supplyAsync(() -> {
            view.run(topic(deviceId), local);
            return getLocalRole(deviceId);
        });
    }

    @Override
    public CompletableFuture<Void> relinquishMastership(DeviceId deviceId) {
        return CompletableFuture.runAsync(() -> {
            view.withdraw(topic(deviceId), local);
            view.run(topic(deviceId), local);
        });
    }

    @Override
    public NodeId getMasterFor(DeviceId deviceId) {
        return view.leadership(topic(deviceId)).leaderNodeId();
    }

    @Override
    public RoleInfo getNodesFor(DeviceId deviceId) {
        Leadership l = view.leadership(topic(deviceId));
        NodeId master = l.leaderNodeId();
        return new RoleInfo(master, l.candidates().stream().filter(n -> !n.equals(master))
                .collect(Collectors.toList()));
    }

    @Override
    public MastershipInfo getMastershipFor(DeviceId deviceId) {
        return info(view.leadership(topic(deviceId)));
    }

    @Override
    public Set<DeviceId> getDevicesOf(NodeId nodeId) {
        return view.all().values().stream()
                .filter(l -> l.topic().startsWith(PREFIX) && nodeId.equals(l.leaderNodeId()))
                .map(l -> DeviceId.deviceId(l.topic().substring(PREFIX.length()))).collect(Collectors.toSet());
    }

    @Override
    public void addListener(MastershipListener listener) {
        listeners.addIfAbsent(listener);
    }

    @Override
    public void removeListener(MastershipListener listener) {
        listeners.remove(listener);
    }

    /** Stops announcing. */
    public void close() {
        view.close();
    }
}
