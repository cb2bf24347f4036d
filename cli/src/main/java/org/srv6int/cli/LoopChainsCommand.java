// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.rest.TelemetryCodecs;

import java.util.List;
import java.util.Map;

/**
 * Shows every chain's liveness as the failure detection sees it (docs/failures.md).
 */
@Service
@Command(scope = "onos", name = "loop-chains",
        description = "Shows each chain's liveness (UP, IDLE, DOWN with the last hop seen) and the failure counters")
public class LoopChainsCommand extends Srv6IntCommand {

    @Override
    protected void run() {
        GlobalLoopService loop = service(GlobalLoopService.class);
        List<ChainState> states = loop.chainStates();
        Map<String, Long> counters = loop.failureCounters();
        if (outputJson()) {
            ObjectNode root = mapper().createObjectNode();
            ArrayNode a = root.putArray("chains");
            TelemetryCodecs.ChainStateCodec c = new TelemetryCodecs.ChainStateCodec();
            states.forEach(s -> a.add(c.encode(s, this)));
            ObjectNode n = root.putObject("counters");
            counters.forEach(n::put);
            print("%s", root);
            return;
        }
        for (ChainState s : states) {
            print("chain %d: %s since %d%s%s%s", s.sfc().tag(), s.liveness(), s.sinceMillis(),
                  s.reason().isEmpty() ? "" : " (" + s.reason() + "; last hop seen: " + s.lastHopSeen() + ")",
                  s.classifiedPackets() < 0 ? ", ingress counter unreadable"
                          : ", ingress classified " + s.classifiedPackets(),
                  s.deadReplicas().isEmpty() ? "" : ", dead replicas " + s.deadReplicas());
        }
        print("counters: %s", counters);
    }
}
