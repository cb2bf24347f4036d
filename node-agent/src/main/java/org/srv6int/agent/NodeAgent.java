// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.agent.actuate.CgroupHierarchy;
import org.srv6int.agent.actuate.CgroupLocator;
import org.srv6int.agent.actuate.ContainerCgroup;
import org.srv6int.agent.actuate.CpuQuotaActuator;
import org.srv6int.agent.actuate.HostFiles;
import org.srv6int.agent.actuate.RecommendActuator;
import org.srv6int.agent.capture.DetectionResultReader;
import org.srv6int.agent.capture.FrameSink;
import org.srv6int.agent.capture.PcapLatencySource;
import org.srv6int.agent.loop.Decision;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.LoopListener;
import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.numa.NumaHost;
import org.srv6int.agent.obs.AgentMetrics;
import org.srv6int.agent.obs.DecisionLog;
import org.srv6int.agent.obs.EscalationClient;
import org.srv6int.agent.obs.PoolReport;
import org.srv6int.agent.obs.MetricsServer;
import org.srv6int.agent.pods.PodEvents;
import org.srv6int.agent.pods.ApiCapabilities;
import org.srv6int.agent.pods.PodFollower;
import org.srv6int.agent.pods.PodMetrics;
import org.srv6int.agent.pods.PodMetrics.PodState;
import org.srv6int.agent.pods.PodWiring;
import org.srv6int.agent.pods.ReplicaPod;
import org.srv6int.agent.pods.Reservations;
import org.srv6int.agent.pods.ResizeCpuActuator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Wires one node's agent: the vNFs (fixed in the config, or followed as the replica pods
 * of the node), host set-up, local loop, metrics endpoint, decision log, escalation, and
 * the packet source that drives it all.
 *
 * <p>The loop, its pools and windows are built for one set of vNFs. When the pods change
 * (a replica added, gone, no longer Ready, opted out) the agent rebuilds them on the
 * loop's thread: vNFs that stay keep their allocations, a new one starts from its pod's
 * CPU limit (the paper's initial allocation, what the bridge asked for) or what its
 * cgroup holds, cut so no budget is over-committed; a vNF that goes returns its
 * allocations to the pools and its window is dropped.
 *
 * <p>The CPU requests of the node's other pods (a replica scheduled but not yet Ready, pods
 * the agent does not manage, other workloads: {@link Reservations}) are held out of the CPU
 * pool, as is whatever of the pool's budget exceeds the node's allocatable CPU: the agent
 * never hands them to its vNFs, takes back what they hold of it when a pod is scheduled,
 * and a replica that becomes Ready is adopted with at least its request.
 */
public final class NodeAgent implements AutoCloseable, FrameSink {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

    /** Checks in a row a value must be seen overwritten before the agent reacts (absorbs informer lag). */
    static final int OVERWRITE_CHECKS = OverwriteCheck.OVERWRITE_CHECKS;

    private final AgentConfig config;
    // Chosen once at start from the host's mounts (or cgroupVersion), for every generation.
    private final CgroupHierarchy hierarchy;
    private final boolean recommend;
    private final PodMetrics podMetrics;
    private final DecisionLog log;
    // Escalations and pool reports to the app, with the agent's own token; null: none configured.
    private final AppLink app;
    private final OverwriteCheck overwrites;
    private final KubernetesClient client;
    private final PodWiring wiring;
    private final PodEvents events;
    private final PodFollower follower;
    private final boolean viaResize;
    private final long checkIntervalNanos;
    private final Map<String, String> reported = new HashMap<>();
    private final Map<String, String> unreadableReported = new HashMap<>();
    private volatile Generation gen;
    private long seenVersion = -1;
    private boolean retry;
    private long nextCheck;
    private final MetricsServer server;
    private volatile PcapLatencySource source;
    private String numaReported;
    private String numaErrorReported;
    private long allocatableMillis = -1;
    // Held for the node's pods the agent does not manage, per resource type (Reservations).
    private final long[] held = new long[ResourceType.values().length];
    private final long[] stillHeldWarned = new long[ResourceType.values().length];

    /**
     * An agent on a fixed set of vNFs (the config's {@code vnfs}), CPU through cpu.max.
     *
     * @param config validated config
     * @throws IOException if the metrics address or decision log cannot be opened
     */
    public NodeAgent(AgentConfig config) throws IOException {
        this(config, null, PodWiring.NONE);
    }

