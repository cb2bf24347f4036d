// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.VnfInventoryService;

/**
 * Removes a replica from the chain (REST: DELETE .../replicas/{name}).
 */
@Service
@Command(scope = "onos", name = "vnf-replica-remove", description = "Removes a replica from its chain")
public class ReplicaRemoveCommand extends ReplicaCommand {

    @Argument(index = 0, name = "replica", description = "Replica id <chain>/<index>/<name>", required = true)
    @Completion(ReplicaIdCompleter.class)
    String replica;

    @Override
    protected void run() {
        printReplica("Removed", service(VnfInventoryService.class).removeReplica(replicaId(replica)));
    }
}
