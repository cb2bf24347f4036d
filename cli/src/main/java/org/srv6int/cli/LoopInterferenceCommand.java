// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.InterferenceView;
import org.srv6int.app.api.model.VnfClass;
import org.srv6int.app.rest.InterferenceJson;

import java.util.List;

/**
 * Shows the interference matrix the replica placement uses (vnf-interference.txt): a target
 * class's normalized throughput next to each competitor class, now and as the paper measured it.
 */
@Service
@Command(scope = "onos", name = "loop-interference",
        description = "Shows the vNF-class interference matrix: normalized throughput now (paper) [samples]")
public class LoopInterferenceCommand extends Srv6IntCommand {

    @Argument(index = 0, name = "target", description = "Target class I..V (default: all)")
    String target;

    @Override
    protected void run() {
        List<VnfClass> rows = target == null ? List.of(VnfClass.values()) : List.of(VnfClass.parse(target));
        InterferenceView v = service(GlobalLoopService.class).interference();
        if (outputJson()) {
            print("%s", InterferenceJson.encode(mapper(), v, rows));
            return;
        }
        StringBuilder head = new StringBuilder("target \\ next to");
        for (VnfClass c : VnfClass.values()) {
            head.append(String.format("  %-22s", c.roman()));
        }
        print("%s", head);
        for (VnfClass t : rows) {
            StringBuilder line = new StringBuilder(String.format("%-16s", t.roman()));
            for (VnfClass c : VnfClass.values()) {
                line.append(String.format("  %5.1f%% (%5.1f%%) [%4d]", 100 * v.normalized(t, c), 100 * v.seed(t, c),
                                          v.samples(t, c)));
            }
            print("%s", line);
        }
        for (VnfClass c : VnfClass.values()) {
            print("%-4s %s", c.roman(), c.operation());
        }
    }
}
