// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleSupplier;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.loop.ChainRouting;
import org.srv6int.app.loop.InventoryRouting;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.twin.dataplane.Dataplane;
import org.srv6int.twin.dataplane.DropReason;
import org.srv6int.twin.dataplane.EmulatedDataplane;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;

/**
 * The app's core in the twin: its chain, inventory, placement (LCS) and flow programming
 * managers on the paper's testbed or a generated fabric ({@link AppCore}, {@link Topology}), with the model's
 * chains as real {@link Sfc}s and the model's pods as inventory replicas. After every change of
 * the inventory the app's rules and groups are installed, given to the switches
 * ({@link Dataplane#program}) and each chain's weighted paths are read back from the switches
 * by tracing probe flows ({@link PathTracer}); the model then carries the chain's traffic on
 * exactly those paths.
 */
public final class AppControl {
    /** UDP destination port of chain k's classifier is this plus k. */
    static final int BASE_PORT = 5000;

    private final Fabric fabric;
    private final Topology topology;
    private final AppCore app;
    private final Dataplane dataplane;
    private final DoubleSupplier nowS;
    private final Map<String, Allocation> templates;
    private final List<String> events = new ArrayList<>();
    private final Map<String, VnfKey> keyOfVnf = new LinkedHashMap<>();
    private final Map<VnfKey, String> vnfOfKey = new LinkedHashMap<>();
    private final Map<VnfKey, Chain> chainOfKey = new LinkedHashMap<>();
    private final Map<VnfReplicaId, VnfInstance> pods = new HashMap<>();
    private final Map<String, SegmentList> listOfPath = new HashMap<>();
    // every segment list placement gave, by replicas: a draining replica's buckets keep sending
    // through its list after placement dropped it (drain by flows)
    private final Map<List<VnfReplicaId>, SegmentList> listsSeen = new HashMap<>();
    private final List<Runnable> programmed = new ArrayList<>();
    private final ChainRouting routing;

    /**
     * Hosts the app core for a fabric, adds its chains and pods, programs the switches and routes
     * the model.
     *
     * @param fabric    the simulated testbed (hosts worker1/worker2 on sw2/sw3)
     * @param templates allocation of a new replica per logical vNF (absent: its first pod's request)
     * @param dataplane the switches (emulated or BMv2)
     * @param nowS      simulated time
     */
    public AppControl(Fabric fabric, Map<String, Allocation> templates, Dataplane dataplane, DoubleSupplier nowS) {
        this(fabric, Topology.paperTestbed(), templates, dataplane, nowS);
    }

    /**
     * Hosts the app core for a fabric on a topology (the paper's testbed or a generated one),
     * adds its chains and pods, programs the switches and routes the model.
     *
     * @param fabric    the simulated workers and chains (host names are the topology's server nodes)
     * @param topology  switches, links and netcfg the app is given
     * @param templates allocation of a new replica per logical vNF (absent: its first pod's request)
     * @param dataplane the switches (emulated or BMv2) of that topology
     * @param nowS      simulated time
     */
    public AppControl(Fabric fabric, Topology topology, Map<String, Allocation> templates, Dataplane dataplane,
                      DoubleSupplier nowS) {
        this.fabric = fabric;
        this.topology = topology;
        this.app = new AppCore(topology.links(), loopbackReporters(topology));
        this.templates = Map.copyOf(templates);
        this.dataplane = Objects.requireNonNull(dataplane, "dataplane");
        this.nowS = nowS;
        this.routing = new ModelRouting(new InventoryRouting(app.inventory, app.pathManager));
        // the drain by flows waits in simulated time, as the loop does
        app.useClock(() -> Math.round(nowS.getAsDouble() * 1000));
        int tag = 0;
        for (Chain c : fabric.chains()) {
            SfcId id = SfcId.of(++tag);
            List<VnfSpec> specs = new ArrayList<>();
            for (int i = 0; i < c.vnfs().size(); i++) {
                String v = c.vnfs().get(i);
                VnfKey k = VnfKey.of(id, i);
                if (keyOfVnf.put(v, k) != null) {
                    throw new IllegalArgumentException("vNF " + v + " is in two chains");
                }
                vnfOfKey.put(k, v);
                chainOfKey.put(k, c);
                specs.add(new VnfSpec(firstPod(v).type().label().toLowerCase(Locale.ROOT),
                                      Math.round(c.vnfBoundUs() * 1000)));
            }
            app.sfcs.addSfc(Sfc.builder().id(id).name("sfc" + tag)
                    .ingress(topology.ingress())
                    .egress(topology.egress())
                    .classifier(new FlowClassifier(IpPrefix.valueOf("10.0.1.0/24"), IpPrefix.valueOf("10.0.4.0/24"),
                                                   17, 0, BASE_PORT + tag))
                    .vnfs(specs).intSamplingRate(fabric.intSampling()).build());
        }
        for (VnfInstance i : fabric.instances()) {
            VnfReplica r = app.inventory.addReplica(key(i.vnf()), i.host().name());
            pods.put(r.id(), i);
        }
        reprogram();
    }

