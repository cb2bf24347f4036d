// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.lab;

import static org.srv6int.pipeconf.Srv6IntConstants.DEVICE_ID;
import static org.srv6int.pipeconf.Srv6IntConstants.DMAC;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IPV6_DST;
import static org.srv6int.pipeconf.Srv6IntConstants.MY_SID;
import static org.srv6int.pipeconf.Srv6IntConstants.PORT;
import static org.srv6int.pipeconf.Srv6IntConstants.ROUTER_MAC;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_END_T_INT;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_SET_SWITCH_INFO;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_SWITCH_INFO;
import static org.srv6int.pipeconf.Srv6IntConstants.VNF_ID;
import static org.srv6int.pipeconf.Srv6IntConstants.VNF_MAC;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.group.Group;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiTableAction;

/**
 * The lab switch's entries, as the app's PI flow rules: SW2 of the paper's testbed with its
 * vNFs (End.T.INT.SFC per vNF SID, each behind its own port), End.T.INT on its own SID and the
 * route of the next switch's prefix (fc00:0:3::/48) out of port 2, the downstream port.
 */
final class LabProgram {

    static final int DOWNSTREAM = 2;

    /** Rules and groups of the switch. */
    static final class Entries {
        final List<FlowRule> rules;
        final List<Group> groups;

        Entries(List<FlowRule> rules, List<Group> groups) {
            this.rules = rules;
            this.groups = groups;
        }
    }

    private LabProgram() {
    }

    private static FlowRule rule(PiTableId table, PiCriterion match, int prio, PiTableAction action) {
        return DefaultFlowRule.builder().forDevice(LabSwitch.DEVICE)
                .fromApp(new DefaultApplicationId(1, "org.srv6int.lab")).forTable(table)
                .withSelector(match == null ? DefaultTrafficSelector.emptySelector()
                        : DefaultTrafficSelector.builder().matchPi(match).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .withPriority(prio).makePermanent().build();
    }

    private static byte[] ip6(String s) {
        return Ip6Address.valueOf(s).toOctets();
    }

    private static FlowRule mySid(String sid, PiAction a) {
        return rule(SRV6_INT_INGRESS_ENDPOINT_MY_SID,
                PiCriterion.builder().matchLpm(HDR_IPV6_DST, ip6(sid), 128).build(), 128, a);
    }

    /**
     * SW2's entries.
     *
     * @param vnfs vNF id → "SID@port"
     * @return entries
     */
    static Entries sw2(Map<Integer, String> vnfs) {
        List<FlowRule> rules = new ArrayList<>();
        rules.add(rule(SRV6_INT_INGRESS_SWITCH_INFO, null, 0,
                PiAction.builder().withId(SRV6_INT_INGRESS_SET_SWITCH_INFO)
                        .withParameter(new PiActionParam(DEVICE_ID, 2))
                        .withParameter(new PiActionParam(MY_SID, ip6("fc00:0:2::1")))
                        .withParameter(new PiActionParam(ROUTER_MAC, MacAddress.valueOf("02:00:00:00:00:02").toLong()))
                        .build()));
        rules.add(mySid("fc00:0:2::1", PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_T_INT).build()));
        for (Map.Entry<Integer, String> v : vnfs.entrySet()) {
            String[] sp = v.getValue().split("@");
            rules.add(mySid(sp[0], PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC)
                    .withParameter(new PiActionParam(VNF_ID, v.getKey()))
                    .withParameter(new PiActionParam(org.srv6int.pipeconf.Srv6IntConstants.VNF_PORT,
                            Integer.parseInt(sp[1])))
                    .withParameter(new PiActionParam(VNF_MAC,
                            MacAddress.valueOf("02:00:00:00:02:0" + v.getKey()).toLong())).build()));
        }
        rules.add(rule(SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING,
                PiCriterion.builder().matchLpm(HDR_IPV6_DST, ip6("fc00:0:3::"), 48).build(), 48,
                PiAction.builder().withId(SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP)
                        .withParameter(new PiActionParam(PORT, DOWNSTREAM))
                        .withParameter(new PiActionParam(DMAC, MacAddress.valueOf("02:00:00:00:00:03").toLong()))
                        .build()));
        return new Entries(rules, List.of());
    }
}
