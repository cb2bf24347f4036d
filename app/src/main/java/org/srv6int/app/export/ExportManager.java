// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import org.onosproject.cluster.ClusterService;
import org.onosproject.core.CoreService;
import org.onosproject.net.config.InvalidFieldException;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.config.AppConfigSection;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.api.AppMetricsService;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.TelemetryWindows;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The exports component: applies netcfg {@code apps/org.srv6int.app/export}; while Kafka is on,
 * hands each closed telemetry window's summaries ({@link WindowRecords}) to the Kafka export;
 * while OTLP is on, pushes the app's metrics ({@link AppMetricsService}, as scraped) with the
 * OpenTelemetry OTLP exporter ({@link OtlpExport}). The hand-off happens on the collector's window
 * thread and never blocks it; an invalid config or an export that cannot be created is logged with
 * the reason and leaves the running exports as they were.
 */
@Component(immediate = true, service = ExportService.class)
public class ExportManager implements ExportService {

    /** Name of the Kafka export in metrics. */
    public static final String KAFKA = "kafka";
    /** Name of the OTLP export in metrics. */
    public static final String OTLP = "otlp";

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry registry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            bind = "bindWindows", unbind = "unbindWindows")
    protected volatile TelemetryWindows windows;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    protected volatile AppMetricsService metrics;

    private final ExportCounters kafkaCounters = new ExportCounters();
    private final ExportCounters otlpCounters = new ExportCounters();
    private final AtomicLong period = new AtomicLong();
    private final Consumer<TelemetrySnapshot> windowConsumer = this::onWindow;
    private AppConfigSection<ExportConfig> config;
    private volatile ExportSettings settings = ExportSettings.OFF;
    private volatile KafkaExport kafka;
    private volatile OtlpExport otlp;

    /** Creates the component for OSGi Declarative Services, which sets its references. */
    public ExportManager() {
    }

    /**
     * Creates the component with its references, for a host without OSGi; windows are bound with
     * {@link #bindWindows}.
     *
     * @param registry netcfg registry (the {@code export} section)
     * @param core     core service (the app id)
     * @param cluster  this instance's cluster view
     * @param metrics  the app's metrics, or null
     */
    public ExportManager(NetworkConfigRegistry registry, CoreService core, ClusterService cluster,
                         AppMetricsService metrics) {
        this.registry = registry;
        this.coreService = core;
        this.clusterService = cluster;
        this.metrics = metrics;
    }

    /**
     * Binds the app's metrics the OTLP export pushes (OSGi binds them by their dynamic reference; a
     * host without OSGi calls this).
     *
     * @param metrics the app's metrics, null to unbind
     */
    public void bindMetrics(AppMetricsService metrics) {
        this.metrics = metrics;
    }

    /** Opens the netcfg section and starts the exports it configures. */
    @Activate
    public void activate() {
        config = new AppConfigSection<>(registry, coreService.registerApplication(Srv6IntConfigService.APP_NAME),
                                        ExportConfig.class, ExportConfig.KEY, ExportConfig::new, this::reconfigure);
        config.open();
        reconfigure();
        log.info("Started");
    }

    /** Stops the exports and closes the netcfg section. */
    @Deactivate
    public void deactivate() {
        config.close();
        apply(ExportSettings.OFF);
        log.info("Stopped");
    }

    /**
     * Binds the collector's windows.
     *
     * @param w windows
     */
    protected void bindWindows(TelemetryWindows w) {
        windows = w;
        w.addWindowConsumer(windowConsumer);
        KafkaExport k = kafka;
        w.setReportTap(k == null ? null : k.reportTap());
    }

    /**
     * Unbinds the collector's windows.
     *
     * @param w windows
     */
    protected void unbindWindows(TelemetryWindows w) {
        w.removeWindowConsumer(windowConsumer);
        w.setReportTap(null);
        if (windows == w) {
            windows = null;
        }
    }

    /** Applies netcfg; a bad config keeps what runs. */
    void reconfigure() {
        ExportConfig c = config.get();
        ExportSettings s;
        try {
            s = c == null ? ExportSettings.OFF : c.settings();
        } catch (InvalidFieldException e) {
            log.error("Invalid export config, keeping {}: {}", settings, e.getMessage());
            return;
        }
        apply(s);
    }

    /**
     * Applies settings: an export whose settings changed is replaced, the new one created before
     * the old closes, so one that cannot be created leaves the old one running.
     *
     * @param s settings
     * @return true if every part was applied
     */
    synchronized boolean apply(ExportSettings s) {
        boolean ok = true;
        KafkaSettings want = s.kafka();
        KafkaSettings have = settings.kafka();
        if (!Objects.equals(want, have)) {
            KafkaExport next = null;
            if (want != null) {
                try {
                    next = new KafkaExport(want, "srv6int-" + localNode(), localNode(), kafkaCounters);
                } catch (RuntimeException e) {
                    // KafkaException: a bootstrap server that does not resolve, a bad value.
                    log.error("Kafka export not applied, keeping {}: {}", have == null ? "kafka off" : have,
                              e.toString());
                    ok = false;
                    want = have;
                }
            }
            if (ok) {
                KafkaExport old = kafka;
                kafka = next;
                TelemetryWindows w = windows;
                if (w != null) {
                    w.setReportTap(next == null ? null : next.reportTap());
                }
                if (old != null) {
                    old.close();
                }
            }
        }
        OtlpSettings wantOtlp = s.otlp();
        OtlpSettings haveOtlp = settings.otlp();
        if (!Objects.equals(wantOtlp, haveOtlp)) {
            OtlpExport next = null;
            boolean created = true;
            if (wantOtlp != null) {
                try {
                    next = new OtlpExport(wantOtlp, localNode(), this::scrapeMetrics, otlpCounters);
                } catch (RuntimeException e) {
                    log.error("OTLP export not applied, keeping {}: {}", haveOtlp == null ? "otlp off" : haveOtlp,
                              e.toString());
                    created = false;
                    ok = false;
                    wantOtlp = haveOtlp;
                }
            }
            if (created) {
                OtlpExport old = otlp;
                otlp = next;
                if (old != null) {
                    old.close();
                }
            }
        }
        settings = new ExportSettings(want, wantOtlp);
        log.info("Export: {}", settings);
        return ok;
    }

    /** The metrics as the Prometheus endpoint serves them; null while the metrics component is away. */
    private String scrapeMetrics() {
        AppMetricsService m = metrics;
        return m == null ? null : m.scrape();
    }

    private String localNode() {
        return clusterService.getLocalNode().id().toString();
    }

    /** Runs on the collector's window thread: builds the summaries and offers them; never blocks. */
    private void onWindow(TelemetrySnapshot w) {
        KafkaExport k = kafka;
        if (k == null) {
            return;
        }
        for (ExportRecord r : WindowRecords.of(w, localNode(), period.incrementAndGet(), System.currentTimeMillis())) {
            k.offer(r);
        }
    }

    @Override
    public ExportSettings settings() {
        return settings;
    }

    @Override
    public List<ExportStats> stats() {
        List<ExportStats> out = new ArrayList<>();
        KafkaExport k = kafka;
        for (ExportRecord.Kind kind : KafkaExport.KINDS) {
            out.add(new ExportStats(KAFKA, kind, kafkaCounters.of(kind), kafkaCounters.retries(kind),
                                    k == null ? 0 : k.queued(kind)));
        }
        OtlpExport o = otlp;
        out.add(new ExportStats(OTLP, ExportRecord.Kind.METRICS, otlpCounters.of(ExportRecord.Kind.METRICS), 0,
                                o == null ? 0 : o.queued()));
        return out;
    }
}