    /**
     * An agent; with {@code followPods} its vNFs are the replica pods of its node.
     *
     * @param config validated config
     * @param client API client (required with followPods; else unused)
     * @param wiring called when a pod starts or stops being managed
     * @throws IOException if the pods cannot be listed, the metrics address or decision log opened
     */
    public NodeAgent(AgentConfig config, KubernetesClient client, PodWiring wiring) throws IOException {
        this.config = config;
        this.hierarchy = CgroupHierarchy.detect(new HostFiles(Path.of(config.hostRoot)),
                config.cgroupVersion.version());
        LOG.info("cgroups: {}: {}", hierarchy.describe(), hierarchy.reason());
        this.recommend = config.mode == AgentConfig.Mode.RECOMMEND;
        this.client = client;
        this.wiring = wiring;
        this.podMetrics = new PodMetrics(config.mode.name());
        this.checkIntervalNanos = TimeUnit.MILLISECONDS.toNanos(config.overwriteCheckMs);
        LOG.info("mode: {}", recommend ? "recommend (dry run: decisions are published, nothing is changed)"
                : "enforce");
        this.log = config.decisionLog == null || config.decisionLog.isEmpty() ? null
                : new DecisionLog(config.decisionLog, config.node, List.of());
        // A missing or unreadable credential stops the agent here, with the reason.
        this.app = AppLink.of(config, o -> gen.metrics.escalation(o));
        if (config.followPods) {
            if (client == null) {
                throw new IOException("followPods needs a Kubernetes API client");
            }
            this.events = new PodEvents(client, config.node);
            podMetrics.events(events);
            this.viaResize = ApiCapabilities.resize(config.cpuActuation, client);
            this.follower = new PodFollower(client, config.node, 30_000);
            this.allocatableMillis = ApiCapabilities.allocatable(follower, config.node);
            LOG.info("following the pods of node {}: replica pods of namespace {} managed, the requests of the others "
                    + "held", config.node, config.podNamespace);
            this.gen = build(List.of(), null);
            reconcile();
        } else {
            this.events = null;
            this.follower = null;
            this.viaResize = false;
            List<Generation.Member> members = new ArrayList<>();
            for (AgentConfig.Vnf v : config.vnfs) {
                members.add(new Generation.Member(v, null));
            }
            this.gen = build(members, null);
        }
        podMetrics.cpuVia(viaResize ? "resize" : "cgroup");
        this.overwrites = new OverwriteCheck(config.onOverwrite, viaResize, podMetrics, events);
        this.server = new MetricsServer(config.metricsAddress, this::renderMetrics);
        LOG.info("metrics on http://{}/metrics", config.metricsAddress);
    }

