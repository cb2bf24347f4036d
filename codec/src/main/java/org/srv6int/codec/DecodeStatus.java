// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

/**
 * Outcome of wrapping a buffer with a decoder view: {@link #OK} or the one
 * reason the bytes were rejected. Every reason is counted by {@link DecodeErrors}.
 */
public enum DecodeStatus {
    /** The bytes are a well-formed SRv6-INT packet or report. */
    OK("ok"),
    /** Fewer than 14 bytes: no room for the Ethernet header. */
    TRUNCATED_ETHERNET("frame shorter than the Ethernet header"),
    /** EtherType is not the one this view decodes (IPv6, or IPv4 for a report frame). */
    UNSUPPORTED_ETHERTYPE("EtherType is not IPv6 (or IPv4 for a report frame)"),
    /** Fewer than 40 bytes after the Ethernet header. */
    TRUNCATED_IPV6("buffer shorter than the IPv6 header"),
    /** IPv6 Version is not 6. */
    BAD_IPV6_VERSION("IPv6 Version field is not 6"),
    /** IPv6 Next Header is not 43 (Routing). */
    NO_ROUTING_HEADER("IPv6 Next Header is not 43 (Routing)"),
    /** Fewer than 8 bytes for the SRH's fixed part. */
    TRUNCATED_SRH("buffer shorter than the SRH fixed part"),
    /** Routing Type is not 4 (SRH). */
    BAD_ROUTING_TYPE("Routing Type is not 4 (SRH)"),
    /** Hdr Ext Len says the SRH ends past the buffer. */
    SRH_LENGTH_PAST_BUFFER("Hdr Ext Len puts the SRH end past the buffer"),
    /** IPv6 Payload Length is smaller than the SRH. */
    PAYLOAD_LENGTH_SHORTER_THAN_SRH("IPv6 Payload Length is smaller than the SRH"),
    /** Segment list (LastEntry + 1 entries) does not fit in Hdr Ext Len. */
    LAST_ENTRY_PAST_LIST("Last Entry puts the segment list past the SRH end"),
    /** Segments Left is larger than Last Entry. */
    SEGMENTS_LEFT_PAST_LAST_ENTRY("Segments Left is larger than Last Entry"),
    /** A TLV of a type other than Pad1, PadN and the SRv6-INT TLV. */
    UNKNOWN_TLV("SRH carries a TLV of unknown type"),
    /** A TLV's Length runs past the end of the SRH. */
    TLV_LENGTH_PAST_END("a TLV's Length runs past the SRH end"),
    /** SRv6-INT TLV with a Length other than 6. */
    BAD_INT_TLV_LENGTH("SRv6-INT TLV Length is not 6"),
    /** A second SRv6-INT TLV in the same SRH. */
    DUPLICATE_INT_TLV("SRH carries more than one SRv6-INT TLV"),
    /** No SRv6-INT TLV in the SRH. */
    MISSING_INT_TLV("SRH has no SRv6-INT TLV"),
    /** MapInfo has bits 5..15 set, which name no INT metadata field. */
    MAPINFO_BITS_WITHOUT_FIELD("MapInfo has bits set that name no INT metadata field"),
    /** Report frame: fewer than 20 bytes of IPv4 header. */
    TRUNCATED_IPV4("buffer shorter than the IPv4 header"),
    /** Report frame: IPv4 Version not 4 or IHL below 5 or past the buffer. */
    BAD_IPV4_HEADER("IPv4 Version/IHL/Total Length invalid"),
    /** Report frame: IPv4 protocol is not UDP. */
    NOT_UDP("IPv4 protocol is not UDP"),
    /** Report frame: fewer than 8 bytes of UDP header. */
    TRUNCATED_UDP("buffer shorter than the UDP header"),
    /** Report frame: UDP Length below 8 or past the buffer. */
    BAD_UDP_LENGTH("UDP Length is below 8 or past the buffer"),
    /** Report: fewer than 16 bytes of report header. */
    TRUNCATED_REPORT_HEADER("buffer shorter than the report header"),
    /** Report: Version is not 1. */
    BAD_REPORT_VERSION("report header Version is not 1"),
    /** Report: HdrLen is not 4 words. */
    BAD_REPORT_HDR_LEN("report header HdrLen is not 4"),
    /** Report: Original Length disagrees with the mirrored frame and the truncated flag. */
    BAD_ORIGINAL_LENGTH("report Original Length disagrees with the mirrored frame / truncated flag"),
    /** Report: mirrored packet's Segments Left is not 0 (not made at the egress). */
    REPORT_SEGMENTS_LEFT_NOT_ZERO("mirrored packet's Segments Left is not 0");

    private final String description;

    DecodeStatus(String description) {
        this.description = description;
    }

    /**
     * Returns a one-line human description.
     *
     * @return description
     */
    public String description() {
        return description;
    }

    /**
     * Tells whether this is {@link #OK}.
     *
     * @return true when the bytes were accepted
     */
    public boolean isOk() {
        return this == OK;
    }
}
