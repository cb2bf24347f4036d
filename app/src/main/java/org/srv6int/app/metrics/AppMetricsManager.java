// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

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
import org.srv6int.app.api.AgentAuthService;
import org.srv6int.app.api.AppMetricsService;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.config.AppConfigSection;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.export.ExportService;
import org.srv6int.app.api.TelemetryWindows;

import java.net.InetAddress;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The exporter component: gathers each scrape's inputs from the app's services (chains, inventory,
 * the collector's last window and per-thread counters, the global loop's status and decision
 * counts), renders them with {@link AppMetrics}, and serves them on the plain port of netcfg
 * {@code apps/org.srv6int.app/metrics} when one is set. Collector and loop are optional: without
 * them their metrics are left out and {@code srv6int_collector_up} is 0.
 */
@Component(immediate = true, service = AppMetricsService.class)
public class AppMetricsManager implements AppMetricsService {

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcService sfcService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfInventoryService inventory;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    protected volatile TelemetryWindows windows;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    protected volatile TelemetryService telemetry;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    protected volatile GlobalLoopService loop;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    protected volatile ExportService export;

    // The node agents' authentication counters, appended to the scrape (docs/security.md).
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    protected volatile AgentAuthService agentAuth;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry registry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    private final AppMetrics metrics = new AppMetrics(MetricsSettings.DEFAULT);

    /** Creates the component for OSGi Declarative Services, which sets its references. */
    public AppMetricsManager() {
    }

    /**
     * Creates the component with the services it reads, for a host without OSGi (scrapes only; call
     * {@code activate()} only with the netcfg services set by OSGi).
     *
     * @param sfcService chains
     * @param inventory  replicas
     * @param loop       the global loop
     */
    public AppMetricsManager(SfcService sfcService, VnfInventoryService inventory, GlobalLoopService loop) {
        this.sfcService = sfcService;
        this.inventory = inventory;
        this.loop = loop;
    }

    /**
     * Creates the component with all its references, for a host without OSGi that also serves
     * its endpoint ({@code activate()} reads netcfg); the optional export is bound with
     * {@link #bindExport}.
     *
     * @param sfcService chains
     * @param inventory  replicas
     * @param windows    the collector's windows
     * @param telemetry  the collector's telemetry
     * @param loop       the global loop
     * @param registry   netcfg registry (the {@code metrics} section)
     * @param core       core service (the app id)
     */
    public AppMetricsManager(SfcService sfcService, VnfInventoryService inventory, TelemetryWindows windows,
                             TelemetryService telemetry, GlobalLoopService loop, NetworkConfigRegistry registry,
                             CoreService core) {
        this(sfcService, inventory, loop);
        this.windows = windows;
        this.telemetry = telemetry;
        this.registry = registry;
        this.coreService = core;
    }

    /**
     * Binds the optional export whose counters the scrape shows (OSGi binds it by its dynamic
     * reference; a host without OSGi calls this).
     *
     * @param export the export component, null to unbind
     */
    public void bindExport(ExportService export) {
        this.export = export;
    }
    private AppConfigSection<MetricsConfig> config;
    private MetricsSettings settings = MetricsSettings.DEFAULT;
    private PlainEndpoint plain;

    /** Opens the netcfg section and serves the endpoint it configures. */
    @Activate
    public void activate() {
        config = new AppConfigSection<>(registry, coreService.registerApplication(Srv6IntConfigService.APP_NAME),
                                        MetricsConfig.class, MetricsConfig.KEY, MetricsConfig::new, this::reconfigure);
        config.open();
        reconfigure();
        log.info("Started");
    }

    /** Closes the netcfg section and the endpoint. */
    @Deactivate
    public void deactivate() {
        config.close();
        synchronized (this) {
            if (plain != null) {
                plain.close();
                plain = null;
            }
        }
        log.info("Stopped");
    }

    /** Applies netcfg; a bad config or an unbindable port keeps what runs. */
    private void reconfigure() {
        MetricsConfig c = config.get();
        MetricsSettings s;
        try {
            s = c == null ? MetricsSettings.DEFAULT : c.settings();
        } catch (InvalidFieldException e) {
            log.warn("Ignoring invalid metrics config, keeping {}: {}", settings, e.getMessage());
            return;
        }
        try {
            apply(s);
        } catch (IOException e) {
            log.error("Metrics config not applied, keeping {}: {}", settings, e.getMessage());
        }
    }

