// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;
import org.srv6int.app.api.model.VnfReplica;

/**
 * JSON of a vNF replica (encode only; replicas are created from a node name).
 */
public final class ReplicaCodec extends JsonCodec<VnfReplica> {

    @Override
    public ObjectNode encode(VnfReplica r, CodecContext context) {
        ObjectNode o = context.mapper().createObjectNode()
                .put("id", r.id().toString())
                .put("sfcId", r.vnf().sfcId().tag())
                .put("vnfIndex", r.vnf().index())
                .put("name", r.id().name())
                .put("node", r.node())
                .put("deviceId", r.deviceId().toString())
                .put("port", r.port().toLong())
                .put("sid", r.sid().toString())
                .put("mac", r.mac().toString())
                .put("state", r.state().name())
                .put("weight", r.weight());
        if (r.numaNode() != VnfReplica.NO_NUMA_NODE) {
            o.put("numaNode", r.numaNode());
        }
        return o;
    }
}
