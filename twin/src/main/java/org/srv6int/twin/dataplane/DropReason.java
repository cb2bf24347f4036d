// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

/**
 * Why an emulated switch dropped a frame: the cells of the P4 program's
 * {@code Srv6IntIngress.drop_reasons} counter (p4src/shared/define.p4,
 * docs/p4-tables.md), same indices.
 */
public enum DropReason {
    /** Parser error: a header runs past the frame, or Last Entry is above 7. */
    PARSER_ERROR(1),
    /** my_sid hit but the SRH is not type 4 with the SRv6-INT TLV as its last 8 bytes. */
    MALFORMED_SRH(2),
    /** End.DT.INT with Segments Left not 0. */
    DT_SL_NOT_ZERO(3),
    /** Hop Limit / TTL would reach 0. */
    HOP_LIMIT(4),
    /** No route (routing default action, or neither IPv4 nor IPv6). */
    NO_ROUTE(5),
    /** End.T.INT with Segments Left 0. */
    END_SL_ZERO(6),
    /** ACL drop. */
    ACL(7),
    /** h_encaps_int with Last Entry 0 or above 7. */
    BAD_ENCAP(8),
    /** Nothing decided where the frame goes. */
    NO_DECISION(9),
    /** The next segment is the SID of this switch just processed (a loop on one local SID). */
    LOCAL_SID_LOOP(10),
    /** More consecutive SIDs of this switch in one arrival than the recirculation limit. */
    LOCAL_CHAIN_LIMIT(11);

    private final int index;

    DropReason(int index) {
        this.index = index;
    }

    /**
     * Returns the counter cell of this reason in the P4 program.
     *
     * @return index into drop_reasons
     */
    public int index() {
        return index;
    }
}
