package org.srv6int.app.telemetry;

import com.codahale.metrics.Gauge;
import org.onlab.metrics.MetricsComponent;
import org.onlab.metrics.MetricsFeature;
import org.onlab.metrics.MetricsService;
import org.onlab.packet.IpAddress;
import org.onosproject.net.DeviceId;
import org.srv6int.app.api.SegmentList;
import org.srv6int.app.api.SfcId;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.SfcPaths;
import org.srv6int.app.api.SfcTelemetry;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.VnfKey;
import org.srv6int.app.api.VnfReplica;
import org.srv6int.app.api.VnfTelemetry;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs the INT collector in ONOS: binds the UDP listener to the netcfg collector address and
 * port, keeps the allow-list (each device's report address and INT Device_ID) and the hop
 * bindings (chains' segment lists) in step with the configuration, closes a telemetry window
 * every evaluation period and exposes the counters as ONOS metrics.
 */
@Component(immediate = true, service = {TelemetryService.class, TelemetryWindows.class})
public class TelemetryManager implements TelemetryService, TelemetryWindows {

    /** ONOS metrics component of the collector's counters. */
    public static final String METRICS_COMPONENT = "srv6int";
    /** ONOS metrics feature of the collector's counters. */
    public static final String METRICS_FEATURE = "collector";
    private static final int RECEIVE_BUFFER = 8 << 20;

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcPathService pathService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfInventoryService inventory;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MetricsService metrics;

    private final List<Consumer<TelemetrySnapshot>> consumers = new CopyOnWriteArrayList<>();
    private final List<String> metricNames = new ArrayList<>();
    private TelemetryEngine engine;
    private UdpCollector collector;
    private InetSocketAddress bound;
    private Map<Integer, Integer> reporters = Map.of();
    private List<HopBinding> bindings = List.of();
    private long periodMillis;
    private ScheduledExecutorService executor;
    private MetricsComponent metricsComponent;
    private MetricsFeature metricsFeature;
    private volatile TelemetrySnapshot latest;
    private volatile long latestMillis;
    private String reconcileProblem;

    @Activate
    protected void activate() {
        engine = new TelemetryEngine(TelemetryEngine.Limits.DEFAULT, System::nanoTime);
        registerMetrics();
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "srv6int-telemetry-window"));
        periodMillis = configService.appConfig().map(Srv6IntAppConfig::evaluationPeriodMillis)
                .orElse(Srv6IntAppConfig.DEFAULT_EVALUATION_PERIOD_MS);
        executor.scheduleWithFixedDelay(this::windowSafely, 0, periodMillis, TimeUnit.MILLISECONDS);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        executor.shutdownNow();
        if (collector != null) {
            collector.close();
        }
        for (String n : metricNames) {
            metrics.removeMetric(metricsComponent, metricsFeature, n);
        }
        log.info("Stopped");
    }

    private void registerMetrics() {
        metricsComponent = metrics.registerComponent(METRICS_COMPONENT);
        metricsFeature = metricsComponent.registerFeature(METRICS_FEATURE);
        for (String name : counterMap(engine.counters()).keySet()) {
            metrics.registerMetric(metricsComponent, metricsFeature, name,
                                   (Gauge<Long>) () -> counterMap(engine.counters()).get(name));
            metricNames.add(name);
        }
    }

    private void windowSafely() {
        try {
            reconcile();
            reconcileProblem = null;
        } catch (RuntimeException e) {
            // A bad config must not stop the windows: keep what was applied and roll anyway.
            if (!e.toString().equals(reconcileProblem)) {
                log.warn("Telemetry reconfiguration failed, the previous one stays: {}", e.toString());
                reconcileProblem = e.toString();
            }
        }
        try {
            TelemetrySnapshot s = engine.roll();
            latest = s;
            latestMillis = System.currentTimeMillis();
            for (Consumer<TelemetrySnapshot> c : consumers) {
                try {
                    c.accept(s);
                } catch (RuntimeException e) {
                    // One failing consumer must not starve the others.
                    log.warn("Telemetry window consumer failed: {}", e.toString());
                }
            }
        } catch (RuntimeException e) {
            // Keep the window thread alive.
            log.warn("Telemetry window failed: {}", e.toString());
        }
    }

    /** Brings socket, allow-list and bindings in line with netcfg, chains and replicas. */
    private void reconcile() {
        Optional<Srv6IntAppConfig> app = configService.appConfig();
        IpAddress addr = app.flatMap(Srv6IntAppConfig::collectorAddress).orElse(null);
        int port = app.map(Srv6IntAppConfig::collectorPort).orElse(Srv6IntAppConfig.DEFAULT_COLLECTOR_PORT);
        InetSocketAddress want = new InetSocketAddress(addr == null ? "0.0.0.0" : addr.toString(), port);
        if (!want.equals(bound)) {
            if (collector != null) {
                collector.close();
                collector = null;
            }
            try {
                collector = new UdpCollector(engine, want, RECEIVE_BUFFER);
                log.info("INT collector listening on {}", want);
            } catch (IOException | IllegalArgumentException e) {
                log.error("INT collector cannot listen on {}: {}", want, e.toString());
            }
            bound = want;
        }
        Srv6Devices devices = configService.devices();
        Map<Integer, Integer> allow = new HashMap<>();
        for (Srv6DeviceConfig c : devices.all().values()) {
            c.reportAddress().ifPresent(a -> allow.put(a.toInt(), c.intDeviceId()));
        }
        if (!allow.equals(reporters)) {
            engine.setReporters(allow);
            reporters = allow;
        }
        Function<DeviceId, Optional<Integer>> intId = d -> devices.get(d).map(Srv6DeviceConfig::intDeviceId);
        List<HopBinding> b = HopBindings.of(pathService.getAllPaths().values(), inventory::getReplica, intId);
        if (!b.equals(bindings)) {
            // Tried (and logged) once per change of the binding set; a refused chain keeps its
            // previous bindings inside the engine, every other chain takes its new ones.
            bindings = b;
            for (String refused : engine.setBindings(b)) {
                log.warn("INT hop bindings refused: {}", refused);
            }
        }
    }

    static Map<String, Long> counterMap(CollectorCounters c) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put(REPORTS_RECEIVED, c.datagrams());
        m.put(REPORTS_MALFORMED, c.malformed());
        m.put(REPORTS_LOST, c.lost());
        m.put(REPORTS_UNKNOWN_CHAIN, c.unknownChain());
        m.put("reportsAccepted", c.accepted());
        m.put("reportsForgedSource", c.forgedSource());
        m.put("reportsForgedDevice", c.forgedDevice());
        m.put("reportsLate", c.late());
        m.put("reportsDuplicate", c.duplicates());
        m.put("reporterResyncs", c.resyncs());
        m.put("intEntriesUnmapped", c.unmappedEntries());
        m.put("portCountersStale", c.staleCounters());
        m.put("bindingsRefused", c.bindingsRefused());
        return m;
    }

    @Override
    public Optional<TelemetrySnapshot> latest() {
        return Optional.ofNullable(latest);
    }

    @Override
    public void addWindowConsumer(Consumer<TelemetrySnapshot> consumer) {
        consumers.add(Objects.requireNonNull(consumer));
    }

    @Override
    public void removeWindowConsumer(Consumer<TelemetrySnapshot> consumer) {
        consumers.remove(consumer);
    }

    @Override
    public Optional<SfcTelemetry> sfcTelemetry(SfcId sfcId) {
        TelemetrySnapshot s = latest;
        if (s == null) {
            return Optional.empty();
        }
        long maxQueue = 0;
        Optional<SfcPaths> paths = pathService.getPaths(sfcId);
        Map<Integer, HopQueue> queues = queuesByDevice(s);
        if (paths.isPresent()) {
            for (SegmentList sl : paths.get().segmentLists()) {
                for (DeviceId d : sl.switchPath()) {
                    Optional<Integer> id = configService.devices().get(d).map(Srv6DeviceConfig::intDeviceId);
                    if (id.isPresent() && queues.containsKey(id.get())) {
                        maxQueue = Math.max(maxQueue, queues.get(id.get()).maxDepth());
                    }
                }
            }
        }
        for (ChainWindow c : s.chains()) {
            if (c.chainTag() == sfcId.tag()) {
                return Optional.of(new SfcTelemetry(sfcId, c.ratePps(), c.e2eP95Nanos(), maxQueue, c.reports(),
                                                    latestMillis));
            }
        }
        return Optional.empty();
    }

    @Override
    public List<VnfTelemetry> vnfTelemetry(SfcId sfcId) {
        List<VnfTelemetry> out = new ArrayList<>();
        TelemetrySnapshot s = latest;
        if (s == null) {
            return out;
        }
        for (VnfWindow w : s.vnfs()) {
            if (w.vnf().sfcId().equals(sfcId)) {
                out.add(toApi(w, s));
            }
        }
        return out;
    }

    @Override
    public Optional<VnfTelemetry> vnfTelemetry(VnfKey vnf) {
        TelemetrySnapshot s = latest;
        if (s == null) {
            return Optional.empty();
        }
        return s.vnfs().stream().filter(w -> w.vnf().equals(vnf)).findFirst().map(w -> toApi(w, s));
    }

    private VnfTelemetry toApi(VnfWindow w, TelemetrySnapshot s) {
        // Queue depth of a vNF: the deepest queue seen at the switches its replicas hang off.
        Map<Integer, HopQueue> queues = queuesByDevice(s);
        long q = 0;
        for (VnfReplica r : inventory.getReplicas(w.vnf())) {
            Optional<Integer> id = configService.devices().get(r.deviceId()).map(Srv6DeviceConfig::intDeviceId);
            if (id.isPresent() && queues.containsKey(id.get())) {
                q = Math.max(q, queues.get(id.get()).maxDepth());
            }
        }
        return new VnfTelemetry(w.vnf(), w.ratePps(), w.p95Nanos(), q, w.samples(), latestMillis);
    }

    private static Map<Integer, HopQueue> queuesByDevice(TelemetrySnapshot s) {
        Map<Integer, HopQueue> m = new HashMap<>();
        for (HopQueue h : s.hops()) {
            m.put(h.deviceId(), h);
        }
        return m;
    }

    @Override
    public Map<String, Long> counters() {
        return counterMap(engine.counters());
    }
}