    /**
     * Applies settings: caps at once; the plain port is re-bound only when it changed, the new one
     * before the old closes, so a port that cannot be bound leaves the old one serving.
     *
     * @param s settings
     * @throws IOException if the new plain port cannot be bound (nothing changed then)
     */
    synchronized void apply(MetricsSettings s) throws IOException {
        boolean samePort = Objects.equals(s.address(), settings.address()) && s.port() == settings.port()
                && (plain != null) == (s.address() != null);
        PlainEndpoint next = plain;
        if (!samePort) {
            if (plain != null && s.address() != null && s.port() == plain.port()) {
                plain.close(); // same port, other address: it must be free first
                plain = null;
            }
            next = s.address() == null ? null : new PlainEndpoint(s.address(), s.port(), this::scrape);
            if (plain != null) {
                plain.close();
            }
            plain = next;
        }
        metrics.settings(s);
        settings = s;
        log.info("Metrics: {}{}", s, next == null ? "" : " (bound port " + next.port() + ")");
    }

    /**
     * Returns the plain port bound now.
     *
     * @return port, 0 if none
     */
    synchronized int plainPort() {
        return plain == null ? 0 : plain.port();
    }

    /**
     * Returns the address the plain port's socket is bound to.
     *
     * @return address, null if there is no plain port
     */
    synchronized InetAddress plainAddress() {
        return plain == null ? null : plain.address();
    }

    @Override
    public String scrape() {
        String text = metrics.render(gather(), System.currentTimeMillis());
        AgentAuthService a = agentAuth;
        return a == null ? text : text + a.renderMetrics();
    }

    /** Reads every input; a part that fails is counted and left out, the rest still renders. */
    MetricsInputs gather() {
        MetricsInputs in = new MetricsInputs();
        try {
            in.chains.addAll(sfcService.getSfcs());
        } catch (RuntimeException e) {
            unreadable("chains", e);
        }
        try {
            in.replicas.addAll(inventory.getReplicas());
            in.replicasKnown = true;
            in.transitions.addAll(inventory.transitions());
            in.refusedTransitions.addAll(inventory.refusedTransitions());
        } catch (RuntimeException e) {
            unreadable("inventory", e);
        }
        TelemetryWindows w = windows;
        TelemetryService t = telemetry;
        if (w != null) {
            try {
                in.window = w.latest().orElse(null);
                in.threads.addAll(w.threadCounters());
                in.collectorRunning = true;
                if (t != null) {
                    in.collectorCounters = t.counters();
                }
            } catch (RuntimeException e) {
                unreadable("telemetry", e);
            }
        }
        GlobalLoopService l = loop;
        if (l != null) {
            try {
                in.loop = l.status();
                in.paused.addAll(l.pausedChains());
                in.chainStates.addAll(l.chainStates());
                in.failureCounters = l.failureCounters();
                for (LoopDecision.Action a : LoopDecision.Action.values()) {
                    in.decisionsMade.put(a, l.decisionsMade(a));
                    Map<LoopDecision.Outcome, Long> ended = new EnumMap<>(LoopDecision.Outcome.class);
                    for (LoopDecision.Outcome o : LoopDecision.Outcome.values()) {
                        ended.put(o, l.decisionsEnded(a, o));
                    }
                    in.decisionsEnded.put(a, ended);
                }
            } catch (RuntimeException e) {
                in.loop = null;
                unreadable("loop", e);
            }
        }
        ExportService x = export;
        if (x != null) {
            try {
                in.exports.addAll(x.stats());
                in.kafkaEnabled = x.settings().kafka() != null;
                in.otlpEnabled = x.settings().otlp() != null;
            } catch (RuntimeException e) {
                in.exports.clear();
                unreadable("export", e);
            }
        }
        return in;
    }

    private void unreadable(String part, RuntimeException e) {
        metrics.readError(part);
        log.debug("Metrics: {} unreadable: {}", part, e.toString());
    }
}
