// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.model.Escalation;
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
        if (node == null || !node.isTextual() || node.asText().isBlank()) {
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
            t.forEach(x -> tried.add(x.asText()));
        }
        return new Escalation(VnfKey.of(SfcId.of(chain), vnf), node.asText(), l95, lmax, tried);
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
