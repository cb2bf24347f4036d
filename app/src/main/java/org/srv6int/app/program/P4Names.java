package org.srv6int.app.program;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;

/**
 * Every P4Runtime name of the SRv6-INT program the app uses, exactly as in
 * docs/p4-tables.md. This is the only place they are spelled: when the
 * generated org.srv6int.pipeconf.Srv6IntConstants is available, these fields
 * become aliases of it (a one-file change).
 */
public final class P4Names {

    private P4Names() {
    }

    // switch_info (keyless)
    /** Table Srv6IntIngress.switch_info. */
    public static final PiTableId SWITCH_INFO = PiTableId.of("Srv6IntIngress.switch_info");
    /** Action set_switch_info. */
    public static final PiActionId SET_SWITCH_INFO = PiActionId.of("Srv6IntIngress.set_switch_info");
    /** Param device_id (16). */
    public static final PiActionParamId DEVICE_ID = PiActionParamId.of("device_id");
    /** Param my_sid (128). */
    public static final PiActionParamId MY_SID = PiActionParamId.of("my_sid");
    /** Param router_mac (48). */
    public static final PiActionParamId ROUTER_MAC = PiActionParamId.of("router_mac");

    // classifier
    /** Table Srv6IntIngress.classifier.sfc_classifier. */
    public static final PiTableId SFC_CLASSIFIER = PiTableId.of("Srv6IntIngress.classifier.sfc_classifier");
    /** Key ig_port (ternary 9). */
    public static final PiMatchFieldId IG_PORT = PiMatchFieldId.of("ig_port");
    /** Key ip_proto (ternary 8). */
    public static final PiMatchFieldId IP_PROTO = PiMatchFieldId.of("ip_proto");
    /** Key ipv4_src (ternary 32). */
    public static final PiMatchFieldId IPV4_SRC = PiMatchFieldId.of("ipv4_src");
    /** Key ipv4_dst (ternary 32; lpm 32 in ipv4_routing). */
    public static final PiMatchFieldId IPV4_DST = PiMatchFieldId.of("ipv4_dst");
    /** Key ipv6_src (ternary 128). */
    public static final PiMatchFieldId IPV6_SRC = PiMatchFieldId.of("ipv6_src");
    /** Key ipv6_dst (ternary 128 in the classifier; lpm 128 in my_sid and ipv6_routing). */
    public static final PiMatchFieldId IPV6_DST = PiMatchFieldId.of("ipv6_dst");
    /** Key l4_sport (ternary 16). */
    public static final PiMatchFieldId L4_SPORT = PiMatchFieldId.of("l4_sport");
    /** Key l4_dport (ternary 16). */
    public static final PiMatchFieldId L4_DPORT = PiMatchFieldId.of("l4_dport");
    /** Action set_chain. */
    public static final PiActionId SET_CHAIN = PiActionId.of("Srv6IntIngress.classifier.set_chain");
    /** Param chain_id (16). */
    public static final PiActionParamId CHAIN_ID = PiActionParamId.of("chain_id");
    /** Param sfc_mode (1). */
    public static final PiActionParamId SFC_MODE = PiActionParamId.of("sfc_mode");
    /** Param map_info (16). */
    public static final PiActionParamId MAP_INFO = PiActionParamId.of("map_info");
    /** Param int_period (16). */
    public static final PiActionParamId INT_PERIOD = PiActionParamId.of("int_period");

