// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.pods.PodEvents;
import org.srv6int.agent.pods.PodMetrics;
import org.srv6int.agent.pods.PodMetrics.Overwrite;
import org.srv6int.agent.pods.ReplicaPod;
import org.srv6int.agent.pods.ResizeCpuActuator;

import java.io.IOException;

/**
 * Compares each CPU value the agent set with what is there (the pod spec when resizing
 * through the API, cpu.max otherwise); a value seen different on {@value #OVERWRITE_CHECKS}
 * checks in a row was overwritten: written again, or taken (yield). Enforce mode only; the
 * loop's thread only.
 */
final class OverwriteCheck {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);
    /** Checks in a row a value must be seen overwritten before the agent reacts (absorbs informer lag). */
    static final int OVERWRITE_CHECKS = 2;

    private final AgentConfig.OverwritePolicy policy;
    private final boolean viaResize;
    private final PodMetrics podMetrics;
    private final PodEvents events;

    OverwriteCheck(AgentConfig.OverwritePolicy policy, boolean viaResize, PodMetrics podMetrics, PodEvents events) {
        this.policy = policy;
        this.viaResize = viaResize;
        this.podMetrics = podMetrics;
        this.events = events;
    }

    void check(Generation g) {
        ResourcePool pool = g.loop.pool(ResourceType.CPU_QUOTA);
        if (pool == null || g.cpu == null) {
            return;
        }
        for (int i = 0; i < g.members.size(); i++) {
            long want = pool.allocation(i);
            long seen;
            try {
                seen = viaResize ? ((ResizeCpuActuator) g.cpu).specLimit(i) : g.cpu.read(i);
            } catch (IOException e) {
                continue; // unreadable now; the next check tries again
            }
            if (seen == want) {
                g.mismatches[i] = 0;
                continue;
            }
            if (++g.mismatches[i] < OVERWRITE_CHECKS) {
                continue;
            }
            g.mismatches[i] = 0;
            String name = g.members.get(i).vnf.name;
            String what = viaResize ? "CPU limit in the pod spec" : "cpu.max";
            try {
                if (policy == AgentConfig.OverwritePolicy.YIELD && seen > 0 && seen != Long.MAX_VALUE) {
                    long took = pool.adopt(i, seen);
                    if (took != seen) {
                        g.cpu.write(i, took, new long[0]);
                    }
                    g.metrics.allocation(i, ResourceType.CPU_QUOTA, took);
                    podMetrics.overwrite(ResourceType.CPU_QUOTA, Overwrite.YIELDED);
                    say(g, i, "CpuOverwriteYielded", what + " of " + name + " was changed to " + seen
                            + "m by someone else; the agent now holds " + took + "m");
                } else {
                    g.cpu.write(i, want, new long[0]);
                    podMetrics.overwrite(ResourceType.CPU_QUOTA, Overwrite.REAPPLIED);
                    say(g, i, "CpuOverwriteReapplied", what + " of " + name + " was changed to "
                            + (seen == Long.MAX_VALUE ? "max" : seen < 0 ? "none" : seen + "m")
                            + " by someone else; " + want + "m applied again");
                }
            } catch (IOException e) {
                LOG.warn("overwrite of {} for {} not repaired: {}", what, name, e.getMessage());
            }
        }
    }

    private void say(Generation g, int vnf, String reason, String message) {
        LOG.warn(message);
        ReplicaPod pod = g.members.get(vnf).pod;
        if (pod != null && events != null) {
            events.post(pod, true, reason, message);
        }
    }
}
