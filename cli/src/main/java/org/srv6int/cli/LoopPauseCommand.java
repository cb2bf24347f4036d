// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.ChainOwnershipService;
import org.srv6int.app.api.GlobalLoopService;

/**
 * Pauses the global loop of one chain (REST: POST /loop/chains/{id}/pause).
 */
@Service
@Command(scope = "onos", name = "loop-pause",
        description = "Pauses the global loop of one chain (no scaling until loop-resume)")
public class LoopPauseCommand extends Srv6IntCommand {

    @Argument(index = 0, name = "id", description = "Chain id", required = true)
    @Completion(SfcIdCompleter.class)
    String id;

    /** True in loop-resume. */
    boolean resume() {
        return false;
    }

    @Override
    protected void run() {
        // pause is part of a ServiceFunctionChain's spec: such a chain changes only through its object
        service(ChainOwnershipService.class).checkChangeable(sfcId(id));
        GlobalLoopService loop = service(GlobalLoopService.class);
        loop.setPaused(sfcId(id), !resume());
        print("Global loop %s for chain %s; paused chains: %s", resume() ? "resumed" : "paused", id,
              loop.pausedChains());
    }
}
