// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.List;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;

import static org.srv6int.pipeconf.Srv6IntConstants.*;

/**
 * The P4 program's tables as the emulated switch knows them (p4src/shared/control,
 * docs/p4-tables.md): names, match kinds and widths, actions and their parameters, which
 * defaults are const, and the architecture's ports and clone sessions.
 */
final class P4Tables {

    private P4Tables() {
    }

    /** Match kinds the program uses. */
    enum Kind { EXACT, LPM, TERNARY }

    /** One key field of a table. */
    static final class Field {
        final PiMatchFieldId id;
        final Kind kind;
        final int width;

        Field(PiMatchFieldId id, Kind kind, int width) {
            this.id = id;
            this.kind = kind;
            this.width = width;
        }
    }

    /** One action and its parameters, in the P4 order. */
    static final class ActionSpec {
        final PiActionId id;
        final PiActionParamId[] params;
        final int[] widths;

        ActionSpec(PiActionId id, Object... paramsAndWidths) {
            this.id = id;
            int n = paramsAndWidths.length / 2;
            params = new PiActionParamId[n];
            widths = new int[n];
            for (int i = 0; i < n; i++) {
                params[i] = (PiActionParamId) paramsAndWidths[2 * i];
                widths[i] = (Integer) paramsAndWidths[2 * i + 1];
            }
        }
    }

    /** A table of the program. */
    static final class TableSpec {
        final PiTableId id;
        final Field[] fields;
        final ActionSpec[] actions;
        final boolean constDefault;
        final boolean indirect;

        TableSpec(PiTableId id, Field[] fields, ActionSpec[] actions, boolean constDefault, boolean indirect) {
            this.id = id;
            this.fields = fields;
            this.actions = actions;
            this.constDefault = constDefault;
            this.indirect = indirect;
        }

        ActionSpec action(PiActionId a) {
            for (ActionSpec s : actions) {
                if (s.id.equals(a)) {
                    return s;
                }
            }
            return null;
        }
    }

    // ---- the program's tables (p4src/shared/control, docs/p4-tables.md) ----

    static final ActionSpec NO_ACTION_SPEC = new ActionSpec(NO_ACTION);
    static final ActionSpec SET_SWITCH_INFO = new ActionSpec(SRV6_INT_INGRESS_SET_SWITCH_INFO,
            DEVICE_ID, 16, MY_SID, 128, ROUTER_MAC, 48);
    static final ActionSpec ACL_PUNT = new ActionSpec(SRV6_INT_INGRESS_ACL_PUNT_TO_CPU);
    static final ActionSpec ACL_CLONE = new ActionSpec(SRV6_INT_INGRESS_ACL_CLONE_TO_CPU);
    static final ActionSpec ACL_DROP = new ActionSpec(SRV6_INT_INGRESS_ACL_DROP);
    static final ActionSpec NDP_NS_TO_NA = new ActionSpec(SRV6_INT_INGRESS_NDP_NDP_NS_TO_NA, TARGET_MAC, 48);
    static final ActionSpec SET_CHAIN = new ActionSpec(SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN,
            CHAIN_ID, 16, SFC_MODE, 1, MAP_INFO, 16, INT_PERIOD, 16);
    static final ActionSpec H_ENCAPS_INT = new ActionSpec(SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT,
            LAST_ENTRY, 8, S0, 128, S1, 128, S2, 128, S3, 128, S4, 128, S5, 128, S6, 128);
    static final ActionSpec END_T = new ActionSpec(SRV6_INT_INGRESS_ENDPOINT_END_T_INT);
    static final ActionSpec END_T_SFC = new ActionSpec(SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC,
            VNF_ID, 16, VNF_PORT, 9, VNF_MAC, 48);
    static final ActionSpec END_DT = new ActionSpec(SRV6_INT_INGRESS_ENDPOINT_END_DT_INT);
    static final ActionSpec SET_NEXT_HOP = new ActionSpec(SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP,
            PORT, 9, DMAC, 48);
    static final ActionSpec ROUTING_DROP = new ActionSpec(SRV6_INT_INGRESS_ROUTING_DROP);
    static final ActionSpec SET_REPORT_CONFIG = new ActionSpec(SRV6_INT_EGRESS_REPORT_SET_REPORT_CONFIG,
            SRC_MAC, 48, DST_MAC, 48, SRC_IP, 32, DST_IP, 32, UDP_SPORT, 16, UDP_DPORT, 16, TRUNC_LEN, 16);

