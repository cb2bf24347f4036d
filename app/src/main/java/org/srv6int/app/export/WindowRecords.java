// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfWindow;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns one closed telemetry window into per-period summary records: one per chain
 * ({@code chain-summary}) and one per vNF ({@code vnf-summary}), keyed by chain. Each carries the
 * instance that collected it and the window's sequence number at that instance, so a consumer
 * sees a missing or repeated summary. Latencies are in seconds, as in the Prometheus metrics.
 */
public final class WindowRecords {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double NS = 1e9;

    private WindowRecords() {
    }

    /**
     * Builds the records of a window.
     *
     * @param w         closed window
     * @param instance  ONOS instance that collected it
     * @param period    the window's sequence number at this instance (from 1)
     * @param nowMillis wall-clock time of the window's close, ms since the epoch
     * @return records, chains first
     */
    public static List<ExportRecord> of(TelemetrySnapshot w, String instance, long period, long nowMillis) {
        List<ExportRecord> out = new ArrayList<>(w.chains().size() + w.vnfs().size());
        double windowSeconds = (w.windowEndNanos() - w.windowStartNanos()) / NS;
        for (ChainWindow c : w.chains()) {
            ObjectNode n = head(instance, period, nowMillis, windowSeconds);
            n.put("chain", c.chainTag());
            n.put("reports", c.reports());
            n.put("latencyP95Seconds", c.e2eP95Nanos() / NS);
            n.put("latencyMaxSeconds", c.e2eMaxNanos() / NS);
            n.put("packetsPerSecond", c.ratePps());
            out.add(new ExportRecord(ExportRecord.Kind.CHAIN_SUMMARY, Integer.toString(c.chainTag()), n.toString()));
        }
        for (VnfWindow v : w.vnfs()) {
            ObjectNode n = head(instance, period, nowMillis, windowSeconds);
            n.put("chain", v.vnf().sfcId().id());
            n.put("vnf", v.vnf().index());
            n.put("samples", v.samples());
            n.put("latencyP50Seconds", v.p50Nanos() / NS);
            n.put("latencyP95Seconds", v.p95Nanos() / NS);
            n.put("latencyP99Seconds", v.p99Nanos() / NS);
            n.put("latencyMaxSeconds", v.maxNanos() / NS);
            n.put("packetsPerSecond", v.ratePps());
            ObjectNode r = n.putObject("replicaPackets");
            for (Map.Entry<String, Long> e : new TreeMap<>(v.replicaPackets()).entrySet()) {
                r.put(e.getKey(), e.getValue());
            }
            out.add(new ExportRecord(ExportRecord.Kind.VNF_SUMMARY, Integer.toString(v.vnf().sfcId().id()),
                                     n.toString()));
        }
        return out;
    }

    private static ObjectNode head(String instance, long period, long nowMillis, double windowSeconds) {
        ObjectNode n = JSON.createObjectNode();
        n.put("instance", instance);
        n.put("period", period);
        n.put("timestampMillis", nowMillis);
        n.put("windowSeconds", windowSeconds);
        return n;
    }
}
