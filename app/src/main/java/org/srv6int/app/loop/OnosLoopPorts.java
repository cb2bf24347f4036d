// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.onosproject.net.ConnectPoint;
import org.onosproject.net.Port;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.config.Srv6IntAppConfig;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The loop core's ports over a {@link GlobalLoopManager}'s ONOS services: routing and placement
 * over the inventory, co-location with the Kubernetes settings' requests and profiles, failure
 * detection inputs (flow entries, segment lists, the platform's readiness, port states), the
 * switches' steering view, nodes behind a port that is down left out, settings from netcfg.
 */
final class OnosLoopPorts {

    private final GlobalLoopManager m;

    private OnosLoopPorts(GlobalLoopManager m) {
        this.m = m;
    }

    /**
     * Builds the core of a wired manager, not leading yet.
     *
     * @param m          the manager, its services set
     * @param clock      the loop's clock
     * @param leaderName who leads, for refusals
     * @return the core
     */
    static LoopCore core(GlobalLoopManager m, LoopClock clock, Supplier<String> leaderName) {
        OnosLoopPorts p = new OnosLoopPorts(m);
        InventoryColocation colocation = new InventoryColocation(m.inventory, m.sfcService, p::cpuRequestMillis,
                                                                 p::need);
        DetectionInputs inputs = new DetectionInputs(m.inventory)
                .flowEntries(m.flowRuleService == null ? null : m.flowRuleService::getFlowEntries)
                .segmentLists(m.pathsService).portUp(p::portUp)
                // read after the inventory: a replica in the group then was Ready when it joined
                // (the platform's create waits on the same cache), so not Ready now is a change
                .readiness((vnf, replica) -> {
                    Map<String, Boolean> ready = p.readiness(vnf);
                    return ready == null ? null : ready.get(replica);
                });
        LoopCoreBuilder b = LoopCore.builder();
        if (m.escalationStore != null) {
            b.escalations(m.escalationStore, m.clusterService.getLocalNode().id().toString());
        }
        return b.clock(clock).platform(m.platform)
                .routing(new InventoryRouting(m.inventory, m.placement)).store(m.loopState)
                .colocation(colocation).residents(colocation).pools(m.nodePools)
                // a drained replica's pod goes only once no switch steers to it (docs/global-loop.md)
                .steering(m.flowRuleService == null ? null : SwitchSteering.ofFlowStore(
                        m.flowRuleService, () -> m.configService.devices().all().keySet(), m.inventory))
                .nodeFilter(p::nodePortUp).services(m.sfcService, m.inventory).segmentLists(m.pathsService)
                .detection(inputs).settings(() -> LoopSettings.fromNetcfg(m.configService.appConfig()))
                .leaderName(leaderName).leading(false).build();
    }

    private long cpuRequestMillis(String vnfType) {
        return m.configService.appConfig().flatMap(Srv6IntAppConfig::kubernetes)
                .map(k -> k.cpuRequestMillis(vnfType)).orElse(0L);
    }

    private ResourceNeed need(String vnfType) {
        return m.configService.appConfig().flatMap(Srv6IntAppConfig::kubernetes)
                .map(k -> k.need(vnfType)).orElse(ResourceNeed.NONE);
    }

    /** Whether a node's switch attachment (netcfg) is on a port that is up; unattached nodes pass. */
    private boolean nodePortUp(String node) {
        return m.configService.devices().locate(node)
                .map(at -> portUp(new ConnectPoint(at.getKey(), at.getValue().port()))).orElse(true);
    }

    private boolean portUp(ConnectPoint cp) {
        Port port = m.deviceService == null ? null : m.deviceService.getPort(cp.deviceId(), cp.port());
        // A port ONOS does not know (device not connected yet) is not evidence of a failure.
        return port == null || port.isEnabled();
    }

    /** The platform's readiness of a vNF's replicas, from its cache; unknown if it cannot tell. */
    private Map<String, Boolean> readiness(VnfKey vnf) {
        try {
            return m.platform == null ? null : m.platform.replicaReadiness(vnf).orElse(null);
        } catch (RuntimeException e) {
            return null; // not knowing is not evidence of a death
        }
    }
}
