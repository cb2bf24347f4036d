// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import java.util.Collections;
import java.util.Set;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.testing.InMemorySfcService;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.VnfReplicaListener;
import org.srv6int.app.api.model.VnfTelemetry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * In-memory fakes of the app's services the overlay reads (the real managers
 * need ONOS stores, the collector and Kubernetes). They keep the contracts of
 * the api package: lookups by id, replicas by chain and vNF, decisions newest
 * first, empty results for what is unknown.
 */
final class FakeSrv6intServices {
    final Map<VnfReplicaId, VnfReplica> replicas = new TreeMap<>();
    final Map<SfcId, SfcPaths> paths = new TreeMap<>();
    final Map<SfcId, SfcTelemetry> sfcTelemetry = new TreeMap<>();
    final Map<VnfKey, VnfTelemetry> vnfTelemetry = new TreeMap<>();
    /** Oldest first, as the loop makes them. */
    final List<LoopDecision> decisions = new ArrayList<>();
    final Map<SfcId, org.srv6int.app.api.model.ChainState> chainStates = new TreeMap<>();

    final InMemorySfcService sfcService = new InMemorySfcService();

    final VnfInventoryService inventory = new VnfInventoryService() {
        @Override
        public Collection<VnfReplica> getReplicas() {
            return ImmutableList.copyOf(replicas.values());
        }

        @Override
        public Collection<VnfReplica> getReplicas(SfcId sfcId) {
            return replicas.values().stream().filter(r -> r.vnf().sfcId().equals(sfcId))
                    .collect(Collectors.toList());
        }

        @Override
        public Collection<VnfReplica> getReplicas(VnfKey vnf) {
            return replicas.values().stream().filter(r -> r.vnf().equals(vnf)).collect(Collectors.toList());
        }

        @Override
        public Optional<VnfReplica> getReplica(VnfReplicaId id) {
            return Optional.ofNullable(replicas.get(id));
        }

        @Override
        public VnfReplica addReplica(VnfKey vnf, String node) {
            throw new UnsupportedOperationException("creating pods needs the Kubernetes bridge");
        }

        @Override
        public VnfReplica addReplica(VnfKey vnf, String node, String name) {
            throw new UnsupportedOperationException("creating pods needs the Kubernetes bridge");
        }

        @Override
        public VnfReplica reserveReplica(VnfKey vnf, String node, String name) {
            throw new UnsupportedOperationException("creating pods needs the Kubernetes bridge");
        }

        @Override
        public void registerReplica(VnfReplica replica) {
            replicas.put(replica.id(), replica);
        }

        @Override
        public VnfReplica drainReplica(VnfReplicaId id) {
            return updateReplica(id, ReplicaState.DRAINING, 0);
        }

        @Override
        public VnfReplica updateReplica(VnfReplicaId id, ReplicaState state, int weight) {
            VnfReplica r = replicas.get(id);
            if (r == null) {
                throw new IllegalArgumentException("no such replica: " + id);
            }
            r = r.withState(state).withWeight(weight);
            replicas.put(id, r);
            return r;
        }

        @Override
        public VnfReplica removeReplica(VnfReplicaId id) {
            return replicas.remove(id);
        }

        @Override
        public VnfReplica failReplica(VnfReplicaId id) {
            return updateReplica(id, ReplicaState.DEAD, 0);
        }

        @Override
        public VnfReplica restoreReplica(VnfReplicaId id) {
            return updateReplica(id, ReplicaState.ACTIVE, 1);
        }

        @Override
        public Optional<VnfReplica> releaseReservation(VnfReplicaId id) {
            return Optional.ofNullable(replicas.remove(id));
        }

        @Override
        public int releaseOrphanSids() {
            return 0;
        }

        @Override
        public void addListener(VnfReplicaListener listener) {
        }

        @Override
        public void removeListener(VnfReplicaListener listener) {
        }
    };

    final SfcPathService pathService = new SfcPathService() {
        @Override
        public Optional<SfcPaths> getPaths(SfcId sfcId) {
            return Optional.ofNullable(paths.get(sfcId));
        }

        @Override
        public Map<SfcId, SfcPaths> getAllPaths() {
            return ImmutableMap.copyOf(paths);
        }
    };

    final TelemetryService telemetry = new TelemetryService() {
        @Override
        public Optional<SfcTelemetry> sfcTelemetry(SfcId sfcId) {
            return Optional.ofNullable(sfcTelemetry.get(sfcId));
        }

        @Override
        public List<VnfTelemetry> vnfTelemetry(SfcId sfcId) {
            return vnfTelemetry.values().stream().filter(t -> t.vnf().sfcId().equals(sfcId))
                    .collect(Collectors.toList());
        }

        @Override
        public Optional<VnfTelemetry> vnfTelemetry(VnfKey vnf) {
            return Optional.ofNullable(vnfTelemetry.get(vnf));
        }

        @Override
        public Map<String, Long> counters() {
            return ImmutableMap.of();
        }
    };

    final GlobalLoopService loop = new GlobalLoopService() {
        @Override
        public LoopStatus status() {
            long last = decisions.isEmpty() ? 0 : decisions.get(decisions.size() - 1).timeMillis();
            return new LoopStatus(true, true, "onos-1", 4000, last, ImmutableList.of());
        }

        @Override
        public List<LoopDecision> decisions(int limit) {
            if (limit <= 0) {
                throw new IllegalArgumentException("limit must be > 0, got " + limit);
            }
            List<LoopDecision> newestFirst = new ArrayList<>(decisions);
            Collections.reverse(newestFirst);
            return ImmutableList.copyOf(newestFirst.subList(0, Math.min(limit, newestFirst.size())));
        }

        @Override
        public long decisionsMade(LoopDecision.Action action) {
            return decisions.stream().filter(d -> d.action() == action).count();
        }

        @Override
        public long decisionsEnded(LoopDecision.Action action, LoopDecision.Outcome outcome) {
            return decisions.stream().filter(d -> d.action() == action && d.outcome() == outcome).count();
        }

        @Override
        public void setPaused(org.srv6int.app.api.model.SfcId sfc, boolean paused) {
            throw new IllegalStateException("the GUI's fake loop cannot be paused");
        }

        @Override
        public Set<org.srv6int.app.api.model.SfcId> pausedChains() {
            return Set.of();
        }

        @Override
        public LoopDecision escalate(VnfKey vnf, String node, long l95Nanos, long lmaxNanos,
                                     List<String> triedResources) {
            throw new IllegalStateException("the GUI's fake loop takes no escalations");
        }

        @Override
        public List<org.srv6int.app.api.model.ChainState> chainStates() {
            return ImmutableList.copyOf(chainStates.values());
        }

        @Override
        public Map<String, Long> failureCounters() {
            return Map.of();
        }
    };

    /** The overlay's reader over these fakes. */
    ChainViews chainViews() {
        return new ChainViews(() -> sfcService, () -> inventory, () -> pathService, () -> telemetry, () -> loop);
    }
}
