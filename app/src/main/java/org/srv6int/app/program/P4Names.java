package org.srv6int.app.program;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.srv6int.pipeconf.Srv6IntConstants;

/**
 * Every P4Runtime name of the SRv6-INT program the app uses, under the names
 * the app's programmers use; each is an alias of the constant generated from
 * the compiled P4Info ({@link Srv6IntConstants}), so a renamed table or
 * parameter breaks the build instead of a switch.
 */
public final class P4Names {

    private P4Names() {
    }

    // switch_info (keyless)
    /** Table Srv6IntIngress.switch_info. */
    public static final PiTableId SWITCH_INFO = Srv6IntConstants.SRV6_INT_INGRESS_SWITCH_INFO;
    /** Action set_switch_info. */
    public static final PiActionId SET_SWITCH_INFO = Srv6IntConstants.SRV6_INT_INGRESS_SET_SWITCH_INFO;
    /** Param device_id (16). */
    public static final PiActionParamId DEVICE_ID = Srv6IntConstants.DEVICE_ID;
    /** Param my_sid (128). */
    public static final PiActionParamId MY_SID = Srv6IntConstants.MY_SID;
    /** Param router_mac (48). */
    public static final PiActionParamId ROUTER_MAC = Srv6IntConstants.ROUTER_MAC;

    // classifier
    /** Table Srv6IntIngress.classifier.sfc_classifier. */
    public static final PiTableId SFC_CLASSIFIER = Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER;
    /** Key ig_port (ternary 9). */
    public static final PiMatchFieldId IG_PORT = Srv6IntConstants.HDR_IG_PORT;
    /** Key ip_proto (ternary 8). */
    public static final PiMatchFieldId IP_PROTO = Srv6IntConstants.HDR_IP_PROTO;
    /** Key ipv4_src (ternary 32). */
    public static final PiMatchFieldId IPV4_SRC = Srv6IntConstants.HDR_IPV4_SRC;
    /** Key ipv4_dst (ternary 32; lpm 32 in ipv4_routing). */
    public static final PiMatchFieldId IPV4_DST = Srv6IntConstants.HDR_IPV4_DST;
    /** Key ipv6_src (ternary 128). */
    public static final PiMatchFieldId IPV6_SRC = Srv6IntConstants.HDR_IPV6_SRC;
    /** Key ipv6_dst (ternary 128 in the classifier; lpm 128 in my_sid and ipv6_routing). */
    public static final PiMatchFieldId IPV6_DST = Srv6IntConstants.HDR_IPV6_DST;
    /** Key l4_sport (ternary 16). */
    public static final PiMatchFieldId L4_SPORT = Srv6IntConstants.HDR_L4_SPORT;
    /** Key l4_dport (ternary 16). */
    public static final PiMatchFieldId L4_DPORT = Srv6IntConstants.HDR_L4_DPORT;
    /** Action set_chain. */
    public static final PiActionId SET_CHAIN = Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN;
    /** Param chain_id (16). */
    public static final PiActionParamId CHAIN_ID = Srv6IntConstants.CHAIN_ID;
    /** Param sfc_mode (1). */
    public static final PiActionParamId SFC_MODE = Srv6IntConstants.SFC_MODE;
    /** Param map_info (16). */
    public static final PiActionParamId MAP_INFO = Srv6IntConstants.MAP_INFO;
    /** Param int_period (16). */
    public static final PiActionParamId INT_PERIOD = Srv6IntConstants.INT_PERIOD;

    // encap (indirect, action selector)
    /** Table Srv6IntIngress.encap.srv6_encap. */
    public static final PiTableId SRV6_ENCAP = Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP;
    /** Action selector of srv6_encap. */
    public static final PiActionProfileId SRV6_ENCAP_SELECTOR =
            Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP_SELECTOR;
    /** Key chain_id (exact 16). */
    public static final PiMatchFieldId CHAIN_ID_KEY = Srv6IntConstants.HDR_CHAIN_ID;
    /** Action h_encaps_int. */
    public static final PiActionId H_ENCAPS_INT = Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT;
    /** Param last_entry (8). */
    public static final PiActionParamId LAST_ENTRY = Srv6IntConstants.LAST_ENTRY;
    /** Segment params s0..s6 (128 each): SEGMENT[i] is Segment List[i]. */
    public static final PiActionParamId[] SEGMENT = {
            Srv6IntConstants.S0, Srv6IntConstants.S1, Srv6IntConstants.S2,
            Srv6IntConstants.S3, Srv6IntConstants.S4, Srv6IntConstants.S5,
            Srv6IntConstants.S6,
    };

    // endpoint
    /** Table Srv6IntIngress.endpoint.my_sid. */
    public static final PiTableId MY_SID_TABLE = Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID;
    /** Action end_t_int. */
    public static final PiActionId END_T_INT = Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_END_T_INT;
    /** Action end_t_int_sfc. */
    public static final PiActionId END_T_INT_SFC = Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC;
    /** Action end_dt_int. */
    public static final PiActionId END_DT_INT = Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_END_DT_INT;
    /** Param vnf_id (16). */
    public static final PiActionParamId VNF_ID = Srv6IntConstants.VNF_ID;
    /** Param vnf_port (9). */
    public static final PiActionParamId VNF_PORT = Srv6IntConstants.VNF_PORT;
    /** Param vnf_mac (48). */
    public static final PiActionParamId VNF_MAC = Srv6IntConstants.VNF_MAC;

    // routing
    /** Table Srv6IntIngress.routing.ipv6_routing. */
    public static final PiTableId IPV6_ROUTING = Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING;
    /** Table Srv6IntIngress.routing.ipv4_routing. */
    public static final PiTableId IPV4_ROUTING = Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV4_ROUTING;
    /** Action set_next_hop. */
    public static final PiActionId SET_NEXT_HOP = Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP;
    /** Param port (9). */
    public static final PiActionParamId PORT = Srv6IntConstants.PORT;
    /** Param dmac (48). */
    public static final PiActionParamId DMAC = Srv6IntConstants.DMAC;

    // report (egress, keyless)
    /** Table Srv6IntEgress.report.report_config. */
    public static final PiTableId REPORT_CONFIG = Srv6IntConstants.SRV6_INT_EGRESS_REPORT_REPORT_CONFIG;
    /** Action set_report_config. */
    public static final PiActionId SET_REPORT_CONFIG = Srv6IntConstants.SRV6_INT_EGRESS_REPORT_SET_REPORT_CONFIG;
    /** Param src_mac (48). */
    public static final PiActionParamId SRC_MAC = Srv6IntConstants.SRC_MAC;
    /** Param dst_mac (48). */
    public static final PiActionParamId DST_MAC = Srv6IntConstants.DST_MAC;
    /** Param src_ip (32). */
    public static final PiActionParamId SRC_IP = Srv6IntConstants.SRC_IP;
    /** Param dst_ip (32). */
    public static final PiActionParamId DST_IP = Srv6IntConstants.DST_IP;
    /** Param udp_sport (16). */
    public static final PiActionParamId UDP_SPORT = Srv6IntConstants.UDP_SPORT;
    /** Param udp_dport (16). */
    public static final PiActionParamId UDP_DPORT = Srv6IntConstants.UDP_DPORT;
    /** Param trunc_len (16). */
    public static final PiActionParamId TRUNC_LEN = Srv6IntConstants.TRUNC_LEN;

    /** Clone session of the INT report (I2E clone at End.DT.INT). */
    public static final int REPORT_CLONE_SESSION_ID = 100;
    /** Default TLV MapInfo: all five INT fields. */
    public static final int DEFAULT_MAP_INFO = 0x1F;
}
