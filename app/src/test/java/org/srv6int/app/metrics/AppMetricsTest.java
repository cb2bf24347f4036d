// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Map;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.testing.PaperTestbed;

import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The renderer on inputs made here: caps fold the keys past them into one overflow series per
 * family (sum for rates and counts, max for latencies, min for slack) and count them; label
 * values are escaped; names that break the conventions are refused.
 */
public class AppMetricsTest {

    private static Sfc chain(int id, String... types) {
        List<VnfSpec> specs = new ArrayList<>();
        for (String t : types) {
            specs.add(new VnfSpec(t, 1_000_000L * id));
        }
        return Sfc.builder().id(SfcId.of(id)).name("c" + id)
                .ingress(new ConnectPoint(PaperTestbed.SW1, PortNumber.portNumber(1)))
                .egress(new ConnectPoint(PaperTestbed.SW4, PortNumber.portNumber(2)))
                .classifier(new FlowClassifier(IpPrefix.valueOf("10.0.1.0/24"), IpPrefix.valueOf("10.0.4.0/24"),
                                               17, 0, 5000 + id))
                .vnfs(specs).intSamplingRate(1).build();
    }

    private static VnfReplica replica(int chain, int vnf, String name, int weight) {
        return new VnfReplica(VnfReplicaId.of(VnfKey.of(SfcId.of(chain), vnf), name), "worker1", PaperTestbed.SW2,
                              PortNumber.portNumber(3), Ip6Address.valueOf("fc00:0:2:f::" + (chain * 16 + vnf)),
                              MacAddress.valueOf("00:00:00:00:02:03"), ReplicaState.ACTIVE, weight);
    }

    private static MetricsInputs inputs() {
        MetricsInputs in = new MetricsInputs();
        in.replicasKnown = true;
        for (int c = 1; c <= 5; c++) {
            in.chains.add(chain(c, "fwd", "snort"));
            in.replicas.add(replica(c, 0, "r0", 1));
            in.replicas.add(replica(c, 0, "r1", 2));
        }
        in.loop = new LoopStatus(true, true, "onos-1", 4000, 0, List.of());
        in.decisionsMade.put(LoopDecision.Action.SCALE_OUT, 3L);
        return in;
    }

    @Test
    public void capsFoldTheRestIntoOneOverflowSeries() {
        AppMetrics m = new AppMetrics(new MetricsSettings(2, 3, 4, null, 0));
        ParsedExposition p = new ParsedExposition(m.render(inputs(), 0));
        // chains 1, 2 keep theirs; 3, 4, 5 fold: bound is the max of theirs (sum of Lmax = 2 x 5 ms)
        assertEquals(3, p.count("srv6int_chain_latency_bound_seconds"));
        assertEquals(0.002, p.get("srv6int_chain_latency_bound_seconds{chain=\"1\"}"), 1e-12);
        assertEquals(0.010, p.get("srv6int_chain_latency_bound_seconds{chain=\"overflow\"}"), 1e-12);
        // vNFs 1/0, 1/1, 2/0 keep theirs; 7 fold; replica counts sum
        assertEquals(4, p.count("srv6int_vnf_latency_bound_seconds"));
        assertEquals(2, p.get("srv6int_vnf_replicas{chain=\"1\",vnf=\"0\",vnf_type=\"fwd\",state=\"active\"}"), 0);
        assertEquals(6, p.get("srv6int_vnf_replicas{chain=\"overflow\",vnf=\"overflow\",vnf_type=\"overflow\","
                                      + "state=\"active\"}"), 0);
        // replicas 1/0/r0, 1/0/r1, 2/0/r0, 2/0/r1 keep theirs; 6 fold with weights 1+2+1+2+1+2
        assertEquals(5, p.count("srv6int_replica_weight"));
        assertEquals(9, p.get("srv6int_replica_weight{chain=\"overflow\",vnf=\"overflow\",replica=\"overflow\","
                                      + "node=\"overflow\"}"), 0);
        assertEquals(3, p.get("srv6int_metrics_series_folded{level=\"chain\"}"), 0);
        assertEquals(7, p.get("srv6int_metrics_series_folded{level=\"vnf\"}"), 0);
        assertEquals(6, p.get("srv6int_metrics_series_folded{level=\"replica\"}"), 0);
        assertEquals(6, p.get("srv6int_metrics_series_folded_total{level=\"replica\"}"), 0);
        assertEquals(3, p.get("srv6int_global_loop_decisions_total{action=\"scale_out\"}"), 0);
        // a second scrape adds to the counter
        p = new ParsedExposition(m.render(inputs(), 0));
        assertEquals(12, p.get("srv6int_metrics_series_folded_total{level=\"replica\"}"), 0);
        // raised caps: nothing folds, no overflow series
        m.settings(MetricsSettings.DEFAULT);
        p = new ParsedExposition(m.render(inputs(), 0));
        assertEquals(5, p.count("srv6int_chain_latency_bound_seconds"));
        assertFalse(p.series.keySet().stream().anyMatch(k -> k.contains("overflow")));
        assertEquals(0, p.get("srv6int_metrics_series_folded{level=\"vnf\"}"), 0);
    }

