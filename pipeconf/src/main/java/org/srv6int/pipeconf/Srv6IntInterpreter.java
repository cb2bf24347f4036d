// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.onosproject.net.PortNumber.CONTROLLER;
import static org.onosproject.net.PortNumber.FLOOD;
import static org.onosproject.net.flow.instructions.Instruction.Type.OUTPUT;
import static org.onosproject.net.pi.model.PiPacketOperationType.PACKET_OUT;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.onlab.packet.DeserializationException;
import org.onlab.packet.Ethernet;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Port;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions.OutputInstruction;
import org.onosproject.net.flow.instructions.L2ModificationInstruction;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.packet.OutboundPacket;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;

/**
 * Pipeline interpreter of the SRv6-INT program: maps ONOS criteria to match
 * fields, simple treatments of the ACL and routing tables to actions, and packet
 * I/O to the packet_in / packet_out controller headers. Everything SRv6-INT
 * specific is programmed with PI actions ({@link Srv6IntActions}) and never goes
 * through here.
 */
public class Srv6IntInterpreter extends AbstractHandlerBehaviour implements PiPipelineInterpreter {

    static final Map<Criterion.Type, PiMatchFieldId> CRITERION_MAP =
            ImmutableMap.<Criterion.Type, PiMatchFieldId>builder()
                    .put(Criterion.Type.IN_PORT, Srv6IntConstants.HDR_IG_PORT)
                    .put(Criterion.Type.ETH_DST, Srv6IntConstants.HDR_ETH_DST)
                    .put(Criterion.Type.ETH_SRC, Srv6IntConstants.HDR_ETH_SRC)
                    .put(Criterion.Type.ETH_TYPE, Srv6IntConstants.HDR_ETH_TYPE)
                    .put(Criterion.Type.IP_PROTO, Srv6IntConstants.HDR_IP_PROTO)
                    .put(Criterion.Type.ICMPV6_TYPE, Srv6IntConstants.HDR_ICMP_TYPE)
                    .put(Criterion.Type.TCP_SRC, Srv6IntConstants.HDR_L4_SPORT)
                    .put(Criterion.Type.UDP_SRC, Srv6IntConstants.HDR_L4_SPORT)
                    .put(Criterion.Type.TCP_DST, Srv6IntConstants.HDR_L4_DPORT)
                    .put(Criterion.Type.UDP_DST, Srv6IntConstants.HDR_L4_DPORT)
                    .put(Criterion.Type.IPV4_SRC, Srv6IntConstants.HDR_IPV4_SRC)
                    .put(Criterion.Type.IPV4_DST, Srv6IntConstants.HDR_IPV4_DST)
                    .put(Criterion.Type.IPV6_SRC, Srv6IntConstants.HDR_IPV6_SRC)
                    .put(Criterion.Type.IPV6_DST, Srv6IntConstants.HDR_IPV6_DST)
                    .put(Criterion.Type.IPV6_ND_TARGET, Srv6IntConstants.HDR_NDP_TARGET)
                    .build();

    /** Flow-rule table 0 (rules without a PI table id, e.g. from the pipeliner) is the ACL. */
    static final PiTableId TABLE_ZERO = Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL;

    @Override
    public Optional<PiMatchFieldId> mapCriterionType(Criterion.Type type) {
        return Optional.ofNullable(CRITERION_MAP.get(type));
    }

    @Override
    public Optional<PiTableId> mapFlowRuleTableId(int flowRuleTableId) {
        return flowRuleTableId == 0 ? Optional.of(TABLE_ZERO) : Optional.empty();
    }

    @Override
    public Optional<Integer> mapLogicalPortNumber(PortNumber port) {
        return CONTROLLER.equals(port)
                ? Optional.of(Srv6IntPipelineConstants.CPU_PORT) : Optional.empty();
    }

