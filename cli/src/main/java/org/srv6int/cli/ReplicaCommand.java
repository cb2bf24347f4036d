// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.rest.ReplicaCodec;

/**
 * Common part of the replica commands: parsing a replica id and printing the replica the
 * inventory returned, as one line or as the REST resource's JSON.
 */
abstract class ReplicaCommand extends Srv6IntCommand {

    static VnfReplicaId replicaId(String text) {
        return VnfReplicaId.valueOf(text);
    }

    void printReplica(String verb, VnfReplica r) {
        if (outputJson()) {
            print("%s", new ReplicaCodec().encode(r, this));
            return;
        }
        print("%s replica=%s, node=%s, sid=%s, state=%s, weight=%s", verb, r.id(), r.node(), r.sid(), r.state(),
              r.weight());
    }
}
