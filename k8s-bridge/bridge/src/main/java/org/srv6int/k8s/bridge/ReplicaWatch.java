// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The bridge's replicas as a watch sees them: one fabric8 informer on the bridge's StatefulSets and
 * one on their pods (namespace-scoped, label {@code app.kubernetes.io/managed-by=srv6int-k8s-bridge}),
 * each a LIST then a WATCH from its resourceVersion, which fabric8 resumes after a closed connection
 * (back-off from {@code watchReconnectInterval}, see {@link Fabric8VnfReplicaManager#tune}) and
 * re-lists after {@code 410 Gone}. From the two caches it keeps each replica's {@link ReplicaStatus}
 * and tells the {@link ReplicaListener}s when a replica's readiness changes; readiness queries and
 * {@link #awaitReady} read it, no API call.
 *
 * <p>Nothing is lost across a gap: statuses are compared with the last one told, so the events or
 * the re-list that end a gap (API server restart, closed watch, 410) tell every change made during
 * it. While either watch is not established the statuses are stale and {@link #replicas} answers
 * empty (unknown). A 401/403 (RBAC without {@code watch}) stops the informers with a clear
 * {@link #problem()}; no fall-back to polling: the next query at least {@link #RESTART_AFTER} later
 * starts them again, so applying the RBAC heals it without a restart.
 */
final class ReplicaWatch extends InformerWatch {
    private static final Logger log = LoggerFactory.getLogger(ReplicaWatch.class);

    /** Re-delivery of the caches to the handlers (a safety net; statuses are compared, so it tells nothing new). */
    static final long RESYNC_MS = TimeUnit.MINUTES.toMillis(5);
    /** How long after a refusal (401/403) the informers are started again by the next query. */
    static final Duration RESTART_AFTER = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final String namespace;
    private final List<ReplicaListener> listeners = new CopyOnWriteArrayList<>();
    // Replica name to what was last seen of it (and told, for readiness); guarded by this.
    private final Map<String, Seen> seen = new HashMap<>();
    private SharedIndexInformer<StatefulSet> sets;
    private SharedIndexInformer<Pod> pods;

    private static final class Seen {
        final String chainId;
        final int vnfIndex;
        final ReplicaStatus status;

        Seen(String chainId, int vnfIndex, ReplicaStatus status) {
            this.chainId = chainId;
            this.vnfIndex = vnfIndex;
            this.status = status;
        }
    }

    ReplicaWatch(KubernetesClient client, String namespace, Duration restartAfter) {
        super(restartAfter);
        this.client = client;
        this.namespace = namespace;
    }

    void addListener(ReplicaListener l) {
        listeners.add(l);
        ensureStarted();
    }

    void removeListener(ReplicaListener l) {
        listeners.remove(l);
    }

    @Override
    SharedIndexInformer<?>[] makeInformers() {
        sets = client.apps().statefulSets().inNamespace(namespace)
                .withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER).runnableInformer(RESYNC_MS);
        pods = client.pods().inNamespace(namespace)
                .withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER).runnableInformer(RESYNC_MS);
        sets.addEventHandler(new Handler<>((obj, deleted) -> changed(obj)));
        pods.addEventHandler(new Handler<>((obj, deleted) -> changed(obj)));
        return new SharedIndexInformer<?>[] {sets, pods};
    }

    @Override
    void onRefused(String error) {
        log.warn("The bridge may not watch its replicas in namespace {} ({}): readiness unknown, "
                + "creates fail; it needs get, list, watch on statefulsets and pods there "
                + "(k8s-bridge/deploy/bridge-rbac.yaml)", namespace, error);
    }

    // First list of both done: replicas seen before (an earlier run of the informers) and gone now are told.
    @Override
    void onSynced() {
        Set<String> names = new HashSet<>(seen.keySet());
        for (StatefulSet sts : sets.getStore().list()) {
            names.add(sts.getMetadata().getName());
        }
        for (String name : names) {
            recompute(name);
        }
    }

    /**
     * Replicas of a chain's vNF from the caches, ordered by index.
     *
     * @param chainId  chain
     * @param vnfIndex vNF index
     * @return the replicas; empty while the watch is not established (stale or refused)
     */
    synchronized Optional<List<ReplicaStatus>> replicas(String chainId, int vnfIndex) {
        ensureStarted();
        if (!watching()) {
            return Optional.empty();
        }
        List<ReplicaStatus> out = new ArrayList<>();
        for (Seen s : seen.values()) {
            if (s.chainId.equals(chainId) && s.vnfIndex == vnfIndex) {
                out.add(s.status);
            }
        }
        out.sort(Comparator.comparingInt(ReplicaStatus::replicaIndex));
        return Optional.of(out);
    }

    /**
     * Waits until the replica's pod is Ready in the cache.
     *
     * @throws BridgeException at once if the watch is refused or the replica, once seen, is deleted;
     *                         after the timeout otherwise, with the last status seen
     */
    synchronized ReplicaStatus awaitReady(String name, Duration timeout) {
        ensureStarted();
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        boolean present = false;
        while (true) {
            Seen s = seen.get(name);
            if (s != null && s.status.ready() && watching()) {
                return s.status;
            }
            present |= s != null;
            KubernetesClientException refused = refused();
            if (refused != null) {
                throw new BridgeException("cannot wait for " + namespace + "/" + name + " to be Ready: the bridge "
                        + "may not watch its replicas (needs get, list, watch on statefulsets and pods in " + namespace
                        + ", k8s-bridge/deploy/bridge-rbac.yaml): " + Retrier.describe(refused), 1,
                        refused.getCode(), refused);
            }
            if (present && s == null && watching()) {
                throw new BridgeException("replica " + namespace + "/" + name + " was deleted while waiting for it",
                        1, 404, null);
            }
            long now = System.nanoTime();
            if (now >= deadline) {
                String p = problem();
                throw new BridgeException(String.format("replica %s/%s not Ready after %.1f s; last seen %s%s",
                        namespace, name, (now - start) / 1e9, s == null ? "nothing" : s.status.toString(),
                        p == null ? "" : "; " + p), 1, 0, null);
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, Math.min(deadline - now, TimeUnit.MILLISECONDS.toNanos(500)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BridgeException("interrupted while waiting for " + name, 1, 0, e);
            }
            ensureStarted();
        }
    }

    // Any event of either cache: the replica's status from both caches, told if its readiness changed.
    private void changed(HasMetadata obj) {
        Map<String, String> labels = obj.getMetadata().getLabels();
        String name;
        try {
            name = ReplicaNames.replicaName(labels.get(ReplicaNames.LABEL_CHAIN),
                    Integer.parseInt(labels.get(ReplicaNames.LABEL_VNF)),
                    Integer.parseInt(labels.get(ReplicaNames.LABEL_REPLICA)));
        } catch (RuntimeException e) {
            return; // labelled as ours but not a replica (bad labels): nothing to tell
        }
        synchronized (this) {
            recompute(name);
        }
    }

    // Caller holds the lock: listeners are told in the order the changes were seen.
    private void recompute(String name) {
        if (sets == null) {
            return;
        }
        StatefulSet sts = sets.getStore().getByKey(namespace + "/" + name);
        Seen before = seen.get(name);
        Seen after = null;
        if (sts != null) {
            Map<String, String> l = sts.getMetadata().getLabels();
            String chainId;
            int vnfIndex;
            int index;
            try {
                chainId = l.get(ReplicaNames.LABEL_CHAIN);
                vnfIndex = Integer.parseInt(l.get(ReplicaNames.LABEL_VNF));
                index = Integer.parseInt(l.get(ReplicaNames.LABEL_REPLICA));
            } catch (RuntimeException e) {
                return;
            }
            Pod pod = pods.getStore().getByKey(namespace + "/" + ReplicaNames.podName(name));
            after = new Seen(chainId, vnfIndex, Fabric8VnfReplicaManager.toStatus(name, index, pod));
            seen.put(name, after);
        } else if (before != null) {
            seen.remove(name);
        } else {
            return;
        }
        notifyAll();
        boolean readyBefore = before != null && before.status.ready();
        if (before != null && after != null && readyBefore == after.status.ready()) {
            return;
        }
        Seen told = after != null ? after : new Seen(before.chainId, before.vnfIndex, new ReplicaStatus(name,
                before.status.replicaIndex(), null, null, null, false, ReplicaStatus.PHASE_DELETED));
        for (ReplicaListener l : listeners) {
            try {
                l.readinessChanged(told.chainId, told.vnfIndex, told.status);
            } catch (RuntimeException e) {
                log.warn("Replica listener failed on {}: {}", told.status, e.toString());
            }
        }
    }

    @Override
    public synchronized void close() {
        super.close();
        sets = null;
        pods = null;
    }
}
