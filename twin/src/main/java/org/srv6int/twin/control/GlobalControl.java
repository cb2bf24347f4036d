// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleSupplier;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.onosproject.net.config.InvalidFieldException;
import java.util.Comparator;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.store.LoopStateStore;
import org.srv6int.app.loop.DetectionInputs;
import org.srv6int.app.loop.Escalations;
import org.srv6int.app.loop.LoopCore;
import org.srv6int.app.loop.LoopSettings;
import org.srv6int.app.rest.EscalationCodec;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.loop.Colocation;
import org.srv6int.app.loop.GlobalLoop;
import org.srv6int.app.loop.InventoryColocation;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.loop.LoopClock;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.twin.model.Fabric;

/**
 * The global closed loop of the {@code ours} policy, all of it the app's code: INT reports over
 * UDP into the app's collector ({@link TwinCollector}), a telemetry window every
 * {@code evaluationPeriodMs} of the app's netcfg (simulated time), the app's loop core
 * ({@link LoopCore#period}: failure detection, observations, interference learning, Algorithm 4)
 * built as ONOS builds it, with the simulated clock, replicas through the given
 * {@link ReplicaPlatform} and routing through the app's inventory, placement and flow
 * programming ({@link AppControl#routing()}).
 *
 * <p>With several ONOS instances ({@code --onos-instances}): one collector per instance, the
 * egress switch reporting to its master's; each window is the leader's cluster window (its own
 * plus the other instances' summaries); the loop runs on the leader over a shared loop state
 * store. Mastership of the egress switch moves to the next instance every
 * {@value #MASTERSHIP_PERIOD_S} s and leadership every {@value #LEADERSHIP_PERIOD_S} s of
 * simulated time; a new leader resumes the old one's state and actions in flight.
 */
public final class GlobalControl implements SimulatedTime, AutoCloseable {
    /** Simulated seconds between mastership moves of the egress switch (several instances). */
    public static final double MASTERSHIP_PERIOD_S = 7;
    /** Simulated seconds between leadership moves (several instances). */
    public static final double LEADERSHIP_PERIOD_S = 11;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final AppControl control;
    private final TwinCollector collector;
    // the loops of the instances that led before (their decisions stay in the figures)
    private final List<GlobalLoop> retired = new ArrayList<>();
    private final LoopSettings settings;
    private final LoopClock clock;
    private final ReplicaPlatform platform;
    private final LoopStateStore store;
    private final int instances;
    private final Colocation colocation;
    private final InventoryColocation residents;
    private LoopCore core;
    private final double periodS;
    private double nextWindowS;
    private double nextMastershipS = MASTERSHIP_PERIOD_S;
    private double nextLeadershipS = LEADERSHIP_PERIOD_S;
    private int master;
    private int leader;

    /**
     * Starts the collector and the loop.
     *
     * @param control  the app core hosting the chains
     * @param platform where new replicas come from
     * @param params   the loop's parameters
     * @param nowS     simulated time, s
     */
    public GlobalControl(AppControl control, ReplicaPlatform platform, LoopParams params, DoubleSupplier nowS) {
        this(control, platform, params, nowS, 1);
    }

