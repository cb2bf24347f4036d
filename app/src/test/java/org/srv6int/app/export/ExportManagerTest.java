// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigApplyDelegate;
import org.onosproject.net.config.InvalidFieldException;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.WindowFeed;
import org.srv6int.testkit.InMemoryCluster;
import org.srv6int.testkit.InMemoryClusterService;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The exports component on netcfg: off by default; a bad field is refused with its name and the
 * running export stays as it was; a producer that cannot be created (a bootstrap host that does
 * not resolve) leaves the running one in place; windows reach the Kafka export's queue from the
 * collector's window consumer without waiting for a broker (none listens here).
 */
public class ExportManagerTest {

    private final ObjectMapper mapper = new ObjectMapper();
    private final WindowFeed feed = new WindowFeed();
    private ExportConfig current;
    private ExportManager mgr;

    private ExportConfig config(String json) throws IOException {
        ExportConfig c = new ExportConfig();
        ConfigApplyDelegate noop = cfg -> { };
        c.init(PaperTestbed.APP_ID, ExportConfig.KEY, (ObjectNode) mapper.readTree(json), mapper, noop);
        return c;
    }

    private static String closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + s.getLocalPort();
        }
    }

    @Before
    public void setUp() {
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
        mgr = new ExportManager(registry, core, new InMemoryClusterService(new InMemoryCluster(),
                                                                          NodeId.nodeId("onos-1")), null);
        mgr.activate();
        mgr.bindWindows(feed);
    }

    @After
    public void tearDown() {
        mgr.unbindWindows(feed);
        mgr.deactivate();
    }

    @Test
    public void offByDefault() {
        assertEquals(ExportSettings.OFF, mgr.settings());
        assertTrue(mgr.stats().stream().allMatch(s -> s.counts().values().stream().allMatch(v -> v == 0)));
    }

    @Test
    public void badFieldsAreRefusedByNameAndTheRunningExportStays() throws Exception {
        String servers = closedPort();
        current = config("{\"kafka\": {\"bootstrapServers\": \"" + servers + "\", \"queueRecords\": 5}}");
        mgr.reconfigure();
        KafkaSettings running = mgr.settings().kafka();
        assertEquals(servers, running.bootstrapServers());
        assertEquals(5, running.queueRecords());
        String[][] bad = {
            {"{\"kafka\": {\"bootstrapServers\": \"nohostport\"}}", "kafka.bootstrapServers"},
            {"{\"kafka\": {\"bootstrapServers\": \"h:99999\"}}", "kafka.bootstrapServers"},
            {"{\"kafka\": {}}", "kafka.bootstrapServers"},
            {"{\"kafka\": {\"bootstrapServers\": \"h:1\", \"maxBlockMs\": -1}}", "kafka.maxBlockMs"},
            {"{\"kafka\": {\"bootstrapServers\": \"h:1\", \"bufferBytes\": 10}}", "kafka.bufferBytes"},
            {"{\"kafka\": {\"bootstrapServers\": \"h:1\", \"queueRecords\": \"many\"}}", "kafka.queueRecords"},
            {"{\"kafka\": {\"bootstrapServers\": \"h:1\", \"topicPrefix\": \"a b\"}}", "kafka.topicPrefix"},
            {"{\"kafka\": {\"bootstrapServers\": \"h:1\", \"compression\": \"zstd\"}}", "kafka.compression"},
            {"{\"otlp\": {}}", "otlp.endpoint"},
            {"{\"kafka\": {\"bootstrapServers\": \"h:1\", \"intReports\": {\"sampleEvery\": 0}}}",
                "kafka.intReports.sampleEvery"},
            {"{\"kafka\": {\"bootstrapServers\": \"h:1\", \"intReports\": {\"maxPerSecond\": 1e9}}}",
                "kafka.intReports.maxPerSecond"},
            {"{\"kafka\": {\"bootstrapServers\": \"h:1\", \"intReports\": {\"rate\": 1}}}",
                "kafka.intReports.rate"},
            {"{\"kafka\": 3}", "kafka"},
        };
        refuseEach(bad, () -> assertEquals(running, mgr.settings().kafka()));
    }

    /**
     * Each {config, field} is refused naming the field, and applying it leaves what runs as it was.
     *
     * @param bad configs and the field each must name
     * @param unchanged checks what runs
     */
    private void refuseEach(String[][] bad, Runnable unchanged) throws IOException {
        for (String[] b : bad) {
            ExportConfig c = config(b[0]);
            try {
                c.settings();
                fail("accepted " + b[0]);
            } catch (InvalidFieldException e) {
                assertTrue(b[0] + " -> " + e.getMessage(), e.getMessage().contains(b[1]));
            }
            current = c;
            mgr.reconfigure();
            try {
                unchanged.run();
            } catch (AssertionError e) {
                throw new AssertionError("after " + b[0] + ": " + e.getMessage(), e);
            }
        }
    }

    private long otlp(ExportCounters.Result r) {
        return mgr.stats().stream().filter(s -> s.sink().equals(ExportManager.OTLP))
                .mapToLong(s -> s.counts().get(r)).sum();
    }

    private int otlpQueued() {
        return mgr.stats().stream().filter(s -> s.sink().equals(ExportManager.OTLP)).mapToInt(ExportStats::queued)
                .sum();
    }

    @Test
    public void otlpBadFieldsAreRefusedByNameAndTheRunningPushStays() throws Exception {
        mgr.bindMetrics(() -> "# HELP a_total a\n# TYPE a_total counter\na_total 1\n");
        String endpoint = "http://" + closedPort() + "/v1/metrics";
        current = config("{\"otlp\": {\"endpoint\": \"" + endpoint + "\", \"intervalMs\": 100}}");
        mgr.reconfigure();
        OtlpSettings running = mgr.settings().otlp();
        assertEquals(endpoint, running.endpoint());
        assertEquals(100, running.intervalMs());
        String[][] bad = {
            {"{\"otlp\": {\"endpoint\": \"ftp://h:4318/v1/metrics\"}}", "otlp.endpoint"},
            {"{\"otlp\": {\"endpoint\": \"http://\"}}", "otlp.endpoint"},
            {"{\"otlp\": {\"endpoint\": \"not a url\"}}", "otlp.endpoint"},
            {"{\"otlp\": {\"endpoint\": 4318}}", "otlp.endpoint"},
            {"{\"otlp\": {\"endpoint\": \"http://h:4318/v1/metrics\", \"intervalMs\": 10}}", "otlp.intervalMs"},
            {"{\"otlp\": {\"endpoint\": \"http://h:4318/v1/metrics\", \"timeoutMs\": \"x\"}}", "otlp.timeoutMs"},
            {"{\"otlp\": {\"endpoint\": \"http://h:4318/v1/metrics\", \"queueBatches\": 0}}", "otlp.queueBatches"},
            {"{\"otlp\": {\"endpoint\": \"http://h:4318/v1/metrics\", \"protocol\": \"grpc\"}}", "otlp.protocol"},
            {"{\"otlp\": []}", "otlp"},
        };
        refuseEach(bad, () -> assertEquals(running, mgr.settings().otlp()));
        // the push that kept running still runs: against a closed port every push fails, counted
        long failed = otlp(ExportCounters.Result.FAILED);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (otlp(ExportCounters.Result.FAILED) < failed + 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(otlp(ExportCounters.Result.FAILED) >= failed + 2);
        current = null;
        mgr.reconfigure();
        assertNull(mgr.settings().otlp());
    }

    @Test
    public void aCollectorThatNeverAnswersDropsPushesAndCountsThem() throws Exception {
        AtomicInteger renders = new AtomicInteger();
        mgr.bindMetrics(() -> {
            renders.incrementAndGet();
            return "# HELP a_total a\n# TYPE a_total counter\na_total 1\n";
        });
        // accepts connections (the kernel's backlog) but never reads nor answers
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            current = config("{\"otlp\": {\"endpoint\": \"http://127.0.0.1:" + silent.getLocalPort()
                                     + "/v1/metrics\", \"intervalMs\": 100, \"timeoutMs\": 3000,"
                                     + " \"queueBatches\": 2}}");
            mgr.reconfigure();
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (otlp(ExportCounters.Result.DROPPED_QUEUE_FULL) < 5 && System.nanoTime() < deadline) {
                assertTrue(otlpQueued() <= 2);
                Thread.sleep(20);
            }
            // the timer went on rendering while the sender waited for the collector
            assertTrue(otlp(ExportCounters.Result.DROPPED_QUEUE_FULL) + " dropped",
                       otlp(ExportCounters.Result.DROPPED_QUEUE_FULL) >= 5);
            assertTrue(renders.get() >= 7);
            assertEquals(0, otlp(ExportCounters.Result.ACKED));
            int queued = otlpQueued();
            long atClose = otlp(ExportCounters.Result.DROPPED_AT_CLOSE);
            current = null;
            mgr.reconfigure();
            assertTrue(otlp(ExportCounters.Result.DROPPED_AT_CLOSE) >= atClose + queued);
        }
    }

    @Test
    public void perReportRecordsTapTheCollectorOnlyWhileOn() throws Exception {
        String servers = closedPort();
        current = config("{\"kafka\": {\"bootstrapServers\": \"" + servers + "\"}}");
        mgr.reconfigure();
        assertNull(feed.tap);
        current = config("{\"kafka\": {\"bootstrapServers\": \"" + servers + "\", \"intReports\": {\"sampleEvery\": 7,"
                                 + " \"maxPerSecond\": 300}}}");
        mgr.reconfigure();
        assertEquals(7, feed.tap.sampleEvery());
        assertEquals(300, feed.tap.maxPerSecond());
        assertEquals(IntReportSettings.DEFAULT_QUEUE_RECORDS, mgr.settings().kafka().intReports().queueRecords());
        current = config("{\"kafka\": {\"bootstrapServers\": \"" + servers + "\"}}");
        mgr.reconfigure();
        assertNull(feed.tap);
    }

    @Test
    public void aProducerThatCannotBeCreatedLeavesTheRunningOne() throws Exception {
        String servers = closedPort();
        current = config("{\"kafka\": {\"bootstrapServers\": \"" + servers + "\"}}");
        mgr.reconfigure();
        // valid syntax, but no such host: KafkaProducer refuses to start
        current = config("{\"kafka\": {\"bootstrapServers\": \"no-such-host.invalid:9092\"}}");
        mgr.reconfigure();
        assertEquals(servers, mgr.settings().kafka().bootstrapServers());
        current = null;
        mgr.reconfigure();
        assertNull(mgr.settings().kafka());
    }

    @Test
    public void windowsReachTheQueueWithoutABroker() throws Exception {
        current = config("{\"kafka\": {\"bootstrapServers\": \"" + closedPort() + "\", \"queueRecords\": 3,"
                                 + " \"maxBlockMs\": 200}}");
        mgr.reconfigure();
        Windows w = new Windows();
        for (int i = 0; i < 10; i++) {
            feed.push(w.next(5, 20_000));
        }
        ExportStats chains = mgr.stats().stream().filter(s -> s.kind() == ExportRecord.Kind.CHAIN_SUMMARY)
                .findFirst().orElseThrow();
        long dropped = chains.counts().get(ExportCounters.Result.DROPPED_QUEUE_FULL);
        // 10 windows, 3 queued, at most one in the export thread's hands: the rest dropped
        long inQueueOrHand = 10 - dropped - chains.queued();
        assertTrue("dropped " + dropped + " queued " + chains.queued(), dropped >= 6 && dropped <= 7
                && inQueueOrHand >= 0 && inQueueOrHand <= 1);
        assertEquals(0L, (long) chains.counts().get(ExportCounters.Result.ACKED));
    }
}
