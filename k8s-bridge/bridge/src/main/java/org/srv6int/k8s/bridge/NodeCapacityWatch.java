// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ReducedStateItemStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Free resources of every node from watched state, so a placement decision costs no API call:
 * one fabric8 informer on the nodes and one on the pods bound to a node, cluster-wide (field
 * selector {@code spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed}: the pods whose
 * requests the scheduler counts; a pod leaving that set arrives as a deletion). Each event updates
 * what that pod holds of its node and the node's sum, so an answer is O(nodes). The informers keep
 * only keys and resource versions ({@link ReducedStateItemStore}, no resync): what is counted is
 * held here, not a second copy of every pod of the cluster.
 *
 * <p>While the watch is not established (first use, reconnecting after a closed connection, or
 * refused) {@link #free()} answers empty and the caller computes the answer by a LIST, as before;
 * it never answers from a cache it knows to be stale. A 401/403 (RBAC without {@code watch} on nodes
 * and pods cluster-wide, e.g. an older manifest) stops the informers, is logged once and counted;
 * the next query {@link ReplicaWatch#RESTART_AFTER} later starts them again, so applying the
 * manifest heals it without a restart.
 */
final class NodeCapacityWatch extends InformerWatch {
    private static final Logger log = LoggerFactory.getLogger(NodeCapacityWatch.class);

    private final KubernetesClient client;
    // Every pod the handler has seen ("namespace/name") and what it holds, each node's sum, the nodes
    // that take pods and those that do not; guarded by this.
    private final Map<String, Held> held = new HashMap<>();
    private final Map<String, long[]> requested = new HashMap<>();
    private final Map<String, NodeResources> nodes = new HashMap<>();
    private final Set<String> otherNodes = new HashSet<>();
    // Keys the informers had listed when they synced and the handler has not seen yet: fabric8 hands
    // the list to the handlers on another thread, after the start completes.
    private final Set<String> pending = new HashSet<>();
    private SharedIndexInformer<Node> nodeInformer;
    private SharedIndexInformer<Pod> podInformer;
    private int generation;
    private final AtomicLong refusals = new AtomicLong();

    /** What a pod that holds nothing (not bound, finished) is counted as. */
    private static final Held NOTHING = new Held(null, 0, 0);

    /** What one pod holds of its node, as the scheduler counts it. */
    static final class Held {
        final String node;
        final long cpuMillis;
        final long memoryBytes;

        Held(String node, long cpuMillis, long memoryBytes) {
            this.node = node;
            this.cpuMillis = cpuMillis;
            this.memoryBytes = memoryBytes;
        }
    }

    NodeCapacityWatch(KubernetesClient client, Duration restartAfter) {
        super(restartAfter);
        this.client = client;
    }

    /**
     * What a pod holds of its node: null when it holds nothing (not bound, Succeeded or Failed).
     *
     * @param p pod
     * @return its requests on its node, or null
     */
    static Held held(Pod p) {
        String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        if (node == null || node.isEmpty() || "Succeeded".equals(phase) || "Failed".equals(phase)) {
            return null;
        }
        long[] r = podRequests(p);
        return new Held(node, r[0], r[1]);
    }

    /** Requests of a pod as the scheduler counts them: max(sum of containers, any init container) + overhead. */
    static long[] podRequests(Pod p) {
        long cpu = 0;
        long mem = 0;
        for (Container c : p.getSpec().getContainers()) {
            cpu += millis(request(c, "cpu"));
            mem += units(request(c, "memory"));
        }
        if (p.getSpec().getInitContainers() != null) {
            for (Container c : p.getSpec().getInitContainers()) {
                cpu = Math.max(cpu, millis(request(c, "cpu")));
                mem = Math.max(mem, units(request(c, "memory")));
            }
        }
        Map<String, Quantity> overhead = p.getSpec().getOverhead();
        if (overhead != null) {
            cpu += millis(overhead.get("cpu"));
            mem += units(overhead.get("memory"));
        }
        return new long[] {cpu, mem};
    }

    private static Quantity request(Container c, String resource) {
        if (c.getResources() == null || c.getResources().getRequests() == null) {
            return null;
        }
        return c.getResources().getRequests().get(resource);
    }

    private static long millis(Quantity q) {
        return q == null ? 0 : Quantity.getAmountInBytes(q).multiply(BigDecimal.valueOf(1000))
                .setScale(0, RoundingMode.CEILING).longValueExact();
    }

    private static long units(Quantity q) {
        return q == null ? 0 : Quantity.getAmountInBytes(q).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /**
     * A node's allocatable resources (free = allocatable here), or null when nothing may be placed on it
     * (cordoned or not Ready).
     *
     * @param n node
     * @return its allocatable resources, or null
     */
    static NodeResources allocatable(Node n) {
        if ((n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable())) || !isReady(n)) {
            return null;
        }
        Map<String, Quantity> alloc = n.getStatus().getAllocatable();
        long cpu = millis(alloc == null ? null : alloc.get("cpu"));
        long mem = units(alloc == null ? null : alloc.get("memory"));
        return new NodeResources(n.getMetadata().getName(), cpu, mem, cpu, mem);
    }

    private static boolean isReady(Node n) {
        if (n.getStatus() == null || n.getStatus().getConditions() == null) {
            return false;
        }
        for (NodeCondition c : n.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }

    /**
     * Free resources per node: allocatable minus what is requested on it, most free CPU first.
     *
     * @param nodes     the nodes that may take a pod, with their allocatable resources
     * @param requested node name to {cpu millis, memory bytes} requested by its pods
     * @return node name to free resources
     */
    static Map<String, NodeResources> free(Collection<NodeResources> nodes, Map<String, long[]> requested) {
        List<NodeResources> free = new ArrayList<>(nodes.size());
        for (NodeResources n : nodes) {
            long[] used = requested.getOrDefault(n.nodeName(), new long[2]);
            free.add(new NodeResources(n.nodeName(), n.allocatableCpuMillis() - used[0],
                    n.allocatableMemoryBytes() - used[1], n.allocatableCpuMillis(), n.allocatableMemoryBytes()));
        }
        free.sort(Comparator.comparingLong(NodeResources::freeCpuMillis).reversed()
                .thenComparing(Comparator.comparingLong(NodeResources::freeMemoryBytes).reversed())
                .thenComparing(NodeResources::nodeName));
        Map<String, NodeResources> out = new LinkedHashMap<>();
        for (NodeResources r : free) {
            out.put(r.nodeName(), r);
        }
        return out;
    }

    /**
     * The answer from the watched state, no API call.
     *
     * @return node name to free resources, most free CPU first; empty while the watch is not
     *         established (starting, reconnecting, refused): the caller must LIST
     */
    synchronized Optional<Map<String, NodeResources>> free() {
        ensureStarted();
        if (!watching() || catchingUp() != null) {
            return Optional.empty();
        }
        return Optional.of(free(nodes.values(), requested));
    }

    /** Refusals (401/403) of the watch so far. */
    long refusals() {
        return refusals.get();
    }

    @Override
    SharedIndexInformer<?>[] makeInformers() {
        held.clear();
        requested.clear();
        nodes.clear();
        otherNodes.clear();
        pending.clear();
        // Keys and resource versions only: the handlers keep what is counted (no resync, which would
        // hand them the reduced objects).
        SharedIndexInformer<Node> n = client.nodes().runnableInformer(0)
                .itemStore(new ReducedStateItemStore<>(ReducedStateItemStore.NAME_KEY_STATE, Node.class,
                        client.getKubernetesSerialization(), "spec.unschedulable"));
        nodeInformer = n;
        SharedIndexInformer<Pod> p = client.pods().inAnyNamespace().withoutField("spec.nodeName", "")
                .withoutField("status.phase", "Succeeded").withoutField("status.phase", "Failed")
                .runnableInformer(0)
                .itemStore(new ReducedStateItemStore<>(ReducedStateItemStore.NAME_KEY_STATE, Pod.class,
                        client.getKubernetesSerialization(), "spec.nodeName"));
        podInformer = p;
        int g = ++generation; // events of informers stopped earlier count no more
        n.addEventHandler(new Handler<Node>((o, deleted) -> nodeChanged(g, o, deleted)));
        p.addEventHandler(new Handler<Pod>((o, deleted) -> podChanged(g, o, deleted)));
        return new SharedIndexInformer<?>[] {n, p};
    }

    // The informers listed: the answer waits until the handler has seen what they listed.
    @Override
    void onSynced() {
        for (String k : podInformer.getStore().listKeys()) {
            if (!held.containsKey(k)) {
                pending.add("pod " + k);
            }
        }
        for (String k : nodeInformer.getStore().listKeys()) {
            if (!nodes.containsKey(k) && !otherNodes.contains(k)) {
                pending.add("node " + k);
            }
        }
    }

    @Override
    String catchingUp() {
        return pending.isEmpty() ? null : "watch taking in its list (" + pending.size() + " objects to go)";
    }

    @Override
    void onRefused(String error) {
        refusals.incrementAndGet();
        log.warn("The bridge may not watch nodes and pods cluster-wide ({}): each node-free-resources query "
                + "LISTs every pod instead; it needs list, watch on nodes and pods (ClusterRole "
                + "srv6int-k8s-bridge-capacity, k8s-bridge/deploy/bridge-rbac.yaml)", error);
    }

    private static String key(HasMetadata o) {
        return o.getMetadata().getNamespace() == null ? o.getMetadata().getName()
                : o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }

    private synchronized void podChanged(int g, Pod p, boolean deleted) {
        if (g != generation) {
            return;
        }
        String k = key(p);
        Held now = null; // a deleted pod's object may be the store's reduced one: its key is enough
        if (!deleted) {
            Held h = held(p);
            now = h != null ? h : NOTHING;
        }
        Held before = now == null ? held.remove(k) : held.put(k, now);
        if (before != null && before != NOTHING) {
            add(before, -1);
        }
        if (now != null && now != NOTHING) {
            add(now, 1);
        }
        if (!pending.isEmpty()) {
            pending.remove("pod " + k);
        }
    }

    private void add(Held h, int sign) {
        long[] sum = requested.computeIfAbsent(h.node, x -> new long[2]);
        sum[0] += sign * h.cpuMillis;
        sum[1] += sign * h.memoryBytes;
        if (sign < 0 && sum[0] == 0 && sum[1] == 0) {
            requested.remove(h.node);
        }
    }

    private synchronized void nodeChanged(int g, Node n, boolean deleted) {
        if (g != generation) {
            return;
        }
        String name = n.getMetadata().getName();
        NodeResources a = deleted ? null : allocatable(n);
        nodes.remove(name);
        otherNodes.remove(name);
        if (a != null) {
            nodes.put(name, a);
        } else if (!deleted) {
            otherNodes.add(name);
        }
        if (!pending.isEmpty()) {
            pending.remove("node " + name);
        }
    }
}