    /**
     * Starts the collectors and the loop of a cluster of ONOS instances.
     *
     * @param control   the app core hosting the chains
     * @param platform  where new replicas come from
     * @param params    the loop's parameters
     * @param nowS      simulated time, s
     * @param instances ONOS instances (1: no summaries, no store, as a single instance runs)
     */
    public GlobalControl(AppControl control, ReplicaPlatform platform, LoopParams params, DoubleSupplier nowS,
                         int instances) {
        if (instances < 1) {
            throw new IllegalArgumentException("--onos-instances must be at least 1, got " + instances);
        }
        this.control = control;
        this.instances = instances;
        // the failure detection's silences and the interference awareness as netcfg gives them to ONOS
        this.settings = LoopSettings.of(params).detection(control.app().config.appConfig())
                .interferenceAware(control.app().config.appConfig().map(c -> c.interferenceAware()).orElse(false));
        this.platform = platform;
        // the cluster's loop state in the app's own store, on the app core's storage
        this.store = instances > 1 ? control.app().app.loopState() : null;
        this.collector = new TwinCollector(control, () -> Math.round(nowS.getAsDouble() * 1e9), instances);
        this.clock = new LoopClock() {
            @Override
            public long nanoTime() {
                return Math.round(nowS.getAsDouble() * 1e9);
            }

            @Override
            public long currentTimeMillis() {
                return Math.round(nowS.getAsDouble() * 1e3);
            }
        };
        // As in ONOS: the inventory says where replicas run, and a new replica requests what the
        // platform's pods request (here the vNF's replica template or its first pod's request,
        // AppControl#requestMillis).
        InventoryColocation where = new InventoryColocation(control.app().inventory, control.app().sfcs, t -> 0L);
        this.residents = where;
        this.colocation = new Colocation() {
            @Override
            public Map<String, String> replicaNodes(VnfKey vnf) {
                return where.replicaNodes(vnf);
            }

            @Override
            public Map<VnfKey, Map<String, String>> replicaNodes(Collection<VnfKey> vnfs) {
                return where.replicaNodes(vnfs);
            }

            @Override
            public long cpuRequestMillis(VnfKey vnf) {
                return control.requestMillis(vnf);
            }

            @Override
            public ResourceNeed need(VnfKey vnf) {
                return control.need(vnf);
            }
        };
        this.core = newCore();
        this.periodS = control.app().config.appConfig().orElseThrow().evaluationPeriodMillis() / 1000.0;
        this.nextWindowS = periodS;
    }

    /** The loop core of the instance that leads, as the loop manager builds it over the app's services. */
    private LoopCore newCore() {
        AppCore app = control.app();
        DetectionInputs inputs = new DetectionInputs(app.inventory).flowEntries(app.flows::getFlowEntries)
                .segmentLists(app.pathManager)
                .readiness((vnf, replica) -> {
                    Map<String, Boolean> ready;
                    try {
                        ready = platform.replicaReadiness(vnf).orElse(null);
                    } catch (RuntimeException e) {
                        ready = null;
                    }
                    return ready == null ? null : ready.get(replica);
                });
        return LoopCore.builder().clock(clock).platform(platform).routing(control.routing()).store(store)
                .colocation(colocation).residents(residents).pools(app.pools).steering(app.steering())
                .services(app.sfcs, app.inventory).segmentLists(app.pathManager).detection(inputs)
                .settings(() -> settings).build();
    }

    /** Where the model's INT samples go. */
    public Fabric.IntSink ints() {
        return collector;
    }

    /**
     * A node agent's escalation, taken as the app's {@code POST loop/escalations} takes it: the
     * agent's JSON body read by the REST resource's codec, then {@link Escalations#take} on the
     * loop of the instance that leads (what {@code GlobalLoopManager.escalate} does on the leader).
     * In-process and at once: no HTTP, so no retry of a refused one.
     *
     * @param json the body the agent's {@code EscalationClient.body} built
     * @return the outcome as the endpoint would answer it: accepted (202) with the decision's
     *         detail, or rejected (400, 404) or unavailable (503) with the reason
     */
    public String escalate(String json) {
        Escalation e;
        try {
            e = EscalationCodec.decode(MAPPER.readTree(json));
        } catch (IOException | InvalidFieldException ex) {
            return "rejected (400): " + ex.getMessage();
        }
        try {
            LoopDecision d = core.escalate(e);
            return "accepted (202): " + d.detail();
        } catch (SfcException ex) {
            return "rejected (404): " + ex.getMessage();
        } catch (IllegalStateException ex) {
            return "unavailable (503): " + ex.getMessage();
        }
    }

    /** Closes a telemetry window and runs one loop round when a window period has passed. */
    @Override
    public void advanceTo(double nowS) {
        if (nowS + 1e-9 < nextWindowS) {
            return;
        }
        nextWindowS += periodS;
        if (instances > 1) {
            moveRoles(nowS);
        }
        core.period(collector.window());
    }

