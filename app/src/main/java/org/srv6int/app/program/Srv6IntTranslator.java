// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.GroupDescription;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.config.CollectorEndpoint;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.placement.SidRouting;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Translates the whole intent (chains, their segment lists, replicas, netcfg)
 * into one {@link DeviceProgram} per SRv6 switch. Pure function: the same
 * input (mastership included: a switch reports to its master's collector) gives the same rules
 * on every ONOS instance.
 */
public final class Srv6IntTranslator {

    private Srv6IntTranslator() {
    }

    /**
     * Translates.
     *
     * @param sfcs     chains
     * @param paths    segment lists by chain
     * @param replicas every replica
     * @param devices  SRv6 device configs
     * @param app      app config, may be null
     * @param masters  ONOS node id of each device's master, null if none
     * @param routing  next hops
     * @param appId    app id
     * @return programs by device
     */
    public static Map<DeviceId, DeviceProgram> translate(Collection<Sfc> sfcs, Map<SfcId, SfcPaths> paths,
                                                         Collection<VnfReplica> replicas, Srv6Devices devices,
                                                         Srv6IntAppConfig app, Function<DeviceId, String> masters,
                                                         SidRouting routing, ApplicationId appId) {
        Map<DeviceId, DeviceProgram> out = new HashMap<>();
        for (Map.Entry<DeviceId, Srv6DeviceConfig> e : devices.all().entrySet()) {
            DeviceId d = e.getKey();
            Srv6DeviceConfig cfg = e.getValue();
            String master = masters.apply(d);
            Optional<CollectorEndpoint> collector = app == null || master == null ? Optional.empty()
                    : app.collectorOf(master);
            List<FlowRule> base = new ArrayList<>(SwitchConfigProgrammer.rules(d, cfg, app, collector, appId));
            base.addAll(RoutingProgrammer.rules(d, devices, routing, appId));
            base.addAll(SidProgrammer.rules(d, cfg, replicas, appId));
            List<DeviceProgram.ChainIngress> chains = new ArrayList<>();
            List<GroupDescription> groups = new ArrayList<>();
            SwitchConfigProgrammer.reportSession(d, cfg, app, collector, appId).ifPresent(groups::add);
            sfcs.stream()
                    .filter(s -> s.ingress().deviceId().equals(d))
                    .sorted(Comparator.comparing(Sfc::id))
                    .forEach(s -> {
                        SfcPaths p = paths.get(s.id());
                        if (p == null || p.segmentLists().isEmpty()) {
                            return;
                        }
                        chains.add(new DeviceProgram.ChainIngress(s, ChainProgrammer.classifierRule(s, appId), p));
                    });
            out.put(d, new DeviceProgram(d, base, chains, groups));
        }
        return out;
    }
}
