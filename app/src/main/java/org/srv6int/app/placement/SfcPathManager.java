// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import com.google.common.collect.ImmutableMap;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.topology.PathService;
import org.onosproject.net.topology.TopologyEvent;
import org.onosproject.net.topology.TopologyListener;
import org.onosproject.net.topology.TopologyService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.PlacementService;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcEvent;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcListener;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.VnfReplicaEvent;
import org.srv6int.app.api.VnfReplicaListener;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntConfigService;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Computes every chain's segment lists from the chains, the replicas, the
 * SRv6 netcfg and the topology; recomputes lazily after any of them changed.
 * Every ONOS instance computes the same result (deterministic tie-breaks), so
 * nothing of it needs to be stored.
 */
@Component(immediate = true, service = {SfcPathService.class, PlacementService.class})
public class SfcPathManager implements SfcPathService, PlacementService {

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcService sfcService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfInventoryService inventoryService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService networkConfigService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected TopologyService topologyService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PathService pathService;

    private final SfcListener sfcListener = this::onSfcEvent;
    private final VnfReplicaListener replicaListener = this::onReplicaEvent;
    private final NetworkConfigListener configListener = this::onConfigEvent;
    private final TopologyListener topologyListener = this::onTopologyEvent;

    private Map<SfcId, SfcPaths> paths = ImmutableMap.of();
    private boolean stale = true;

    /** Creates the component for OSGi, which sets its references. */
    public SfcPathManager() {
    }

    /**
     * Creates the component with its references, for a host without OSGi; call {@link #activate()}.
     *
     * @param sfcService           chains
     * @param inventoryService     replicas
     * @param configService        the app's netcfg
     * @param networkConfigService ONOS netcfg (its events)
     * @param topologyService      topology (its events)
     * @param pathService          paths
     */
    public SfcPathManager(SfcService sfcService, VnfInventoryService inventoryService,
                          Srv6IntConfigService configService, NetworkConfigService networkConfigService,
                          TopologyService topologyService, PathService pathService) {
        this.sfcService = sfcService;
        this.inventoryService = inventoryService;
        this.configService = configService;
        this.networkConfigService = networkConfigService;
        this.topologyService = topologyService;
        this.pathService = pathService;
    }

    /** Starts listening. */
    @Activate
    public void activate() {
        sfcService.addListener(sfcListener);
        inventoryService.addListener(replicaListener);
        networkConfigService.addListener(configListener);
        topologyService.addListener(topologyListener);
        log.info("Started");
    }

    /** Stops listening. */
    @Deactivate
    public void deactivate() {
        sfcService.removeListener(sfcListener);
        inventoryService.removeListener(replicaListener);
        networkConfigService.removeListener(configListener);
        topologyService.removeListener(topologyListener);
        log.info("Stopped");
    }

    private void onSfcEvent(SfcEvent e) {
        invalidate();
    }

    private void onReplicaEvent(VnfReplicaEvent e) {
        invalidate();
    }

    private void onConfigEvent(NetworkConfigEvent e) {
        invalidate();
    }

    private void onTopologyEvent(TopologyEvent e) {
        invalidate();
    }

    /** Marks the paths for recomputation. */
    public synchronized void invalidate() {
        stale = true;
    }

    private synchronized Map<SfcId, SfcPaths> current() {
        if (stale) {
            stale = false;
            Srv6Devices devices = configService.devices();
            SidRouting routing = new SidRouting(pathService);
            Map<SfcId, SfcPaths> next = new HashMap<>();
            for (Sfc sfc : sfcService.getSfcs()) {
                next.put(sfc.id(), SegmentListComputer.compute(sfc, inventoryService.getReplicas(sfc.id()),
                                                               devices, routing));
            }
            paths = ImmutableMap.copyOf(next);
        }
        return paths;
    }

    @Override
    public Optional<SfcPaths> getPaths(SfcId sfcId) {
        return Optional.ofNullable(current().get(sfcId));
    }

    @Override
    public Map<SfcId, SfcPaths> getAllPaths() {
        return current();
    }

    @Override
    public Optional<String> chooseNode(VnfKey vnf, Map<String, Double> freeResources) {
        Sfc sfc = sfcService.getSfc(vnf.sfcId()).orElseThrow(
                () -> new SfcException(SfcException.Reason.NOT_FOUND, "chain " + vnf.sfcId() + " not found"));
        if (vnf.index() >= sfc.vnfs().size()) {
            throw new SfcException(SfcException.Reason.NOT_FOUND, "chain " + vnf.sfcId() + " has no vNF "
                    + vnf.index());
        }
        return LcsPlacement.chooseNode(sfc, vnf.index(), inventoryService.getReplicas(sfc.id()), freeResources,
                                       configService.devices(), pathService);
    }
}
