// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.QueuedEscalation;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON of a node agent's escalation, as its {@code EscalationClient} sends it:
 * {@code {"chainId": 2, "vnfIndex": 0, "node": "worker1", "l95Ns": 7200000, "lmaxNs": 5000000,
 * "triedResources": ["CPU", "LLC"]}}. Read by the REST resource ({@code POST loop/escalations})
 * and by the testbed twin's agents, so both take the agent's payload the same way.
 */
public final class EscalationCodec {

    private EscalationCodec() {
    }

    /**
     * Decodes an escalation.
     *
     * @param b the body
     * @return the escalation
     * @throws InvalidFieldException naming the bad field
     */
    public static Escalation decode(JsonNode b) {
        if (b == null || !b.isObject()) {
            throw new InvalidFieldException("", "the body must be a JSON object");
        }
        int chain = intField(b, "chainId", 0, SfcId.MAX);
        int vnf = intField(b, "vnfIndex", 0, Integer.MAX_VALUE);
        JsonNode node = b.get("node");
        if (node == null || !node.isTextual() || node.asText().isBlank()
                || node.asText().chars().anyMatch(Character::isISOControl)) {
            throw new InvalidFieldException("node", "must be the reporting node's name");
        }
        long l95 = longField(b, "l95Ns");
        long lmax = longField(b, "lmaxNs");
        List<String> tried = new ArrayList<>();
        JsonNode t = b.get("triedResources");
        if (t != null && !t.isNull()) {
            if (!t.isArray()) {
                throw new InvalidFieldException("triedResources", "must be an array of resource type names");
            }
            for (JsonNode x : t) {
                String r = x.asText();
                if (!x.isTextual() || r.isBlank() || r.contains(",") || r.chars().anyMatch(Character::isISOControl)) {
                    throw new InvalidFieldException("triedResources", "must be resource type names, got " + x);
                }
                tried.add(r);
            }
        }
        return new Escalation(VnfKey.of(SfcId.of(chain), vnf), node.asText(), l95, lmax, tried);
    }

    /**
     * Encodes what a follower queued for the leader (the answer of {@code POST loop/escalations}
     * on an instance that does not lead).
     *
     * @param q      the queued escalation (its key's entry after this post)
     * @param leader the leader as the instance sees it
     * @param mapper JSON mapper
     * @return {"queued": {...}, "leader": ...}
     */
    public static ObjectNode encodeQueued(QueuedEscalation q, String leader, ObjectMapper mapper) {
        ObjectNode root = mapper.createObjectNode();
        ObjectNode o = root.putObject("queued");
        Escalation e = q.escalation();
        o.put("chainId", e.vnf().sfcId().tag());
        o.put("vnfIndex", e.vnf().index());
        o.put("node", e.node());
        o.put("l95Ns", e.l95Nanos());
        o.put("lmaxNs", e.lmaxNanos());
        o.put("posts", q.posts());
        o.put("firstMs", q.firstMillis());
        o.put("lastMs", q.lastMillis());
        o.put("receivedBy", q.receivedBy());
        root.put("leader", leader);
        return root;
    }

    private static int intField(JsonNode b, String name, int min, int max) {
        JsonNode n = b.get(name);
        if (n == null || !n.canConvertToInt() || !n.isIntegralNumber() || n.asInt() < min || n.asInt() > max) {
            throw new InvalidFieldException(name, "must be an integer in " + min + ".." + max + ", got " + n);
        }
        return n.asInt();
    }

    private static long longField(JsonNode b, String name) {
        JsonNode n = b.get(name);
        if (n == null || !n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0) {
            throw new InvalidFieldException(name, "must be a non-negative integer (ns), got " + n);
        }
        return n.asLong();
    }
}
