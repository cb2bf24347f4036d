// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import java.io.IOException;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;
import org.srv6int.agent.AgentConfig;
import org.srv6int.agent.HostSetup;
import org.srv6int.agent.loop.Decision;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.LoopListener;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.obs.EscalationClient;
import org.srv6int.agent.obs.PoolReport;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.agent.pods.Reservations;
import org.srv6int.twin.host.SimulatedWorker;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;

/**
 * The node agent on a simulated worker: its configuration (as the DaemonSet's ConfigMap would
 * give it), its start-up ({@link HostSetup}: cgroup lookup, pinning, read-back, the four pools
 * with the agent's real cgroup/resctrl/cpufreq actuators on the worker's file tree) and its
 * {@link LocalLoop}, built by {@link AgentConfig#newLoop}. Only the packet capture is replaced:
 * Detection Results arrive from the model in-process instead of through libpcap.
 *
 * <p>When a pod starts on the worker the agent is restarted with the pod in its config, as the
 * DaemonSet's rolling update does (docs/node-agent.md section 7): allocations are read back
 * from the files, a pending Algorithm 2 trial is dropped (its free stands). Escalations, which
 * the real agent POSTs to the ONOS app, go to the app's global loop as that POST would
 * ({@code GlobalControl.escalate}); pool reports go to the app's pool service ({@link #reportPoolsTo}).
 *
 * <p>Pods the platform has bound to the worker but not yet started ({@link NodePods}, what the
 * real agent's informer lists) have their CPU requests held out of the CPU pool by the agent's
 * own code ({@link Reservations}, {@link HostSetup#hold}, {@link LocalLoop#hold}), read at every
 * start and whenever the platform's pods change, so a replica starts with the cores it was
 * scheduled with.
 */
public final class NodeAgentOnWorker implements Fabric.DetectionSink {
    private static final ResourceType[] TYPES = {ResourceType.CPU_QUOTA, ResourceType.LLC,
        ResourceType.MEMORY_BANDWIDTH, ResourceType.CPU_FREQUENCY};
    /** Agent units per model unit: millicores per core, ways, percent, kHz per MHz. */
    private static final double[] UNIT = {1000.0, 1.0, 1.0, 1000.0};

    /** -Dtwin.trace=true prints every decision to stderr (debugging). */
    private static final boolean TRACE = Boolean.getBoolean("twin.trace");

    private final SimulatedWorker worker;
    private final ToDoubleFunction<String> boundUs;
    private final Function<String, VnfKey> keys;
    private final Function<String, String> endpoint;
    private final LongSupplier clockNs;
    private final DoubleSupplier nowS;
    private final List<String> events;
    private final Map<VnfInstance, Integer> index = new IdentityHashMap<>();
    private List<SimulatedWorker.Pod> pods = List.of();
    private NodePods bound;
    private long boundVersion = -1;
    private AgentConfig config;
    private LocalLoop loop;
    private long samples;
    private long decisions;
    private long escalations;
    private int starts;
    // The agent's pool report, on the path the real agent POSTs it (AppControl#acceptPoolReport).
    private Consumer<String> poolReports;
    private long nextPoolReportNs;

    /**
     * Creates the agent of a worker (started at its first Detection Result).
     *
     * @param worker the worker's file tree
     * @param boundUs Lmax of a replica id, microseconds
     * @param keys the app's chain and vNF index of a logical vNF (the pod's annotations)
     * @param endpoint takes an escalation's JSON body as the app's endpoint does, returns the outcome
     * @param clockNs simulated monotonic nanoseconds
     * @param nowS simulated seconds, for event times
     * @param events receives one line per escalation
     */
    public NodeAgentOnWorker(SimulatedWorker worker, ToDoubleFunction<String> boundUs, Function<String, VnfKey> keys,
                             Function<String, String> endpoint, LongSupplier clockNs, DoubleSupplier nowS,
                             List<String> events) {
        this.worker = worker;
        this.boundUs = boundUs;
        this.keys = keys;
        this.endpoint = endpoint;
        this.clockNs = clockNs;
        this.nowS = nowS;
        this.events = events;
    }

    /**
     * Follows the pods a platform binds to this worker (their CPU requests are held).
     *
     * @param platformPods the platform's bound, not yet Ready pods
     */
    public void follow(NodePods platformPods) {
        this.bound = platformPods;
    }

    /** What the pods bound to the worker that the agent does not manage were promised, per held type. */
    private Map<ResourceType, Long> held() {
        Map<ResourceType, Long> out = new EnumMap<>(ResourceType.class); // in type order: deterministic
        out.put(ResourceType.CPU_QUOTA, 0L);
        out.put(ResourceType.LLC, 0L);
        out.put(ResourceType.MEMORY_BANDWIDTH, 0L);
        if (bound == null) {
            return out;
        }
        boundVersion = bound.version();
        Set<String> managed = new HashSet<>();
        for (SimulatedWorker.Pod p : pods) {
            managed.add(p.uid());
        }
        Reservations r = Reservations.of(bound.boundTo(worker.host().name()), managed, 0);
        out.put(ResourceType.CPU_QUOTA, r.cpuMillis());
        out.put(ResourceType.LLC, r.llcWays());
        out.put(ResourceType.MEMORY_BANDWIDTH, r.memoryBandwidthPercent());
        return out;
    }

    /**
     * Sends the agent's pool report ({@link PoolReport}, the real agent's body) every
     * {@link AgentConfig#poolReportIntervalMs} of simulated time and at once when its pods change,
     * as the real agent does.
     *
     * @param sink the app's side of {@code POST /onos/srv6int/loop/pools}
     */
    public void reportPoolsTo(Consumer<String> sink) {
        this.poolReports = sink;
    }

