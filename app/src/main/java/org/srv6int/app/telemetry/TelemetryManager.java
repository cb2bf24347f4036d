// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.model.HopQueue;
import org.srv6int.app.api.TelemetryWindows;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.ReportTap;
import com.codahale.metrics.Gauge;
import org.onlab.metrics.MetricsComponent;
import org.onlab.metrics.MetricsFeature;
import org.onlab.metrics.MetricsService;
import org.onlab.packet.IpAddress;
import org.onosproject.cluster.ClusterService;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfTelemetry;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.store.TelemetrySummaryStore;
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

/**
 * Runs the INT collector in ONOS: binds the UDP listeners to this instance's collector address
 * and port (netcfg), keeps the allow-list (each device's report address and INT Device_ID,
 * collected here only while this instance masters the device) and the hop bindings (chains'
 * segment lists) in step with the configuration, closes a telemetry window every evaluation
 * period, exchanges window summaries with the other cluster instances so that every window it
 * hands out covers the whole cluster, and exposes the counters as ONOS metrics.
 */
@Component(immediate = true, service = {TelemetryService.class, TelemetryWindows.class})
public class TelemetryManager implements TelemetryService, TelemetryWindows {

    /** ONOS metrics component of the collector's counters. */
    public static final String METRICS_COMPONENT = "srv6int";
    /** ONOS metrics feature of the collector's counters. */
    public static final String METRICS_FEATURE = "collector";
    private static final int RECEIVE_BUFFER = 8 << 20;
    /**
     * Returns the collector's limits an operator set in netcfg ({@code collector.maxReporters},
     * {@code maxVnfs}, {@code maxReplicas}, {@code maxChains}), with the default latency clamp.
     *
     * @param config app config, empty for the defaults
     * @return limits
     */
    public static TelemetryEngine.Limits limits(Optional<Srv6IntAppConfig> config) {
        return config.map(c -> TelemetryEngine.Limits.DEFAULT.withCounts(
                c.collectorMaxReporters(), c.collectorMaxVnfs(), c.collectorMaxReplicas(), c.collectorMaxChains()))
                .orElse(TelemetryEngine.Limits.DEFAULT);
    }

    /** A summary older than this many evaluation periods is stale. */
    static final int STALE_PERIODS = 3;

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcPathService pathService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfInventoryService inventory;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MetricsService metrics;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected TelemetrySummaryStore summaryStore;

    private final List<Consumer<TelemetrySnapshot>> consumers = new CopyOnWriteArrayList<>();
    private final List<String> metricNames = new ArrayList<>();
    private volatile TelemetryShards engine;
    // what sized the current engine (netcfg collector.max*)
    private TelemetryEngine.Limits engineLimits;
    private ReportTap tap;
    private UdpCollector collector;
    private InetSocketAddress bound;
    // false until the first reconcile and after a rebuild: then the socket is (re)decided
    private boolean bindDecided;
    private int boundThreads;
    // what the current engine was given (a new engine starts with nothing)
    private CollectorBindings bindings = new CollectorBindings();
    private long periodMillis;
    private ScheduledExecutorService executor;
    private SummaryPublisher publisher;
    private MetricsComponent metricsComponent;
    private MetricsFeature metricsFeature;
    private volatile TelemetrySnapshot latest;
    private volatile long latestMillis;
    private String reconcileProblem;
    // A switch that changes master is re-pointed at once: follow it in the allow-list at once too.
    private final MastershipListener mastershipListener = e -> {
        ScheduledExecutorService ex = executor;
        if (ex != null && !ex.isShutdown()) {
            ex.execute(this::reconcileSafely);
        }
    };

    /** Creates the component for OSGi, which sets its references. */
    public TelemetryManager() {
    }

