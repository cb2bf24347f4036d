// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.srv6int.pipeconf.Srv6IntActions;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.IpPrefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.pi.runtime.PiAction;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.config.Srv6DeviceConfig;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IPV6_DST;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID;


/**
 * The my_sid table of a switch: its own SID (End.T.INT), its End.DT.INT SID
 * and one End.T.INT-for-SFC entry per vNF replica on a server of this switch
 * (in any state: a PENDING replica is ready before traffic is sent to it, a
 * DRAINING one keeps working until it is removed).
 */
public final class SidProgrammer {

    private SidProgrammer() {
    }

    /**
     * Builds the my_sid entries of a switch.
     *
     * @param device   device
     * @param cfg      its SRv6 config
     * @param replicas every replica (those of other switches are skipped)
     * @param appId    app id
     * @return rules
     */
    public static List<FlowRule> rules(DeviceId device, Srv6DeviceConfig cfg, Collection<VnfReplica> replicas,
                                       ApplicationId appId) {
        List<FlowRule> rules = new ArrayList<>();
        rules.add(sidRule(device, appId, cfg.mySid(), Srv6IntActions.endTInt()));
        rules.add(sidRule(device, appId, cfg.dtSid(), Srv6IntActions.endDtInt()));
        replicas.stream()
                .filter(r -> r.deviceId().equals(device))
                .sorted(Comparator.comparing(VnfReplica::id))
                .forEach(r -> cfg.vnfId(r.sid()).ifPresent(id -> rules.add(replicaRule(device, appId, r, id))));
        return rules;
    }

    /**
     * Builds the my_sid entry of one replica.
     *
     * @param device device the replica hangs off
     * @param appId  app id
     * @param r      replica
     * @param vnfId  its register index on the switch
     * @return rule
     */
    public static FlowRule replicaRule(DeviceId device, ApplicationId appId, VnfReplica r, int vnfId) {
        return sidRule(device, appId, r.sid(), Srv6IntActions.endTIntSfc(vnfId, r.port(), r.mac()));
    }

    private static FlowRule sidRule(DeviceId device, ApplicationId appId, Ip6Address sid, PiAction action) {
        return PiRules.rule(device, appId, SRV6_INT_INGRESS_ENDPOINT_MY_SID, PiRules.lpm(HDR_IPV6_DST,
                IpPrefix.valueOf(sid, 128)), 128,
                            action);
    }
}
