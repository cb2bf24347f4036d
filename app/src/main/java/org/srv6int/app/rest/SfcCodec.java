// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import java.util.function.Supplier;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onlab.packet.IpPrefix;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON of a chain:
 * <pre>
 * { "id": 1, "name": "sfc1", "ingress": "of:0000000000000001/1", "egress": "of:0000000000000004/2",
 *   "classifier": { "srcPrefix": "10.0.1.0/24", "dstPrefix": "10.0.4.0/24",
 *                   "ipProto": 17, "l4SrcPort": 0, "l4DstPort": 5001 },
 *   "vnfs": [ { "type": "fwd", "lmaxNs": 1000000 } ], "intSamplingRate": 1 }
 * </pre>
 * Decoding throws {@link InvalidFieldException} naming the bad field.
 */
public final class SfcCodec extends JsonCodec<Sfc> {

    @Override
    public ObjectNode encode(Sfc sfc, CodecContext context) {
        ObjectNode n = context.mapper().createObjectNode()
                .put("id", sfc.id().tag())
                .put("name", sfc.name())
                .put("ingress", sfc.ingress().toString())
                .put("egress", sfc.egress().toString());
        FlowClassifier c = sfc.classifier();
        n.putObject("classifier")
                .put("srcPrefix", c.srcPrefix().toString())
                .put("dstPrefix", c.dstPrefix().toString())
                .put("ipProto", c.ipProto())
                .put("l4SrcPort", c.l4SrcPort())
                .put("l4DstPort", c.l4DstPort());
        ArrayNode vnfs = n.putArray("vnfs");
        sfc.vnfs().forEach(v -> vnfs.addObject().put("type", v.type()).put("lmaxNs", v.lmaxNanos()));
        n.put("intSamplingRate", sfc.intSamplingRate());
        return n;
    }

    @Override
    public Sfc decode(ObjectNode json, CodecContext context) {
        if (json == null || !json.isObject()) {
            throw new InvalidFieldException("", "body must be a JSON object");
        }
        Sfc.Builder b = Sfc.builder();
        b.id(parse("id", () -> SfcId.of((int) JsonFields.integer(json, "", "id", 1, SfcId.MAX, null))));
        if (json.has("name")) {
            b.name(JsonFields.text(json, "", "name"));
        }
        b.ingress(connectPoint(json, "ingress"));
        b.egress(connectPoint(json, "egress"));
        JsonNode c = JsonFields.required(json, "", "classifier");
        IpPrefix src = prefix(c, "srcPrefix");
        IpPrefix dst = prefix(c, "dstPrefix");
        if (src.version() != dst.version()) {
            throw new InvalidFieldException("classifier.dstPrefix", "must be of the same IP version as srcPrefix");
        }
        b.classifier(new FlowClassifier(src, dst,
                                        (int) JsonFields.integer(c, "classifier", "ipProto", 0, 255, 0L),
                                        (int) JsonFields.integer(c, "classifier", "l4SrcPort", 0, 65535, 0L),
                                        (int) JsonFields.integer(c, "classifier", "l4DstPort", 0, 65535, 0L)));
        JsonNode vnfs = JsonFields.required(json, "", "vnfs");
        if (!vnfs.isArray()) {
            throw new InvalidFieldException("vnfs", "must be an array");
        }
        if (vnfs.size() > Sfc.MAX_VNFS) {
            throw new InvalidFieldException("vnfs", "at most " + Sfc.MAX_VNFS + " vNFs fit a segment list");
        }
        List<VnfSpec> specs = new ArrayList<>();
        for (int i = 0; i < vnfs.size(); i++) {
            String path = "vnfs[" + i + "]";
            JsonNode v = vnfs.get(i);
            String type = JsonFields.text(v, path, "type");
            long lmax = JsonFields.integer(v, path, "lmaxNs", 1, Long.MAX_VALUE, null);
            specs.add(parse(path + ".type", () -> new VnfSpec(type, lmax)));
        }
        b.vnfs(specs);
        b.intSamplingRate((int) JsonFields.integer(json, "", "intSamplingRate", 1, 65535, 1L));
        return b.build();
    }

    private static ConnectPoint connectPoint(JsonNode json, String field) {
        String t = JsonFields.text(json, "", field);
        return parse(field, () -> ConnectPoint.deviceConnectPoint(t));
    }

    private static IpPrefix prefix(JsonNode c, String field) {
        String t = JsonFields.text(c, "classifier", field);
        return parse("classifier." + field, () -> IpPrefix.valueOf(t));
    }

    /** Runs a parser, turning its IllegalArgumentException into a field error. */
    static <T> T parse(String field, Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new InvalidFieldException(field, e.getMessage() == null ? "is invalid" : e.getMessage());
        }
    }
}
