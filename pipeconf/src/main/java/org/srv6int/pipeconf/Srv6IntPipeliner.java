// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.onosproject.net.flow.instructions.Instruction.Type.OUTPUT;

import java.util.Collections;
import java.util.List;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.behaviour.NextGroup;
import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.behaviour.PipelinerContext;
import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions.OutputInstruction;
import org.onosproject.net.flowobjective.FilteringObjective;
import org.onosproject.net.flowobjective.ForwardingObjective;
import org.onosproject.net.flowobjective.NextObjective;
import org.onosproject.net.flowobjective.Objective;
import org.onosproject.net.flowobjective.ObjectiveError;

/**
 * Pipeliner for the packet-in requests of ONOS core services (link discovery,
 * host location): a VERSATILE forwarding objective whose treatment is
 * OUTPUT:CONTROLLER becomes an ACL entry with {@code punt_to_cpu}. Routing and
 * chains are programmed by the app with flow rules, so every other objective is
 * refused as UNSUPPORTED.
 */
public class Srv6IntPipeliner extends AbstractHandlerBehaviour implements Pipeliner {

    private DeviceId deviceId;
    private FlowRuleService flowRuleService;

    @Override
    public void init(DeviceId deviceId, PipelinerContext context) {
        this.deviceId = deviceId;
        this.flowRuleService = context.directory().get(FlowRuleService.class);
    }

    @Override
    public void filter(FilteringObjective obj) {
        fail(obj, ObjectiveError.UNSUPPORTED);
    }

    @Override
    public void forward(ForwardingObjective obj) {
        if (obj.flag() != ForwardingObjective.Flag.VERSATILE || !isPunt(obj)) {
            fail(obj, ObjectiveError.UNSUPPORTED);
            return;
        }
        FlowRule rule = aclRule(deviceId, obj);
        FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
        if (obj.op() == Objective.Operation.REMOVE) {
            ops.remove(rule);
        } else if (obj.op() == Objective.Operation.ADD) {
            ops.add(rule);
        } else {
            fail(obj, ObjectiveError.UNSUPPORTED);
            return;
        }
        flowRuleService.apply(ops.build());
        obj.context().ifPresent(c -> c.onSuccess(obj));
    }

    @Override
    public void next(NextObjective obj) {
        fail(obj, ObjectiveError.UNSUPPORTED);
    }

    @Override
    public void purgeAll(ApplicationId appId) {
        flowRuleService.purgeFlowRules(deviceId, appId);
    }

    @Override
    public List<String> getNextMappings(NextGroup nextGroup) {
        return Collections.emptyList();
    }

    static boolean isPunt(ForwardingObjective obj) {
        List<Instruction> all = obj.treatment() == null
                ? Collections.emptyList() : obj.treatment().allInstructions();
        return all.size() == 1 && all.get(0).type() == OUTPUT
                && PortNumber.CONTROLLER.equals(((OutputInstruction) all.get(0)).port());
    }

    static FlowRule aclRule(DeviceId deviceId, ForwardingObjective obj) {
        FlowRule.Builder b = DefaultFlowRule.builder()
                .forDevice(deviceId)
                .forTable(Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL)
                .fromApp(obj.appId())
                .withPriority(obj.priority())
                .withSelector(obj.selector())
                .withTreatment(obj.treatment());
        if (obj.permanent()) {
            b.makePermanent();
        } else {
            b.makeTemporary(obj.timeout());
        }
        return b.build();
    }

    private static void fail(Objective obj, ObjectiveError error) {
        obj.context().ifPresent(c -> c.onError(obj, error));
    }
}