    private Generation build(List<Generation.Member> members, Generation previous) {
        List<AgentConfig.Vnf> vnfs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> chains = new ArrayList<>();
        List<String> indexes = new ArrayList<>();
        List<byte[]> sids = new ArrayList<>();
        List<ReplicaPod> pods = new ArrayList<>();
        long[] lmax = new long[members.size()];
        for (int i = 0; i < members.size(); i++) {
            Generation.Member m = members.get(i);
            vnfs.add(m.vnf);
            names.add(m.vnf.name);
            chains.add(Integer.toString(m.vnf.chainId));
            indexes.add(Integer.toString(m.vnf.vnfIndex));
            pods.add(m.pod);
            try {
                sids.add(AgentConfig.parseSid(m.vnf.sid, "vnf " + m.vnf.name));
            } catch (IOException e) {
                throw new IllegalStateException(e); // checked before a member is admitted
            }
            lmax[i] = m.vnf.lmaxNs;
        }
        Generation g = new Generation();
        g.members = List.copyOf(members);
        List<String> replicas = new ArrayList<>(); // the app's replica names: one naming scheme (docs/metrics.md)
        for (Generation.Member m : members) {
            replicas.add(m.pod != null ? m.pod.replicaName() : m.vnf.name);
        }
        g.metrics = new AgentMetrics(replicas, chains, indexes, lmax, previous == null ? null : previous.metrics);
        for (int i = 0; i < members.size(); i++) {
            ReplicaPod p = members.get(i).pod;
            if (p != null) {
                g.metrics.pod(i, p.namespace(), p.name());
            }
        }
        AgentConfig c = config.withVnfs(vnfs);
        g.host = new HostSetup(c, new HostSetup.Actuation() {
            @Override
            public ResourceActuator cpu(List<ContainerCgroup> cgroups, long periodUs) {
                g.cpu = viaResize ? new ResizeCpuActuator(client, pods, follower::get, cgroups, periodUs,
                        podMetrics.resizePatches()) : new CpuQuotaActuator(cgroups, periodUs);
                return g.cpu;
            }

            @Override
            public ResourceActuator wrap(ResourceActuator actuator) {
                return recommend ? new RecommendActuator(actuator, (i, t, v) -> recommend(g, i, t, v)) : actuator;
            }

            @Override
            public boolean dryRun() {
                return recommend;
            }
        }, hierarchy).hold(ResourceType.CPU_QUOTA, held[ResourceType.CPU_QUOTA.ordinal()])
                .hold(ResourceType.LLC, held[ResourceType.LLC.ordinal()])
                .hold(ResourceType.MEMORY_BANDWIDTH, held[ResourceType.MEMORY_BANDWIDTH.ordinal()])
                .cap(ResourceType.CPU_QUOTA, allocatableMillis).run();
        for (String note : g.host.notes()) {
            LOG.info("set-up: {}", note);
        }
        ResourcePool[] pools = g.host.pools();
        StringBuilder offered = new StringBuilder();
        for (ResourceType t : ResourceType.all()) {
            ResourcePool p = pools[t.ordinal()];
            g.metrics.available(t, p != null);
            if (p != null) {
                offered.append(offered.length() == 0 ? "" : ", ").append(t.label());
                for (int i = 0; i < lmax.length; i++) {
                    g.metrics.allocation(i, t, p.allocation(i));
                }
            }
        }
        LOG.info("{} vNF(s) {}; resources offered by this host: [{}]", members.size(), names, offered);
        g.loop = c.newLoop(pools, listener(g), System::nanoTime);
        // A new set of pods changes the pools: the app hears of it at the next tick, not a period later.
        poolsChanged();
        for (int i = 0; i < lmax.length; i++) {
            g.metrics.resourceType(i, g.loop.resourceType(i));
        }
        startNuma(g, lmax);
        g.reader = new DetectionResultReader(sids, g.metrics);
        g.mismatches = new int[members.size()];
        if (log != null) {
            log.names(names);
        }
        return g;
    }

    /** NUMASFP on this generation's vNFs when the config asks for it and the host can; says once why not. */
    private void startNuma(Generation g, long[] lmax) {
        String why = g.host.numaUnavailable();
        if (config.numa.enabled && why == null) {
            List<NumaHost.Member> numaMembers = new ArrayList<>();
            List<ContainerCgroup> cgroups = g.host.cgroups();
            for (int i = 0; i < g.members.size(); i++) {
                Generation.Member m = g.members.get(i);
                numaMembers.add(new NumaHost.Member(m.vnf.name, m.vnf.chainId,
                        m.pod != null ? m.pod.vnfType() : m.vnf.type, cgroups.get(i),
                        m.pod != null ? m.pod.numaNode() : -1));
            }
            try {
                g.numa = new NumaHost(new HostFiles(Path.of(config.hostRoot)), g.host.nicNode(), numaMembers,
                        config.numa, d -> {
                            LOG.info("NUMASFP: {}", d);
                            if (log != null) {
                                log.writeFields(d.fields());
                            }
                        });
                for (String note : g.numa.notes()) {
                    LOG.info("NUMASFP: {}", note);
                }
            } catch (IOException e) {
                why = e.getMessage();
            }
        }
        g.numaUnavailable = config.numa.enabled ? why : "disabled in config";
        if (config.numa.enabled && why != null && !why.equals(numaReported)) {
            LOG.warn("NUMASFP unavailable on node {}: {}; the rest of the loop runs without it", config.node, why);
        }
        numaReported = why;
    }

    private void recommend(Generation g, int vnf, ResourceType type, long value) {
        podMetrics.recommendation(type);
        ReplicaPod pod = g.members.get(vnf).pod;
        if (pod != null && events != null) {
            events.post(pod, false, "Recommendation", "srv6int node agent (recommend mode) would set "
                    + type.label() + " to " + value + " " + type.unit());
        }
    }

