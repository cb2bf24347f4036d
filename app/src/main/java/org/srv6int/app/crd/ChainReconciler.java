// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRuleService;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfWindow;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.switchstate.SidSteering;
import org.srv6int.app.rest.SfcCodec;
import org.srv6int.k8s.bridge.crd.ChainNote;
import org.srv6int.k8s.bridge.crd.ChainObject;
import org.srv6int.k8s.bridge.crd.ChainReport;
import org.srv6int.k8s.bridge.crd.ChainSink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The app's {@link ChainSink}: makes the app's chain match its ServiceFunctionChain through
 * {@link SfcService} (and the loop's pause), records the ownership (chain id → object key) that
 * makes REST/CLI edits of it a 409, removes it for the finalizer once the switches dropped its
 * entries, and reports the chain as the loops see it ({@link ChainStatus}) with the events that
 * happened since the last sync (loop decisions, replicas added, draining, removed).
 */
final class ChainReconciler implements ChainSink {

    /** Decisions read per sync (all chains'; the chain's are filtered out). */
    static final int DECISIONS_READ = 500;

    private final ObjectMapper mapper = new ObjectMapper();
    private final SfcCodec codec = new SfcCodec();
    private final SfcService sfcs;
    private final GlobalLoopService loop;
    private final VnfInventoryService inventory;
    private final Supplier<Optional<TelemetrySnapshot>> windows;
    private final FlowRuleService flows;
    private final Supplier<Collection<DeviceId>> devices;
    private final Map<Integer, String> owners;
    private final LongSupplier clock;
    // Chains removed for a finalizer whose entries the switches may still hold, by object key.
    private final Map<String, Sfc> releasing = new ConcurrentHashMap<>();
    // What the last sync of each object saw, to tell what happened since (events).
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();

    private static final class Seen {
        Set<String> decisions;
        Map<String, ReplicaState> replicas;
        String refusal;
    }

    ChainReconciler(SfcService sfcs, GlobalLoopService loop, VnfInventoryService inventory,
                    Supplier<Optional<TelemetrySnapshot>> windows,
                    FlowRuleService flows, Supplier<Collection<DeviceId>> devices, Map<Integer, String> owners,
                    LongSupplier clock) {
        this.sfcs = sfcs;
        this.loop = loop;
        this.inventory = inventory;
        this.windows = windows;
        this.flows = flows;
        this.devices = devices;
        this.owners = owners;
        this.clock = clock;
    }

    /** A chain the app cannot take as declared. */
    private static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String reason;

        Refusal(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    @Override
    public ChainReport sync(ChainObject chain) {
        List<ChainNote> notes = new ArrayList<>();
        ChainStatus.Inputs in = new ChainStatus.Inputs();
        in.generation = chain.generation();
        in.previous = chain.status();
        in.nowMillis = clock.getAsLong();
        Sfc want = null;
        boolean paused = false;
        try {
            ObjectNode spec = spec(chain);
            paused = spec.path("paused").asBoolean(false);
            spec.remove("paused");
            want = decode(spec);
            in.vnfs = want.vnfs();
            apply(chain, want, notes);
            in.paused = paused;
            applyPause(want.id(), paused, notes);
        } catch (Refusal r) {
            in.refusedReason = r.reason;
            in.refusedMessage = r.getMessage();
        }
        Seen s = seen.computeIfAbsent(chain.key(), k -> new Seen());
        if (in.refusedReason != null) {
            String refusal = in.refusedReason + ": " + in.refusedMessage;
            if (!refusal.equals(s.refusal)) {
                notes.add(new ChainNote(true, "Refused", in.refusedMessage, null));
            }
            s.refusal = refusal;
            ChainStatus refused = ChainStatus.of(in);
            return new ChainReport(refused.body(), refused.digest(), notes);
        }
        s.refusal = null;
        SfcId id = want.id();
        Sfc held = sfcs.getSfc(id).orElse(want);
        in.installed = SidSteering.chainEntries(flows, devices.get(), held).isPresent();
        in.replicas = new ArrayList<>(inventory.getReplicas(id));
        in.liveness = loop.chainStates().stream().filter(c -> c.sfc().equals(id)).findFirst().orElse(null);
        Map<Integer, VnfWindow> w = new HashMap<>();
        windows.get().ifPresent(snap -> snap.vnfs().stream().filter(v -> v.vnf().sfcId().equals(id))
                .forEach(v -> w.put(v.vnf().index(), v)));
        in.windows = w;
        in.decisions = loop.decisions(DECISIONS_READ).stream()
                .filter(d -> d.vnf().sfcId().equals(id) && d.action() != LoopDecision.Action.HOLD)
                .collect(Collectors.toList());
        happened(s, in, notes);
        ChainStatus status = ChainStatus.of(in);
        return new ChainReport(status.body(), status.digest(), notes);
    }

    private ObjectNode spec(ChainObject chain) {
        JsonNode n;
        try {
            n = mapper.readTree(chain.specJson());
        } catch (IOException e) {
            throw new Refusal("Invalid", "spec is not JSON: " + e.getMessage());
        }
        if (!(n instanceof ObjectNode)) {
            throw new Refusal("Invalid", "spec must be an object");
        }
        ObjectNode spec = (ObjectNode) n;
        if (!spec.hasNonNull("name")) {
            spec.put("name", chain.name()); // the object's name names the chain unless spec.name does
        }
        return spec;
    }

    private Sfc decode(ObjectNode spec) {
        try {
            return codec.decode(spec, null);
        } catch (InvalidFieldException e) {
            throw new Refusal("Invalid", "spec." + e.field() + ": " + e.reason());
        } catch (IllegalArgumentException e) {
            throw new Refusal("Invalid", String.valueOf(e.getMessage()));
        }
    }

    // Creates or updates the app's chain; a chain of another object or of REST is never touched.
    private void apply(ChainObject chain, Sfc want, List<ChainNote> notes) {
        SfcId id = want.id();
        String owner = owners.get(id.tag());
        if (owner != null && !owner.equals(chain.key())) {
            throw new Refusal("IdTaken", "chain id " + id + " is declared by ServiceFunctionChain " + owner);
        }
        Optional<Sfc> have = sfcs.getSfc(id);
        if (owner == null && have.isPresent()) {
            throw new Refusal("IdTaken", "chain " + id + " exists and was made through REST or the CLI; "
                    + "the controller does not take over chains it did not create");
        }
        try {
            if (have.isEmpty()) {
                owners.put(id.tag(), chain.key()); // first: a REST edit racing the add already sees the owner
                try {
                    sfcs.addSfc(want);
                } catch (RuntimeException e) {
                    if (owner == null) {
                        owners.remove(id.tag());
                    }
                    throw e;
                }
                notes.add(new ChainNote(false, "Created", "chain " + id + " added to the app (" + want.vnfs().size()
                        + " vNFs, ingress " + want.ingress() + ", egress " + want.egress() + ")", null));
            } else if (!have.get().equals(want)) {
                sfcs.updateSfc(want);
                notes.add(new ChainNote(false, "Updated", "chain " + id + " updated to generation "
                        + chain.generation(), null));
            }
        } catch (SfcException e) {
            throw new Refusal(e.reason() == SfcException.Reason.CONFLICT ? "Conflict" : "NotFound", e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new Refusal("Invalid", String.valueOf(e.getMessage()));
        }
    }

    private void applyPause(SfcId id, boolean paused, List<ChainNote> notes) {
        try {
            if (loop.pausedChains().contains(id) != paused) {
                loop.setPaused(id, paused);
                notes.add(new ChainNote(false, paused ? "Paused" : "Resumed", "the loop "
                        + (paused ? "takes no action on" : "acts again on") + " chain " + id, null));
            }
        } catch (IllegalStateException e) {
            // The loop is disabled: nothing acts on the chain anyway; the status says Paused as declared.
        }
    }

    // Loop decisions and replica changes since the last sync become events; the first sync after a
    // start only learns what is there (no replay of old history as news).
    private void happened(Seen s, ChainStatus.Inputs in, List<ChainNote> notes) {
        Set<String> decisions = new HashSet<>();
        List<LoopDecision> fresh = new ArrayList<>();
        for (LoopDecision d : in.decisions) {
            String k = d.timeMillis() + "|" + d.vnf() + "|" + d.action() + "|" + d.outcome();
            decisions.add(k);
            if (s.decisions != null && !s.decisions.contains(k)) {
                fresh.add(0, d); // oldest first
            }
        }
        fresh.forEach(d -> notes.add(decisionNote(d)));
        Map<String, ReplicaState> replicas = new HashMap<>();
        in.replicas.forEach(r -> replicas.put(r.id().name(), r.state()));
        if (s.replicas != null) {
            for (VnfReplica r : in.replicas) {
                String name = r.id().name();
                ReplicaState before = s.replicas.get(name);
                String workload = name.startsWith("sfc-") ? name : null;
                // A pod exists once its replica is ACTIVE (Ready): the pod's Event is written from then on.
                boolean active = r.state() == ReplicaState.ACTIVE;
                if (before == null) {
                    notes.add(new ChainNote(false, "ReplicaAdded", "replica " + name + " of vnf " + r.vnf().index()
                            + " on node " + r.node() + " (SID " + r.sid() + ", " + r.state() + ")",
                                            active ? workload : null));
                } else if ((before == ReplicaState.PENDING || before == ReplicaState.DEAD) && active) {
                    notes.add(new ChainNote(false, "ReplicaReady", "replica " + name + " of vnf " + r.vnf().index()
                            + " on node " + r.node() + " is Ready and carries traffic (SID " + r.sid() + ")",
                                            workload));
                } else if (before != ReplicaState.DRAINING && r.state() == ReplicaState.DRAINING) {
                    notes.add(new ChainNote(false, "Draining", "replica " + name + " of vnf " + r.vnf().index()
                            + " takes no new flows; it goes once its flows end", workload));
                }
            }
            s.replicas.keySet().stream().filter(n -> !replicas.containsKey(n)).sorted().forEach(n -> notes.add(
                    new ChainNote(false, "ReplicaRemoved", "replica " + n + " left the chain", null)));
        }
        s.decisions = decisions;
        s.replicas = replicas;
    }

    private static ChainNote decisionNote(LoopDecision d) {
        boolean failed = d.outcome() == LoopDecision.Outcome.FAILED;
        String reason;
        switch (d.action()) {
            case SCALE_OUT:
                reason = failed ? "ScaleOutFailed" : d.outcome() == LoopDecision.Outcome.IN_PROGRESS
                        ? "ScalingOut" : "ScaledOut";
                break;
            case SCALE_IN:
                reason = failed ? "ScaleInFailed" : d.outcome() == LoopDecision.Outcome.IN_PROGRESS
                        ? "ScalingIn" : "ScaledIn";
                break;
            case CHAIN_DOWN:
                reason = "ChainDown";
                break;
            case CHAIN_UP:
                reason = "ChainUp";
                break;
            case ESCALATION:
                reason = "Escalated";
                break;
            default:
                reason = ChainStatus.camel(d.action()) + (failed ? "Failed" : "");
        }
        boolean warning = failed || d.action() == LoopDecision.Action.CHAIN_DOWN
                || d.action() == LoopDecision.Action.REPLICA_DEAD || d.action() == LoopDecision.Action.ESCALATION;
        return new ChainNote(warning, reason, "vnf " + d.vnf().index() + ": " + d.action() + " " + d.outcome()
                + " (replicas " + d.replicasBefore() + " -> " + d.replicasAfter() + "): " + d.detail(), null);
    }

    @Override
    public boolean release(ChainObject chain) {
        seen.remove(chain.key());
        for (Map.Entry<Integer, String> e : owners.entrySet()) {
            if (chain.key().equals(e.getValue())) {
                SfcId id = SfcId.of(e.getKey());
                sfcs.getSfc(id).ifPresent(sfc -> {
                    releasing.put(chain.key(), sfc);
                    try {
                        sfcs.removeSfc(id);
                    } catch (SfcException gone) {
                        // removed meanwhile: the wait below still applies
                    }
                });
            }
        }
        Sfc gone = releasing.get(chain.key());
        if (gone != null && SidSteering.chainEntries(flows, devices.get(), gone).isPresent()) {
            return false;
        }
        releasing.remove(chain.key());
        // One remove per id: a ConsistentMap's Java view returns copies from entrySet().
        owners.entrySet().stream().filter(e -> chain.key().equals(e.getValue())).map(Map.Entry::getKey)
                .collect(Collectors.toList()).forEach(id -> owners.remove(id, chain.key()));
        return true;
    }

    @Override
    public Collection<String> ownedKeys() {
        return new HashSet<>(owners.values());
    }

    @Override
    public boolean orphaned(String key) {
        String[] nsName = key.split("/", 2);
        // No finalizer ran: remove the chain now; the owner goes once the switches dropped it.
        return release(new ChainObject(nsName[0], nsName[nsName.length - 1], null, 0, "{}", Map.of(), true));
    }

    /** Ownership of a chain, as REST/CLI see it. */
    Optional<String> owner(SfcId id) {
        return Optional.ofNullable(owners.get(id.tag()));
    }
}
