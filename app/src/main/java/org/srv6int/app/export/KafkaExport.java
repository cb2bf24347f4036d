// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.srv6int.app.api.ReportTap;
import org.srv6int.app.api.model.SampledReport;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Publishes export records to Kafka, one topic per kind, without ever making the caller wait:
 * {@link #offer} puts the record into a bounded hand-off queue of its kind (a full queue drops it
 * and counts it), and one export thread moves records into an idempotent producer
 * ({@code enable.idempotence}, {@code acks=all}, unlimited retries within
 * {@code delivery.timeout.ms}) whose {@code send} may block at most {@code max.block.ms} when its
 * bounded buffer is full or the broker is unknown. A summary the producer refuses is tried again
 * (so a broker restart loses none while the queue has room).
 */
public final class KafkaExport implements AutoCloseable {

    /** Kinds of records this export publishes. */
    public static final Set<ExportRecord.Kind> KINDS =
            Collections.unmodifiableSet(EnumSet.of(ExportRecord.Kind.CHAIN_SUMMARY, ExportRecord.Kind.VNF_SUMMARY,
                                                   ExportRecord.Kind.INT_REPORT));

    private static final long MAX_BACKOFF_MS = 1000;
    private static final long CLOSE_MS = 2000;

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final KafkaSettings settings;
    private final Producer<String, String> producer;
    private final Map<ExportRecord.Kind, BlockingQueue<ExportRecord>> queues =
            new EnumMap<>(ExportRecord.Kind.class);
    private final ExportCounters counters;
    private final String instance;
    private final IntReportTap reports;
    private final Thread thread;
    private volatile boolean closing;
    private volatile String lastError;

    /**
     * Creates the producer and starts the export thread.
     *
     * @param settings settings
     * @param clientId client.id of the producer
     * @param counters where to count (kept across reconfigurations by the caller)
     * @throws org.apache.kafka.common.KafkaException if the producer rejects the settings (for
     *         example no resolvable bootstrap server)
     */
    public KafkaExport(KafkaSettings settings, String clientId, ExportCounters counters) {
        this(settings, clientId, clientId, counters);
    }

    /**
     * Creates the producer and starts the export thread, with per-report records if the settings
     * ask for them ({@link #reportTap()} is then what the collector feeds).
     *
     * @param settings settings
     * @param clientId client.id of the producer
     * @param instance this ONOS instance, in per-report records
     * @param counters where to count (kept across reconfigurations by the caller)
     * @throws org.apache.kafka.common.KafkaException if the producer rejects the settings
     */
    public KafkaExport(KafkaSettings settings, String clientId, String instance, ExportCounters counters) {
        this.settings = settings;
        this.counters = counters;
        this.instance = instance;
        this.reports = settings.intReports() == null ? null : new IntReportTap(settings.intReports(), counters);
        this.producer = newProducer(settings, clientId);
        for (ExportRecord.Kind k : EnumSet.of(ExportRecord.Kind.CHAIN_SUMMARY, ExportRecord.Kind.VNF_SUMMARY)) {
            queues.put(k, new ArrayBlockingQueue<>(settings.queueRecords()));
        }
        thread = new Thread(this::run, "srv6int-export-kafka");
        thread.setDaemon(true);
        thread.start();
    }

