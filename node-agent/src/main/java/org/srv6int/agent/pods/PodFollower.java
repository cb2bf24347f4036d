// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.srv6int.k8s.bridge.ReplicaNames;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Follows the pods of one node: a fabric8 informer on the pods of every namespace with
 * {@code spec.nodeName=<node>} (field selector, so the API server sends nothing of other
 * nodes), as the kubelet sees them. The agent manages the replica pods among them
 * ({@link #isReplica}) and holds the CPU requests of the others ({@link Reservations}).
 * Keeps the latest view of each pod by UID and a version that moves on every change; the
 * agent's loop thread compares versions and rebuilds when they differ (informer threads
 * never touch the loop).
 */
public final class PodFollower implements AutoCloseable {

    private final KubernetesClient client;
    private final String node;
    private final SharedIndexInformer<Pod> informer;
    private final Map<String, Pod> pods = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();

    /**
     * Starts the informer and waits for its first list.
     *
     * @param client API client (get/list/watch on pods of every namespace)
     * @param node this node's name
     * @param timeoutMs how long to wait for the first list
     * @throws IOException if the first list does not arrive in time or fails
     */
    public PodFollower(KubernetesClient client, String node, long timeoutMs) throws IOException {
        this.client = client;
        this.node = node;
        informer = client.pods().inAnyNamespace()
                .withField("spec.nodeName", node)
                .runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                put(pod);
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                put(pod);
            }

            @Override
            public void onDelete(Pod pod, boolean finalStateUnknown) {
                pods.remove(pod.getMetadata().getUid());
                version.incrementAndGet();
            }
        });
        try {
            informer.start().toCompletableFuture().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            informer.close();
            throw new IOException("pods of node " + node + " could not be listed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            informer.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while listing the pods of node " + node, e);
        }
    }

    /**
     * The node's allocatable CPU, what the scheduler and the kubelet (on every resize) count
     * requests against. Asks the API server.
     *
     * @return millicores, -1 if the node reports none
     * @throws IOException if the node cannot be read or its value is not a CPU quantity
     */
    public long allocatableCpuMillis() throws IOException {
        Node n;
        try {
            n = client.nodes().withName(node).get();
        } catch (KubernetesClientException e) {
            throw new IOException("node " + node + " unreadable: " + e.getMessage(), e);
        }
        if (n == null) {
            throw new IOException("no node " + node);
        }
        Map<String, Quantity> a = n.getStatus() == null ? null : n.getStatus().getAllocatable();
        try {
            return ReplicaPod.cpuMillis(a);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IOException("node " + node + ": allocatable cpu '" + a.get("cpu") + "' unreadable", e);
        }
    }

    /**
     * Whether a pod is one of the bridge's replica pods in the replicas' namespace.
     *
     * @param pod pod
     * @param namespace namespace of the replica pods
     * @return true if the agent should manage it (when Ready and well-formed)
     */
    public static boolean isReplica(Pod pod, String namespace) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return namespace.equals(pod.getMetadata().getNamespace()) && labels != null
                && ReplicaNames.MANAGER.equals(labels.get(ReplicaNames.LABEL_MANAGED_BY));
    }

    private void put(Pod pod) {
        pods.put(pod.getMetadata().getUid(), pod);
        version.incrementAndGet();
    }

    /**
     * Changes seen so far; differs between two calls iff a pod was added, changed or deleted.
     *
     * @return version
     */
    public long version() {
        return version.get();
    }

    /**
     * The latest view of every pod, by UID.
     *
     * @return a copy
     */
    public Map<String, Pod> snapshot() {
        return Map.copyOf(pods);
    }

    /**
     * The latest view of one pod.
     *
     * @param uid pod UID
     * @return pod, or null if not (or no longer) on this node
     */
    public Pod get(String uid) {
        return pods.get(uid);
    }

    @Override
    public void close() {
        informer.close();
    }
}