    /**
     * Creates the component with its references, for a host without OSGi ({@code AppAssembly}'s
     * loop part); call {@link #activate()}.
     *
     * @param config     the app's netcfg
     * @param paths      chains' segment lists
     * @param inventory  replicas
     * @param metrics    metrics the counters are registered with
     * @param mastership this instance's mastership view (it collects for the switches it masters)
     * @param cluster    this instance's cluster view (its node id names its collector entry)
     * @param summaries  the cluster's telemetry summaries
     */
    public TelemetryManager(Srv6IntConfigService config, SfcPathService paths, VnfInventoryService inventory,
                            MetricsService metrics, MastershipService mastership, ClusterService cluster,
                            TelemetrySummaryStore summaries) {
        this.configService = config;
        this.pathService = paths;
        this.inventory = inventory;
        this.metrics = metrics;
        this.mastershipService = mastership;
        this.clusterService = cluster;
        this.summaryStore = summaries;
    }

    /** Binds the collector (on the window thread) and starts closing windows. */
    @Activate
    public void activate() {
        publisher = new SummaryPublisher("srv6int-telemetry-summary");
        engineLimits = limits(configService.appConfig());
        engine = new TelemetryShards(1, engineLimits, System::nanoTime);
        bindings = new CollectorBindings();
        registerMetrics();
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "srv6int-telemetry-window"));
        periodMillis = configService.appConfig().map(Srv6IntAppConfig::evaluationPeriodMillis)
                .orElse(Srv6IntAppConfig.DEFAULT_EVALUATION_PERIOD_MS);
        executor.scheduleWithFixedDelay(this::windowSafely, 0, periodMillis, TimeUnit.MILLISECONDS);
        mastershipService.addListener(mastershipListener);
        log.info("Started");
    }

    /** Stops the windows, withdraws this instance's summary and closes the collector. */
    @Deactivate
    public void deactivate() {
        mastershipService.removeListener(mastershipListener);
        executor.shutdownNow();
        publisher.close();
        try {
            summaryStore.withdraw(localNode());
        } catch (RuntimeException e) {
            // Stale within a few periods anyway: the leader then leaves it out.
            log.warn("Could not withdraw this instance's telemetry summary: {}", e.toString());
        }
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
        for (String name : counters().keySet()) {
            metrics.registerMetric(metricsComponent, metricsFeature, name,
                                   (Gauge<Long>) () -> counters().get(name));
            metricNames.add(name);
        }
    }

    /**
     * Closes a window now, on the window thread, and waits for it (a host that drives windows
     * itself: tests, and a collector that must have bound its socket before traffic starts).
     *
     * @throws Exception if the window thread is gone or the wait is interrupted
     */
    public void windowNow() throws Exception {
        executor.submit(this::windowSafely).get(10, TimeUnit.SECONDS);
    }

    private void reconcileSafely() {
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
    }

    private void windowSafely() {
        reconcileSafely();
        try {
            TelemetrySnapshot s = engine.roll(exchange);
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

    /**
     * Brings sockets, allow-list and bindings in line with netcfg (this instance's collector
     * address and thread count), mastership, chains and replicas.
     */
    private synchronized void reconcile() {
        Optional<Srv6IntAppConfig> app = configService.appConfig();
        String local = clusterService.getLocalNode().id().toString();
        IpAddress addr = app.flatMap(a -> a.collectorAddressOf(local)).orElse(null);
        int port = app.map(a -> a.collectorPortOf(local)).orElse(Srv6IntAppConfig.DEFAULT_COLLECTOR_PORT);
        int threads = app.map(Srv6IntAppConfig::collectorThreads).orElse(Srv6IntAppConfig.defaultCollectorThreads());
        // No address for this instance: no socket (never the wildcard), said once per change.
        InetSocketAddress want = addr == null ? null : new InetSocketAddress(addr.toString(), port);
        TelemetryEngine.Limits limits = limits(app);
        if (!limits.equals(engineLimits)) {
            // The limits size the engine's arrays: a new engine, so the open window, the counters
            // and the sequence state start afresh (docs/collector.md); the sockets are re-bound.
            if (collector != null) {
                collector.close();
                collector = null;
            }
            TelemetryShards fresh = new TelemetryShards(threads, limits, System::nanoTime);
            fresh.setReportTap(tap);
            engine = fresh;
            engineLimits = limits;
            bindings = new CollectorBindings();
            bound = null;
            bindDecided = false;
            log.info("INT collector rebuilt with limits {}", limits);
        }
        if (!bindDecided || !Objects.equals(want, bound) || threads != boundThreads) {
            if (collector != null) {
                collector.close();
                collector = null;
            }
            if (want == null) {
                // a warning, not an error: a freshly installed app has no netcfg yet (ONOS applies it after activation)
                log.warn("INT collector not listening: netcfg apps/{}/{} names no collector.address (nor "
                                  + "collector.instances.\"{}\".address); the collector binds that address only",
                          Srv6IntConfigService.APP_NAME, Srv6IntAppConfig.KEY, local);
            } else {
                try {
                    collector = new UdpCollector(engine, threads, want, RECEIVE_BUFFER);
                    log.info("INT collector listening on {} with {} receive threads", collector.localAddress(),
                             threads);
                } catch (IOException | IllegalArgumentException e) {
                    log.error("INT collector cannot listen on {}: {}", want, e.toString());
                }
            }
            bindDecided = true;
            bound = want;
            boundThreads = threads;
        }
        // Another instance collects for the switches it masters; without a master, whoever the
        // switch still reports to keeps collecting.
        for (String refused : bindings.apply(engine, configService.devices(),
                                             d -> !mastershipService.isLocalMaster(d)
                                                     && mastershipService.getMasterFor(d) != null,
                                             pathService.getAllPaths().values(), inventory::getReplica)) {
            log.warn("INT hop bindings refused: {}", refused);
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
        m.put("reportsNotMaster", c.notMaster());
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
        Map<String, Long> m = counterMap(engine.counters());
        m.put("clusterSummaryBytes", (long) engine.summaryBytes());
        m.put("clusterExchangeFailures", engine.exchangeFailures());
        m.put("clusterSummaryPublishLate", publisher.late());
        m.put("clusterSummaryPublishSkipped", publisher.skipped());
        m.put("clusterSummaryPublishFailures", publisher.failed());
        m.put("clusterSummariesRejected", engine.summariesRejected());
        return m;
    }

    private String localNode() {
        return clusterService.getLocalNode().id().toString();
    }

    /** This instance's window goes to the summary store; the other instances' come back. */
    private final SummaryExchange exchange = new SummaryExchange() {
        @Override
        public String localNode() {
            return TelemetryManager.this.localNode();
        }

        @Override
        public long nowMillis() {
            return System.currentTimeMillis();
        }

        @Override
        public long staleAfterMillis() {
            // Three missed periods: the instance is gone or cut off, its last window is history.
            return STALE_PERIODS * periodMillis;
        }

        @Override
        public List<byte[]> exchange(byte[] local) {
            // A failed write is retried by the next period's, which replaces it anyway; a slow one
            // (a Raft partition electing its leader) does not hold the window (SummaryPublisher).
            publisher.publish(() -> summaryStore.publish(localNode(), local), periodMillis);
            return new ArrayList<>(summaryStore.summaries().values());
        }
    };

    @Override
    public List<CollectorCounters> threadCounters() {
        return engine.shardCounters();
    }

    @Override
    public synchronized void setReportTap(ReportTap tap) {
        this.tap = tap;
        engine.setReportTap(tap);
    }

    /**
     * Returns where the collector listens.
     *
     * @return bound address, empty while it cannot listen
     */
    public Optional<InetSocketAddress> collectorAddress() {
        UdpCollector c = collector;
        return c == null ? Optional.empty() : Optional.of(c.localAddress());
    }
}