    // encap (indirect, action selector)
    /** Table Srv6IntIngress.encap.srv6_encap. */
    public static final PiTableId SRV6_ENCAP = PiTableId.of("Srv6IntIngress.encap.srv6_encap");
    /** Action selector of srv6_encap. */
    public static final PiActionProfileId SRV6_ENCAP_SELECTOR =
            PiActionProfileId.of("Srv6IntIngress.encap.srv6_encap_selector");
    /** Key chain_id (exact 16). */
    public static final PiMatchFieldId CHAIN_ID_KEY = PiMatchFieldId.of("chain_id");
    /** Action h_encaps_int. */
    public static final PiActionId H_ENCAPS_INT = PiActionId.of("Srv6IntIngress.encap.h_encaps_int");
    /** Param last_entry (8). */
    public static final PiActionParamId LAST_ENTRY = PiActionParamId.of("last_entry");
    /** Segment params s0..s6 (128 each): SEGMENT[i] is Segment List[i]. */
    public static final PiActionParamId[] SEGMENT = {
            PiActionParamId.of("s0"), PiActionParamId.of("s1"), PiActionParamId.of("s2"),
            PiActionParamId.of("s3"), PiActionParamId.of("s4"), PiActionParamId.of("s5"),
            PiActionParamId.of("s6"),
    };

    // endpoint
    /** Table Srv6IntIngress.endpoint.my_sid. */
    public static final PiTableId MY_SID_TABLE = PiTableId.of("Srv6IntIngress.endpoint.my_sid");
    /** Action end_t_int. */
    public static final PiActionId END_T_INT = PiActionId.of("Srv6IntIngress.endpoint.end_t_int");
    /** Action end_t_int_sfc. */
    public static final PiActionId END_T_INT_SFC = PiActionId.of("Srv6IntIngress.endpoint.end_t_int_sfc");
    /** Action end_dt_int. */
    public static final PiActionId END_DT_INT = PiActionId.of("Srv6IntIngress.endpoint.end_dt_int");
    /** Param vnf_id (16). */
    public static final PiActionParamId VNF_ID = PiActionParamId.of("vnf_id");
    /** Param vnf_port (9). */
    public static final PiActionParamId VNF_PORT = PiActionParamId.of("vnf_port");
    /** Param vnf_mac (48). */
    public static final PiActionParamId VNF_MAC = PiActionParamId.of("vnf_mac");

    // routing
    /** Table Srv6IntIngress.routing.ipv6_routing. */
    public static final PiTableId IPV6_ROUTING = PiTableId.of("Srv6IntIngress.routing.ipv6_routing");
    /** Table Srv6IntIngress.routing.ipv4_routing. */
    public static final PiTableId IPV4_ROUTING = PiTableId.of("Srv6IntIngress.routing.ipv4_routing");
    /** Action set_next_hop. */
    public static final PiActionId SET_NEXT_HOP = PiActionId.of("Srv6IntIngress.routing.set_next_hop");
    /** Param port (9). */
    public static final PiActionParamId PORT = PiActionParamId.of("port");
    /** Param dmac (48). */
    public static final PiActionParamId DMAC = PiActionParamId.of("dmac");

    // report (egress, keyless)
    /** Table Srv6IntEgress.report.report_config. */
    public static final PiTableId REPORT_CONFIG = PiTableId.of("Srv6IntEgress.report.report_config");
    /** Action set_report_config. */
    public static final PiActionId SET_REPORT_CONFIG = PiActionId.of("Srv6IntEgress.report.set_report_config");
    /** Param src_mac (48). */
    public static final PiActionParamId SRC_MAC = PiActionParamId.of("src_mac");
    /** Param dst_mac (48). */
    public static final PiActionParamId DST_MAC = PiActionParamId.of("dst_mac");
    /** Param src_ip (32). */
    public static final PiActionParamId SRC_IP = PiActionParamId.of("src_ip");
    /** Param dst_ip (32). */
    public static final PiActionParamId DST_IP = PiActionParamId.of("dst_ip");
    /** Param udp_sport (16). */
    public static final PiActionParamId UDP_SPORT = PiActionParamId.of("udp_sport");
    /** Param udp_dport (16). */
    public static final PiActionParamId UDP_DPORT = PiActionParamId.of("udp_dport");
    /** Param trunc_len (16). */
    public static final PiActionParamId TRUNC_LEN = PiActionParamId.of("trunc_len");

    /** Clone session of the INT report (I2E clone at End.DT.INT). */
    public static final int REPORT_CLONE_SESSION_ID = 100;
    /** Default TLV MapInfo: all five INT fields. */
    public static final int DEFAULT_MAP_INFO = 0x1F;
}