    /** Mastership and leadership move on their periods, as an operator's rebalancing would. */
    private void moveRoles(double nowS) {
        if (nowS + 1e-9 >= nextMastershipS) {
            nextMastershipS += MASTERSHIP_PERIOD_S;
            master = (master + 1) % instances;
            collector.moveMastership(master);
            control.events().add(String.format(Locale.ROOT, "%.1f s: cluster: sw4 mastership moves to onos-%d, "
                    + "its reports follow", nowS, master + 1));
        }
        if (nowS + 1e-9 >= nextLeadershipS) {
            nextLeadershipS += LEADERSHIP_PERIOD_S;
            leader = (leader + 1) % instances;
            // The old leader stops at once; the new one resumes from the store at its first window.
            GlobalLoop old = core.currentLoop();
            if (old != null) {
                retired.add(old);
            }
            core.setLeader(false);
            core = newCore();
            collector.moveLeadership(leader);
            control.events().add(String.format(Locale.ROOT, "%.1f s: cluster: leadership moves to onos-%d",
                    nowS, leader + 1));
        }
    }

    /**
     * The loop's decisions, oldest first; with several instances every leader's, a decision one
     * leader started and the next finished once (as the next one has it).
     */
    public List<LoopDecision> decisions() {
        if (retired.isEmpty()) {
            return core.history();
        }
        List<List<LoopDecision>> histories = new ArrayList<>();
        retired.forEach(l -> histories.add(l.history()));
        histories.add(core.history());
        Map<String, LoopDecision> byKey = new LinkedHashMap<>();
        for (List<LoopDecision> h : histories) {
            for (LoopDecision d : h) {
                byKey.put(d.timeMillis() + "/" + d.vnf() + "/" + d.action() + "/" + d.inputs(), d);
            }
        }
        List<LoopDecision> out = new ArrayList<>(byKey.values());
        out.sort(Comparator.comparingLong(LoopDecision::timeMillis));
        return out;
    }

    /** First scale-out decision per model chain id, s. */
    public Map<String, Double> triggers() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (LoopDecision d : decisions()) {
            if (d.action() == LoopDecision.Action.SCALE_OUT) {
                out.putIfAbsent(control.chain(d.vnf()).id(), d.timeMillis() / 1000.0);
            }
        }
        return out;
    }

    /** The loop's decisions as event lines: time, action, vNF, inputs, outcome and detail. */
    public List<String> decisionEvents() {
        List<String> out = new ArrayList<>();
        for (LoopDecision d : decisions()) {
            StringBuilder in = new StringBuilder();
            d.inputs().forEach((k, v) -> in.append(in.length() == 0 ? "" : ", ").append(k).append('=')
                    .append(String.format(Locale.ROOT, "%.4g", v)));
            out.add(String.format(Locale.ROOT, "%.1f s: loop %s %s (%s chain %s) replicas %d -> %d [%s] %s: %s",
                    d.timeMillis() / 1000.0, d.action(), d.vnf(), control.vnfName(d.vnf()),
                    control.chain(d.vnf()).id(), d.replicasBefore(), d.replicasAfter(), in, d.outcome(),
                    d.detail()));
        }
        return out;
    }

    /** Collector figures for summary.json: datagrams sent, lost on the socket, engine counters. */
    public Map<String, Object> summary() {
        collector.drain();
        CollectorCounters c = collector.counters();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reports_sent", collector.sent());
        m.put("reports_received", c.datagrams());
        m.put("reports_lost_on_socket", collector.lostOnSocket());
        m.put("reports_accepted", c.accepted());
        m.put("reports_lost_by_sequence", c.lost());
        m.put("int_entries_unmapped", c.unmappedEntries());
        m.put("reports_unknown_chain", c.unknownChain());
        m.put("bindings_refused", c.bindingsRefused());
        m.put("deterministic", collector.lostOnSocket() == 0);
        if (instances > 1) {
            m.put("onos_instances", instances);
            List<Map<String, Object>> per = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                CollectorCounters ci = collector.counters(i);
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("node", "onos-" + (i + 1));
                e.put("reports_accepted", ci.accepted());
                e.put("reports_not_master", ci.notMaster());
                per.add(e);
            }
            m.put("instances", per);
            GlobalLoop now = core.currentLoop();
            m.put("loop_store_failures", retired.stream().mapToLong(GlobalLoop::storeFailures).sum()
                    + (now == null ? 0 : now.storeFailures()));
        }
        return m;
    }

    @Override
    public void close() {
        collector.close();
    }
}
