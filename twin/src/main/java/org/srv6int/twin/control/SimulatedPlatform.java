// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import java.util.function.Function;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.ToLongFunction;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.k8s.bridge.ReplicaNames;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;

/**
 * The twin's default replica platform: a simulated Kubernetes in simulated time. A node's free
 * CPU is its simulated host's free cores on the NIC's NUMA node less the requests of pods still
 * starting (what the scheduler counts as requested). A created pod is scheduled on its pinned
 * node once its CPU request fits there (until then it is Pending, as an unschedulable pod is) and
 * is Ready {@link #STARTUP_S} after it was scheduled (what the KWOK stage of the real control
 * plane gives); a pod still Pending after {@link #READY_TIMEOUT_S} fails, as the bridge's
 * {@code readyTimeoutMs} does. Its replica is named as the Kubernetes bridge names workloads,
 * {@code sfc-<chain>-vnf<i>-r<k>}. It creates no model pod itself: the twin's routing does when
 * the loop adds the Ready replica, so any platform (this one, or a real kube-apiserver) works.
 * The node agents see its scheduled, not yet Ready pods as their informer would
 * ({@link NodePods}).
 */
public final class SimulatedPlatform implements ReplicaPlatform, SimulatedTime, NodePods {
    /** Pod start-up delay: scheduling, image present, container start (the KWOK stage's delay). */
    public static final double STARTUP_S = 3.0;
    /** A pod not Ready this long after its request fails (the bridge's default readyTimeoutMs). */
    public static final double READY_TIMEOUT_S = 120.0;
    /** Memory the simulated nodes report free; the model has no memory limit, so CPU decides. */
    static final long NODE_MEMORY_BYTES = 64L << 30;

    private final Map<String, CompletableFuture<ReplicaInfo>> requests = new HashMap<>();
    private final List<Host> hosts;
    private final Function<VnfKey, ResourceNeed> needs;
    private final List<String> events;
    private final Map<VnfKey, Integer> created = new LinkedHashMap<>();
    private final List<Pending> pending = new ArrayList<>();
    private volatile long version;
    private double nowS;

    private static final class Pending {
        final String node;
        final long cpuMillis;
        final ResourceNeed need;
        final double requestedAtS;
        final ReplicaInfo replica;
        final CompletableFuture<ReplicaInfo> future = new CompletableFuture<>();
        double readyAtS = Double.NaN;

        Pending(String node, ResourceNeed need, double requestedAtS, ReplicaInfo replica) {
            this.node = node;
            this.cpuMillis = need.cpuMillis();
            this.need = need;
            this.requestedAtS = requestedAtS;
            this.replica = replica;
        }

        boolean scheduled() {
            return !Double.isNaN(readyAtS);
        }
    }

    /**
     * Creates the platform.
     *
     * @param hosts         the simulated workers (Kubernetes nodes)
     * @param requestMillis CPU request of a new replica of a vNF, millicores
     * @param events        where pod requests are logged ("t s: pod ... requested on ...")
     */
    public SimulatedPlatform(List<Host> hosts, ToLongFunction<VnfKey> requestMillis, List<String> events) {
        this(events, hosts, k -> new ResourceNeed(requestMillis.applyAsLong(k), 0, 0));
    }

    /**
     * Creates the platform whose new pods also carry their vNF type's profile (LLC ways, memory
     * bandwidth) as the annotations the app has the bridge write, which the node agents hold.
     *
     * @param events where pod requests are logged
     * @param hosts  the simulated workers (Kubernetes nodes)
     * @param needs  a new replica's CPU request and profile
     */
    public SimulatedPlatform(List<String> events, List<Host> hosts,
                             Function<VnfKey, ResourceNeed> needs) {
        this.hosts = List.copyOf(hosts);
        this.needs = needs;
        this.events = events;
    }

    @Override
    public synchronized List<NodeResources> nodeFreeResources() {
        List<NodeResources> out = new ArrayList<>();
        for (Host h : hosts) {
            out.add(new NodeResources(h.name(), Math.max(0, freeMillis(h)), NODE_MEMORY_BYTES));
        }
        return out;
    }

