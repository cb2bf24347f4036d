// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.k8s;

import java.util.HashMap;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReadinessListener;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.k8s.bridge.ReplicaListener;
import org.srv6int.k8s.bridge.ReplicaNames;
import org.srv6int.k8s.bridge.ReplicaRequest;
import org.srv6int.k8s.bridge.ReplicaStatus;
import org.srv6int.k8s.bridge.VnfReplicaManager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link ReplicaPlatform} over the Kubernetes bridge's {@link VnfReplicaManager}: a replica is
 * the bridge's StatefulSet {@code sfc-<chain>-vnf<i>-r<k>} (chain = the SFC id in decimal), k the
 * smallest index the vNF does not use; creation is ensureReplica then awaitReady, off the loop's
 * thread. Replica ids towards the loop are the bridge's names, which the loop also uses as the
 * inventory replica names: the id alone determines the workload, so any instance (e.g. on a new
 * cluster leader) can delete a replica another instance created. A create is idempotent on its
 * request id through a ledger (request id to replica index) shared by the cluster: a new leader
 * repeating the old one's request gets the same StatefulSet, which the bridge ensures (creates
 * if absent) rather than creates. Before the workload is created the replica's identity (SID,
 * switch, port and, when placement chose one, NUMA node) is reserved through
 * {@link ReplicaIdentities} and written on the pod as the annotations of {@link ReplicaNames}; a create that fails
 * gives the reservation back and deletes
 * what it made.
 */
public final class BridgeReplicaPlatform implements ReplicaPlatform {

    private static final Pattern INDEX = Pattern.compile("-r(\\d+)$");
    // A give-back's store call can time out while the cluster elects (Atomix: 5 s a request); a
    // reservation left PENDING would be taken for a parked replica by the failure detection.
    static final int GIVE_BACK_ATTEMPTS = 3;
    static final long GIVE_BACK_PAUSE_MS = 500;

    private final VnfReplicaManager bridge;
    private final Function<VnfKey, ReplicaRequest.Builder> template;
    private final Duration readyTimeout;
    private final Executor executor;
    private final Set<String> reserved = new HashSet<>();
    private final Map<String, Integer> requests;
    private final ReplicaIdentities identities;
    private final Map<ReadinessListener, ReplicaListener> listeners = new HashMap<>();

    /**
     * Creates the adapter.
     *
     * @param bridge       the bridge
     * @param template     per vNF: a request builder with vNF type, image, requests and limits set
     * @param readyTimeout how long to wait for a pod to become Ready
     * @param executor     runs the blocking bridge calls
     * @param requests     the cluster's ledger of replica requests ("vNF/request id" to replica index;
     *                     putIfAbsent must be atomic, as a ConsistentMap's Java view)
     * @param identities   reserves each replica's SID and attachment before its workload is made;
     *                     null where no node agent reads them (the testbed twin's emulated data
     *                     plane), and then pods carry no identity
     */
    public BridgeReplicaPlatform(VnfReplicaManager bridge, Function<VnfKey, ReplicaRequest.Builder> template,
                                 Duration readyTimeout, Executor executor, Map<String, Integer> requests,
                                 ReplicaIdentities identities) {
        this.requests = requests;
        this.identities = identities;
        this.bridge = bridge;
        this.template = template;
        this.readyTimeout = readyTimeout;
        this.executor = executor;
    }

    private static String chainId(VnfKey vnf) {
        return vnf.sfcId().toString();
    }

    @Override
    public List<NodeResources> nodeFreeResources() {
        List<NodeResources> out = new ArrayList<>();
        for (Map.Entry<String, org.srv6int.k8s.bridge.NodeResources> e : bridge.nodeFreeResources().entrySet()) {
            out.add(new NodeResources(e.getKey(), e.getValue().freeCpuMillis(), e.getValue().freeMemoryBytes()));
        }
        return out;
    }

