// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.srv6int.app.export.ExportConfig;
import org.srv6int.app.export.ExportCounters;
import org.srv6int.app.export.ExportManager;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.testkit.InMemoryClusterService;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The OTLP push of the metrics against an in-process OTLP/HTTP receiver that decodes what
 * arrives ({@code ExportMetricsServiceRequest}, opentelemetry-proto): on a real collector, loop
 * and inventory fed with INT reports ({@link MetricsTestbed}), every family, label set and value
 * of a push equals what the Prometheus endpoint shows for the same state; gauges arrive as gauges,
 * counters as cumulative monotonic sums; pushes are counted as acked in the export metrics.
 */
public class OtlpExportTest {

    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final List<ExportMetricsServiceRequest> received = new CopyOnWriteArrayList<>();
    private final ObjectMapper mapper = new ObjectMapper();
    private MetricsTestbed bed;
    private HttpServer receiver;
    private ExportManager export;
    private ExportConfig current;

    @Before
    public void setUp() throws Exception {
        // windows only when the test closes one, so the state holds still between two reads
        bed = new MetricsTestbed(3_600_000, 3_600_000);
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/v1/metrics", x -> {
            try (InputStream in = x.getRequestBody()) {
                received.add(ExportMetricsServiceRequest.parseFrom(in.readAllBytes()));
            }
            byte[] ok = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
            x.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            x.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
            x.getResponseBody().write(ok);
            x.close();
        });
        receiver.start();
    }

    /** The exports component as ONOS wires it, over the testbed's cluster, netcfg and metrics. */
    private ExportManager exports() {
        CoreServiceAdapter core = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return PaperTestbed.APP_ID;
            }
        };
        NetworkConfigRegistryAdapter registry = new NetworkConfigRegistryAdapter() {
            @Override
            @SuppressWarnings("unchecked")
            public <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
                return configClass == ExportConfig.class ? (C) current : null;
            }
        };
        return new ExportManager(registry, core, new InMemoryClusterService(bed.cluster, NodeId.nodeId("onos-1")),
                                 bed.metrics);
    }

    @After
    public void tearDown() throws Exception {
        if (export != null) {
            export.deactivate();
        }
        receiver.stop(0);
        bed.close();
    }

    /** Starts the exports component on this netcfg. */
    private void start(String json) throws Exception {
        ExportConfig c = new ExportConfig();
        c.init(PaperTestbed.APP_ID, ExportConfig.KEY, (ObjectNode) mapper.readTree(json), mapper, cfg -> { });
        current = c;
        ExportManager x = exports();
        export = x;
        bed.metrics.bindExport(x);
        x.activate();
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached: " + what);
            }
            Thread.sleep(10);
        }
    }

    private long otlpAcked() {
        return export.stats().stream().filter(s -> s.sink().equals("otlp"))
                .mapToLong(s -> s.counts().get(ExportCounters.Result.ACKED)).sum();
    }

    /** Series key with labels sorted: name{a="x",b="y"}. */
    private static String key(String name, Map<String, String> labels) {
        StringBuilder b = new StringBuilder(name).append('{');
        labels.forEach((k, v) -> b.append(k).append("=\"").append(v).append("\","));
        return b.append('}').toString();
    }

    private static String promKey(String series) {
        int brace = series.indexOf('{');
        Map<String, String> labels = new TreeMap<>();
        if (brace >= 0) {
            Matcher m = LABEL.matcher(series.substring(brace));
            while (m.find()) {
                labels.put(m.group(1), m.group(2).replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\"));
            }
        }
        return key(brace < 0 ? series : series.substring(0, brace), labels);
    }

    @Test
    public void aPushCarriesWhatTheScrapeShows() throws Exception {
        for (int i = 0; i < 3; i++) {
            bed.send(1, 50, 300_000, 100);
            bed.send(2, 50, 320_000, 100);
            Thread.sleep(50);
            bed.collector.windowNow();
        }
        start("{\"otlp\": {\"endpoint\": \"http://127.0.0.1:" + receiver.getAddress().getPort()
                          + "/v1/metrics\", \"intervalMs\": 200}}");
        // one push acked: from now on the export's own counters hold still between two pushes
        await(() -> otlpAcked() >= 1 && !received.isEmpty(), "a push acked");
        int before = received.size();
        ParsedExposition scrape = new ParsedExposition(bed.metrics.scrape());
        await(() -> received.size() > before, "the next push");
        ExportMetricsServiceRequest push = received.get(before);

        assertEquals(1, push.getResourceMetricsCount());
        ResourceMetrics rm = push.getResourceMetrics(0);
        Map<String, String> resource = new TreeMap<>();
        for (KeyValue kv : rm.getResource().getAttributesList()) {
            resource.put(kv.getKey(), kv.getValue().getStringValue());
        }
        assertEquals("srv6int-app", resource.get("service.name"));
        assertEquals("onos-1", resource.get("service.instance.id"));
        Map<String, Double> pushed = new TreeMap<>();
        Map<String, String> types = new TreeMap<>();
        for (ScopeMetrics sm : rm.getScopeMetricsList()) {
            assertEquals("org.srv6int.app", sm.getScope().getName());
            for (Metric m : sm.getMetricsList()) {
                List<NumberDataPoint> points;
                if (m.hasSum()) {
                    assertTrue(m.getName(), m.getSum().getIsMonotonic());
                    assertEquals(m.getName(), AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE,
                                 m.getSum().getAggregationTemporality());
                    types.put(m.getName(), "counter");
                    points = m.getSum().getDataPointsList();
                } else {
                    assertTrue(m.getName() + " is neither sum nor gauge", m.hasGauge());
                    types.put(m.getName(), "gauge");
                    points = m.getGauge().getDataPointsList();
                }
                for (NumberDataPoint p : points) {
                    Map<String, String> labels = new TreeMap<>();
                    for (KeyValue kv : p.getAttributesList()) {
                        labels.put(kv.getKey(), kv.getValue().getStringValue());
                    }
                    assertTrue(m.getName(), p.getTimeUnixNano() > 0 && p.getStartTimeUnixNano() <= p.getTimeUnixNano());
                    assertEquals(m.getName(), NumberDataPoint.ValueCase.AS_DOUBLE, p.getValueCase());
                    pushed.put(key(m.getName(), labels), p.getAsDouble());
                }
            }
        }
        Map<String, Double> shown = new TreeMap<>();
        scrape.series.forEach((k, v) -> shown.put(promKey(k), v));
        assertEquals(new TreeMap<>(scrape.types), types);
        // the push's own outcome is counted after its rendering: the export's otlp series may
        // differ by the pushes acked in between; everything else is the same state
        Pattern own = Pattern.compile("srv6int_export_[a-z_]+\\{.*sink=\"otlp\".*");
        assertEquals(shown.keySet(), pushed.keySet());
        int compared = 0;
        for (Map.Entry<String, Double> e : shown.entrySet()) {
            if (own.matcher(e.getKey()).matches()) {
                continue;
            }
            assertEquals(e.getKey(), e.getValue(), pushed.get(e.getKey()), 0.0);
            compared++;
        }
        assertTrue("compared " + compared, compared > 100);
        // a state the test made, not zeros: chain 1's p95 of 300..330 us per vNF, both chains' reports
        double p95 = pushed.get("srv6int_vnf_latency_p95_seconds{chain=\"1\",vnf=\"0\",vnf_type=\"fwd\",}");
        assertTrue("p95 " + p95, p95 >= 300e-6 && p95 <= 331e-6);
        assertEquals(1.0, pushed.get("srv6int_export_enabled{sink=\"otlp\",}"), 0.0);
        // and the pushes rendered after an ack carry it
        await(() -> received.stream().anyMatch(r -> acked(r) >= 1), "a push carrying its predecessors' acks");
    }

    private static double acked(ExportMetricsServiceRequest r) {
        for (ResourceMetrics rm : r.getResourceMetricsList()) {
            for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                for (Metric m : sm.getMetricsList()) {
                    if (!m.getName().equals("srv6int_export_records_total")) {
                        continue;
                    }
                    for (NumberDataPoint p : m.getSum().getDataPointsList()) {
                        if (p.getAttributesList().stream().anyMatch(
                                kv -> kv.getKey().equals("sink") && kv.getValue().getStringValue().equals("otlp"))
                                && p.getAttributesList().stream().anyMatch(
                                        kv -> kv.getKey().equals("result")
                                                && kv.getValue().getStringValue().equals("acked"))) {
                            return p.getAsDouble();
                        }
                    }
                }
            }
        }
        return -1;
    }
}
