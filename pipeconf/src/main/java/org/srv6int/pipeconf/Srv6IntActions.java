// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.srv6int.pipeconf.Srv6IntConstants.*;

import java.util.List;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.PortNumber;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

/**
 * Typed builders of every action of the SRv6-INT program, so flow-rule
 * programming never spells a parameter name or width by hand. Values that do
 * not fit their P4 width are rejected with {@link IllegalArgumentException}.
 */
public final class Srv6IntActions {

    private Srv6IntActions() {
    }

    /** Default action of {@code switch_info}: this switch's id, own SID and MAC. */
    public static PiAction setSwitchInfo(int deviceId, Ip6Address mySid, MacAddress routerMac) {
        return PiAction.builder().withId(SRV6_INT_INGRESS_SET_SWITCH_INFO)
                .withParameter(param(DEVICE_ID, deviceId, DEVICE_ID_BITWIDTH))
                .withParameter(param(MY_SID, mySid.toOctets(), MY_SID_BITWIDTH))
                .withParameter(param(ROUTER_MAC, routerMac.toBytes(), ROUTER_MAC_BITWIDTH))
                .build();
    }

    /**
     * {@code sfc_classifier} action: the packet belongs to chain {@code chainId}.
     *
     * @param chainId    chain id, the SRH Tag
     * @param sfcMode    the chain has vNFs (S flag)
     * @param mapInfo    INT fields to fill (low 5 bits)
     * @param intPeriod  k of "INT on 1 in k packets"; 0 = never
     * @return the action
     */
    public static PiAction setChain(int chainId, boolean sfcMode, int mapInfo, int intPeriod) {
        if ((mapInfo & ~0x1F) != 0) {
            throw new IllegalArgumentException("MapInfo bits 5..15 name no INT field: 0x"
                    + Integer.toHexString(mapInfo));
        }
        return PiAction.builder().withId(SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN)
                .withParameter(param(CHAIN_ID, chainId, CHAIN_ID_BITWIDTH))
                .withParameter(param(SFC_MODE, sfcMode ? 1 : 0, SFC_MODE_BITWIDTH))
                .withParameter(param(MAP_INFO, mapInfo, MAP_INFO_BITWIDTH))
                .withParameter(param(INT_PERIOD, intPeriod, INT_PERIOD_BITWIDTH))
                .build();
    }

    /**
     * {@code srv6_encap} member action (H.Encaps.INT) for one segment list.
     *
     * @param path the segments after the ingress in travel order, the egress
     *             End.DT.INT SID last; 1 to {@code MAX_SEGMENTS - 1} of them
     *             (the ingress's own SID completes the list)
     * @return the action
     */
    public static PiAction hEncapsInt(List<Ip6Address> path) {
        int n = path.size();
        if (n < 1 || n > Srv6IntPipelineConstants.MAX_SEGMENTS - 1) {
            throw new IllegalArgumentException("a segment list needs 1.."
                    + (Srv6IntPipelineConstants.MAX_SEGMENTS - 1)
                    + " segments after the ingress, got " + n);
        }
        PiActionParamId[] ids = {S0, S1, S2, S3, S4, S5, S6};
        PiAction.Builder b = PiAction.builder().withId(SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT)
                .withParameter(param(LAST_ENTRY, n, LAST_ENTRY_BITWIDTH));
        for (int i = 0; i < ids.length; i++) {
            // Segment List[i] = path[n - 1 - i] (RFC 8754 order: last segment at index 0).
            byte[] sid = i < n ? path.get(n - 1 - i).toOctets() : new byte[Ip6Address.BYTE_LENGTH];
            b.withParameter(param(ids[i], sid, S0_BITWIDTH));
        }
        return b.build();
    }

