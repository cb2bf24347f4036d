// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.SfcPaths;

/**
 * JSON of a chain's segment lists (travel order, switch path, replicas, weight).
 */
public final class SfcPathsCodec extends JsonCodec<SfcPaths> {

    @Override
    public ObjectNode encode(SfcPaths p, CodecContext context) {
        ObjectNode n = context.mapper().createObjectNode().put("sfcId", p.sfcId().tag())
                .put("totalWeight", p.totalWeight());
        ArrayNode lists = n.putArray("segmentLists");
        for (SegmentList l : p.segmentLists()) {
            ObjectNode o = lists.addObject().put("weight", l.weight());
            ArrayNode s = o.putArray("segments");
            l.segments().forEach(x -> s.add(x.toString()));
            ArrayNode sw = o.putArray("switchPath");
            l.switchPath().forEach(x -> sw.add(x.toString()));
            ArrayNode r = o.putArray("replicas");
            l.replicas().forEach(x -> r.add(x.toString()));
        }
        return n;
    }
}
