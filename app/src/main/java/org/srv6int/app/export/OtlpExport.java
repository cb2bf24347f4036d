// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporterBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.Data;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.GaugeData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.SumData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.resources.Resource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Pushes the app's metrics to an OpenTelemetry collector with the OpenTelemetry SDK's OTLP/HTTP
 * (protobuf) exporter, sent by the JDK's HttpClient. Every {@code intervalMs} a timer thread
 * renders the metrics as the Prometheus endpoint serves them, turns each family into an OTLP
 * metric of the same name (gauges into gauges, counters into cumulative monotonic sums, labels
 * into attributes) and offers the batch to a bounded queue; a full queue drops the batch and
 * counts it. One sender thread exports the batches, each bounded by {@code timeoutMs}, without
 * retries (the next push carries the same counters). Headers and TLS come from
 * {@link OtlpSecurity}. Neither thread touches the collector's
 * receive path or the loop: the rendering reads what the scrape reads.
 */
public final class OtlpExport implements AutoCloseable {

    /** Instrumentation scope of the pushed metrics. */
    static final String SCOPE = "org.srv6int.app";
    /** service.name of the pushed resource. */
    static final String SERVICE_NAME = "srv6int-app";
    private static final long JOIN_SLACK_MS = 1000;

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final OtlpSettings settings;
    private final Supplier<String> metrics;
    private final ExportCounters counters;
    private final MetricExporter exporter;
    private final Resource resource;
    private final InstrumentationScopeInfo scope = InstrumentationScopeInfo.create(SCOPE);
    private final long startNanos = nowNanos();
    private final BlockingQueue<List<MetricData>> queue;
    private final ScheduledExecutorService timer;
    private final Thread sender;
    private volatile boolean closing;
    private volatile String lastError;
    private volatile String lastHeaderError;

