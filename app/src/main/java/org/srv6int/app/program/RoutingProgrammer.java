// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.srv6int.pipeconf.Srv6IntActions;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.pi.runtime.PiAction;
import org.srv6int.app.config.AttachedHosts;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.placement.SidRouting;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IPV4_DST;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IPV6_DST;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV4_ROUTING;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING;


/**
 * Routing tables of a switch: every other SRv6 switch's SIDs and vNF SID
 * locator and its host prefixes via the next hop {@link SidRouting} picks,
 * and the switch's own host prefixes out of their ports. Chains do not change
 * these entries, so adding a replica never touches routing.
 */
public final class RoutingProgrammer {

    private RoutingProgrammer() {
    }

    /**
     * Builds the routing entries of a switch.
     *
     * @param device  device
     * @param devices every switch's SRv6 config
     * @param routing next hops
     * @param appId   app id
     * @return rules
     */
    public static List<FlowRule> rules(DeviceId device, Srv6Devices devices, SidRouting routing,
                                       ApplicationId appId) {
        List<FlowRule> rules = new ArrayList<>();
        Srv6DeviceConfig self = devices.get(device).orElseThrow();
        for (AttachedHosts h : self.hosts()) {
            rules.add(route(device, appId, h.prefix(), h.port(), h.mac()));
        }
        devices.all().entrySet().stream()
                .filter(e -> !e.getKey().equals(device))
                .sorted(Map.Entry.comparingByKey((a, b) -> a.toString().compareTo(b.toString())))
                .forEach(e -> {
                    Optional<Link> hop = routing.nextHop(device, e.getKey());
                    Optional<Srv6DeviceConfig> neighbour = hop.flatMap(l -> devices.get(l.dst().deviceId()));
                    if (neighbour.isEmpty()) {
                        return;
                    }
                    PortNumber port = hop.get().src().port();
                    MacAddress dmac = neighbour.get().myMac();
                    Srv6DeviceConfig d = e.getValue();
                    rules.add(route(device, appId, IpPrefix.valueOf(d.mySid(), 128), port, dmac));
                    rules.add(route(device, appId, IpPrefix.valueOf(d.dtSid(), 128), port, dmac));
                    d.vnfSidPrefix().ifPresent(p -> rules.add(route(device, appId, p, port, dmac)));
                    d.hosts().forEach(h -> rules.add(route(device, appId, h.prefix(), port, dmac)));
                });
        return rules;
    }

    private static FlowRule route(DeviceId device, ApplicationId appId, IpPrefix prefix, PortNumber port,
                                  MacAddress dmac) {
        PiAction action = Srv6IntActions.setNextHop(port, dmac);
        return prefix.isIp4()
                ? PiRules.rule(device, appId, SRV6_INT_INGRESS_ROUTING_IPV4_ROUTING, PiRules.lpm(HDR_IPV4_DST, prefix),
                        prefix.prefixLength(),
                               action)
                : PiRules.rule(device, appId, SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING, PiRules.lpm(HDR_IPV6_DST, prefix),
                        prefix.prefixLength(),
                               action);
    }
}