    private static Field f(PiMatchFieldId id, Kind k, int w) {
        return new Field(id, k, w);
    }

    static final TableSpec T_SWITCH_INFO = new TableSpec(SRV6_INT_INGRESS_SWITCH_INFO, new Field[0],
            new ActionSpec[] {SET_SWITCH_INFO}, false, false);
    static final TableSpec T_ACL = new TableSpec(SRV6_INT_INGRESS_ACL_ACL, new Field[] {
        f(HDR_IG_PORT, Kind.TERNARY, 9), f(HDR_ETH_DST, Kind.TERNARY, 48), f(HDR_ETH_SRC, Kind.TERNARY, 48),
        f(HDR_ETH_TYPE, Kind.TERNARY, 16), f(HDR_IP_PROTO, Kind.TERNARY, 8), f(HDR_ICMP_TYPE, Kind.TERNARY, 8),
        f(HDR_L4_SPORT, Kind.TERNARY, 16), f(HDR_L4_DPORT, Kind.TERNARY, 16)},
            new ActionSpec[] {ACL_PUNT, ACL_CLONE, ACL_DROP, NO_ACTION_SPEC}, true, false);
    static final TableSpec T_NDP = new TableSpec(SRV6_INT_INGRESS_NDP_NDP_REPLY, new Field[] {
        f(HDR_NDP_TARGET, Kind.EXACT, 128)}, new ActionSpec[] {NDP_NS_TO_NA}, true, false);
    static final TableSpec T_CLASSIFIER = new TableSpec(SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER, new Field[] {
        f(HDR_IG_PORT, Kind.TERNARY, 9), f(HDR_IP_PROTO, Kind.TERNARY, 8), f(HDR_IPV4_SRC, Kind.TERNARY, 32),
        f(HDR_IPV4_DST, Kind.TERNARY, 32), f(HDR_IPV6_SRC, Kind.TERNARY, 128), f(HDR_IPV6_DST, Kind.TERNARY, 128),
        f(HDR_L4_SPORT, Kind.TERNARY, 16), f(HDR_L4_DPORT, Kind.TERNARY, 16)},
            new ActionSpec[] {SET_CHAIN}, true, false);
    // the bucket table (p4src/shared/control/encap.p4): one direct entry per (chain, bucket)
    static final TableSpec T_ENCAP = new TableSpec(SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP, new Field[] {
        f(HDR_CHAIN_ID, Kind.EXACT, 16), f(HDR_BUCKET, Kind.EXACT, HDR_BUCKET_BITWIDTH)},
            new ActionSpec[] {H_ENCAPS_INT}, true, false);
    static final TableSpec T_MY_SID = new TableSpec(SRV6_INT_INGRESS_ENDPOINT_MY_SID, new Field[] {
        f(HDR_IPV6_DST, Kind.LPM, 128)}, new ActionSpec[] {END_T, END_T_SFC, END_DT}, true, false);
    static final TableSpec T_IPV6_ROUTING = new TableSpec(SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING, new Field[] {
        f(HDR_IPV6_DST, Kind.LPM, 128)}, new ActionSpec[] {SET_NEXT_HOP, ROUTING_DROP}, false, false);
    static final TableSpec T_IPV4_ROUTING = new TableSpec(SRV6_INT_INGRESS_ROUTING_IPV4_ROUTING, new Field[] {
        f(HDR_IPV4_DST, Kind.LPM, 32)}, new ActionSpec[] {SET_NEXT_HOP, ROUTING_DROP}, false, false);
    static final TableSpec T_REPORT_CONFIG = new TableSpec(SRV6_INT_EGRESS_REPORT_REPORT_CONFIG, new Field[0],
            new ActionSpec[] {SET_REPORT_CONFIG}, false, false);

    static final List<TableSpec> TABLES = List.of(T_SWITCH_INFO, T_ACL, T_NDP, T_CLASSIFIER, T_ENCAP, T_MY_SID,
            T_IPV6_ROUTING, T_IPV4_ROUTING, T_REPORT_CONFIG);

    /** P4 CPU_PORT (v1model/arch.p4). */
    static final int CPU_PORT = 255;
    /** REPORT_CLONE_SESSION_ID (v1model/arch.p4). */
    static final int REPORT_CLONE_SESSION = 100;
    /** CPU_CLONE_SESSION_ID (v1model/arch.p4). */
    static final int CPU_CLONE_SESSION = 99;
}
