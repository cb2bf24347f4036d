// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Optional;
import org.junit.Test;
import org.onlab.packet.Ethernet;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.packet.DefaultOutboundPacket;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.model.PiPipelineInterpreter.PiInterpreterException;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;

public class Srv6IntInterpreterTest {

    private static final DeviceId DEV = DeviceId.deviceId("device:sw1");
    private final Srv6IntInterpreter interpreter = new Srv6IntInterpreter();

    private static byte[] frame() {
        Ethernet eth = new Ethernet();
        eth.setDestinationMACAddress(MacAddress.BROADCAST);
        eth.setSourceMACAddress(MacAddress.valueOf("02:00:00:00:00:01"));
        eth.setEtherType((short) 0x88cc);
        eth.setPayload(new org.onlab.packet.Data(new byte[46]));
        return eth.serialize();
    }

    @Test
    public void packetOutCarriesTheEgressPortInNineBits() throws Exception {
        byte[] data = frame();
        TrafficTreatment t = DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(3)).build();
        Collection<PiPacketOperation> ops = interpreter.mapOutboundPacket(
                new DefaultOutboundPacket(DEV, t, ByteBuffer.wrap(data)));
        assertEquals(1, ops.size());
        PiPacketOperation op = ops.iterator().next();
        assertEquals(PiPacketOperationType.PACKET_OUT, op.type());
        assertArrayEquals(data, op.data().asArray());
        PiPacketMetadata md = op.metadatas().iterator().next();
        assertEquals(Srv6IntConstants.EGRESS_PORT, md.id());
        assertEquals(ImmutableByteSequence.copyFrom(3).fit(9), md.value());
    }

    @Test
    public void packetOutRejectsOtherInstructionsAndLogicalPorts() {
        TrafficTreatment withMod = DefaultTrafficTreatment.builder()
                .setEthDst(MacAddress.BROADCAST).setOutput(PortNumber.portNumber(1)).build();
        TrafficTreatment toController = DefaultTrafficTreatment.builder()
                .setOutput(PortNumber.CONTROLLER).build();
        for (TrafficTreatment t : new TrafficTreatment[]{withMod, toController}) {
            try {
                interpreter.mapOutboundPacket(new DefaultOutboundPacket(DEV, t, ByteBuffer.wrap(frame())));
                fail("accepted " + t);
            } catch (PiInterpreterException expected) {
                assertFalse(expected.getMessage().isEmpty());
            }
        }
    }

    @Test
    public void packetInGivesTheIngressPort() throws Exception {
        byte[] data = frame();
        PiPacketOperation in = PiPacketOperation.builder()
                .withType(PiPacketOperationType.PACKET_IN)
                .withData(ImmutableByteSequence.copyFrom(data))
                .withMetadata(PiPacketMetadata.builder().withId(Srv6IntConstants.INGRESS_PORT)
                        .withValue(ImmutableByteSequence.copyFrom(300).fit(9)).build())
                .build();
        InboundPacket pkt = interpreter.mapInboundPacket(in, DEV);
        assertEquals(DEV, pkt.receivedFrom().deviceId());
        assertEquals(PortNumber.portNumber(300), pkt.receivedFrom().port());
        assertEquals((short) 0x88cc, pkt.parsed().getEtherType());
    }

    @Test(expected = PiInterpreterException.class)
    public void packetInWithoutPortIsAnError() throws Exception {
        interpreter.mapInboundPacket(PiPacketOperation.builder()
                .withType(PiPacketOperationType.PACKET_IN)
                .withData(ImmutableByteSequence.copyFrom(frame())).build(), DEV);
    }

    @Test
    public void criteriaAndLogicalPorts() {
        assertEquals(Optional.of(Srv6IntConstants.HDR_IPV6_DST),
                interpreter.mapCriterionType(Criterion.Type.IPV6_DST));
        assertEquals(Optional.of(Srv6IntConstants.HDR_L4_DPORT),
                interpreter.mapCriterionType(Criterion.Type.UDP_DST));
        assertEquals(Optional.empty(), interpreter.mapCriterionType(Criterion.Type.MPLS_LABEL));
        assertEquals(Optional.of(255), interpreter.mapLogicalPortNumber(PortNumber.CONTROLLER));
        assertEquals(Optional.of(Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL), interpreter.mapFlowRuleTableId(0));
        assertTrue(interpreter.mapFlowRuleTableId(1).isEmpty());
    }

    @Test
    public void treatments() throws Exception {
        PiAction punt = interpreter.mapTreatment(
                DefaultTrafficTreatment.builder().punt().build(), Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL);
        assertEquals(Srv6IntConstants.SRV6_INT_INGRESS_ACL_PUNT_TO_CPU, punt.id());
        PiAction drop = interpreter.mapTreatment(
                DefaultTrafficTreatment.emptyTreatment(), Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL);
        assertEquals(Srv6IntConstants.SRV6_INT_INGRESS_ACL_DROP, drop.id());
        MacAddress nh = MacAddress.valueOf("02:00:00:00:00:02");
        PiAction route = interpreter.mapTreatment(DefaultTrafficTreatment.builder()
                        .setEthDst(nh).setOutput(PortNumber.portNumber(2)).build(),
                Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING);
        assertEquals(Srv6IntActions.setNextHop(PortNumber.portNumber(2), nh), route);
        try {
            interpreter.mapTreatment(DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(2)).build(),
                    Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING);
            fail("route without next-hop MAC accepted");
        } catch (PiInterpreterException expected) {
            assertTrue(expected.getMessage().contains("ETH_DST"));
        }
        try {
            interpreter.mapTreatment(DefaultTrafficTreatment.emptyTreatment(),
                    Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID);
            fail("treatment accepted for my_sid");
        } catch (PiInterpreterException expected) {
            assertTrue(expected.getMessage().contains("Srv6IntActions"));
        }
    }
}
