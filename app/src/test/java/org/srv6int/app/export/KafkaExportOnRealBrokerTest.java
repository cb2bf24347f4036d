// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.function.Predicate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Test;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfWindow;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The Kafka export against a real single-node KRaft broker ({@link KafkaBroker}, started from
 * Maven Central's Kafka jars by tests/ci.d/65-kafka.sh, which sets {@code srv6int.kafka.classpath};
 * skipped without it): summaries of real collector windows arrive and decode to the windows'
 * figures; a broker restart while windows keep closing loses no summary and repeats none; a
 * broker that is down or a producer buffer that is full never makes the window thread wait, and
 * what could not be queued is counted.
 */
public class KafkaExportOnRealBrokerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static KafkaBroker broker;
    private static Path dir;

    @BeforeClass
    public static void startBroker() throws Exception {
        String cp = System.getProperty("srv6int.kafka.classpath");
        Assume.assumeTrue("srv6int.kafka.classpath not set (tests/ci.d/65-kafka.sh sets it)", cp != null);
        dir = Files.createTempDirectory("srv6int-kafka");
        broker = new KafkaBroker(cp, dir);
        broker.start();
    }

    @AfterClass
    public static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    private static KafkaSettings settings(String prefix, int queue, long buffer, int maxBlockMs, String servers) {
        return new KafkaSettings(servers, prefix, queue, buffer, maxBlockMs, 120_000);
    }

    /** Reads a topic from its start until {@code done} holds of what was read, or 180 s pass. */
    private static List<JsonNode> read(String topic, Predicate<List<JsonNode>> done)
            throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<JsonNode> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(),
                                                                   new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (!done.test(out) && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    JsonNode n = JSON.readTree(r.value());
                    assertEquals("key is the chain", n.get("chain").asText(), r.key());
                    out.add(n);
                }
            }
        }
        return out;
    }

    private static void await(String what, BooleanSupplier cond, long seconds, KafkaExport k)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                StringBuilder sb = new StringBuilder();
                for (ExportRecord.Kind kind : ExportRecord.Kind.values()) {
                    sb.append(' ').append(kind).append(k.counters().of(kind)).append(" queued=").append(k.queued(kind));
                }
                throw new AssertionError("timed out waiting for " + what + ":" + sb + " last error " + k.lastError());
            }
            Thread.sleep(50);
        }
    }

    private static long count(ExportCounters c, ExportRecord.Kind k, ExportCounters.Result r) {
        return c.get(k, r);
    }

    @Test
    public void summariesOfRealWindowsArriveAndDecode() throws Exception {
        Windows windows = new Windows();
        ExportCounters counters = new ExportCounters();
        List<TelemetrySnapshot> sent = new ArrayList<>();
        try (KafkaExport k = new KafkaExport(settings("decode", 100, 1 << 20, 1000, broker.bootstrap()), "t1",
                                             counters)) {
            for (int period = 1; period <= 3; period++) {
                TelemetrySnapshot w = windows.next(20 * period, 100_000L * period);
                sent.add(w);
                for (ExportRecord r : WindowRecords.of(w, "onos-1", period, 1_000L * period)) {
                    assertTrue(k.offer(r));
                }
            }
            await("acks", () -> count(counters, ExportRecord.Kind.VNF_SUMMARY, ExportCounters.Result.ACKED) == 3
                    && count(counters, ExportRecord.Kind.CHAIN_SUMMARY, ExportCounters.Result.ACKED) == 3, 180, k);
        }
        List<JsonNode> vnfs = read("decode.vnf-summary", l -> l.size() >= 3);
        List<JsonNode> chains = read("decode.chain-summary", l -> l.size() >= 3);
        assertEquals(3, vnfs.size());
        assertEquals(3, chains.size());
        for (int i = 0; i < 3; i++) {
            VnfWindow v = sent.get(i).vnfs().get(0);
            JsonNode n = vnfs.get(i);
            assertEquals("onos-1", n.get("instance").asText());
            assertEquals(i + 1, n.get("period").asLong());
            assertEquals(1_000L * (i + 1), n.get("timestampMillis").asLong());
            assertEquals(Windows.CHAIN, n.get("chain").asInt());
            assertEquals(0, n.get("vnf").asInt());
            assertEquals(20L * (i + 1), n.get("samples").asLong());
            assertEquals(v.samples(), n.get("samples").asLong());
            assertEquals(v.p95Nanos() / 1e9, n.get("latencyP95Seconds").asDouble(), 0);
            assertEquals(v.p99Nanos() / 1e9, n.get("latencyP99Seconds").asDouble(), 0);
            // the engine's histograms keep 2 significant digits: within 1% of the latency sent
            assertEquals(100e-6 * (i + 1), n.get("latencyP95Seconds").asDouble(), 1e-2 * 100e-6 * (i + 1));
            assertEquals(v.ratePps(), n.get("packetsPerSecond").asDouble(), 0);
            assertEquals(v.replicaPackets().get("r1").longValue(), n.get("replicaPackets").get("r1").asLong());
            assertEquals(1.0, n.get("windowSeconds").asDouble(), 0);
            ChainWindow c = sent.get(i).chains().get(0);
            JsonNode cn = chains.get(i);
            assertEquals(i + 1, cn.get("period").asLong());
            assertEquals(c.reports(), cn.get("reports").asLong());
            assertEquals(c.e2eP95Nanos() / 1e9, cn.get("latencyP95Seconds").asDouble(), 0);
            assertEquals(c.ratePps(), cn.get("packetsPerSecond").asDouble(), 0);
        }
        assertEquals(0, count(counters, ExportRecord.Kind.VNF_SUMMARY, ExportCounters.Result.FAILED));
    }

    @Test
    public void sampledReportsOfTheCollectorArriveAndDecode() throws Exception {
        Windows windows = new Windows();
        ExportCounters counters = new ExportCounters();
        KafkaSettings s = new KafkaSettings(broker.bootstrap(), "reports", 100, 1 << 20, 1000, 120_000,
                                            new IntReportSettings(5, 100_000, 1000));
        try (KafkaExport k = new KafkaExport(s, "t4", "onos-1", counters)) {
            // the collector's engine samples its accepted reports into the export's tap
            windows.engine().setReportTap(k.reportTap(), 100_000);
            windows.next(100, 120_000);
            windows.next(100, 140_000);
            windows.engine().setReportTap(null, 0);
            await("report acks", () -> count(counters, ExportRecord.Kind.INT_REPORT, ExportCounters.Result.ACKED) == 40,
                  180, k);
        }
        List<JsonNode> got = read("reports.int-report", l -> l.size() >= 40);
        assertEquals(40, got.size());
        for (int i = 0; i < 40; i++) {
            JsonNode n = got.get(i);
            assertEquals("onos-1", n.get("instance").asText());
            assertEquals(5, n.get("sampleEvery").asInt());
            assertEquals(Windows.CHAIN, n.get("chain").asInt());
            assertEquals(4, n.get("reporter").asInt());
            assertEquals(5L * i + 4, n.get("sequence").asLong()); // every 5th report, in order
            JsonNode vnfHop = n.get("hops").get(1);
            assertEquals(2, vnfHop.get("device").asInt());
            assertEquals(i < 20 ? 120_000 : 140_000, vnfHop.get("vnfLatencyNanos").asLong());
        }
        assertEquals(0, count(counters, ExportRecord.Kind.INT_REPORT, ExportCounters.Result.DROPPED_QUEUE_FULL));
        assertEquals(0, count(counters, ExportRecord.Kind.INT_REPORT, ExportCounters.Result.FAILED));
    }

    @Test
    public void aBrokerRestartLosesNoSummaryAndAFullBufferNeverBlocksTheWindowThread() throws Exception {
        Windows windows = new Windows();
        ExportCounters counters = new ExportCounters();
        // A small buffer (64 KiB) and queue: the restart must fill both.
        KafkaSettings s = settings("restart", 200, 64 << 10, 50, broker.bootstrap());
        Map<Long, Boolean> offered = new TreeMap<>();
        long period = 0;
        String pad = "x".repeat(2000); // makes the records big enough to fill the buffer
        try (KafkaExport k = new KafkaExport(s, "t2", counters)) {
            for (int i = 0; i < 5; i++) {
                period++;
                offered.put(period, offerAll(k, windows.next(10, 50_000), period, pad));
            }
            long p5 = period;
            await("first acks", () -> count(counters, ExportRecord.Kind.CHAIN_SUMMARY, ExportCounters.Result.ACKED)
                    == p5, 180, k);
            broker.stop();
            // The window thread keeps closing windows while the broker is down: thousands of
            // offers, none waits; past the buffer and queue they are dropped and counted.
            long t0 = System.nanoTime();
            for (int i = 0; i < 2000; i++) {
                period++;
                offered.put(period, offerAll(k, windows.next(1, 50_000), period, pad));
            }
            long offerMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            long dropped = count(counters, ExportRecord.Kind.CHAIN_SUMMARY, ExportCounters.Result.DROPPED_QUEUE_FULL);
            assertTrue("the queue must have filled while the broker was down: dropped " + dropped, dropped > 0);
            assertTrue("the export thread was refused by the full buffer and retried",
                       counters.retries(ExportRecord.Kind.CHAIN_SUMMARY) > 0
                               || counters.retries(ExportRecord.Kind.VNF_SUMMARY) > 0);
            System.out.println("2000 windows offered with the broker down in " + offerMillis + " ms; dropped "
                                       + dropped + " chain summaries at the full queue");
            broker.start();
            long accepted = offered.values().stream().filter(b -> b).count();
            await("every queued summary acked after the restart",
                  () -> count(counters, ExportRecord.Kind.CHAIN_SUMMARY, ExportCounters.Result.ACKED) == accepted,
                  180, k);
            assertEquals(0, count(counters, ExportRecord.Kind.CHAIN_SUMMARY, ExportCounters.Result.FAILED));
            assertEquals(accepted + dropped, period);
        }
        long accepted = offered.values().stream().filter(b -> b).count();
        List<JsonNode> got = read("restart.chain-summary", l -> l.size() >= accepted);
        Map<Long, Integer> seen = new TreeMap<>();
        for (JsonNode n : got) {
            seen.merge(n.get("period").asLong(), 1, Integer::sum);
        }
        for (Map.Entry<Long, Boolean> e : offered.entrySet()) {
            if (e.getValue()) {
                assertEquals("period " + e.getKey() + " arrived once", Integer.valueOf(1), seen.get(e.getKey()));
            } else {
                assertTrue("dropped period " + e.getKey() + " must not arrive", !seen.containsKey(e.getKey()));
            }
        }
        assertEquals(accepted, got.size());
    }

    /** Offers a window's summaries, the chain's padded; whether the chain summary was queued. */
    private static boolean offerAll(KafkaExport k, TelemetrySnapshot w, long period, String pad) {
        boolean chainQueued = false;
        for (ExportRecord r : WindowRecords.of(w, "onos-1", period, period)) {
            if (r.kind() == ExportRecord.Kind.CHAIN_SUMMARY) {
                String v = r.value().substring(0, r.value().length() - 1) + ",\"pad\":\"" + pad + "\"}";
                chainQueued = k.offer(new ExportRecord(r.kind(), r.key(), v));
            } else {
                k.offer(r);
            }
        }
        return chainQueued;
    }

    @Test
    public void aBrokerThatIsNotThereNeverBlocksTheWindowThread() throws Exception {
        Windows windows = new Windows();
        ExportCounters counters = new ExportCounters();
        // nothing listens there: every send waits max.block.ms for metadata, on the export thread only
        int closed;
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = ss.getLocalPort();
        }
        try (KafkaExport k = new KafkaExport(settings("nobroker", 50, 64 << 10, 200, "127.0.0.1:" + closed), "t3",
                                             counters)) {
            int accepted = 0;
            for (long period = 1; period <= 1000; period++) {
                for (ExportRecord r : WindowRecords.of(windows.next(1, 10_000), "onos-1", period, period)) {
                    if (k.offer(r) && r.kind() == ExportRecord.Kind.CHAIN_SUMMARY) {
                        accepted++;
                    }
                }
            }
            // 1000 offers returned although each send waits 200 ms: the queue took 50 (one more
            // is in the export thread's hands), the rest were dropped and counted.
            assertTrue("accepted " + accepted, accepted >= 50 && accepted <= 52);
            assertEquals(1000 - accepted,
                         count(counters, ExportRecord.Kind.CHAIN_SUMMARY, ExportCounters.Result.DROPPED_QUEUE_FULL));
            assertEquals(0, count(counters, ExportRecord.Kind.CHAIN_SUMMARY, ExportCounters.Result.ACKED));
        }
        // closing counts what was left
        long atClose = count(counters, ExportRecord.Kind.CHAIN_SUMMARY, ExportCounters.Result.DROPPED_AT_CLOSE);
        assertTrue("left at close " + atClose, atClose >= 50);
    }
}
