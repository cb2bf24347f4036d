// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.VnfInventoryService;

/**
 * Drains a replica: weight 0, no new traffic (REST: POST .../replicas/{name}/drain).
 */
@Service
@Command(scope = "onos", name = "vnf-replica-drain",
        description = "Drains a replica (weight 0: the chain stops sending it traffic)")
public class ReplicaDrainCommand extends ReplicaCommand {

    @Argument(index = 0, name = "replica", description = "Replica id <chain>/<index>/<name>", required = true)
    @Completion(ReplicaIdCompleter.class)
    String replica;

    @Override
    protected void run() {
        printReplica("Drained", service(VnfInventoryService.class).drainReplica(replicaId(replica)));
    }
}
