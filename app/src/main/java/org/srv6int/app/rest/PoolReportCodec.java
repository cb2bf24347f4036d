// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.model.NodePools;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A node agent's pool report (the agent's {@code PoolReport}, docs/node-agent.md "Pool report"):
 * <pre>
 * {"node": "worker2", "pools": [{"numaNode": 0,
 *   "cpuMillis": {"free": 3250, "reclaimable": 500, "budget": 10000},
 *   "llcWays": {"free": 1, "reclaimable": 2, "budget": 11},
 *   "memoryBandwidthPercent": {"free": 0, "reclaimable": 20, "budget": 100}}]}
 * </pre>
 * {@code numaNode} absent: the entry is for the whole node; {@code reclaimable} absent: 0. Used by the REST resource
 * and by the
 * testbed twin's agents, so both decode the agent's text the same way.
 */
public final class PoolReportCodec {

    /** Most pools (NUMA nodes) one report may hold. */
    static final int MAX_POOLS = 64;
    static final String[] RESOURCES = {"cpuMillis", "llcWays", "memoryBandwidthPercent"};

    private PoolReportCodec() {
    }

    /** A decoded report: the node and its pools. */
    public static final class Report {
        /** Node name. */
        public final String node;
        /** Pools. */
        public final List<NodePools.Pool> pools;

        Report(String node, List<NodePools.Pool> pools) {
            this.node = node;
            this.pools = pools;
        }
    }