    /**
     * The paper testbed's netcfg with every switch reporting from 127.0.0.&lt;Device_ID&gt;, so
     * that the twin can send each switch's reports from its own loopback address and the
     * collector's allow-list (source address to Device_ID) works unchanged.
     */
    private static JsonNode loopbackReporters(Topology topology) {
        JsonNode netcfg = topology.netcfg();
        for (JsonNode device : netcfg.get("devices")) {
            ObjectNode cfg = (ObjectNode) device.get("srv6int");
            cfg.put("reportAddress", "127.0.0." + cfg.get("intDeviceId").asInt());
        }
        return netcfg;
    }

    private VnfInstance firstPod(String vnf) {
        for (VnfInstance i : fabric.instances()) {
            if (i.vnf().equals(vnf)) {
                return i;
            }
        }
        throw new IllegalArgumentException("vNF " + vnf + " has no pod");
    }

    /** The simulated testbed. */
    public Fabric fabric() {
        return fabric;
    }

    /** The switches, links and netcfg the app runs on. */
    public Topology topology() {
        return topology;
    }

    /** The app core (stores, placement, programming, in-memory ONOS flow and group services). */
    public AppCore app() {
        return app;
    }

    /** The global loop's routing port: the app's inventory, then the model's pods and paths. */
    public ChainRouting routing() {
        return routing;
    }

    /** Control events, in order ("t s: what"). */
    public List<String> events() {
        return events;
    }

    /** Called after every (re)programming, e.g. to refresh the collector's hop bindings. */
    public void onProgrammed(Runnable r) {
        programmed.add(r);
    }

    /** The app's vNF key of a model vNF. */
    public VnfKey key(String vnf) {
        VnfKey k = keyOfVnf.get(vnf);
        if (k == null) {
            throw new IllegalArgumentException("vNF " + vnf + " is in no chain");
        }
        return k;
    }

    /** The model vNF of an app vNF key. */
    public String vnfName(VnfKey k) {
        return vnfOfKey.get(k);
    }

    /** The model chain of an app chain. */
    public Chain chain(SfcId id) {
        return chainOfKey.get(VnfKey.of(id, 0));
    }

    /** The model chain of an app vNF. */
    public Chain chain(VnfKey k) {
        return chainOfKey.get(k);
    }

    /**
     * The model pod of an inventory replica (read-only; e.g. {@code --k8s real} mirrors the
     * experiment's initial pods in Kubernetes with their allocations).
     *
     * @param id replica id
     * @return its pod, or null when the replica has none (yet)
     */
    public VnfInstance pod(VnfReplicaId id) {
        return pods.get(id);
    }

    /** CPU request of a new replica of a vNF, millicores (its template's CPU quota, not the boosted one). */
    public long requestMillis(VnfKey k) {
        return Math.round(template(vnfOfKey.get(k)).get(Resource.CPU_QUOTA) * 1000);
    }