    @Override
    public PiAction mapTreatment(TrafficTreatment treatment, PiTableId piTableId)
            throws PiInterpreterException {
        // drop() and the empty treatment carry only NOACTION.
        List<Instruction> all = treatment.allInstructions().stream()
                .filter(i -> i.type() != Instruction.Type.NOACTION)
                .collect(Collectors.toList());
        if (piTableId.equals(Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL)) {
            if (all.isEmpty()) {
                return Srv6IntActions.aclDrop();
            }
            if (all.size() == 1 && all.get(0).type() == OUTPUT
                    && CONTROLLER.equals(((OutputInstruction) all.get(0)).port())) {
                return Srv6IntActions.puntToCpu();
            }
            throw new PiInterpreterException("ACL supports only OUTPUT:CONTROLLER or drop, not "
                    + treatment);
        }
        if (piTableId.equals(Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING)
                || piTableId.equals(Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV4_ROUTING)) {
            if (all.isEmpty()) {
                return Srv6IntActions.routingDrop();
            }
            PortNumber port = null;
            MacAddress dmac = null;
            for (Instruction i : all) {
                if (i.type() == OUTPUT) {
                    port = ((OutputInstruction) i).port();
                } else if (i instanceof L2ModificationInstruction.ModEtherInstruction
                        && ((L2ModificationInstruction) i).subtype()
                        == L2ModificationInstruction.L2SubType.ETH_DST) {
                    dmac = ((L2ModificationInstruction.ModEtherInstruction) i).mac();
                } else {
                    throw new PiInterpreterException("routing does not support " + i);
                }
            }
            if (port == null || dmac == null || port.isLogical()) {
                throw new PiInterpreterException(
                        "routing needs OUTPUT to a physical port and ETH_DST, not " + treatment);
            }
            return Srv6IntActions.setNextHop(port, dmac);
        }
        throw new PiInterpreterException("table " + piTableId
                + " is programmed with PI actions (Srv6IntActions), not treatments");
    }

    @Override
    public Collection<PiPacketOperation> mapOutboundPacket(OutboundPacket packet)
            throws PiInterpreterException {
        TrafficTreatment treatment = packet.treatment();
        List<OutputInstruction> outputs = new ArrayList<>();
        for (Instruction i : treatment.allInstructions()) {
            if (i.type() != OUTPUT) {
                throw new PiInterpreterException("packet-out supports only OUTPUT, not " + i);
            }
            outputs.add((OutputInstruction) i);
        }
        ImmutableList.Builder<PiPacketOperation> ops = ImmutableList.builder();
        for (OutputInstruction out : outputs) {
            if (FLOOD.equals(out.port())) {
                // No flooding in the pipeline: one packet-out per port of the device.
                DeviceService devices = handler().get(DeviceService.class);
                for (Port p : devices.getPorts(packet.sendThrough())) {
                    if (!p.number().isLogical()) {
                        ops.add(packetOut(packet.data(), p.number().toLong()));
                    }
                }
            } else if (out.port().isLogical()) {
                throw new PiInterpreterException("packet-out to logical port " + out.port()
                        + " is not supported");
            } else {
                ops.add(packetOut(packet.data(), out.port().toLong()));
            }
        }
        return ops.build();
    }

    static PiPacketOperation packetOut(ByteBuffer data, long port) throws PiInterpreterException {
        try {
            PiPacketMetadata egressPort = PiPacketMetadata.builder()
                    .withId(Srv6IntConstants.EGRESS_PORT)
                    .withValue(ImmutableByteSequence.copyFrom(port)
                            .fit(Srv6IntConstants.EGRESS_PORT_BITWIDTH))
                    .build();
            return PiPacketOperation.builder()
                    .withType(PACKET_OUT)
                    .withData(ImmutableByteSequence.copyFrom(data.duplicate()))
                    .withMetadata(egressPort)
                    .build();
        } catch (ImmutableByteSequence.ByteSequenceTrimException e) {
            throw new PiInterpreterException("port " + port + " does not fit in "
                    + Srv6IntConstants.EGRESS_PORT_BITWIDTH + " bits");
        }
    }

    @Override
    public InboundPacket mapInboundPacket(PiPacketOperation packetIn, DeviceId deviceId)
            throws PiInterpreterException {
        byte[] bytes = packetIn.data().asArray();
        Ethernet eth;
        try {
            eth = Ethernet.deserializer().deserialize(bytes, 0, bytes.length);
        } catch (DeserializationException e) {
            throw new PiInterpreterException("packet-in is not an Ethernet frame: " + e.getMessage());
        }
        PiPacketMetadata inPort = packetIn.metadatas().stream()
                .filter(m -> m.id().equals(Srv6IntConstants.INGRESS_PORT))
                .findFirst()
                .orElseThrow(() -> new PiInterpreterException("packet-in without "
                        + Srv6IntConstants.INGRESS_PORT));
        long port = new BigInteger(1, inPort.value().asArray()).longValue();
        return new DefaultInboundPacket(new ConnectPoint(deviceId, PortNumber.portNumber(port)),
                eth, ByteBuffer.wrap(bytes));
    }
}