    /**
     * Creates the exporter and starts pushing.
     *
     * @param settings settings
     * @param instance this ONOS instance (service.instance.id)
     * @param metrics  renders the metrics in the Prometheus text format; null while there are none
     * @param counters where to count pushes (kept across reconfigurations by the caller)
     * @throws IllegalArgumentException if the exporter refuses the settings
     */
    public OtlpExport(OtlpSettings settings, String instance, Supplier<String> metrics, ExportCounters counters) {
        this.settings = settings;
        this.metrics = metrics;
        this.counters = counters;
        this.resource = Resource.getDefault().merge(Resource.create(
                Attributes.builder().put("service.name", SERVICE_NAME).put("service.instance.id", instance).build()));
        OtlpHttpMetricExporterBuilder b = OtlpHttpMetricExporter.builder()
                .setEndpoint(settings.endpoint())
                .setTimeout(Duration.ofMillis(settings.timeoutMs()))
                .setConnectTimeout(Duration.ofMillis(settings.timeoutMs()))
                .setRetryPolicy(null)
                .setMeterProvider(MeterProvider::noop)
                // The sender is found with ServiceLoader: in Karaf, in this bundle's class path.
                .setServiceClassLoader(OtlpExport.class.getClassLoader());
        if (settings.security() != null) {
            settings.security().apply(b, this::headerFileError);
        }
        this.exporter = b.build();
        this.queue = new ArrayBlockingQueue<>(settings.queueBatches());
        sender = new Thread(this::send, "srv6int-export-otlp");
        sender.setDaemon(true);
        sender.start();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "srv6int-export-otlp-timer");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::collect, settings.intervalMs(), settings.intervalMs(), TimeUnit.MILLISECONDS);
    }

    /** @return settings */
    public OtlpSettings settings() {
        return settings;
    }

    /** @return pushes waiting in the hand-off queue */
    public int queued() {
        return queue.size();
    }

    /** @return the last error of a push, null if none */
    public String lastError() {
        return lastError;
    }

    /** A header file could not be read at a push: logged once per message, the last value read is sent. */
    private void headerFileError(String message) {
        if (!message.equals(lastHeaderError)) {
            lastHeaderError = message;
            log.warn("OTLP push: {}", message);
        }
        lastError = message;
    }

    /** Timer thread: renders the metrics and offers them; never waits for the collector. */
    private void collect() {
        try {
            String text = metrics.get();
            if (text == null || closing) {
                return;
            }
            List<MetricData> batch = toOtlp(ExpositionText.parse(text), nowNanos());
            if (!queue.offer(batch)) {
                counters.add(ExportRecord.Kind.METRICS, ExportCounters.Result.DROPPED_QUEUE_FULL);
            }
        } catch (RuntimeException e) {
            // a rendering that fails must not end the timer (a scheduled task that throws stops)
            lastError = e.toString();
            log.warn("OTLP push skipped: {}", e.toString());
        }
    }

    /**
     * Turns families into OTLP metrics: counters into cumulative monotonic sums from the start of
     * this export, gauges into gauges; labels into string attributes.
     */
    List<MetricData> toOtlp(List<ExpositionText.Family> families, long epochNanos) {
        List<MetricData> out = new ArrayList<>(families.size());
        for (ExpositionText.Family f : families) {
            List<DoublePointData> points = new ArrayList<>(f.samples.size());
            for (ExpositionText.Sample s : f.samples) {
                AttributesBuilder a = Attributes.builder();
                for (Map.Entry<String, String> l : s.labels.entrySet()) {
                    a.put(l.getKey(), l.getValue());
                }
                points.add(DoublePointData.create(startNanos, epochNanos, a.build(), s.value, List.of()));
            }
            boolean counter = "counter".equals(f.type);
            Data<DoublePointData> data = counter
                    ? SumData.createDoubleSumData(true, AggregationTemporality.CUMULATIVE, points)
                    : GaugeData.createDoubleGaugeData(points);
            out.add(new Metric(resource, scope, f.name, f.help, unit(f.name),
                               counter ? MetricDataType.DOUBLE_SUM : MetricDataType.DOUBLE_GAUGE, data));
        }
        return out;
    }

    /** UCUM unit of a name's base-unit suffix, empty if it has none. */
    static String unit(String name) {
        String n = name.endsWith("_total") ? name.substring(0, name.length() - 6) : name;
        if (n.endsWith("_seconds")) {
            return "s";
        }
        if (n.endsWith("_bytes")) {
            return "By";
        }
        if (n.endsWith("_hertz")) {
            return "Hz";
        }
        return "";
    }

    /** Sender thread: one push at a time, each bounded by the exporter's timeout. */
    private void send() {
        while (!closing) {
            List<MetricData> batch;
            try {
                batch = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                break;
            }
            if (batch == null) {
                continue;
            }
            CompletableResultCode r;
            try {
                r = exporter.export(batch);
            } catch (RuntimeException e) {
                counters.add(ExportRecord.Kind.METRICS, ExportCounters.Result.FAILED);
                lastError = e.toString();
                continue;
            }
            r.join(settings.timeoutMs() + JOIN_SLACK_MS, TimeUnit.MILLISECONDS);
            if (r.isSuccess()) {
                counters.add(ExportRecord.Kind.METRICS, ExportCounters.Result.ACKED);
            } else {
                counters.add(ExportRecord.Kind.METRICS, ExportCounters.Result.FAILED);
                Throwable t = r.getFailureThrowable();
                lastError = t != null ? t.toString() : r.isDone() ? "refused by the collector" : "timed out";
            }
        }
    }

    /**
     * Stops pushing; pushes still queued count as dropped at close.
     */
    @Override
    public void close() {
        closing = true;
        timer.shutdownNow();
        try {
            sender.join(settings.timeoutMs() + 2 * JOIN_SLACK_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt();
        }
        exporter.shutdown().join(JOIN_SLACK_MS, TimeUnit.MILLISECONDS);
        while (queue.poll() != null) {
            counters.add(ExportRecord.Kind.METRICS, ExportCounters.Result.DROPPED_AT_CLOSE);
        }
        log.info("OTLP export to {} closed", settings.endpoint());
    }

    private static long nowNanos() {
        return TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
    }

    /** One family as OTLP metric data. */
    private static final class Metric implements MetricData {
        private final Resource resource;
        private final InstrumentationScopeInfo scope;
        private final String name;
        private final String description;
        private final String unit;
        private final MetricDataType type;
        private final Data<?> data;

        Metric(Resource resource, InstrumentationScopeInfo scope, String name, String description, String unit,
               MetricDataType type, Data<?> data) {
            this.resource = resource;
            this.scope = scope;
            this.name = name;
            this.description = description;
            this.unit = unit;
            this.type = type;
            this.data = data;
        }

        @Override
        public Resource getResource() {
            return resource;
        }

        @Override
        public InstrumentationScopeInfo getInstrumentationScopeInfo() {
            return scope;
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public String getDescription() {
            return description;
        }

        @Override
        public String getUnit() {
            return unit;
        }

        @Override
        public MetricDataType getType() {
            return type;
        }

        @Override
        public Data<?> getData() {
            return data;
        }
    }
}
