// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import com.google.common.collect.ImmutableList;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.switchstate.SwitchCounters;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What the failure detection ({@link ChainHealth}) looks at, chain by chain: the window's INT
 * reports and per-replica packets, the switches' classifier and my_sid counters, the segment
 * lists, the inventory, the platform's pod readiness, the switch ports and which vNFs have a
 * create in flight. One builder for {@link GlobalLoopManager} and for the twin, so that both
 * judge the same inputs (docs/failures.md). Sources that are not wired read as "unknown" or
 * "fine": no flow entries (counters empty), one segment list, readiness unknown, ports up.
 */
public final class DetectionInputs {

    /** The window's counts the detection reads. */
    public interface WindowCounts {
        /**
         * INT reports of a chain in the window.
         *
         * @param sfc chain
         * @return reports, 0 if none
         */
        long reports(SfcId sfc);

        /**
         * Packets the window's INT reports counted through one replica.
         *
         * @param vnf     its vNF
         * @param replica replica name
         * @return packets, 0 if none
         */
        long replicaPackets(VnfKey vnf, String replica);

        /**
         * The counts of a closed telemetry window.
         *
         * @param s the window, or null before the first one (nothing counted)
         * @return its counts
         */
        static WindowCounts of(TelemetrySnapshot s) {
            Map<Integer, Long> reports = new HashMap<>();
            Map<VnfKey, VnfWindow> vnfs = new HashMap<>();
            if (s != null) {
                for (ChainWindow c : s.chains()) {
                    reports.put(c.chainTag(), c.reports());
                }
                for (VnfWindow w : s.vnfs()) {
                    vnfs.put(w.vnf(), w);
                }
            }
            return new WindowCounts() {
                @Override
                public long reports(SfcId sfc) {
                    return reports.getOrDefault(sfc.tag(), 0L);
                }

                @Override
                public long replicaPackets(VnfKey vnf, String replica) {
                    VnfWindow w = vnfs.get(vnf);
                    return w == null ? 0 : w.replicaPackets().getOrDefault(replica, 0L);
                }
            };
        }
    }

    private final VnfInventoryService inventory;
    private Function<DeviceId, Iterable<FlowEntry>> flowEntries;
    private SfcPathService paths;
    private BiFunction<VnfKey, String, Boolean> readiness = (vnf, replica) -> null;
    private Predicate<ConnectPoint> portUp = cp -> true;

    /**
     * Starts a builder on the replica inventory.
     *
     * @param inventory where the replicas are
     */
    public DetectionInputs(VnfInventoryService inventory) {
        this.inventory = Objects.requireNonNull(inventory, "inventory");
    }

    /**
     * Reads the switches' counters from their flow entries (ONOS's flow-rule service).
     *
     * @param entries a switch's entries (null or unset: counters unreadable)
     * @return this
     */
    public DetectionInputs flowEntries(Function<DeviceId, Iterable<FlowEntry>> entries) {
        this.flowEntries = entries;
        return this;
    }

    /**
     * Reads the chains' segment lists (unset: every chain has one).
     *
     * @param paths the placement's paths
     * @return this
     */
    public DetectionInputs segmentLists(SfcPathService paths) {
        this.paths = paths;
        return this;
    }

    /**
     * Reads the platform's readiness of a replica's pod.
     *
     * @param readiness vNF and replica name to true, false (gone or not Ready) or null (unknown)
     * @return this
     */
    public DetectionInputs readiness(BiFunction<VnfKey, String, Boolean> readiness) {
        this.readiness = Objects.requireNonNull(readiness, "readiness");
        return this;
    }

    /**
     * Reads whether a switch port is up.
     *
     * @param portUp connect point to whether it is up
     * @return this
     */
    public DetectionInputs portUp(Predicate<ConnectPoint> portUp) {
        this.portUp = Objects.requireNonNull(portUp, "portUp");
        return this;
    }