    private static Producer<String, String> newProducer(KafkaSettings s, String clientId) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, s.maxBlockMs());
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, s.bufferBytes());
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(30_000, s.deliveryTimeoutMs() - 20));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, s.deliveryTimeoutMs());
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        // No compression: the codecs' native jars are not shipped in the bundle.
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        if (s.security() != null) {
            s.security().apply(p); // TLS (and SASL): the password file is read here, at each start
        }
        // Kafka resolves configured classes through the context class loader: inside Karaf that
        // must be this bundle's, which embeds the client.
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(KafkaProducer.class.getClassLoader());
        try {
            return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        } finally {
            t.setContextClassLoader(before);
        }
    }

    /** @return settings */
    public KafkaSettings settings() {
        return settings;
    }

    /** @return counters */
    public ExportCounters counters() {
        return counters;
    }

    /**
     * Returns how many records of a kind wait in the hand-off queue.
     *
     * @param kind kind
     * @return queued records
     */
    public int queued(ExportRecord.Kind kind) {
        if (kind == ExportRecord.Kind.INT_REPORT) {
            return reports == null ? 0 : reports.queued();
        }
        return queues.get(kind).size();
    }

    /** @return where the collector hands sampled reports, null while per-report records are off */
    public ReportTap reportTap() {
        return reports;
    }

    /** @return the last error the producer reported, null if none */
    public String lastError() {
        return lastError;
    }

    /**
     * Hands a record over; never blocks.
     *
     * @param r record
     * @return false if its queue was full (the record is dropped and counted)
     */
    public boolean offer(ExportRecord r) {
        if (closing || !queues.get(r.kind()).offer(r)) {
            counters.add(r.kind(), closing ? ExportCounters.Result.DROPPED_AT_CLOSE
                    : ExportCounters.Result.DROPPED_QUEUE_FULL);
            return false;
        }
        return true;
    }

    private ExportRecord next() throws InterruptedException {
        // Chain summaries first: fewer, and what most consumers read.
        ExportRecord r = queues.get(ExportRecord.Kind.CHAIN_SUMMARY).poll();
        if (r != null) {
            return r;
        }
        if (reports != null) {
            r = queues.get(ExportRecord.Kind.VNF_SUMMARY).poll();
            if (r != null) {
                return r;
            }
            SampledReport s = reports.poll();
            if (s != null) {
                return IntReportTap.record(s, instance, System.currentTimeMillis(),
                        settings.intReports().sampleEvery());
            }
        }
        return queues.get(ExportRecord.Kind.VNF_SUMMARY).poll(reports == null ? 20 : 2, TimeUnit.MILLISECONDS);
    }

    private void run() {
        ExportRecord pending = null;
        long backoff = 0;
        while (!closing) {
            try {
                if (pending == null) {
                    pending = next();
                    if (pending == null) {
                        continue;
                    }
                }
                ExportRecord r = pending;
                // send() reports a refusal (max.block.ms passed waiting for metadata or buffer
                // space) through the callback before it returns, on this thread; later outcomes
                // come from the producer's network thread.
                Exception[] refused = new Exception[1];
                boolean[] returned = new boolean[1];
                producer.send(new ProducerRecord<>(settings.topic(r.kind()), r.key(), r.value()), (md, e) -> {
                    if (e == null) {
                        counters.add(r.kind(), ExportCounters.Result.ACKED);
                    } else if (!returned[0] && Thread.currentThread() == thread) {
                        refused[0] = e;
                    } else {
                        counters.add(r.kind(), ExportCounters.Result.FAILED);
                        lastError = e.toString();
                    }
                });
                returned[0] = true;
                if (refused[0] != null) {
                    throw new KafkaException(refused[0]);
                }
                pending = null;
                backoff = 0;
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                // refused at send (buffer full, broker unknown) or thrown by a failed producer
                lastError = e.toString();
                counters.retried(pending.kind());
                backoff = Math.min(MAX_BACKOFF_MS, Math.max(10, backoff * 2));
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    break;
                }
            }
        }
        if (pending != null) {
            counters.add(pending.kind(), ExportCounters.Result.DROPPED_AT_CLOSE);
        }
    }

    /**
     * Stops the export thread, gives the producer a moment to deliver what it holds, and counts
     * what is still queued as dropped at close.
     */
    @Override
    public void close() {
        closing = true;
        if (reports != null) {
            reports.close();
        }
        try {
            thread.join(settings.maxBlockMs() + CLOSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
        producer.close(Duration.ofMillis(CLOSE_MS));
        for (Map.Entry<ExportRecord.Kind, BlockingQueue<ExportRecord>> e : queues.entrySet()) {
            for (ExportRecord r; (r = e.getValue().poll()) != null;) {
                counters.add(r.kind(), ExportCounters.Result.DROPPED_AT_CLOSE);
            }
        }
        log.info("Kafka export to {} closed", settings.bootstrapServers());
    }
}