    /**
     * Decodes and checks a report.
     *
     * @param b the JSON object
     * @return the report
     * @throws InvalidFieldException naming the first bad field
     */
    public static Report decode(JsonNode b) {
        if (b == null || !b.isObject()) {
            throw new InvalidFieldException("", "body must be a JSON object");
        }
        JsonNode node = b.get("node");
        if (node == null || !node.isTextual() || node.asText().isBlank()) {
            throw new InvalidFieldException("node", "must be the reporting node's name");
        }
        JsonNode ps = b.get("pools");
        if (ps == null || !ps.isArray() || ps.size() == 0 || ps.size() > MAX_POOLS) {
            throw new InvalidFieldException("pools", "must be an array of 1.." + MAX_POOLS + " pools, got " + ps);
        }
        List<NodePools.Pool> pools = new ArrayList<>();
        Set<Integer> numa = new HashSet<>();
        for (int i = 0; i < ps.size(); i++) {
            JsonNode p = ps.get(i);
            String at = "pools[" + i + "]";
            if (!p.isObject()) {
                throw new InvalidFieldException(at, "must be an object");
            }
            int n = NodePools.WHOLE_NODE;
            JsonNode nn = p.get("numaNode");
            if (nn != null && !nn.isNull()) {
                if (!nn.isIntegralNumber() || !nn.canConvertToInt() || nn.asInt() < 0) {
                    throw new InvalidFieldException(at + ".numaNode", "must be a non-negative integer, got " + nn);
                }
                n = nn.asInt();
            }
            if (!numa.add(n) || numa.size() > 1 && numa.contains(NodePools.WHOLE_NODE)) {
                throw new InvalidFieldException(at + ".numaNode", "repeats a NUMA node, or mixes the whole node"
                        + " with NUMA nodes");
            }
            long[] v = new long[9];
            for (int r = 0; r < RESOURCES.length; r++) {
                String f = at + "." + RESOURCES[r];
                JsonNode o = p.get(RESOURCES[r]);
                if (o == null || !o.isObject()) {
                    throw new InvalidFieldException(f, "must be {\"free\": .., \"reclaimable\": .., \"budget\": ..}");
                }
                v[3 * r] = amount(o.get("free"), f + ".free");
                JsonNode back = o.get("reclaimable");
                v[3 * r + 1] = back == null || back.isNull() ? 0 : amount(back, f + ".reclaimable");
                v[3 * r + 2] = amount(o.get("budget"), f + ".budget");
                if (v[3 * r] + v[3 * r + 1] > v[3 * r + 2]) {
                    throw new InvalidFieldException(f, "free " + v[3 * r] + " plus reclaimable " + v[3 * r + 1]
                            + " exceeds the budget " + v[3 * r + 2]);
                }
            }
            pools.add(new NodePools.Pool(n, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]));
        }
        return new Report(node.asText(), pools);
    }

    /**
     * What {@code POST /loop/pools} does with a body: decode it (a malformed one is counted and
     * refused) and store it.
     *
     * @param body    the agent's JSON
     * @param service the app's pool reports
     * @return the stored report
     * @throws InvalidFieldException    naming the first bad field (counted as malformed)
     * @throws IllegalArgumentException if the node has no switch attachment (counted)
     */
    public static NodePools submit(JsonNode body, NodePoolService service) {
        Report r;
        try {
            r = decode(body);
        } catch (InvalidFieldException e) {
            service.countMalformed();
            throw e;
        }
        return service.report(r.node, r.pools);
    }

    private static long amount(JsonNode n, String field) {
        if (n == null || !n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0) {
            throw new InvalidFieldException(field, "must be a non-negative integer, got " + n);
        }
        return n.asLong();
    }

    /**
     * Every node's report with its age, and the counters (REST GET and CLI {@code loop-pools -j}).
     *
     * @param pools  the app's pool reports
     * @param mapper JSON factory
     * @return {"maxAgeMs", "nodes": [..], "counters": {"accepted", "malformed", "unknownNode"}}
     */
    public static ObjectNode encodeAll(NodePoolService pools, ObjectMapper mapper) {
        long now = pools.nowMillis();
        ObjectNode root = mapper.createObjectNode();
        root.put("maxAgeMs", pools.maxAgeMillis());
        ArrayNode a = root.putArray("nodes");
        pools.all().forEach(p -> a.add(encode(p, now, pools.maxAgeMillis(), mapper)));
        long[] c = pools.counters();
        ObjectNode cs = root.putObject("counters");
        cs.put("accepted", c[0]);
        cs.put("malformed", c[1]);
        cs.put("unknownNode", c[2]);
        return root;
    }

    /**
     * Encodes a stored report with its age, for operators.
     *
     * @param p          the report
     * @param nowMillis  the app's clock now
     * @param maxAgeMs   age beyond which the loop ignores it
     * @param mapper     JSON factory
     * @return {"node", "ageMs", "fresh", "pools": [..]} with the agent's fields
     */
    public static ObjectNode encode(NodePools p, long nowMillis, long maxAgeMs, ObjectMapper mapper) {
        ObjectNode o = mapper.createObjectNode();
        long age = Math.max(0, nowMillis - p.receivedAtMillis());
        o.put("node", p.node());
        o.put("receivedAtMs", p.receivedAtMillis());
        o.put("ageMs", age);
        o.put("fresh", age <= maxAgeMs);
        ArrayNode a = o.putArray("pools");
        for (NodePools.Pool q : p.pools()) {
            ObjectNode e = a.addObject();
            if (q.numaNode() != NodePools.WHOLE_NODE) {
                e.put("numaNode", q.numaNode());
            }
            long[] v = {q.cpuFreeMillis(), q.cpuReclaimableMillis(), q.cpuBudgetMillis(), q.llcWaysFree(),
                q.llcWaysReclaimable(), q.llcWays(), q.memoryBandwidthFreePercent(),
                q.memoryBandwidthReclaimablePercent(), q.memoryBandwidthPercent()};
            for (int r = 0; r < RESOURCES.length; r++) {
                ObjectNode x = e.putObject(RESOURCES[r]);
                x.put("free", v[3 * r]);
                x.put("reclaimable", v[3 * r + 1]);
                x.put("budget", v[3 * r + 2]);
            }
        }
        return o;
    }
}
