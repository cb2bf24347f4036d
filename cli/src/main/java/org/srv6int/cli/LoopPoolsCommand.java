// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.model.NodePools;
import org.srv6int.app.rest.PoolReportCodec;

/**
 * Shows the node agents' pool reports the global loop places replicas by (docs/global-loop.md,
 * "Pools"): per node what its pools hold free and what the agent can take back, the report's
 * age and whether it is still used.
 */
@Service
@Command(scope = "onos", name = "loop-pools",
        description = "Shows each node agent's last pool report (free + reclaimable CPU, LLC ways, memory bandwidth)")
public class LoopPoolsCommand extends Srv6IntCommand {

    @Override
    protected void run() {
        NodePoolService pools = service(NodePoolService.class);
        long now = pools.nowMillis();
        long[] c = pools.counters();
        if (outputJson()) {
            print("%s", PoolReportCodec.encodeAll(pools, mapper()));
            return;
        }
        for (NodePools p : pools.all()) {
            long age = now - p.receivedAtMillis();
            print("%s: %s; %d ms old%s", p.node(), p.freeText(), age,
                  age > pools.maxAgeMillis() ? " (stale: placement by CPU only)" : "");
        }
        print("reports accepted %d, malformed %d, unknown node %d", c[0], c[1], c[2]);
    }
}
