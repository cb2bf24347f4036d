// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;

import org.srv6int.k8s.bridge.ReplicaNames;

import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the scheduler has promised to pods of this node that the agent does not manage: the
 * CPU requests of every pod bound to the node (any namespace, srv6int replica or not) that
 * is not terminated and not one of the agent's vNFs — a replica scheduled but not yet Ready,
 * a replica the agent refused or that opted out, any other workload. The agent holds this
 * out of its CPU pool, so it never hands those cores to its vNFs (in-place resize) and the
 * kubelet never has to refuse a resize for lack of allocatable CPU. A replica's LLC ways and
 * memory bandwidth have no Kubernetes request: the bridge writes its vNF type's profile as the
 * annotations {@link ReplicaNames#ANNOTATION_LLC_WAYS} and
 * {@link ReplicaNames#ANNOTATION_MEMORY_BANDWIDTH}, and those are held the same way, for pods
 * that will run on the agent's NUMA node (no {@link ReplicaNames#ANNOTATION_NUMA_NODE}, or that
 * node).
 *
 * <p>A pod's request is computed as the scheduler does: the larger of its containers' sum
 * (restartable init containers, i.e. sidecars, added) and its largest init container, plus
 * the pod overhead; a container with a CPU limit and no request counts its limit (the API
 * server's defaulting). A request that cannot be read reserves nothing and is reported.
 */
public final class Reservations {

    private final long cpuMillis;
    private final long llcWays;
    private final long memoryBandwidthPercent;
    private final int pods;
    private final Map<String, String> unreadable;

    private Reservations(long cpuMillis, long llcWays, long memoryBandwidthPercent, int pods,
                         Map<String, String> unreadable) {
        this.cpuMillis = cpuMillis;
        this.llcWays = llcWays;
        this.memoryBandwidthPercent = memoryBandwidthPercent;
        this.pods = pods;
        this.unreadable = unreadable;
    }

    /**
     * Adds up the requests of the node's pods the agent does not manage.
     *
     * @param pods every pod bound to this node, as the informer holds them
     * @param managed UIDs of the pods the agent manages now (their CPU is in the pool)
     * @param numaNode the NUMA node whose LLC and memory bandwidth the agent's pools share (-1:
     *                 unknown, every pod's profile is held)
     * @return the reservations
     */
    public static Reservations of(Collection<Pod> pods, Set<String> managed, int numaNode) {
        long cpu = 0;
        long ways = 0;
        long mb = 0;
        int counted = 0;
        Map<String, String> bad = new LinkedHashMap<>();
        for (Pod p : pods) {
            String uid = p.getMetadata() == null ? null : p.getMetadata().getUid();
            if (uid == null || managed.contains(uid) || !holds(p)) {
                continue;
            }
            String name = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName() + ": ";
            try {
                long m = cpuRequestMillis(p);
                if (m > Long.MAX_VALUE - cpu) {
                    throw new IOException("requests of this node's pods add up to more millicores than fit in a long");
                }
                cpu += m;
                counted++;
            } catch (IOException e) {
                bad.put(uid, name + e.getMessage());
            }
            Map<String, String> ann = p.getMetadata().getAnnotations();
            try {
                if (onNode(ann, numaNode)) { // both read before either counts: a bad one holds nothing
                    long w = ReplicaNames.annotationValue(ann, ReplicaNames.ANNOTATION_LLC_WAYS,
                            ReplicaNames.MAX_LLC_WAYS);
                    long b = ReplicaNames.annotationValue(ann, ReplicaNames.ANNOTATION_MEMORY_BANDWIDTH,
                            ReplicaNames.MAX_MEMORY_BANDWIDTH);
                    ways += w; // each at most 64 or 100 per pod: no overflow for any pod count
                    mb += b;
                }
            } catch (IllegalArgumentException e) {
                bad.merge(uid, name + e.getMessage() + " (its profile holds nothing)", (x, y) -> x + "; " + y);
            }
        }
        return new Reservations(cpu, ways, mb, counted, Map.copyOf(bad));
    }

    // The pod's profile shares the agent's pools when it will run on the agent's NUMA node.
    private static boolean onNode(Map<String, String> ann, int numaNode) {
        long wanted = ReplicaNames.annotationValue(ann, ReplicaNames.ANNOTATION_NUMA_NODE, Integer.MAX_VALUE);
        return numaNode < 0 || ann == null || ann.get(ReplicaNames.ANNOTATION_NUMA_NODE) == null
                || wanted == numaNode;
    }

    /** Bound to a node and not terminated: the scheduler and the kubelet count its requests. */
    private static boolean holds(Pod p) {
        if (p.getSpec() == null || p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty()) {
            return false;
        }
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    /**
     * A pod's CPU request as the scheduler counts it.
     *
     * @param pod pod
     * @return millicores, 0 if nothing is requested
     * @throws IOException naming the container and the value that cannot be read
     */
    public static long cpuRequestMillis(Pod pod) throws IOException {
        try {
            return sum(pod);
        } catch (ArithmeticException e) {
            throw new IOException("CPU requests add up to more millicores than fit in a long", e);
        }
    }

    private static long sum(Pod pod) throws IOException {
        long containers = 0;
        if (pod.getSpec().getContainers() != null) {
            for (Container c : pod.getSpec().getContainers()) {
                containers = Math.addExact(containers, containerMillis(c));
            }
        }
        long sidecars = 0;
        long init = 0;
        List<Container> inits = pod.getSpec().getInitContainers();
        if (inits != null) {
            for (Container c : inits) {
                long m = containerMillis(c);
                if ("Always".equals(c.getRestartPolicy())) { // a sidecar runs beside the containers
                    sidecars = Math.addExact(sidecars, m);
                    containers = Math.addExact(containers, m);
                    init = Math.max(init, sidecars);
                } else {
                    init = Math.max(init, Math.addExact(m, sidecars));
                }
            }
        }
        long overhead = pod.getSpec().getOverhead() == null ? 0
                : millis(pod.getSpec().getOverhead(), "pod overhead");
        return Math.addExact(Math.max(containers, init), overhead);
    }

    private static long containerMillis(Container c) throws IOException {
        if (c.getResources() == null) {
            return 0;
        }
        Map<String, Quantity> requests = c.getResources().getRequests();
        if (requests != null && requests.get("cpu") != null) {
            return millis(requests, "container " + c.getName() + " requests.cpu");
        }
        Map<String, Quantity> limits = c.getResources().getLimits();
        return limits != null && limits.get("cpu") != null ? millis(limits, "container " + c.getName() + " limits.cpu")
                : 0;
    }

    private static long millis(Map<String, Quantity> resources, String what) throws IOException {
        if (resources.get("cpu") == null) {
            return 0;
        }
        long m;
        try {
            m = ReplicaPod.cpuMillis(resources);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IOException(what + " '" + resources.get("cpu") + "' is not a CPU quantity that fits in "
                    + "millicores (" + e.getMessage() + ")", e);
        }
        if (m < 0) {
            throw new IOException(what + " '" + resources.get("cpu") + "' is negative");
        }
        return m;
    }

    /**
     * CPU promised to the pods counted.
     *
     * @return millicores
     */
    public long cpuMillis() {
        return cpuMillis;
    }

    /**
     * LLC ways promised to the pods counted (their profile annotations).
     *
     * @return ways
     */
    public long llcWays() {
        return llcWays;
    }

    /**
     * Memory-bandwidth percent promised to the pods counted (their profile annotations).
     *
     * @return percent
     */
    public long memoryBandwidthPercent() {
        return memoryBandwidthPercent;
    }

    /**
     * Pods counted (bound, not terminated, not managed, request readable; a pod requesting
     * nothing is counted with 0).
     *
     * @return count
     */
    public int pods() {
        return pods;
    }

    /**
     * Pods whose CPU request or profile could not be read (what could not be read reserves
     * nothing), with why.
     *
     * @return pod UID to message
     */
    public Map<String, String> unreadable() {
        return unreadable;
    }
}
