// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import java.net.InetAddress;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.net.config.ConfigApplyDelegate;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.AppMetricsService;
import org.srv6int.app.testing.PaperTestbed;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The exporter wired to a real collector, loop and inventory ({@link MetricsTestbed}): INT reports
 * sent over UDP show up as the window's latency, rate and counters; a vNF kept above its bound
 * for longer than t-hat shows as violating, then as a scale-out decision and one more replica; the
 * plain port serves the same text; netcfg with a bad field is refused by name.
 */
public class AppMetricsManagerTest {

    private MetricsTestbed bed;

    @Before
    public void setUp() throws Exception {
        bed = new MetricsTestbed(200, 600);
    }

    @After
    public void tearDown() throws Exception {
        bed.close();
    }

    /** Sends load until the scrape satisfies the condition (10 s at most). */
    private ParsedExposition until(Predicate<ParsedExposition> done, long latency2Ns) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        ParsedExposition p = null;
        while (System.nanoTime() < deadline) {
            bed.send(1, 50, 300_000, 100);
            bed.send(2, 50, latency2Ns, 100);
            p = new ParsedExposition(bed.metrics.scrape());
            if (done.test(p)) {
                return p;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("not reached; last scrape: " + (p == null ? "none" : p.series.entrySet().stream()
                .filter(e -> e.getKey().contains("chain=\"2\"") || e.getKey().contains("reports_total"))
                .map(Object::toString).collect(Collectors.joining(", "))));
    }

    private static boolean has(ParsedExposition p, String key) {
        return p.series.containsKey(key);
    }

    @Test
    public void reportsBecomeMetricsAndAViolationBecomesAScaleOut() throws Exception {
        String fwd = "{chain=\"1\",vnf=\"0\",vnf_type=\"fwd\"}";
        String snort = "{chain=\"2\",vnf=\"0\",vnf_type=\"snort\"}";
        ParsedExposition p = until(x -> has(x, "srv6int_vnf_window_samples" + fwd)
                && x.get("srv6int_vnf_window_samples" + fwd) > 0 && has(x, "srv6int_vnf_window_samples" + snort)
                && x.get("srv6int_vnf_window_samples" + snort) > 0, 300_000);
        // every vNF latency sent for chain 1 was 300..330 us; its bound is PaperTestbed.LMAX
        double p95 = p.get("srv6int_vnf_latency_p95_seconds" + fwd);
        assertTrue("p95 " + p95, p95 >= 300e-6 && p95 <= 331e-6);
        assertEquals(PaperTestbed.LMAX / 1e9, p.get("srv6int_vnf_latency_bound_seconds" + fwd), 1e-12);
        assertEquals(PaperTestbed.LMAX / 1e9 - p95, p.get("srv6int_vnf_latency_slack_seconds" + fwd), 1e-9);
        assertEquals(1, p.get("srv6int_collector_up"), 0);
        assertEquals(1, p.get("srv6int_global_loop_leader"), 0);
        double received = p.get("srv6int_collector_datagrams_total{thread=\"0\"}");
        double accepted = p.get("srv6int_collector_reports_total{thread=\"0\",result=\"accepted\"}");
        assertTrue(received + " received, " + accepted + " accepted", received > 0 && accepted == received);
        assertEquals(0, p.get("srv6int_collector_reports_total{thread=\"0\",result=\"forged_source\"}"), 0);
        assertEquals(0, p.get("srv6int_collector_decode_errors_total{thread=\"0\",reason=\"truncated_udp\"}"), 0);
        assertEquals(1, p.get("srv6int_vnf_replicas" + snort.replace("}", ",state=\"active\"}")), 0);
        assertEquals(0, p.get("srv6int_vnf_violating" + snort), 0);

        // Snort at 3 x its bound: violating, then after t-hat a scale-out and a second replica.
        // (window and loop status are read one after the other: a window may close in between)
        p = until(x -> has(x, "srv6int_vnf_violating" + snort) && x.get("srv6int_vnf_violating" + snort) == 1
                && x.get("srv6int_vnf_latency_slack_seconds" + snort) < 0, 3 * PaperTestbed.LMAX);
        assertTrue(p.get("srv6int_vnf_latency_p95_seconds" + snort) > PaperTestbed.LMAX / 1e9);
        p = until(x -> x.get("srv6int_global_loop_decisions_total{action=\"scale_out\"}") >= 1
                && x.get("srv6int_vnf_replicas" + snort.replace("}", ",state=\"active\"}")) >= 2,
                  3 * PaperTestbed.LMAX);
        assertTrue(p.get("srv6int_global_loop_decisions_ended_total{action=\"scale_out\",outcome=\"succeeded\"}")
                           >= 1);
        assertEquals(0, p.get("srv6int_global_loop_decisions_ended_total{action=\"scale_out\",outcome=\"failed\"}"), 0);
        assertTrue(p.series.keySet().toString(), p.series.keySet().stream().anyMatch(
                k -> k.matches("srv6int_replica_weight\\{chain=\"2\",vnf=\"0\",replica=\"r[1-9][0-9]*\".*")));
        // the scale-out's replica was written by the life cycle, edge by edge; nothing was refused
        String edge = "srv6int_replica_transitions_total{step=\"%s\",from=\"%s\",to=\"%s\"}";
        assertTrue(p.get(String.format(edge, "register", "none", "active")) >= 2);
        assertTrue(p.get(String.format(edge, "add", "none", "active")) >= 1);
        assertEquals(0, p.get(String.format(edge, "fail", "active", "dead")), 0);
        assertEquals(0, p.get("srv6int_replica_transitions_refused_total{step=\"drain\",from=\"pending\"}"), 0);
        assertEquals(0, p.series.entrySet().stream().filter(e -> e.getKey().startsWith(
                "srv6int_replica_transitions_refused_total")).mapToDouble(e -> e.getValue()).sum(), 0);
    }

    @Test
    public void everyFamilyOfAppAndAgentIsInTheDocs() throws Exception {
        String fwd = "{chain=\"1\",vnf=\"0\",vnf_type=\"fwd\"}";
        ParsedExposition app = until(x -> has(x, "srv6int_vnf_window_samples" + fwd)
                && x.get("srv6int_vnf_window_samples" + fwd) > 0, 300_000);
        org.srv6int.agent.obs.AgentMetrics agentMetrics = new org.srv6int.agent.obs.AgentMetrics(
                List.of("fwd"), List.of("1"), List.of("0"), new long[] {1_000_000});
        for (org.srv6int.agent.loop.ResourceType t : org.srv6int.agent.loop.ResourceType.all()) {
            agentMetrics.allocation(0, t, 1);
        }
        agentMetrics.window(0, 500_000, 500_000);
        ParsedExposition agent = new ParsedExposition(agentMetrics.render(Map.of("truncated_srh", 1L)));
        String docs = new String(Files.readAllBytes(Paths.get("../docs/metrics.md")),
                                 StandardCharsets.UTF_8);
        Set<String> families = new TreeSet<>(app.types.keySet());
        families.addAll(agent.types.keySet());
        assertTrue(families.toString(), families.size() > 45);
        for (String f : families) {
            assertTrue(f + " is exported but not in docs/metrics.md", docs.contains("`" + f));
        }
    }

    @Test
    public void scrapesUnderLoadLoseOrMiscountNoReport() throws Exception {
        // A scraper in a tight loop while 20,000 reports arrive: every one is counted once as received
        // and accepted. (That a scrape takes no lock of the receive path is by construction: it reads
        // the per-thread counters and the last closed window; this test does not time it.)
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong scrapes = new AtomicLong();
        Thread scraper = new Thread(() -> {
            while (!stop.get()) {
                new ParsedExposition(bed.metrics.scrape());
                scrapes.incrementAndGet();
            }
        });
        scraper.start();
        try {
            for (int i = 0; i < 100; i++) {
                bed.send(1, 100, 300_000, 10);
                bed.send(2, 100, 300_000, 10);
            }
        } finally {
            stop.set(true);
            scraper.join();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        ParsedExposition p = new ParsedExposition(bed.metrics.scrape());
        while (p.get("srv6int_collector_datagrams_total{thread=\"0\"}") < 20_000 && System.nanoTime() < deadline) {
            Thread.sleep(20);
            p = new ParsedExposition(bed.metrics.scrape());
        }
        assertTrue("scrapes: " + scrapes.get(), scrapes.get() > 0);
        assertEquals(20_000, p.get("srv6int_collector_datagrams_total{thread=\"0\"}"), 0);
        assertEquals(20_000, p.get("srv6int_collector_reports_total{thread=\"0\",result=\"accepted\"}"), 0);
        assertEquals(0, p.get("srv6int_collector_reports_lost_total{thread=\"0\"}"), 0);
    }

    @Test
    public void anUnreadableStoreIsCountedAndTheRestServed() throws Exception {
        org.srv6int.app.api.VnfInventoryService broken = (org.srv6int.app.api.VnfInventoryService)
                Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[] {org.srv6int.app.api.VnfInventoryService.class}, (proxy, m, args) -> {
                            throw new IllegalStateException("store unavailable");
                        });
        bed.metricsReadInventory(broken);
        ParsedExposition p = new ParsedExposition(bed.metrics.scrape());
        assertEquals(1, p.get("srv6int_metrics_read_errors_total{part=\"inventory\"}"), 0);
        assertEquals(0, p.get("srv6int_metrics_read_errors_total{part=\"chains\"}"), 0);
        assertEquals(0.001, p.get("srv6int_vnf_latency_bound_seconds{chain=\"2\",vnf=\"0\",vnf_type=\"snort\"}"),
                     1e-12);
        assertEquals(0, p.count("srv6int_replica_weight"));
        assertEquals("replica counts unknown, not 0", 0, p.count("srv6int_vnf_replicas"));
        bed.metricsReadInventory(null);
        p = new ParsedExposition(bed.metrics.scrape());
        assertEquals(3, p.count("srv6int_replica_weight"));
        assertEquals(1, p.get("srv6int_metrics_read_errors_total{part=\"inventory\"}"), 0);
    }

    private static String get(int port, String path, int[] status) throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + path).openConnection();
        status[0] = c.getResponseCode();
        try (InputStream in = status[0] < 400 ? c.getInputStream() : c.getErrorStream()) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (status[0] == 200) {
                assertEquals(AppMetricsService.CONTENT_TYPE, c.getContentType());
            }
            return body;
        }
    }

    @Test
    public void plainPortServesTheTextAndMovesOnlyWhenItCan() throws Exception {
        assertEquals(0, bed.metrics.plainPort());
        bed.metrics.apply(new MetricsSettings(10, 10, 10, "127.0.0.1", 0));
        int port = bed.metrics.plainPort();
        int[] status = new int[1];
        ParsedExposition p = new ParsedExposition(get(port, "/metrics", status));
        assertEquals(200, status[0]);
        assertEquals(10, p.get("srv6int_metrics_series_limit{level=\"chain\"}"), 0);
        get(port, "/other", status);
        assertEquals(404, status[0]);
        // a port already taken: refused, the old one keeps serving
        try (ServerSocket taken = new ServerSocket(0)) {
            try {
                bed.metrics.apply(new MetricsSettings(20, 20, 20, "127.0.0.1", taken.getLocalPort()));
                fail("bound a taken port");
            } catch (IOException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(Integer.toString(taken.getLocalPort())));
            }
        }
        assertEquals(port, bed.metrics.plainPort());
        p = new ParsedExposition(get(port, "/metrics", status));
        assertEquals(10, p.get("srv6int_metrics_series_limit{level=\"chain\"}"), 0);
        bed.metrics.apply(MetricsSettings.DEFAULT);
        assertEquals(0, bed.metrics.plainPort());
    }

    @Test
    public void plainPortWithoutAddressListensOnLoopbackOnly() throws Exception {
        int free;
        try (ServerSocket probe = new ServerSocket(0)) {
            free = probe.getLocalPort();
        }
        bed.metrics.apply(config("{\"port\":" + free + "}").settings());
        try {
            assertEquals(free, bed.metrics.plainPort());
            // the real socket's address, not the settings'
            assertEquals(InetAddress.getByName("127.0.0.1"), bed.metrics.plainAddress());
            int[] status = new int[1];
            get(free, "/metrics", status);
            assertEquals(200, status[0]);
        } finally {
            bed.metrics.apply(MetricsSettings.DEFAULT);
        }
    }

    private static MetricsConfig config(String json) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        MetricsConfig c = new MetricsConfig();
        ConfigApplyDelegate noop = cfg -> { };
        c.init(PaperTestbed.APP_ID, MetricsConfig.KEY, (ObjectNode) mapper.readTree(json), mapper, noop);
        return c;
    }

    @Test
    public void netcfgIsCheckedFieldByField() throws Exception {
        assertEquals(MetricsSettings.DEFAULT, config("{}").settings());
        assertEquals(new MetricsSettings(5, 6, 7, "127.0.0.1", 9464),
                     config("{\"address\":\"127.0.0.1\",\"port\":9464,\"maxChainSeries\":5,\"maxVnfSeries\":6,"
                                    + "\"maxReplicaSeries\":7}").settings());
        assertEquals("127.0.0.1", config("{\"port\":9464}").settings().address());
        String[][] bad = {{"{\"port\":0}", "port"}, {"{\"port\":\"x\"}", "port"},
                          {"{\"address\":\"1.2.3.4\"}", "address"}, {"{\"port\":1,\"address\":\"nope\"}", "address"},
                          {"{\"maxVnfSeries\":0}", "maxVnfSeries"}, {"{\"maxSeries\":3}", "maxSeries"}};
        for (String[] b : bad) {
            try {
                config(b[0]).isValid();
                fail("accepted " + b[0]);
            } catch (InvalidFieldException e) {
                assertTrue(b[0] + ": " + e.getMessage(), e.getMessage().contains(b[1]));
            }
        }
    }
}
