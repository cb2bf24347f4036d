// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.SfcService;

/**
 * Removes a chain with its replicas and flow entries.
 */
@Service
@Command(scope = "onos", name = "sfc-remove", description = "Removes a service function chain")
public class SfcRemoveCommand extends Srv6IntCommand {

    @Argument(index = 0, name = "id", description = "Chain id", required = true)
    @Completion(SfcIdCompleter.class)
    String id;

    @Override
    protected void run() {
        service(SfcService.class).removeSfc(sfcId(id));
        print("Removed chain %s", id);
    }
}
