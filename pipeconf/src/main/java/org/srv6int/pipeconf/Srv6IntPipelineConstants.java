// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import org.onosproject.net.pi.model.PiPipeconfId;

/**
 * Values of the SRv6-INT program that p4info does not carry: pipeconf id, CPU
 * port, clone sessions, drop reasons, limits (docs/p4-tables.md). The unit tests
 * check them against the compiled BMv2 JSON.
 */
public final class Srv6IntPipelineConstants {

    /** Pipeconf id of the BMv2 build. */
    public static final PiPipeconfId PIPECONF_ID = new PiPipeconfId("org.srv6int.bmv2");

    /** CPU port of simple_switch_grpc (started with {@code --cpu-port 255}). */
    public static final int CPU_PORT = 255;

    /** Clone session of {@code clone_to_cpu} copies. */
    public static final int CPU_CLONE_SESSION_ID = 99;

    /** Clone session of the INT report copy made at End.DT.INT. */
    public static final int REPORT_CLONE_SESSION_ID = 100;

    /** Most entries of a segment list (LastEntry at most 7). */
    public static final int MAX_SEGMENTS = 8;

    /** Segment list parameters of {@code h_encaps_int} (s0..s6). */
    public static final int ENCAP_SEGMENT_PARAMS = 7;

    /**
     * Buckets of a chain's bucket table at the ingress (ENCAP_BUCKETS of
     * p4src/shared/size.p4): a flow's bucket is the low bits of its flow hash
     * (codec FlowHash.bucket), each bucket is mapped to one segment list.
     */
    public static final int ENCAP_BUCKETS = 256;

    /** Cells of the per-vNF latency register. */
    public static final int MAX_VNFS = 1024;

    /** Cells of the drop_reasons counter. */
    public static final int DROP_REASON_CELLS = 16;

    /** Default INT report UDP port of the collector. */
    public static final int DEFAULT_REPORT_UDP_PORT = 32766;

    /** Default length of the mirrored frame in a report, bytes. */
    public static final int DEFAULT_REPORT_TRUNC_LEN = 256;

    /** Default MapInfo: all five INT metadata fields. */
    public static final int DEFAULT_MAP_INFO = 0x1F;

    /** Drop reason: parser error, e.g. more than MAX_SEGMENTS segments. */
    public static final int DROP_PARSER_ERROR = 1;
    /** Drop reason: SRH without a valid SRv6-INT TLV or inconsistent lengths. */
    public static final int DROP_MALFORMED_SRH = 2;
    /** Drop reason: End.DT.INT with Segments Left not 0. */
    public static final int DROP_DT_SL_NOT_ZERO = 3;
    /** Drop reason: hop limit / TTL exhausted. */
    public static final int DROP_HOP_LIMIT = 4;
    /** Drop reason: no route. */
    public static final int DROP_NO_ROUTE = 5;
    /** Drop reason: End.T.INT with Segments Left 0. */
    public static final int DROP_END_SL_ZERO = 6;
    /** Drop reason: ACL drop entry. */
    public static final int DROP_ACL = 7;
    /** Drop reason: h_encaps_int with last_entry outside 1..7. */
    public static final int DROP_BAD_ENCAP = 8;
    /** Drop reason: no forwarding decision. */
    public static final int DROP_NO_DECISION = 9;
    /** Drop reason: the next segment is the local SID just processed (a loop on one SID). */
    public static final int DROP_LOCAL_SID_LOOP = 10;
    /** Drop reason: more consecutive local SIDs in one arrival than {@link #LOCAL_PASS_LIMIT}. */
    public static final int DROP_LOCAL_CHAIN_LIMIT = 11;

    /** Recirculations one arrival may take for next segments that are SIDs of the same switch. */
    public static final int LOCAL_PASS_LIMIT = 2;

    private Srv6IntPipelineConstants() {
    }
}
