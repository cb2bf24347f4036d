// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.rest.ReplicaCodec;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lists vNF replicas.
 */
@Service
@Command(scope = "onos", name = "vnfs", description = "Lists vNF replicas, of one chain or all")
public class VnfsCommand extends Srv6IntCommand {

    @Argument(index = 0, name = "id", description = "Chain id")
    @Completion(SfcIdCompleter.class)
    String id;

    @Override
    protected void run() {
        VnfInventoryService inv = service(VnfInventoryService.class);
        Collection<VnfReplica> all = id == null ? inv.getReplicas() : inv.getReplicas(sfcId(id));
        List<VnfReplica> rs = all.stream().sorted(Comparator.comparing(VnfReplica::id))
                .collect(Collectors.toList());
        if (outputJson()) {
            ArrayNode a = mapper().createArrayNode();
            ReplicaCodec codec = new ReplicaCodec();
            rs.forEach(r -> a.add(codec.encode(r, this)));
            print("%s", a);
            return;
        }
        for (VnfReplica r : rs) {
            print("replica=%s, node=%s, location=%s, sid=%s, state=%s, weight=%s", r.id(), r.node(),
                  r.location(), r.sid(), r.state(), r.weight());
        }
    }
}
