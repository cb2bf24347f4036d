// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.model.VnfLoopState;
import org.srv6int.app.api.model.VnfTelemetry;

/**
 * JSON codecs of the telemetry and global-loop value types (encode only).
 */
public final class TelemetryCodecs {

    private TelemetryCodecs() {
    }

    /** Codec of {@link VnfTelemetry}. */
    public static final class VnfTelemetryCodec extends JsonCodec<VnfTelemetry> {
        @Override
        public ObjectNode encode(VnfTelemetry t, CodecContext context) {
            return context.mapper().createObjectNode()
                    .put("vnf", t.vnf().toString())
                    .put("throughputPps", t.throughputPps())
                    .put("p95LatencyNs", t.p95LatencyNanos())
                    .put("queueDepth", t.queueDepth())
                    .put("samples", t.samples())
                    .put("updatedMillis", t.updatedMillis());
        }
    }

    /** Codec of {@link SfcTelemetry}. */
    public static final class SfcTelemetryCodec extends JsonCodec<SfcTelemetry> {
        @Override
        public ObjectNode encode(SfcTelemetry t, CodecContext context) {
            return context.mapper().createObjectNode()
                    .put("sfcId", t.sfcId().tag())
                    .put("throughputPps", t.throughputPps())
                    .put("p95E2eLatencyNs", t.p95E2eLatencyNanos())
                    .put("maxQueueDepth", t.maxQueueDepth())
                    .put("reports", t.reports())
                    .put("updatedMillis", t.updatedMillis());
        }
    }

    /** Codec of {@link LoopStatus}. */
    public static final class LoopStatusCodec extends JsonCodec<LoopStatus> {
        @Override
        public ObjectNode encode(LoopStatus s, CodecContext context) {
            ObjectNode n = context.mapper().createObjectNode()
                    .put("enabled", s.enabled())
                    .put("leader", s.leader())
                    .put("leaderNode", s.leaderNode())
                    .put("tHatMs", s.tHatMillis())
                    .put("lastEvaluationMillis", s.lastEvaluationMillis());
            ArrayNode vnfs = n.putArray("vnfs");
            for (VnfLoopState v : s.vnfs()) {
                vnfs.addObject()
                        .put("vnf", v.vnf().toString())
                        .put("lmaxNs", v.lmaxNanos())
                        .put("latencyNs", v.latencyNanos())
                        .put("throughputPps", v.throughputPps())
                        .put("violating", v.violating())
                        .put("violatingSinceMillis", v.violatingSinceMillis())
                        .put("replicas", v.replicas());
            }
            return n;
        }
    }

    /** Codec of {@link LoopDecision}. */
    public static final class LoopDecisionCodec extends JsonCodec<LoopDecision> {
        @Override
        public ObjectNode encode(LoopDecision d, CodecContext context) {
            ObjectNode n = context.mapper().createObjectNode()
                    .put("timeMillis", d.timeMillis())
                    .put("vnf", d.vnf().toString())
                    .put("action", d.action().name())
                    .put("replicasBefore", d.replicasBefore())
                    .put("replicasAfter", d.replicasAfter())
                    .put("outcome", d.outcome().name())
                    .put("detail", d.detail());
            ObjectNode in = n.putObject("inputs");
            d.inputs().forEach(in::put);
            return n;
        }
    }

    /** A chain's liveness (failure detection, docs/failures.md). */
    public static final class ChainStateCodec extends JsonCodec<ChainState> {
        @Override
        public ObjectNode encode(ChainState c, CodecContext context) {
            ObjectNode n = context.mapper().createObjectNode()
                    .put("sfcId", c.sfc().tag())
                    .put("state", c.liveness().name())
                    .put("sinceMillis", c.sinceMillis())
                    .put("lastHopSeen", c.lastHopSeen())
                    .put("reason", c.reason())
                    .put("classifiedPackets", c.classifiedPackets())
                    .put("lastReportMillis", c.lastReportMillis());
            ArrayNode dead = n.putArray("deadReplicas");
            c.deadReplicas().forEach(dead::add);
            return n;
        }
    }
}
