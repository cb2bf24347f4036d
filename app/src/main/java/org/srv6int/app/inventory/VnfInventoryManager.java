// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.inventory;

import org.srv6int.app.store.VnfReplicaStore;
import org.srv6int.app.store.VnfReplicaStoreDelegate;
import org.onlab.packet.Ip6Address;
import org.onosproject.event.AbstractListenerManager;
import org.onosproject.event.EventDeliveryService;
import org.onosproject.net.DeviceId;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.ReplicaTransition;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.VnfReplicaEvent;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.VnfReplicaListener;
import org.srv6int.app.config.AttachedServer;
import org.srv6int.app.config.ServerNuma;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * vNF inventory over the distributed replica store. Allocates replica names
 * ("r0", "r1", ...) and SIDs (host part 1..1023 of the switch's vNF SID
 * locator, which is also the vNF register index on that switch).
 */
@Component(immediate = true, service = VnfInventoryService.class)
public class VnfInventoryManager extends AbstractListenerManager<VnfReplicaEvent, VnfReplicaListener>
        implements VnfInventoryService {

    private static final int ALLOCATION_ATTEMPTS = 5;

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfReplicaStore store;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcService sfcService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;

    // Every write of a replica's record goes through it (the one the chain service uses too).
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ReplicaLifecycle lifecycle;

    private final VnfReplicaStoreDelegate delegate = this::post;

    /** Creates the component for OSGi, which sets its references. */
    public VnfInventoryManager() {
    }

    /**
     * Creates the component with its references, for a host without OSGi; call {@link #activate()}.
     *
     * @param store         replica store (read here; written only through the life cycle)
     * @param lifecycle     the replica life cycle over that store
     * @param sfcService    chains
     * @param configService the app's netcfg
     * @param events        event delivery
     */
    public VnfInventoryManager(VnfReplicaStore store, ReplicaLifecycle lifecycle, SfcService sfcService,
                               Srv6IntConfigService configService, EventDeliveryService events) {
        this.store = store;
        this.lifecycle = lifecycle;
        this.sfcService = sfcService;
        this.configService = configService;
        this.eventDispatcher = events;
    }

    /** Starts forwarding store events. */
    @Activate
    public void activate() {
        eventDispatcher.addSink(VnfReplicaEvent.class, listenerRegistry);
        store.setDelegate(delegate);
        log.info("Started");
    }

    /** Stops forwarding store events. */
    @Deactivate
    public void deactivate() {
        store.unsetDelegate(delegate);
        eventDispatcher.removeSink(VnfReplicaEvent.class);
        log.info("Stopped");
    }

    @Override
    public Collection<VnfReplica> getReplicas() {
        return store.getReplicas();
    }

    @Override
    public Collection<VnfReplica> getReplicas(SfcId sfcId) {
        return store.getReplicas().stream().filter(r -> r.vnf().sfcId().equals(sfcId))
                .sorted((a, b) -> a.id().compareTo(b.id())).collect(Collectors.toList());
    }

    @Override
    public Collection<VnfReplica> getReplicas(VnfKey vnf) {
        return store.getReplicas().stream().filter(r -> r.vnf().equals(vnf))
                .sorted((a, b) -> a.id().compareTo(b.id())).collect(Collectors.toList());
    }

    @Override
    public Optional<VnfReplica> getReplica(VnfReplicaId id) {
        return store.getReplica(id);
    }

    @Override
    public VnfReplica addReplica(VnfKey vnf, String node) {
        return add(vnf, node, null, ReplicaLifecycle.Step.ADD, 1);
    }

    @Override
    public VnfReplica addReplica(VnfKey vnf, String node, String name) {
        return add(vnf, node, VnfReplicaId.of(vnf, name).name(), ReplicaLifecycle.Step.ADD, 1);
    }

    @Override
    public VnfReplica reserveReplica(VnfKey vnf, String node, String name) {
        VnfReplicaId id = VnfReplicaId.of(vnf, name);
        for (int attempt = 0; attempt < ALLOCATION_ATTEMPTS; attempt++) {
            Optional<VnfReplica> have = store.getReplica(id);
            if (have.isPresent()) {
                if (!have.get().node().equals(node)) {
                    throw new SfcException(SfcException.Reason.CONFLICT, "replica " + id + " exists on node "
                            + have.get().node() + ", not " + node);
                }
                return have.get();
            }
            try {
                return add(vnf, node, id.name(), ReplicaLifecycle.Step.RESERVE, 0);
            } catch (SfcException e) {
                // Another instance reserved the same name meanwhile: read it back.
                if (e.reason() != SfcException.Reason.CONFLICT || store.getReplica(id).isEmpty()) {
                    throw e;
                }
            }
        }
        throw new SfcException(SfcException.Reason.CONFLICT, "could not reserve replica " + id
                + " (concurrent changes)");
    }

    // name null: the smallest free "r<n>".
    private VnfReplica add(VnfKey vnf, String node, String name, ReplicaLifecycle.Step step, int weight) {
        checkVnf(vnf);
        Srv6Devices devices = configService.devices();
        Map.Entry<DeviceId, AttachedServer> at = devices.locate(node).orElseThrow(
                () -> new IllegalArgumentException("node: " + node + " is not attached to any srv6int device"));
        Srv6DeviceConfig cfg = devices.get(at.getKey()).orElseThrow();
        for (int attempt = 0; attempt < ALLOCATION_ATTEMPTS; attempt++) {
            Collection<VnfReplica> all = store.getReplicas();
            // SIDs claimed by creates in progress too (the store refuses a SID held twice)
            Set<Integer> usedIds = store.sidsInUse().stream().map(sid -> cfg.vnfId(sid).orElse(0))
                    .collect(Collectors.toSet());
            int vnfId = 1;
            while (usedIds.contains(vnfId)) {
                vnfId++;
            }
            if (vnfId > Srv6DeviceConfig.MAX_VNF_ID) {
                throw new SfcException(SfcException.Reason.CONFLICT, "no free vNF SID on " + at.getKey());
            }
            Set<String> names = all.stream().filter(r -> r.vnf().equals(vnf)).map(r -> r.id().name())
                    .collect(Collectors.toSet());
            String chosen = name;
            if (chosen == null) {
                int n = 0;
                while (names.contains("r" + n)) {
                    n++;
                }
                chosen = "r" + n;
            } else if (names.contains(chosen)) {
                throw new SfcException(SfcException.Reason.CONFLICT, "replica " + vnf + "/" + chosen + " exists");
            }
            VnfReplica r = new VnfReplica(VnfReplicaId.of(vnf, chosen), node, at.getKey(), at.getValue().port(),
                                          cfg.vnfSid(vnfId), at.getValue().mac(),
                                          step.to().orElseThrow(), weight);
            // After the server: its NUMA node, when netcfg states the server's layout.
            NumaPlacement.Choice numa = at.getValue().numa().map(l -> numaChoice(vnf, node, l, all)).orElse(null);
            if (numa != null) {
                r = r.withNumaNode(numa.node());
            }
            if (lifecycle.create(step, r)) {
                log.info("Added replica {} on {} ({} port {}, SID {}){}", r.id(), node, r.deviceId(), r.port(),
                         r.sid(), numa == null ? "" : ", " + numa);
                return r;
            }
        }
        throw new SfcException(SfcException.Reason.CONFLICT, "could not allocate a replica of " + vnf
                + " (concurrent changes)");
    }

    @Override
    public void registerReplica(VnfReplica replica) {
        checkVnf(replica.vnf());
        Srv6DeviceConfig cfg = configService.devices().get(replica.deviceId()).orElseThrow(
                () -> new IllegalArgumentException("deviceId: " + replica.deviceId()
                                                           + " has no srv6int device config"));
        if (cfg.vnfId(replica.sid()).isEmpty()) {
            throw new IllegalArgumentException("sid: " + replica.sid() + " is not host 1.."
                    + Srv6DeviceConfig.MAX_VNF_ID + " of " + replica.deviceId() + "'s vnfSidPrefix");
        }
        Optional<Ip6Address> taken = store.getReplicas().stream().map(VnfReplica::sid)
                .filter(s -> s.equals(replica.sid())).findFirst();
        if (taken.isPresent()) {
            throw new SfcException(SfcException.Reason.CONFLICT, "SID " + replica.sid() + " is in use");
        }
        if (!lifecycle.create(ReplicaLifecycle.Step.REGISTER, replica)) {
            throw new SfcException(SfcException.Reason.CONFLICT, "replica " + replica.id() + " exists or SID "
                    + replica.sid() + " is in use");
        }
    }

    @Override
    public VnfReplica drainReplica(VnfReplicaId id) {
        return lifecycle.apply(id, ReplicaLifecycle.Step.DRAIN, 0);
    }

    @Override
    public VnfReplica updateReplica(VnfReplicaId id, ReplicaState state, int weight) {
        return lifecycle.apply(id, ReplicaLifecycle.stepTo(state), weight);
    }

    @Override
    public VnfReplica failReplica(VnfReplicaId id) {
        return lifecycle.apply(id, ReplicaLifecycle.Step.FAIL, 0);
    }

    @Override
    public VnfReplica restoreReplica(VnfReplicaId id) {
        return lifecycle.apply(id, ReplicaLifecycle.Step.RESTORE, 1);
    }

    @Override
    public VnfReplica removeReplica(VnfReplicaId id) {
        VnfReplica r = lifecycle.remove(id, ReplicaLifecycle.Step.REMOVE).orElseThrow(() -> notFound(id));
        log.info("Removed replica {}", id);
        return r;
    }

    @Override
    public Optional<VnfReplica> releaseReservation(VnfReplicaId id) {
        Optional<VnfReplica> r = lifecycle.remove(id, ReplicaLifecycle.Step.RELEASE);
        r.ifPresent(x -> log.info("Released the reservation of replica {} ({})", id, x.sid()));
        return r;
    }

    @Override
    public List<ReplicaTransition> transitions() {
        return lifecycle.transitions();
    }

    @Override
    public List<ReplicaTransition> refusedTransitions() {
        return lifecycle.refusals();
    }

    @Override
    public int releaseOrphanSids() {
        int released = lifecycle.releaseOrphanSids();
        if (released > 0) {
            log.warn("Released {} SID claim(s) of replicas that never reached the store", released);
        }
        return lifecycle.youngOrphans();
    }

    /**
     * The life cycle that writes the records.
     *
     * @return the life cycle
     */
    public ReplicaLifecycle lifecycle() {
        return lifecycle;
    }

    private NumaPlacement.Choice numaChoice(VnfKey vnf, String node, ServerNuma layout, Collection<VnfReplica> all) {
        List<NumaPlacement.Resident> residents = new ArrayList<>();
        for (VnfReplica r : all) {
            if (r.node().equals(node)) {
                residents.add(new NumaPlacement.Resident(r.vnf().sfcId(), r.numaNode(), cpuRequestMillis(r.vnf())));
            }
        }
        return NumaPlacement.choose(node, layout, residents, vnf.sfcId(), cpuRequestMillis(vnf));
    }

    // The pod's CPU request of the vNF's type (netcfg kubernetes.vnfTypes), 0 if not configured.
    private long cpuRequestMillis(VnfKey vnf) {
        Optional<Sfc> sfc = sfcService.getSfc(vnf.sfcId());
        if (sfc.isEmpty() || vnf.index() >= sfc.get().vnfs().size()) {
            return 0;
        }
        String type = sfc.get().vnfs().get(vnf.index()).type();
        return configService.appConfig().flatMap(Srv6IntAppConfig::kubernetes).map(k -> k.cpuRequestMillis(type))
                .orElse(0L);
    }

    private void checkVnf(VnfKey vnf) {
        Sfc sfc = sfcService.getSfc(vnf.sfcId()).orElseThrow(
                () -> new SfcException(SfcException.Reason.NOT_FOUND, "chain " + vnf.sfcId() + " not found"));
        if (vnf.index() >= sfc.vnfs().size()) {
            throw new SfcException(SfcException.Reason.NOT_FOUND, "chain " + vnf.sfcId() + " has no vNF "
                    + vnf.index());
        }
    }

    private static SfcException notFound(VnfReplicaId id) {
        return new SfcException(SfcException.Reason.NOT_FOUND, "replica " + id + " not found");
    }
}