    @Test
    public void withoutCollectorAndLoopTheirSeriesAreLeftOut() {
        MetricsInputs in = new MetricsInputs();
        in.chains.add(chain(1, "fwd"));
        AppMetrics m = new AppMetrics(MetricsSettings.DEFAULT);
        m.readError("loop");
        ParsedExposition p = new ParsedExposition(m.render(in, 0));
        assertEquals(0, p.get("srv6int_collector_up"), 0);
        assertEquals(0, p.count("srv6int_collector_datagrams_total"));
        assertEquals(0, p.count("srv6int_global_loop_leader"));
        assertEquals(0, p.count("srv6int_vnf_latency_p95_seconds"));
        assertEquals(1, p.get("srv6int_metrics_read_errors_total{part=\"loop\"}"), 0);
        assertEquals(0, p.get("srv6int_metrics_read_errors_total{part=\"chains\"}"), 0);
    }

    @Test
    public void labelValuesAreEscapedAndNamesChecked() {
        TextExposition out = new TextExposition();
        out.family("x", "gauge", "h").sample(1, "node", "a\"b\\c\nd");
        String text = out.toString();
        assertTrue(text, text.contains("x{node=\"a\\\"b\\\\c\\nd\"} 1\n"));
        new ParsedExposition(text);
        for (String[] bad : new String[][] {{"1abc", "gauge"}, {"x_total", "gauge"}, {"x", "counter"},
                                             {"x", "histogram"}}) {
            try {
                out.family(bad[0], bad[1], "h");
                fail("accepted " + bad[0] + " " + bad[1]);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(bad[0]) || e.getMessage().contains(bad[1]));
            }
        }
        assertEquals("NaN", TextExposition.format(Double.NaN));
        assertEquals("+Inf", TextExposition.format(Double.POSITIVE_INFINITY));
        assertEquals("42", TextExposition.format(42));
        assertEquals(1.5e-5, Double.parseDouble(TextExposition.format(1.5e-5)), 0);
    }

    @Test
    public void exportsAreCountersBySinkKindAndResult() {
        AppMetrics m = new AppMetrics(MetricsSettings.DEFAULT);
        MetricsInputs in = inputs();
        in.kafkaEnabled = true;
        Map<org.srv6int.app.export.ExportCounters.Result, Long> counts =
                new EnumMap<>(org.srv6int.app.export.ExportCounters.Result.class);
        counts.put(org.srv6int.app.export.ExportCounters.Result.ACKED, 41L);
        counts.put(org.srv6int.app.export.ExportCounters.Result.DROPPED_QUEUE_FULL, 7L);
        in.exports.add(new org.srv6int.app.export.ExportStats(
                "kafka", org.srv6int.app.export.ExportRecord.Kind.CHAIN_SUMMARY, counts, 3, 12));
        ParsedExposition p = new ParsedExposition(m.render(in, 0));
        assertEquals(1, p.get("srv6int_export_enabled{sink=\"kafka\"}"), 0);
        assertEquals(41, p.get("srv6int_export_records_total{sink=\"kafka\",kind=\"chain_summary\",result=\"acked\"}"),
                0);
        assertEquals(7, p.get("srv6int_export_records_total{sink=\"kafka\",kind=\"chain_summary\","
                                      + "result=\"dropped_queue_full\"}"), 0);
        assertEquals(0, p.get("srv6int_export_records_total{sink=\"kafka\",kind=\"chain_summary\",result=\"failed\"}"),
                0);
        assertEquals(3, p.get("srv6int_export_send_retries_total{sink=\"kafka\",kind=\"chain_summary\"}"), 0);
        assertEquals(12, p.get("srv6int_export_queue_records{sink=\"kafka\",kind=\"chain_summary\"}"), 0);
        // without the exports component, no export families at all
        assertFalse(m.render(inputs(), 0).contains("srv6int_export_"));
    }
}