    private LoopListener listener(Generation g) {
        return new LoopListener() {
            @Override
            public void onWindow(int vnf, long l95Ns, long slackNs) {
                g.metrics.window(vnf, l95Ns, slackNs);
                g.metrics.cooldowns(vnf, g.loop);
            }

            @Override
            public void onDecision(Decision decision) {
                g.metrics.decision(decision);
                g.metrics.cooldowns(decision.vnf(), g.loop); // a revert starts one
                if (log != null) {
                    log.write(decision);
                }
            }

            @Override
            public void onThrottleUnread(int vnf, String why) {
                g.metrics.countThrottleUnread(vnf);
            }

            @Override
            public void onEscalation(int vnf, long l95Ns, long lmaxNs, int triedMask) {
                if (app == null) {
                    return;
                }
                AgentConfig.Vnf v = g.members.get(vnf).vnf;
                app.escalate(EscalationClient.body(v.chainId, v.vnfIndex, config.node, l95Ns, lmaxNs, triedMask));
            }
        };
    }

    /**
     * Brings the managed set in line with the pods the informer holds; rebuilds the loop
     * when a pod came or went. Loop thread only.
     */
    private void reconcile() {
        long v = follower.version();
        if (v == seenVersion && !retry) {
            return;
        }
        seenVersion = v;
        retry = false;
        Map<String, Pod> pods = follower.snapshot();
        long[] counts = new long[PodState.values().length];
        Map<String, ReplicaPod> usable = new LinkedHashMap<>();
        CgroupLocator cgroups = new CgroupLocator(hierarchy);
        for (Pod p : pods.values()) {
            String uid = p.getMetadata().getUid();
            if (!PodFollower.isReplica(p, config.podNamespace)) {
                continue; // not ours to manage; its request is held below
            }
            if (ReplicaPod.optedOut(p)) {
                counts[PodState.OPTED_OUT.ordinal()]++;
                continue;
            }
            if (!ReplicaPod.ready(p)) {
                counts[PodState.WAITING.ordinal()]++;
                continue;
            }
            ReplicaPod rp;
            try {
                rp = ReplicaPod.parse(p, config.lmaxNs);
                if (viaResize && rp.cpuLimitMillis() < 0) {
                    throw new IOException("container " + rp.container() + " has no CPU limit: in-place resize "
                            + "cannot add one (the QoS class would change)");
                }
            } catch (IOException e) {
                counts[PodState.MALFORMED.ordinal()]++;
                report(p, "InvalidReplicaPod", "not managed by the srv6int node agent: " + e.getMessage());
                continue;
            }
            try {
                cgroups.locate(rp.uid(), rp.containerId());
            } catch (IOException e) {
                counts[PodState.WAITING.ordinal()]++;
                report(p, "CgroupNotFound", "not managed yet: " + e.getMessage());
                retry = true; // the kubelet may create it a moment after Ready
                continue;
            }
            usable.put(uid, rp);
        }
        reported.keySet().retainAll(pods.keySet());
        Generation g = gen;
        List<Generation.Member> next = new ArrayList<>();
        List<Generation.Member> gone = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> sids = new HashSet<>();
        for (int i = 0; i < g.members.size(); i++) {
            Generation.Member m = g.members.get(i);
            ReplicaPod now = usable.remove(m.pod.uid());
            if (now != null && now.sameIdentity(m.pod)) {
                AgentConfig.Vnf vnf = now.toVnf();
                for (ResourceType t : ResourceType.all()) {
                    ResourcePool p = g.loop.pool(t);
                    if (p != null) {
                        vnf.initial.put(t, p.allocation(i)); // stays: keeps what the loop gave it
                    }
                }
                next.add(new Generation.Member(vnf, now));
                names.add(vnf.name);
                sids.add(now.sid());
            } else {
                gone.add(m);
                if (now != null) {
                    usable.put(now.uid(), now); // changed identity: out and in again
                }
            }
        }
        List<ReplicaPod> added = new ArrayList<>(usable.values());
        added.sort(Comparator.comparing(ReplicaPod::createdAt).thenComparing(ReplicaPod::name));
        List<Generation.Member> in = new ArrayList<>();
        for (ReplicaPod rp : added) {
            if (!names.add(rp.vnfName()) || !sids.add(rp.sid())) {
                counts[PodState.MALFORMED.ordinal()]++;
                report(pods.get(rp.uid()), "InvalidReplicaPod", "not managed: another managed pod of this node has "
                        + "the same SID " + rp.sid() + " or the same chain/vNF/replica (" + rp.vnfName() + ")");
                continue;
            }
            AgentConfig.Vnf vnf = rp.toVnf();
            if (viaResize && rp.cpuLimitMillis() > 0) {
                vnf.initial.put(ResourceType.CPU_QUOTA, rp.cpuLimitMillis()); // what the bridge asked for
            }
            // the profile's ways and bandwidth, held for it while it started
            if (rp.llcWays() > 0) {
                vnf.initial.put(ResourceType.LLC, rp.llcWays());
            }
            if (rp.memoryBandwidthPercent() > 0) {
                vnf.initial.put(ResourceType.MEMORY_BANDWIDTH, rp.memoryBandwidthPercent());
            }
            Generation.Member m = new Generation.Member(vnf, rp);
            next.add(m);
            in.add(m);
        }
        counts[PodState.MANAGED.ordinal()] = next.size();
        podMetrics.pods(counts);
        Set<String> managed = new HashSet<>();
        for (Generation.Member m : next) {
            managed.add(m.pod.uid());
        }
        Reservations r = Reservations.of(pods.values(), managed, g.host == null ? -1 : g.host.nicNode());
        unreadableReported.keySet().retainAll(r.unreadable().keySet());
        for (Map.Entry<String, String> e : r.unreadable().entrySet()) {
            if (!e.getValue().equals(unreadableReported.put(e.getKey(), e.getValue()))) {
                LOG.warn("pod {}", e.getValue()); // once per pod and message; says what holds nothing
            }
        }
        if (r.cpuMillis() != held[ResourceType.CPU_QUOTA.ordinal()]
                || r.llcWays() != held[ResourceType.LLC.ordinal()]
                || r.memoryBandwidthPercent() != held[ResourceType.MEMORY_BANDWIDTH.ordinal()]) {
            poolsChanged(); // another pod's request or profile came or went: the pools the app sees changed
        }
        held[ResourceType.CPU_QUOTA.ordinal()] = r.cpuMillis();
        held[ResourceType.LLC.ordinal()] = r.llcWays();
        held[ResourceType.MEMORY_BANDWIDTH.ordinal()] = r.memoryBandwidthPercent();
        podMetrics.held(r.cpuMillis(), r.llcWays(), r.memoryBandwidthPercent(), r.pods(), r.unreadable().size());
        if (gone.isEmpty() && in.isEmpty()) {
            hold(g);
            return;
        }
        gen = build(next, g);
        podMetrics.rebuilt();
        for (Generation.Member m : gone) {
            LOG.info("pod {} no longer managed: its allocations returned to the pools", m.pod);
            try {
                wiring.unwire(m.pod);
            } catch (Exception e) {
                podMetrics.wiringError();
                LOG.warn("unwiring {} failed: {}", m.pod, e.getMessage());
            }
        }
        for (Generation.Member m : in) {
            LOG.info("pod {} managed", m.pod);
            try {
                wiring.wire(m.pod);
            } catch (Exception e) {
                podMetrics.wiringError();
                LOG.warn("wiring {} failed: {}", m.pod, e.getMessage());
            }
            events.post(m.pod, false, "Managed", "srv6int node agent (" + config.mode.name().toLowerCase(Locale.ROOT)
                    + ") manages " + m.vnf.name + " (SID " + m.pod.sid() + ", Lmax " + m.vnf.lmaxNs + " ns)");
        }
    }

