package org.srv6int.k8s.agent;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.k8s.agent.capture.DetectionResultReader;
import org.srv6int.k8s.agent.capture.PcapLatencySource;
import org.srv6int.k8s.agent.loop.Decision;
import org.srv6int.k8s.agent.loop.LocalLoop;
import org.srv6int.k8s.agent.loop.LoopListener;
import org.srv6int.k8s.agent.loop.ResourcePool;
import org.srv6int.k8s.agent.loop.ResourceType;
import org.srv6int.k8s.agent.obs.AgentMetrics;
import org.srv6int.k8s.agent.obs.DecisionLog;
import org.srv6int.k8s.agent.obs.EscalationClient;
import org.srv6int.k8s.agent.obs.MetricsServer;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Wires one node's agent: host set-up, local loop, metrics endpoint,
 * decision log, escalation, and the packet source that drives it all.
 */
public final class NodeAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

    /** Environment variable holding "user:password" for the ONOS REST API. */
    public static final String AUTH_ENV = "SRV6INT_ESCALATION_AUTH";

    private final AgentConfig config;
    private final HostSetup host;
    private final AgentMetrics metrics;
    private final DecisionLog log;
    private final EscalationClient escalation;
    private final LocalLoop loop;
    private final DetectionResultReader reader;
    private final MetricsServer server;
    private volatile PcapLatencySource source;

    /**
     * Sets up the host and starts the metrics endpoint (no packet read yet).
     *
     * @param config validated config
     * @throws IOException if the metrics address or decision log cannot be opened
     */
    public NodeAgent(AgentConfig config) throws IOException {
        this.config = config;
        List<String> names = new ArrayList<>();
        List<String> chains = new ArrayList<>();
        List<String> indexes = new ArrayList<>();
        List<byte[]> sids = new ArrayList<>();
        long[] lmax = new long[config.vnfs.size()];
        for (int i = 0; i < config.vnfs.size(); i++) {
            AgentConfig.Vnf v = config.vnfs.get(i);
            names.add(v.name);
            chains.add(Integer.toString(v.chainId));
            indexes.add(Integer.toString(v.vnfIndex));
            sids.add(AgentConfig.parseSid(v.sid, "vnfs[" + i + "]"));
            lmax[i] = v.lmaxNs;
        }
        this.metrics = new AgentMetrics(names, chains, indexes, lmax);
        this.host = new HostSetup(config).run();
        for (String note : host.notes()) {
            LOG.info("start-up: {}", note);
        }
        ResourcePool[] pools = host.pools();
        StringBuilder offered = new StringBuilder();
        for (ResourceType t : ResourceType.all()) {
            ResourcePool p = pools[t.ordinal()];
            metrics.available(t, p != null);
            if (p != null) {
                offered.append(offered.length() == 0 ? "" : ", ").append(t.label());
                for (int i = 0; i < lmax.length; i++) {
                    metrics.allocation(i, t, p.allocation(i));
                }
            }
        }
        LOG.info("resources offered by this host: [{}]", offered);
        if (offered.length() == 0) {
            LOG.warn("no resource can be adjusted on this host: the loop only observes and escalates");
        }
        this.log = config.decisionLog == null || config.decisionLog.isEmpty() ? null
                : new DecisionLog(config.decisionLog, config.node, names);
        this.escalation = config.escalationUrl == null || config.escalationUrl.isEmpty() ? null
                : new EscalationClient(URI.create(config.escalationUrl), config.escalationAttempts, 250,
                System.getenv(AUTH_ENV), metrics::escalation);
        this.loop = config.newLoop(pools, listener(), System::nanoTime);
        LOG.info("slack policy: {}", config.slackPolicy());
        for (int i = 0; i < lmax.length; i++) {
            metrics.resourceType(i, loop.resourceType(i));
        }
        this.reader = new DetectionResultReader(sids, metrics);
        this.server = new MetricsServer(config.metricsAddress, this::renderMetrics);
        LOG.info("metrics on http://{}/metrics", config.metricsAddress);
    }

    private String renderMetrics() {
        Map<String, Long> reasons = new LinkedHashMap<>();
        reader.errors().snapshot().forEach((k, v) -> reasons.put(k.name().toLowerCase(java.util.Locale.ROOT), v));
        return metrics.render(reasons);
    }

    private LoopListener listener() {
        return new LoopListener() {
            @Override
            public void onWindow(int vnf, long l95Ns, long slackNs) {
                metrics.window(vnf, l95Ns, slackNs);
            }

            @Override
            public void onDecision(Decision decision) {
                metrics.decision(decision);
                if (log != null) {
                    log.write(decision);
                }
            }

            @Override
            public void onEscalation(int vnf, long l95Ns, long lmaxNs, int triedMask) {
                if (escalation == null) {
                    return;
                }
                AgentConfig.Vnf v = config.vnfs.get(vnf);
                escalation.send(escalation.body(v.chainId, v.vnfIndex, config.node, l95Ns, lmaxNs, triedMask));
            }
        };
    }

    /**
     * Reads packets until the file ends or the agent is closed.
     *
     * @param pcapFile a pcap file to replay, or null for a live capture on the configured NIC
     * @throws IOException if the source cannot be opened or fails
     */
    public void run(Path pcapFile) throws IOException {
        if (pcapFile == null && (config.iface == null || config.iface.isEmpty())) {
            throw new IOException("no iface configured and no pcap file given");
        }
        try (PcapLatencySource s = pcapFile != null ? PcapLatencySource.file(pcapFile)
                : PcapLatencySource.live(config.iface, config.snapLength)) {
            source = s;
            LOG.info("reading SRv6-INT packets from {} (filter: {})",
                    pcapFile != null ? pcapFile : config.iface, PcapLatencySource.FILTER);
            s.run(reader, loop);
            LOG.info("source ended after {} frames; packets: matched={} unknown_vnf={} malformed={} "
                            + "not_sfc={} no_measurement={}", s.frames(),
                    metrics.packets(AgentMetrics.Packet.MATCHED), metrics.packets(AgentMetrics.Packet.UNKNOWN_VNF),
                    metrics.packets(AgentMetrics.Packet.MALFORMED), metrics.packets(AgentMetrics.Packet.NOT_SFC),
                    metrics.packets(AgentMetrics.Packet.NO_MEASUREMENT));
        } finally {
            source = null;
        }
    }

    /**
     * The loop (tests, benchmarks).
     *
     * @return loop
     */
    public LocalLoop loop() {
        return loop;
    }

    /**
     * The metrics.
     *
     * @return metrics
     */
    public AgentMetrics metrics() {
        return metrics;
    }

    /**
     * The metrics endpoint's port.
     *
     * @return port
     */
    public int metricsPort() {
        return server.port();
    }

    /**
     * The host set-up result.
     *
     * @return set-up
     */
    public HostSetup host() {
        return host;
    }

    @Override
    public void close() {
        PcapLatencySource s = source;
        if (s != null) {
            s.stop();
        }
        server.close();
        if (escalation != null) {
            escalation.close();
        }
        if (log != null) {
            log.close();
        }
    }
}
