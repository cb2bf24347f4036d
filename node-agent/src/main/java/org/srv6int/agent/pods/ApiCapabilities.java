// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.agent.AgentConfig;

import java.io.IOException;

/** What the agent learns from the API server once at start, each choice logged. */
public final class ApiCapabilities {

    private static final Logger LOG = LoggerFactory.getLogger("org.srv6int.agent.NodeAgent");

    private ApiCapabilities() {
    }

    /**
     * Whether CPU quota goes through pods/resize (else cpu.max directly).
     *
     * @param setting the config's cpuActuation
     * @param client  API client
     * @return true for resize
     */
    public static boolean resize(AgentConfig.CpuActuation setting, KubernetesClient client) {
        switch (setting) {
            case CGROUP:
                LOG.info("CPU quota: cpu.max written directly (cpuActuation CGROUP)");
                return false;
            case RESIZE:
                LOG.info("CPU quota: pods/resize through the API (cpuActuation RESIZE)");
                return true;
            default:
                try {
                    APIResourceList l = client.getApiResources("v1");
                    boolean has = false;
                    for (APIResource r : l.getResources()) {
                        has |= "pods/resize".equals(r.getName());
                    }
                    LOG.info(has ? "CPU quota: pods/resize through the API (the API server offers in-place resize)"
                            : "CPU quota: the API server has no pods/resize; FALLBACK to cpu.max written directly");
                    return has;
                } catch (KubernetesClientException e) {
                    LOG.warn("CPU quota: API discovery failed ({}); FALLBACK to cpu.max written directly",
                            e.getMessage());
                    return false;
                }
        }
    }

    /**
     * The node's allocatable CPU.
     *
     * @param follower the node's pod follower
     * @param node     node name
     * @return millicores; -1 (not capped) if the node cannot be read or reports none
     */
    public static long allocatable(PodFollower follower, String node) {
        try {
            long m = follower.allocatableCpuMillis();
            LOG.info(m < 0 ? "node {}: no allocatable CPU reported; the CPU pool is not capped by it"
                    : "node {}: allocatable CPU {}m caps what the agent hands out", node, m);
            return m;
        } catch (IOException e) {
            LOG.warn("node {}: {}; the CPU pool is not capped by its allocatable CPU", node, e.getMessage());
            return -1;
        }
    }
}
