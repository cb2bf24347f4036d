// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.rest.TelemetryCodecs;

import java.util.List;

/**
 * Shows the global loop's recent decisions.
 */
@Service
@Command(scope = "onos", name = "loop-decisions", description = "Shows the global loop's decisions, newest first")
public class LoopDecisionsCommand extends Srv6IntCommand {

    @Option(name = "-n", aliases = "--limit", description = "Most decisions to show (1..1000)")
    int limit = 20;

    @Override
    protected void run() {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("--limit must be in 1..1000, got " + limit);
        }
        List<LoopDecision> ds = service(GlobalLoopService.class).decisions(limit);
        if (outputJson()) {
            ArrayNode a = mapper().createArrayNode();
            TelemetryCodecs.LoopDecisionCodec c = new TelemetryCodecs.LoopDecisionCodec();
            ds.forEach(d -> a.add(c.encode(d, this)));
            print("%s", a);
            return;
        }
        for (LoopDecision d : ds) {
            print("time=%d, vnf=%s, action=%s, replicas %d->%d, outcome=%s%s, inputs=%s", d.timeMillis(), d.vnf(),
                  d.action(), d.replicasBefore(), d.replicasAfter(), d.outcome(),
                  d.detail().isEmpty() ? "" : " (" + d.detail() + ")", d.inputs());
        }
    }
}