    /** {@code my_sid} action: plain End.T.INT. */
    public static PiAction endTInt() {
        return PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_T_INT).build();
    }

    /** {@code my_sid} action: End.T.INT through the local vNF {@code vnfId} on {@code vnfPort}. */
    public static PiAction endTIntSfc(int vnfId, PortNumber vnfPort, MacAddress vnfMac) {
        if (vnfId < 0 || vnfId >= Srv6IntPipelineConstants.MAX_VNFS) {
            throw new IllegalArgumentException("vNF id must be 0.."
                    + (Srv6IntPipelineConstants.MAX_VNFS - 1) + ", got " + vnfId);
        }
        return PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC)
                .withParameter(param(VNF_ID, vnfId, VNF_ID_BITWIDTH))
                .withParameter(param(VNF_PORT, vnfPort.toLong(), VNF_PORT_BITWIDTH))
                .withParameter(param(VNF_MAC, vnfMac.toBytes(), VNF_MAC_BITWIDTH))
                .build();
    }

    /** {@code my_sid} action: End.DT.INT (egress of the chain). */
    public static PiAction endDtInt() {
        return PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_DT_INT).build();
    }

    /** {@code ipv6_routing} / {@code ipv4_routing} action: next hop. */
    public static PiAction setNextHop(PortNumber port, MacAddress dmac) {
        return PiAction.builder().withId(SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP)
                .withParameter(param(PORT, port.toLong(), PORT_BITWIDTH))
                .withParameter(param(DMAC, dmac.toBytes(), DMAC_BITWIDTH))
                .build();
    }

    /** {@code ipv6_routing} / {@code ipv4_routing} action: drop (counted). */
    public static PiAction routingDrop() {
        return PiAction.builder().withId(SRV6_INT_INGRESS_ROUTING_DROP).build();
    }

    /** {@code ndp_reply} action: answer a Neighbor Solicitation with {@code targetMac}. */
    public static PiAction ndpNsToNa(MacAddress targetMac) {
        return PiAction.builder().withId(SRV6_INT_INGRESS_NDP_NDP_NS_TO_NA)
                .withParameter(param(TARGET_MAC, targetMac.toBytes(), TARGET_MAC_BITWIDTH))
                .build();
    }

    /** {@code acl} action: send to the controller instead of forwarding. */
    public static PiAction puntToCpu() {
        return PiAction.builder().withId(SRV6_INT_INGRESS_ACL_PUNT_TO_CPU).build();
    }

    /** {@code acl} action: forward and send a copy to the controller. */
    public static PiAction cloneToCpu() {
        return PiAction.builder().withId(SRV6_INT_INGRESS_ACL_CLONE_TO_CPU).build();
    }

    /** {@code acl} action: drop (counted). */
    public static PiAction aclDrop() {
        return PiAction.builder().withId(SRV6_INT_INGRESS_ACL_DROP).build();
    }

    /**
     * Default action of {@code report_config}: where INT reports go.
     *
     * @param srcMac    reporter's MAC
     * @param dstMac    collector next hop's MAC
     * @param srcIp     reporter's report address
     * @param dstIp     collector address
     * @param udpSport  UDP source port (32766 + device id mod 1000)
     * @param udpDport  collector UDP port
     * @param truncLen  most bytes of the mirrored frame
     * @return the action
     */
    public static PiAction setReportConfig(MacAddress srcMac, MacAddress dstMac,
                                           Ip4Address srcIp, Ip4Address dstIp,
                                           int udpSport, int udpDport, int truncLen) {
        return PiAction.builder().withId(SRV6_INT_EGRESS_REPORT_SET_REPORT_CONFIG)
                .withParameter(param(SRC_MAC, srcMac.toBytes(), SRC_MAC_BITWIDTH))
                .withParameter(param(DST_MAC, dstMac.toBytes(), DST_MAC_BITWIDTH))
                .withParameter(param(SRC_IP, srcIp.toOctets(), SRC_IP_BITWIDTH))
                .withParameter(param(DST_IP, dstIp.toOctets(), DST_IP_BITWIDTH))
                .withParameter(param(UDP_SPORT, udpSport, UDP_SPORT_BITWIDTH))
                .withParameter(param(UDP_DPORT, udpDport, UDP_DPORT_BITWIDTH))
                .withParameter(param(TRUNC_LEN, truncLen, TRUNC_LEN_BITWIDTH))
                .build();
    }

    static PiActionParam param(PiActionParamId id, long value, int bitwidth) {
        if (value < 0) {
            throw new IllegalArgumentException(id + " must not be negative: " + value);
        }
        return param(id, ImmutableByteSequence.copyFrom(value), bitwidth);
    }

    static PiActionParam param(PiActionParamId id, byte[] value, int bitwidth) {
        return param(id, ImmutableByteSequence.copyFrom(value), bitwidth);
    }

    private static PiActionParam param(PiActionParamId id, ImmutableByteSequence value, int bitwidth) {
        try {
            return new PiActionParam(id, value.fit(bitwidth));
        } catch (ImmutableByteSequence.ByteSequenceTrimException e) {
            throw new IllegalArgumentException(id + " does not fit in " + bitwidth + " bits: " + value, e);
        }
    }

    /** The action ids this class builds (for the p4info contract test). */
    static List<PiActionId> actionIds() {
        return List.of(SRV6_INT_INGRESS_SET_SWITCH_INFO, SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN,
                SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT, SRV6_INT_INGRESS_ENDPOINT_END_T_INT,
                SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC, SRV6_INT_INGRESS_ENDPOINT_END_DT_INT,
                SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP, SRV6_INT_INGRESS_ROUTING_DROP,
                SRV6_INT_INGRESS_NDP_NDP_NS_TO_NA, SRV6_INT_INGRESS_ACL_PUNT_TO_CPU,
                SRV6_INT_INGRESS_ACL_CLONE_TO_CPU, SRV6_INT_INGRESS_ACL_DROP,
                SRV6_INT_EGRESS_REPORT_SET_REPORT_CONFIG);
    }
}