    /**
     * Holds what the node's other pods were promised (CPU requests; LLC ways and memory bandwidth
     * of their profiles) in the current loop; takes back what its vNFs hold of it.
     */
    private void hold(Generation g) {
        for (ResourceType t : List.of(ResourceType.CPU_QUOTA, ResourceType.LLC, ResourceType.MEMORY_BANDWIDTH)) {
            ResourcePool pool = g.loop.pool(t);
            if (pool == null) {
                continue;
            }
            long still = g.loop.hold(t, held[t.ordinal()]); // writes only what is still over
            for (int i = 0; i < g.members.size(); i++) {
                g.metrics.allocation(i, t, pool.allocation(i));
            }
            if (still > 0 && still != stillHeldWarned[t.ordinal()]) {
                LOG.warn("{} {} of {} promised to other pods of node {} still held by the vNFs (floors, or a refused "
                        + "write); tried again on every tick", still, t.unit(), t.label(), config.node);
            }
            stillHeldWarned[t.ordinal()] = still;
            retry |= still > 0;
        }
    }

    private void report(Pod p, String reason, String message) {
        String uid = p.getMetadata().getUid();
        if (message.equals(reported.put(uid, message))) {
            return; // said once per pod and message
        }
        LOG.warn("pod {}/{}: {}", p.getMetadata().getNamespace(), p.getMetadata().getName(), message);
        events.post(p.getMetadata().getNamespace(), p.getMetadata().getName(), uid, true, reason, message);
    }