    /** Picks the smallest replica index neither the cluster nor a create in flight uses. */
    private synchronized int reserveIndex(VnfKey vnf) {
        Set<Integer> used = new HashSet<>();
        for (ReplicaStatus s : bridge.listReplicas(chainId(vnf), vnf.index())) {
            used.add(s.replicaIndex());
        }
        // Indices other instances' requests hold (created or not yet) are taken too.
        String prefix = vnf + "/";
        for (Map.Entry<String, Integer> e : requests.entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                used.add(e.getValue());
            }
        }
        int k = 0;
        while (used.contains(k) || reserved.contains(vnf + "#" + k)) {
            k++;
        }
        reserved.add(vnf + "#" + k);
        return k;
    }

    private synchronized void release(VnfKey vnf, int k) {
        reserved.remove(vnf + "#" + k);
    }

    @Override
    public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
        return CompletableFuture.supplyAsync(() -> {
            String key = vnf + "/" + requestId;
            Integer k = requests.get(key);
            if (k == null) {
                int pick = reserveIndex(vnf);
                try {
                    // The first instance to record the request fixes its index.
                    Integer prev = requests.putIfAbsent(key, pick);
                    k = prev != null ? prev : pick;
                } finally {
                    release(vnf, pick);
                }
            }
            String name = ReplicaNames.replicaName(chainId(vnf), vnf.index(), k);
            VnfReplica identity = identities == null ? null : identities.reserve(vnf, node, name);
            try {
                ReplicaRequest req = identity == null
                        ? template.apply(vnf).chainId(chainId(vnf)).vnfIndex(vnf.index()).replicaIndex(k)
                                .nodeName(node).build()
                        : request(vnf, k, identity);
                bridge.ensureReplica(req);
                ReplicaStatus s = bridge.awaitReady(chainId(vnf), vnf.index(), k, readyTimeout);
                return new ReplicaInfo(s.name(), s.nodeName() == null ? node : s.nodeName(), s.podIp(),
                                       identity == null ? VnfReplica.NO_NUMA_NODE : identity.numaNode());
            } catch (RuntimeException e) {
                if (identities != null) {
                    giveBack(vnf, k, name, e);
                }
                throw e;
            }
        }, executor);
    }

    /**
     * The bridge request of a replica: the vNF's template, its name parts and its identity.
     *
     * @param vnf      vNF
     * @param k        replica index
     * @param identity the replica's reserved identity (node, SID, attachment, NUMA node)
     * @return the request
     */
    ReplicaRequest request(VnfKey vnf, int k, VnfReplica identity) {
        ReplicaRequest.Builder b = template.apply(vnf).chainId(chainId(vnf)).vnfIndex(vnf.index()).replicaIndex(k)
                .nodeName(identity.node())
                .identity(identity.sid().toString(), identity.deviceId().toString(), identity.port().toLong());
        // The NUMA node placement chose, which the node agent honours (without one its NUMASFP places the pod).
        if (identity.numaNode() != VnfReplica.NO_NUMA_NODE) {
            b.numaNode(identity.numaNode());
        }
        return b.build();
    }

    // A replica that never became Ready must not keep a SID or a pod: the loop records the failure.
    private void giveBack(VnfKey vnf, int k, String name, RuntimeException cause) {
        for (int attempt = 1; attempt <= GIVE_BACK_ATTEMPTS; attempt++) {
            try {
                // A replica that carries traffic already (an earlier create of this request) stays.
                if (identities.release(vnf, name)) {
                    bridge.removeReplica(chainId(vnf), vnf.index(), k);
                }
                return;
            } catch (RuntimeException e) {
                // a retry after a released reservation finds none (false) and leaves the workload to
                // the orphan clean-up; each failure is kept on the create's own
                cause.addSuppressed(e);
            }
            if (attempt < GIVE_BACK_ATTEMPTS && !pause()) {
                return;
            }
        }
    }

    private static boolean pause() {
        try {
            Thread.sleep(GIVE_BACK_PAUSE_MS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The bridge replica index a replica name stands for.
     *
     * @param vnf       vNF
     * @param replicaId replica name
     * @return the index, or -1 if the name is not one of this vNF's bridge workloads
     */
    int replicaIndex(VnfKey vnf, String replicaId) {
        Matcher m = INDEX.matcher(replicaId == null ? "" : replicaId);
        if (!m.find()) {
            return -1;
        }
        int k;
        try {
            k = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            return -1;
        }
        return replicaId.equals(ReplicaNames.replicaName(chainId(vnf), vnf.index(), k)) ? k : -1;
    }

    // The bridge's watch cache, no API call: unknown (empty) while its watch is not established.
    @Override
    public Optional<Map<String, Boolean>> replicaReadiness(VnfKey vnf) {
        return bridge.watchedReplicas(chainId(vnf), vnf.index()).map(list -> {
            Map<String, Boolean> out = new LinkedHashMap<>();
            for (ReplicaStatus s : list) {
                // A StatefulSet without a pod (PHASE_ABSENT) or with a pod not Ready: not ready.
                out.put(s.name(), s.ready());
            }
            return out;
        });
    }

    @Override
    public synchronized void addReadinessListener(ReadinessListener listener) {
        ReplicaListener l = (chain, vnfIndex, status) -> {
            // Only chains of the app (the SFC id in decimal) have vNFs the loop knows.
            SfcId sfc;
            try {
                sfc = SfcId.valueOf(chain);
            } catch (IllegalArgumentException e) {
                return;
            }
            listener.readinessChanged(VnfKey.of(sfc, vnfIndex), status.name(), status.ready());
        };
        if (listeners.putIfAbsent(listener, l) == null) {
            bridge.addListener(l);
        }
    }

    @Override
    public synchronized void removeReadinessListener(ReadinessListener listener) {
        ReplicaListener l = listeners.remove(listener);
        if (l != null) {
            bridge.removeListener(l);
        }
    }

    @Override
    public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
        int k = replicaIndex(vnf, replicaId);
        if (k < 0) {
            return CompletableFuture.failedFuture(
                    new IllegalArgumentException("not a bridge replica of " + vnf + ": " + replicaId));
        }
        return CompletableFuture.runAsync(() -> {
            bridge.removeReplica(chainId(vnf), vnf.index(), k);
            // Its requests are done: the index may be used again.
            requests.entrySet().removeIf(e -> e.getKey().startsWith(vnf + "/") && e.getValue() == k);
        }, executor);
    }
}