    /**
     * Takes a node agent's pool report as {@code POST /onos/srv6int/loop/pools} does (the twin
     * has no HTTP): the agent's JSON decoded by the resource's codec into the app's
     * {@code NodePoolService}. A refused report is an event, as the agent's counter would show it.
     *
     * @param json the agent's body ({@code PoolReport})
     */
    public void acceptPoolReport(String json) {
        try {
            org.srv6int.app.rest.PoolReportCodec.submit(POOL_JSON.readTree(json), app.pools);
        } catch (IOException | RuntimeException e) {
            events.add(String.format(Locale.ROOT, "%.1f s: pool report refused: %s", nowS.getAsDouble(),
                    e.getMessage()));
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper POOL_JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * What a new replica of a vNF needs on its node (its template's CPU quota, LLC ways and
     * memory-bandwidth share): the profile the app's placement checks the agents' pools against.
     */
    public ResourceNeed need(VnfKey k) {
        Allocation a = template(vnfOfKey.get(k));
        return new ResourceNeed(Math.round(a.get(Resource.CPU_QUOTA) * 1000), Math.round(a.get(Resource.LLC_WAYS)),
                Math.round(a.get(Resource.MEM_BW_PCT)));
    }

    private Allocation template(String vnf) {
        Allocation a = templates.get(vnf);
        // the pod spec's requests, not what the agent has given the running pod since
        return a != null ? a : firstPod(vnf).request();
    }

    /** The segment list the app computed for a model path (the SIDs the ingress pushes). */
    public SegmentList segmentList(String chain, VnfInstance[] hops) {
        return listOfPath.get(pathKey(chain, List.of(hops)));
    }

    private static String pathKey(String chain, List<VnfInstance> hops) {
        StringBuilder b = new StringBuilder(chain);
        for (VnfInstance i : hops) {
            b.append('|').append(i.id());
        }
        return b.toString();
    }

    /**
     * Installs the app's current rules and groups (reconcile until stable), gives them to the
     * switches and routes every model chain on the paths the switches give.
     */
    public void reprogram() {
        app.settle();
        install();
    }

    /**
     * One look of the flow programming without a change of intent, as its executor looks every
     * second while buckets wait to drain: reconciles, and if that wrote anything gives the
     * switches their new entries and re-routes the model.
     *
     * @return whether anything was written
     */
    public boolean recheck() {
        if (app.settle() == 0) {
            return false;
        }
        install();
        return true;
    }

    /** Gives the switches the app's installed rules and groups and routes the model on them. */
    private void install() {
        for (DeviceId d : topology.switches()) {
            List<FlowRule> rules = new ArrayList<>();
            app.flows.getFlowEntries(d).forEach(rules::add);
            List<Group> groups = new ArrayList<>();
            app.groups.getGroups(d).forEach(groups::add);
            dataplane.program(d, rules, groups);
        }
        listOfPath.clear();
        List<Sfc> sfcs = new ArrayList<>(app.sfcs.getSfcs());
        sfcs.sort((a, b) -> Integer.compare(a.id().tag(), b.id().tag()));
        for (Sfc sfc : sfcs) {
            Chain c = chain(sfc.id());
            Map<SegmentList, Double> weighted = paths(sfc);
            List<Chain.Path> model = new ArrayList<>();
            for (Map.Entry<SegmentList, Double> e : weighted.entrySet()) {
                List<VnfInstance> hops = new ArrayList<>();
                for (VnfReplicaId r : e.getKey().replicas()) {
                    VnfInstance pod = pods.get(r);
                    if (pod == null) {
                        throw new IllegalStateException("replica " + r + " on a path has no pod");
                    }
                    hops.add(pod);
                }
                model.add(new Chain.Path(e.getValue(), hops));
                listOfPath.put(pathKey(c.id(), hops), e.getKey());
            }
            c.setPaths(model);
        }
        for (Runnable r : programmed) {
            r.run();
        }
    }

    /**
     * ONOS's flow-statistics poll: every installed entry's packets and bytes become the switch's
     * direct counter of it (what {@code FlowEntry.packets()} gives the app: the bucket counters
     * the drain by flows watches, the classifier and SID counters of the failure detection).
     * Only emulated switches are read; with other dataplanes the counters stay at 0.
     *
     * @return entries whose counters were read
     */
    public int pollFlowStatistics() {
        if (!(dataplane instanceof EmulatedDataplane)) {
            return 0;
        }
        EmulatedDataplane e = (EmulatedDataplane) dataplane;
        return app.flows.setCounters(entry -> e.counter(entry.deviceId(), entry));
    }

    /** A chain's paths and their shares of its flows: probe flows traced through the switches. */
    private Map<SegmentList, Double> paths(Sfc sfc) {
        List<SegmentList> lists = app.pathManager.getPaths(sfc.id()).map(SfcPaths::segmentLists).orElse(List.of());
        lists.forEach(l -> listsSeen.put(l.replicas(), l));
        Map<SegmentList, Double> out = new LinkedHashMap<>();
        Map<DeviceId, long[]> before = drops();
        Supplier<Map<List<VnfReplicaId>, Double>> probe = () -> PathTracer.trace(dataplane, sfc,
                app.inventory, app.config.devices(), Math.round(nowS.getAsDouble() * 1e9));
        // probe flows are no traffic: the switches' counters (bucket drain, failure detection) skip them
        Map<List<VnfReplicaId>, Double> traced = dataplane instanceof EmulatedDataplane
                ? ((EmulatedDataplane) dataplane).uncounted(probe) : probe.get();
        double reached = traced.values().stream().mapToDouble(Double::doubleValue).sum();
        if (reached < 1 - 1e-9) {
            // Flows the switches lose are the model's loss; say where and why, once per reprogram.
            events.add(String.format(Locale.ROOT, "%.1f s: switches lose %.0f %% of %s's probe flows (%s)",
                    nowS.getAsDouble(), 100 * (1 - reached), sfc.id(), dropsSince(before)));
        }
        for (Map.Entry<List<VnfReplicaId>, Double> e : traced.entrySet()) {
            SegmentList sl = lists.stream().filter(l -> l.replicas().equals(e.getKey())).findFirst()
                    .or(() -> Optional.ofNullable(listsSeen.get(e.getKey())))
                    .orElseThrow(() -> new IllegalStateException("switches send " + sfc.id() + " through "
                            + e.getKey() + ", which no segment list of the app visits"));
            out.put(sl, e.getValue());
        }
        return out;
    }

    /** Drop counters of every emulated switch by reason (empty for other dataplanes). */
    private Map<DeviceId, long[]> drops() {
        Map<DeviceId, long[]> m = new LinkedHashMap<>();
        if (dataplane instanceof EmulatedDataplane) {
            EmulatedDataplane e = (EmulatedDataplane) dataplane;
            for (DeviceId d : app.config.devices().all().keySet()) {
                long[] n = new long[DropReason.values().length];
                for (DropReason r : DropReason.values()) {
                    n[r.ordinal()] = e.drops(d, r);
                }
                m.put(d, n);
            }
        }
        return m;
    }

    private String dropsSince(Map<DeviceId, long[]> before) {
        StringBuilder b = new StringBuilder();
        drops().forEach((d, now) -> {
            for (DropReason r : DropReason.values()) {
                long n = now[r.ordinal()] - before.get(d)[r.ordinal()];
                if (n > 0) {
                    b.append(b.length() == 0 ? "" : ", ").append(d).append(' ').append(r).append(' ').append(n);
                }
            }
        });
        return b.length() == 0 ? "no switch counted a drop: sent elsewhere" : "dropped: " + b;
    }

    /**
     * The app's inventory routing, then the model: a Ready replica the loop adds becomes a pod
     * on its node's simulated host (with the vNF's template allocation), a removed one goes; the
     * switches are reprogrammed and the model re-routed after each change.
     *
     * <p>It passes on no reservations (the interface's default: none), so the loop's reservation
     * sweep has nothing to do here: no platform of the twin reserves a PENDING replica
     * ({@link SimulatedPlatform} leaves the inventory alone; {@code --k8s real} builds the app's
     * BridgeReplicaPlatform without identities), and a replica enters the inventory only when the
     * loop adds it Ready (ACTIVE). Forward {@code reservations()} and {@code releaseReservation}
     * if one ever does.
     */
    private final class ModelRouting implements ChainRouting {
        private final ChainRouting inventory;

        ModelRouting(ChainRouting inventory) {
            this.inventory = inventory;
        }

        @Override
        public List<String> placeReplicas(VnfKey vnf, List<org.srv6int.app.api.model.NodeResources> candidates,
                                          int count) {
            return inventory.placeReplicas(vnf, candidates, count);
        }

        @Override
        public void addReplicas(VnfKey vnf, List<ReplicaInfo> replicas) {
            inventory.addReplicas(vnf, replicas);
            String v = vnfOfKey.get(vnf);
            for (ReplicaInfo r : replicas) {
                VnfReplicaId id = VnfReplicaId.of(vnf, r.id());
                if (pods.containsKey(id)) {
                    continue;
                }
                Host h = fabric.host(r.node());
                if (h == null) {
                    throw new IllegalArgumentException("replica " + r + " is on a node the twin does not simulate");
                }
                VnfInstance pod = h.addInstance(v, firstPod(v).type(), template(v), nowS.getAsDouble());
                pods.put(id, pod);
                events.add(String.format(Locale.ROOT, "%.1f s: start %s on %s (replica %s ready, re-route)",
                        nowS.getAsDouble(), pod.id(), h.name(), r.id()));
            }
            reprogram();
        }

        @Override
        public void drainReplica(VnfKey vnf, String replicaId) {
            inventory.drainReplica(vnf, replicaId);
            events.add(String.format(Locale.ROOT, "%.1f s: drain %s", nowS.getAsDouble(), replicaId));
            reprogram();
        }

        @Override
        public void failReplica(VnfKey vnf, String replicaId) {
            // a dead replica leaves the buckets at once (DEAD, weight 0), its pod stays for a return
            inventory.failReplica(vnf, replicaId);
            events.add(String.format(Locale.ROOT, "%.1f s: %s dead: out of the group", nowS.getAsDouble(),
                    replicaId));
            reprogram();
        }

        @Override
        public void restoreReplica(VnfKey vnf, String replicaId) {
            inventory.restoreReplica(vnf, replicaId);
            events.add(String.format(Locale.ROOT, "%.1f s: %s returns", nowS.getAsDouble(), replicaId));
            reprogram();
        }

        @Override
        public void removeReplica(VnfKey vnf, String replicaId) {
            inventory.removeReplica(vnf, replicaId);
            VnfInstance pod = pods.remove(VnfReplicaId.of(vnf, replicaId));
            reprogram();
            if (pod != null) {
                pod.host().removeInstance(pod.id());
                events.add(String.format(Locale.ROOT, "%.1f s: delete %s", nowS.getAsDouble(), pod.id()));
            }
        }
    }
}
