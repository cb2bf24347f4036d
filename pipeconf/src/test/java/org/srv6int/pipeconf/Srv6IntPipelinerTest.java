// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.onlab.packet.Ethernet;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flowobjective.DefaultForwardingObjective;
import org.onosproject.net.flowobjective.ForwardingObjective;

public class Srv6IntPipelinerTest {

    private static final ApplicationId APP = new DefaultApplicationId(7, "org.onosproject.lldpprovider");

    private static ForwardingObjective.Builder objective() {
        return DefaultForwardingObjective.builder()
                .fromApp(APP)
                .withPriority(40000)
                .makePermanent()
                .withFlag(ForwardingObjective.Flag.VERSATILE)
                .withSelector(DefaultTrafficSelector.builder().matchEthType(Ethernet.TYPE_LLDP).build());
    }

    @Test
    public void puntObjectiveBecomesAnAclRule() {
        ForwardingObjective obj = objective()
                .withTreatment(DefaultTrafficTreatment.builder().punt().build()).add();
        assertTrue(Srv6IntPipeliner.isPunt(obj));
        FlowRule rule = Srv6IntPipeliner.aclRule(DeviceId.deviceId("device:sw1"), obj);
        assertEquals(Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL, rule.table());
        assertEquals(40000, rule.priority());
        assertEquals(obj.selector(), rule.selector());
        assertTrue(rule.isPermanent());
    }

    @Test
    public void forwardingToAPortIsNotAPunt() {
        ForwardingObjective obj = objective()
                .withTreatment(DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(2)).build())
                .add();
        assertFalse(Srv6IntPipeliner.isPunt(obj));
    }
}