    /**
     * What the detection sees of each chain, in chain id order.
     *
     * @param chains the chains
     * @param window the window's counts
     * @param loop   the loop (which vNFs have a create in flight)
     * @return one view per chain
     */
    public List<ChainHealth.ChainSeen> seen(Collection<Sfc> chains, WindowCounts window, GlobalLoop loop) {
        List<Sfc> sorted = new ArrayList<>(chains);
        sorted.sort(Comparator.comparingInt(c -> c.id().tag()));
        List<ChainHealth.ChainSeen> out = new ArrayList<>();
        // Each switch's entries are read once per round, not once per chain or replica.
        Map<DeviceId, Iterable<FlowEntry>> entries = new HashMap<>();
        Function<DeviceId, Iterable<FlowEntry>> read = d -> entries.computeIfAbsent(d, k -> {
            Iterable<FlowEntry> it = flowEntries.apply(k);
            return it == null ? List.of() : ImmutableList.copyOf(it);
        });
        // Read before and after the inventory: a create that starts or ends meanwhile is in flight
        // at one of the two reads, and its reserved replica is not taken for a parked one.
        // (null: the loop state store was unreadable, every vNF counts as creating.)
        // One read of the inventory for every chain: each read is a full read of the replica store
        // (over the cluster's store, one per chain made the round grow as chains x replicas).
        Set<VnfKey> before = loop.creating();
        Map<SfcId, List<VnfReplica>> byChain = new HashMap<>();
        for (VnfReplica r : inventory.getReplicas()) {
            byChain.computeIfAbsent(r.vnf().sfcId(), k -> new ArrayList<>()).add(r);
        }
        Set<VnfKey> after = loop.creating();
        // null: unknown, no draining replica is judged (as before the loop could tell)
        Set<org.srv6int.app.api.model.VnfReplicaId> removing = loop.removing();
        for (Sfc sfc : sorted) {
            OptionalLong classified = flowEntries == null ? OptionalLong.empty()
                    : SwitchCounters.classified(read.apply(sfc.ingress().deviceId()), sfc);
            int lists = paths == null ? 1 : paths.getPaths(sfc.id()).map(p -> p.segmentLists().size()).orElse(0);
            List<ChainHealth.ReplicaSeen> rs = new ArrayList<>();
            Set<Integer> withLive = new HashSet<>();
            List<VnfReplica> replicas = byChain.getOrDefault(sfc.id(), new ArrayList<>());
            // the inventory's order for a chain (getReplicas(sfc)): by replica id
            replicas.sort((a, b) -> a.id().compareTo(b.id()));
            for (VnfReplica r : replicas) {
                // DEAD is stored as such; PENDING weight 0 is a reservation, or a dead replica an earlier
                // version stored so: that one is taken for dead only while no create of its vNF is in flight.
                // (Session 18 tried never parking it: right after a scale-out ended, its new replicas, not yet
                // listed Ready by the platform, were judged dead at once in one CI run; reverted.)
                boolean dead = r.state() == ReplicaState.DEAD;
                boolean creating = !dead && (before == null || after == null || before.contains(r.vnf())
                        || after.contains(r.vnf()));
                if (r.carriesTraffic()) {
                    withLive.add(r.vnf().index());
                }
                rs.add(new ChainHealth.ReplicaSeen(
                        r.vnf(), r.id().name(), r.deviceId() + "/" + r.port(), r.carriesTraffic(),
                        dead || (r.state() == ReplicaState.PENDING && r.weight() == 0), creating,
                        window.replicaPackets(r.vnf(), r.id().name()),
                        flowEntries == null ? OptionalLong.empty()
                                : SwitchCounters.sidPackets(read.apply(r.deviceId()), r),
                        readiness.apply(r.vnf(), r.id().name()), portUp.test(r.location()),
                        r.state() == ReplicaState.DRAINING && removing != null && !removing.contains(r.id()),
                        r.state() == ReplicaState.PENDING && r.weight() == 0));
            }
            String noList = "no replica combination reaches the egress (a link down?)";
            for (int i = 0; i < sfc.vnfs().size(); i++) {
                if (!withLive.contains(i)) {
                    noList = "no live replica of vNF " + i;
                    break;
                }
            }
            out.add(new ChainHealth.ChainSeen(sfc.id(), sfc.ingress().deviceId().toString(), sfc.vnfs().size(),
                                              classified, window.reports(sfc.id()), lists, noList, rs));
        }
        return out;
    }
}