    @Override
    public void frame(byte[] frame, int len) {
        Generation g = gen;
        if (g.reader.read(frame, len)) {
            g.loop.onSample(g.reader.vnf(), g.reader.latencyNs());
            if (g.numa != null) {
                g.numa.onSample(g.reader.vnf());
            }
        }
    }

    @Override
    public void tick() {
        gen.loop.tick();
        tickNuma(gen);
        if (follower != null) {
            reconcile();
        }
        long now = System.nanoTime();
        if (checkIntervalNanos > 0 && now - nextCheck >= 0) {
            nextCheck = now + checkIntervalNanos;
            if (!recommend) {
                overwrites.check(gen);
            }
        }
        if (app != null) {
            // Read on the loop's thread (the pools are not shared); sent off it.
            Generation g = gen;
            app.tick(now, () -> PoolReport.body(config.node, g.loop::pool, g.loop::reclaimable));
        }
    }

    private void poolsChanged() {
        if (app != null) {
            app.poolsChanged();
        }
    }

    private void tickNuma(Generation g) {
        if (g.numa == null) {
            return;
        }
        g.numa.tick(System.nanoTime(), i -> {
            long l95 = g.loop.l95(i);
            return l95 >= 0 && l95 > g.members.get(i).vnf.lmaxNs;
        });
        String err = g.numa.lastError();
        if (err != null && !err.equals(numaErrorReported)) {
            LOG.warn("NUMASFP: write failed ({} so far): {}", g.numa.writeErrors(), err);
            numaErrorReported = err;
        }
    }

    private String renderMetrics() {
        Generation g = gen;
        Map<String, Long> reasons = new LinkedHashMap<>();
        g.reader.errors().snapshot().forEach((k, v) -> reasons.put(k.name().toLowerCase(Locale.ROOT), v));
        StringBuilder sb = new StringBuilder(g.metrics.render(reasons));
        podMetrics.render(sb);
        wiring.render(sb);
        AppLink.render(app, sb);
        if (g.numa != null) {
            g.numa.render(sb);
        } else {
            NumaHost.renderAvailable(sb, g.numaUnavailable);
        }
        return sb.toString();
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
            s.run(this);
            AgentMetrics metrics = gen.metrics;
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
     * The loop of the current set of vNFs (tests, benchmarks).
     *
     * @return loop
     */
    public LocalLoop loop() {
        return gen.loop;
    }

    /**
     * The metrics of the current set of vNFs.
     *
     * @return metrics
     */
    public AgentMetrics metrics() {
        return gen.metrics;
    }

    /**
     * The node-level metrics of the Kubernetes side.
     *
     * @return metrics
     */
    public PodMetrics podMetrics() {
        return podMetrics;
    }

    /**
     * The pods managed now, by vNF index (empty without followPods).
     *
     * @return pods
     */
    public List<ReplicaPod> managedPods() {
        List<ReplicaPod> out = new ArrayList<>();
        for (Generation.Member m : gen.members) {
            if (m.pod != null) {
                out.add(m.pod);
            }
        }
        return out;
    }

    /**
     * Whether CPU quota goes through the pods' resize subresource.
     *
     * @return true for resize, false for cpu.max
     */
    public boolean cpuViaResize() {
        return viaResize;
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
     * The host set-up of the current set of vNFs.
     *
     * @return set-up
     */
    public HostSetup host() {
        return gen.host;
    }

    @Override
    public void close() {
        PcapLatencySource s = source;
        if (s != null) {
            s.stop();
        }
        server.close();
        if (follower != null) {
            follower.close(); // wiring stays: traffic keeps flowing, a restart wires again
        }
        if (app != null) {
            app.close();
        }
        if (log != null) {
            log.close();
        }
    }
}
