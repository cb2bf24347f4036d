// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;

/**
 * Adds a replica of a vNF by hand (REST: POST /vnfs/{sfc}/{index}/replicas).
 */
@Service
@Command(scope = "onos", name = "vnf-replica-add",
        description = "Adds a replica of a chain's vNF on a node and routes the chain over it")
public class ReplicaAddCommand extends ReplicaCommand {

    @Argument(index = 0, name = "sfc", description = "Chain id", required = true)
    @Completion(SfcIdCompleter.class)
    String sfc;

    @Argument(index = 1, name = "index", description = "vNF index in the chain (0-based)", required = true)
    String index;

    @Argument(index = 2, name = "node", description = "Node (a server attached in netcfg)", required = true)
    String node;

    @Override
    protected void run() {
        int i;
        try {
            i = Integer.parseInt(index);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("vNF index must be a number, got " + index, e);
        }
        printReplica("Added", service(VnfInventoryService.class).addReplica(VnfKey.of(sfcId(sfc), i), node));
    }
}
