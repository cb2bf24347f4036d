// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.obs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;

import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The agent's pool report to the ONOS app (docs/node-agent.md, "Pool report"):
 * {@code {"node":"worker2","pools":[{"cpuMillis":{"free":3250,"reclaimable":500,"budget":10000},
 * "llcWays":{"free":1,"reclaimable":2,"budget":11},"memoryBandwidthPercent":{...}}]}}: what each
 * of the loop's pools holds unassigned (budget minus allocations minus the steps held by pending
 * trials), what Algorithm 2 could take back for a newcomer from the vNFs with slack (their
 * allocations above the floor, {@code LocalLoop#reclaimable}), and its budget. The local loop
 * hands every unassigned step to a vNF over its bound, so "free" alone is often 0 on a busy
 * node that could still make room. The pools span the node (the agent keeps one budget
 * per type), so the report has one entry without {@code numaNode}. A type the host does not offer
 * (no resctrl, no cpufreq) is reported as 0 of 0: not partitioned, the app does not check it.
 */
public final class PoolReport {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ResourceType[] TYPES = {ResourceType.CPU_QUOTA, ResourceType.LLC,
        ResourceType.MEMORY_BANDWIDTH};
    private static final String[] FIELDS = {"cpuMillis", "llcWays", "memoryBandwidthPercent"};

    private PoolReport() {
    }

    /**
     * The JSON body.
     *
     * @param node        this node's name
     * @param pools       the loop's pool of a type, null if the host does not offer it
     * @param reclaimable what the loop could take back of a type from vNFs with slack
     * @return JSON text
     */
    public static String body(String node, Function<ResourceType, ResourcePool> pools,
                              ToLongFunction<ResourceType> reclaimable) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("node", node);
        ObjectNode p = root.putArray("pools").addObject();
        for (int i = 0; i < TYPES.length; i++) {
            ResourcePool pool = pools.apply(TYPES[i]);
            long budget = pool == null ? 0 : Math.max(0, pool.budget());
            long free = pool == null ? 0 : Math.max(0, Math.min(budget, pool.free()));
            long back = pool == null ? 0 : Math.max(0, Math.min(budget - free, reclaimable.applyAsLong(TYPES[i])));
            ObjectNode o = p.putObject(FIELDS[i]);
            o.put("free", free);
            o.put("reclaimable", back);
            o.put("budget", budget);
        }
        return root.toString();
    }
}
