// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.VnfLoopState;
import org.srv6int.app.rest.TelemetryCodecs;

/**
 * Shows the global loop's status.
 */
@Service
@Command(scope = "onos", name = "loop-status", description = "Shows the global closed loop's status")
public class LoopStatusCommand extends Srv6IntCommand {

    @Override
    protected void run() {
        LoopStatus s = service(GlobalLoopService.class).status();
        if (outputJson()) {
            print("%s", new TelemetryCodecs.LoopStatusCodec().encode(s, this));
            return;
        }
        print("enabled=%s, leader=%s (runs on %s), t-hat=%d ms, last evaluation=%d", s.enabled(), s.leader(),
              s.leaderNode().isEmpty() ? "none" : s.leaderNode(), s.tHatMillis(), s.lastEvaluationMillis());
        print("paused chains: %s", service(GlobalLoopService.class).pausedChains());
        for (VnfLoopState v : s.vnfs()) {
            print("  vnf %s: L=%d ns (Lmax %d), R=%.0f pps, replicas=%d%s", v.vnf(), v.latencyNanos(),
                  v.lmaxNanos(), v.throughputPps(), v.replicas(),
                  v.violating() ? ", violating since " + v.violatingSinceMillis() : "");
        }
    }
}