    /**
     * The agent's configuration for the worker's current pods.
     *
     * @return validated config
     */
    AgentConfig config() {
        AgentConfig c = new AgentConfig();
        c.node = worker.host().name();
        c.iface = SimulatedWorker.IFACE;
        c.hostRoot = worker.root().toString();
        c.decisionLog = "";
        c.escalationUrl = "";
        c.cpuPeriodUs = SimulatedWorker.PERIOD_US;
        // The worker writes cpu.stat (CfsPeriods), but the gate stays off here: the vNF model serves at its quota as a
        // continuous rate and its latency is queueing for that rate, which a 100 ms CFS period does not throttle (at
        // 95-99 % of the quota no period's work exceeds it), so with the gate on Fig. 11 Fwd fell below no agent
        // (docs/lab.md, session 16). A CFS-periodic service model would let the twin run the shipped default.
        c.minThrottledShare = 0;
        for (ResourceType t : TYPES) {
            Resource r = Resource.values()[t.ordinal()];
            double u = UNIT[t.ordinal()];
            AgentConfig.ResourceSettings s = new AgentConfig.ResourceSettings();
            s.step = Math.round(r.step() * u);
            s.budget = Math.round(r.pool() * u);
            s.floor = Math.round(r.min() * u);
            s.ceiling = Math.round(r.max() * u);
            c.resources.put(t, s);
        }
        int k = 0;
        for (SimulatedWorker.Pod p : pods) {
            AgentConfig.Vnf v = new AgentConfig.Vnf();
            v.name = p.name();
            v.sid = String.format(Locale.ROOT, "fc00:%x::%x", worker.host().name().hashCode() & 0xffff, ++k);
            v.lmaxNs = Math.round(boundUs.applyAsDouble(p.instance().id()) * 1000);
            v.podUid = p.uid();
            v.containerId = "containerd://" + p.containerId();
            v.cpus = p.cpus();
            VnfKey key = keys.apply(p.instance().vnf());
            v.chainId = key.sfcId().tag();
            v.vnfIndex = key.index();
            c.vnfs.add(v);
        }
        try {
            c.validate();
        } catch (IOException e) {
            throw new IllegalStateException("agent config for " + worker + ": " + e.getMessage(), e);
        }
        return c;
    }

    /** (Re)starts the agent on the worker's current pods. */
    private void start() {
        worker.sync();
        pods = worker.pods();
        index.clear();
        for (int i = 0; i < pods.size(); i++) {
            index.put(pods.get(i).instance(), i);
        }
        config = config();
        HostSetup setup = new HostSetup(config);
        held().forEach(setup::hold);
        setup.run();
        if (!setup.unavailable().isEmpty()) {
            throw new IllegalStateException("the agent on " + worker + " lacks " + setup.unavailable()
                    + "; start-up notes: " + setup.notes());
        }
        loop = config.newLoop(setup.pools(), listener(), clockNs);
        worker.markDirty(); // the start-up wrote every allocation once
        starts++;
        nextPoolReportNs = clockNs.getAsLong(); // new pods: report at once
    }

    private LoopListener listener() {
        return new LoopListener() {
            @Override
            public void onWindow(int vnf, long l95Ns, long slackNs) {
            }

            @Override
            public void onDecision(Decision decision) {
                decisions++;
                worker.markDirty();
                if (TRACE) {
                    System.err.printf(Locale.ROOT, "%.3f %s %s %s %s %d->%d l95=%d peer=%s %s%n", nowS.getAsDouble(),
                            worker.host().name(), pods.get(decision.vnf()).name(), decision.action(),
                            decision.resource(), decision.from(), decision.to(), decision.l95Ns() / 1000,
                            decision.peer() < 0 ? "-" : pods.get(decision.peer()).name(), decision.detail());
                }
            }

            @Override
            public void onEscalation(int vnf, long l95Ns, long lmaxNs, int triedMask) {
                escalations++;
                AgentConfig.Vnf v = config.vnfs.get(vnf);
                String outcome = endpoint.apply(EscalationClient.body(v.chainId, v.vnfIndex, config.node, l95Ns,
                        lmaxNs, triedMask));
                events.add(String.format(Locale.ROOT, "%.1f s: agent on %s escalates %s: L95 %.0f us > Lmax %.0f us:"
                                + " %s", nowS.getAsDouble(), worker.host().name(), pods.get(vnf).instance().id(),
                        l95Ns / 1e3, lmaxNs / 1e3, outcome));
            }
        };
    }

    @Override
    public void onDetection(VnfInstance instance, long latencyNs) {
        if (loop == null || worker.host().instanceCount() != pods.size()) {
            start();
        } else if (bound != null && bound.version() != boundVersion) {
            held().forEach(loop::hold);
            worker.markDirty();
        }
        Integer i = index.get(instance);
        if (i == null) {
            return;
        }
        loop.onSample(i, latencyNs);
        if (++samples % 1000 == 0) {
            loop.tick();
        }
        long now = clockNs.getAsLong();
        if (poolReports != null && now - nextPoolReportNs >= 0) {
            nextPoolReportNs = now + config.poolReportIntervalMs * 1_000_000L;
            poolReports.accept(PoolReport.body(worker.host().name(), loop::pool, loop::reclaimable));
        }
    }

    /** Decisions taken so far (all starts). */
    public long decisions() {
        return decisions;
    }

    /** Escalations so far. */
    public long escalations() {
        return escalations;
    }

    /** Agent starts (1 + restarts for new pods). */
    public int starts() {
        return starts;
    }
}
