// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.srv6int.agent.actuate.ContainerCgroup;
import org.srv6int.agent.actuate.CpuQuotaActuator;
import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * CPU quota through the API: a strategic-merge patch of the pod's {@code resize}
 * subresource (in-place pod resize) sets the container's CPU limit, which the kubelet
 * turns into {@code cpu.max}; {@code kubectl} then shows the value the vNF really has.
 * The request follows the limit for a Guaranteed pod (its QoS class may not change) and
 * is lowered to the limit when it would exceed it. Reads come from the container's
 * cgroup (what the kernel enforces now).
 */
public final class ResizeCpuActuator implements ResourceActuator {

    /** Patch outcomes, for the metrics. */
    public static final int OK = 0;
    /** The API server refused the patch or could not be reached. */
    public static final int FAILED = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final List<ReplicaPod> pods;
    private final Function<String, Pod> current;
    private final CpuQuotaActuator cgroup;
    private final AtomicLongArray patches;

    /**
     * Creates the actuator.
     *
     * @param client API client (needs patch on pods/resize)
     * @param pods the managed pods, by vNF index
     * @param current the latest view of a pod by UID (the informer's), null if gone
     * @param cgroups container cgroup per vNF (reads)
     * @param periodUs quota period (reads)
     * @param patches counters by outcome ({@link #OK}, {@link #FAILED})
     */
    public ResizeCpuActuator(KubernetesClient client, List<ReplicaPod> pods, Function<String, Pod> current,
                             List<ContainerCgroup> cgroups, long periodUs, AtomicLongArray patches) {
        this.client = client;
        this.pods = List.copyOf(pods);
        this.current = current;
        this.cgroup = new CpuQuotaActuator(cgroups, periodUs);
        this.patches = patches;
    }

    @Override
    public ResourceType type() {
        return ResourceType.CPU_QUOTA;
    }

    @Override
    public long read(int vnf) throws IOException {
        return cgroup.read(vnf);
    }

    /**
     * The CPU limit the API holds for vNF's container now (the informer's view).
     *
     * @param vnf index
     * @return millicores, -1 if the pod is gone or has no CPU limit
     */
    public long specLimit(int vnf) {
        Pod p = current.apply(pods.get(vnf).uid());
        Container c = p == null ? null : container(p, pods.get(vnf).container());
        return c == null || c.getResources() == null ? -1 : ReplicaPod.cpuMillis(c.getResources().getLimits());
    }

    private static Container container(Pod p, String name) {
        if (p.getSpec() == null || p.getSpec().getContainers() == null) {
            return null;
        }
        for (Container c : p.getSpec().getContainers()) {
            if (name.equals(c.getName())) {
                return c;
            }
        }
        return null;
    }

    @Override
    public void write(int vnf, long millicores, long[] allocations) throws IOException {
        ReplicaPod rp = pods.get(vnf);
        Pod now = current.apply(rp.uid());
        Container c = now == null ? null : container(now, rp.container());
        if (c == null) {
            throw new IOException("pod " + rp + " or its container " + rp.container() + " is gone");
        }
        long limit = c.getResources() == null ? -1 : ReplicaPod.cpuMillis(c.getResources().getLimits());
        long request = c.getResources() == null ? -1 : ReplicaPod.cpuMillis(c.getResources().getRequests());
        boolean guaranteed = "Guaranteed".equals(rp.qosClass());
        long newRequest = guaranteed ? millicores : request > millicores ? millicores : -1;
        if (limit == millicores && (newRequest < 0 || newRequest == request)) {
            return; // the API already holds it: no write, no new pod generation
        }
        Map<String, Object> res = new LinkedHashMap<>();
        res.put("limits", Map.of("cpu", millicores + "m"));
        if (newRequest >= 0) {
            res.put("requests", Map.of("cpu", newRequest + "m"));
        }
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", rp.container());
        container.put("resources", res);
        String patch = JSON.writeValueAsString(Map.of("spec", Map.of("containers", List.of(container))));
        try {
            Pod after = client.pods().inNamespace(rp.namespace()).withName(rp.name()).subresource("resize")
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
            Container ac = after == null ? null : container(after, rp.container());
            long got = ac == null || ac.getResources() == null ? -1
                    : ReplicaPod.cpuMillis(ac.getResources().getLimits());
            if (got != millicores) {
                patches.incrementAndGet(FAILED);
                throw new IOException("resize of " + rp + " to " + millicores + "m answered with limit " + got + "m");
            }
            patches.incrementAndGet(OK);
        } catch (KubernetesClientException e) {
            patches.incrementAndGet(FAILED);
            throw new IOException("resize of " + rp + " to " + millicores + "m refused: " + e.getMessage(), e);
        }
    }
}
