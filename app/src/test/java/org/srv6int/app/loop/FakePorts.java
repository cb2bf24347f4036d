// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReadinessListener;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.VnfKey;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Recording fakes of the loop's ports at the boundaries we cannot run here: a Kubernetes
 * platform whose pods become Ready when the test says so (or at once), and a multipath group
 * that keeps replicas with weights like the app's inventory does.
 */
final class FakePorts {

    private FakePorts() {
    }

    /** Records createReplica / deleteReplica calls; completes them at once or on demand. */
    static final class Platform implements ReplicaPlatform {
        final List<String> calls = new ArrayList<>();
        final List<NodeResources> nodes = new ArrayList<>();
        final List<CompletableFuture<ReplicaInfo>> pendingCreates = new ArrayList<>();
        // As the bridge with its request ledger: a repeated request id gets the first replica.
        final Map<String, CompletableFuture<ReplicaInfo>> requests = new LinkedHashMap<>();
        boolean readyAtOnce = true;
        int created;
        // Pod readiness per vNF as the bridge's watch has it; a vNF absent here: the platform cannot tell.
        final Map<VnfKey, Map<String, Boolean>> readiness = new LinkedHashMap<>();
        final List<ReadinessListener> listeners = new CopyOnWriteArrayList<>();

        /** The platform sees new readiness of a vNF's replicas and tells its listeners what changed, as the bridge's
         * watch does. */
        void setReadiness(VnfKey vnf, Map<String, Boolean> now) {
            Map<String, Boolean> before;
            synchronized (this) {
                before = readiness.put(vnf, new LinkedHashMap<>(now));
            }
            Map<String, Boolean> was = before == null ? Map.of() : before;
            now.forEach((id, ready) -> {
                if (!ready.equals(was.get(id))) {
                    listeners.forEach(l -> l.readinessChanged(vnf, id, ready));
                }
            });
            was.keySet().stream().filter(id -> !now.containsKey(id))
                    .forEach(id -> listeners.forEach(l -> l.readinessChanged(vnf, id, false)));
        }

        @Override
        public void addReadinessListener(ReadinessListener l) {
            listeners.add(l);
        }

        @Override
        public void removeReadinessListener(ReadinessListener l) {
            listeners.remove(l);
        }

        @Override
        public List<NodeResources> nodeFreeResources() {
            calls.add("nodeFreeResources");
            return new ArrayList<>(nodes);
        }

        @Override
        public synchronized CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
            CompletableFuture<ReplicaInfo> known = requests.get(vnf + "/" + requestId);
            if (known != null) {
                calls.add("create " + vnf + " on " + node + " again (" + requestId + ")");
                return known;
            }
            calls.add("create " + vnf + " on " + node);
            ReplicaInfo r = new ReplicaInfo("r" + (++created), node, "10.0.0." + created);
            CompletableFuture<ReplicaInfo> f = new CompletableFuture<>();
            if (readyAtOnce) {
                f.complete(r);
            } else {
                pendingCreates.add(f);
            }
            requests.put(vnf + "/" + requestId, f);
            return f;
        }

        @Override
        public synchronized Optional<Map<String, Boolean>> replicaReadiness(VnfKey vnf) {
            Map<String, Boolean> r = readiness.get(vnf);
            return r == null ? Optional.empty() : Optional.of(new LinkedHashMap<>(r));
        }

        @Override
        public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
            calls.add("delete " + vnf + " " + replicaId);
            return CompletableFuture.completedFuture(null);
        }
    }

    /** The chain's multipath group: replica to weight (0 = draining), in insertion order. */
    static final class Routing implements ChainRouting {
        final List<String> calls = new ArrayList<>();
        final Map<String, Integer> group = new LinkedHashMap<>();

        Routing(String... initial) {
            for (String r : initial) {
                group.put(r, 1);
            }
        }

        List<String> active() {
            List<String> out = new ArrayList<>();
            group.forEach((r, w) -> {
                if (w > 0) {
                    out.add(r);
                }
            });
            return out;
        }

        /** Algorithm 4 line 10 as written: most free CPU first (then memory, name), round robin. */
        @Override
        public List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count) {
            List<NodeResources> nodes = new ArrayList<>(candidates);
            nodes.sort(Comparator.comparingLong(NodeResources::freeCpuMillis)
                               .thenComparingLong(NodeResources::freeMemoryBytes).reversed()
                               .thenComparing(NodeResources::node));
            List<String> out = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                out.add(nodes.get(i % nodes.size()).node());
            }
            return out;
        }

        @Override
        public void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas) {
            List<String> ids = new ArrayList<>();
            for (ReplicaInfo r : replicas) {
                group.put(r.id(), 1);
                ids.add(r.id());
            }
            calls.add("add " + vnf + " " + ids + " -> weights " + group);
        }

        @Override
        public void drainReplica(VnfKey vnf, String replicaId) {
            group.put(replicaId, 0);
            calls.add("drain " + vnf + " " + replicaId);
        }

        @Override
        public void restoreReplica(VnfKey vnf, String replicaId) {
            group.put(replicaId, 1);
            calls.add("restore " + vnf + " " + replicaId);
        }

        @Override
        public void removeReplica(VnfKey vnf, String replicaId) {
            group.remove(replicaId);
            calls.add("remove " + vnf + " " + replicaId);
        }
    }

    /** A settable clock. */
    static final class Clock implements LoopClock {
        long nanos;

        @Override
        public long nanoTime() {
            return nanos;
        }

        @Override
        public long currentTimeMillis() {
            return 1_700_000_000_000L + nanos / 1_000_000;
        }
    }
}