    /** Free CPU of a node: its host's free cores less what scheduled, not yet Ready pods requested. */
    private long freeMillis(Host h) {
        long free = Math.round(h.free(Resource.CPU_QUOTA) * 1000);
        for (Pending p : pending) {
            if (p.scheduled() && p.node.equals(h.name())) {
                free -= p.cpuMillis;
            }
        }
        return free;
    }

    @Override
    public synchronized CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
        // As the bridge's request ledger: a repeated request gets the first request's pod.
        CompletableFuture<ReplicaInfo> known = requests.get(vnf + "/" + requestId);
        if (known != null) {
            return known;
        }
        int index = hostIndex(node);
        if (index < 0) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("no node " + node));
        }
        int k = created.merge(vnf, 1, Integer::sum);
        String id = "sfc-" + vnf.sfcId().tag() + "-vnf" + vnf.index() + "-r" + k;
        ReplicaInfo r = new ReplicaInfo(id, node, "10.244." + index + "." + (pending.size() + k + 1));
        Pending p = new Pending(node, needs.apply(vnf), nowS, r);
        pending.add(p);
        events.add(String.format(Locale.ROOT, "%.1f s: pod %s requested on %s (%d millicores)", nowS, id, node,
                p.cpuMillis));
        schedule(p);
        requests.put(vnf + "/" + requestId, p.future);
        return p.future;
    }

    /** Binds a Pending pod to its node if its request fits there now. */
    private void schedule(Pending p) {
        if (!p.scheduled() && p.cpuMillis <= freeMillis(hosts.get(hostIndex(p.node)))) {
            p.readyAtS = nowS + STARTUP_S;
            version++;
            if (nowS > p.requestedAtS) {
                events.add(String.format(Locale.ROOT, "%.1f s: pod %s scheduled on %s", nowS, p.replica.id(),
                        p.node));
            }
        }
    }

    @Override
    public long version() {
        return version;
    }

    @Override
    public synchronized List<Pod> boundTo(String node) {
        List<Pod> out = new ArrayList<>();
        for (Pending p : pending) {
            if (p.scheduled() && p.node.equals(node)) {
                Map<String, Quantity> cpu = Map.of("cpu", new Quantity(p.cpuMillis + "m"));
                out.add(new PodBuilder().withNewMetadata().withName(p.replica.id() + "-0").withNamespace("srv6int-sfc")
                        .withUid(UUID.nameUUIDFromBytes(p.replica.id().getBytes(StandardCharsets.UTF_8)).toString())
                        .withLabels(Map.of(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER))
                        .withAnnotations(ReplicaNames.profileAnnotations(p.need.llcWays(),
                                p.need.memoryBandwidthPercent())).endMetadata()
                        .withNewSpec().withNodeName(node).addNewContainer().withName("vnf").withNewResources()
                        .withRequests(cpu).withLimits(cpu).endResources().endContainer().endSpec()
                        .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled")
                        .withStatus("True").endCondition().endStatus().build());
            }
        }
        return out;
    }

    @Override
    public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
        // The model pod goes when the loop removes the replica from the inventory.
        return CompletableFuture.completedFuture(null);
    }

    private int hostIndex(String node) {
        for (int i = 0; i < hosts.size(); i++) {
            if (hosts.get(i).name().equals(node)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void advanceTo(double now) {
        List<Pending> due = new ArrayList<>();
        List<Pending> failed = new ArrayList<>();
        synchronized (this) {
            nowS = now;
            for (Iterator<Pending> it = pending.iterator(); it.hasNext();) {
                Pending p = it.next();
                schedule(p);
                if (p.scheduled() && p.readyAtS <= now + 1e-9) {
                    due.add(p);
                    it.remove();
                    version++;
                } else if (!p.scheduled() && now - p.requestedAtS >= READY_TIMEOUT_S) {
                    failed.add(p);
                    it.remove();
                    events.add(String.format(Locale.ROOT, "%.1f s: pod %s still Pending (insufficient cpu on %s)",
                            now, p.replica.id(), p.node));
                }
            }
        }
        // Outside the lock: completing runs the loop's callback, which adds the replica.
        for (Pending p : due) {
            p.future.complete(p.replica);
        }
        for (Pending p : failed) {
            p.future.completeExceptionally(new IllegalStateException("pod " + p.replica.id() + " not Ready within "
                    + READY_TIMEOUT_S + " s: insufficient cpu on " + p.node));
        }
    }
}
