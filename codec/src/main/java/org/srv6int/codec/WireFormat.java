// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

/**
 * Constants of the SRv6-INT wire format (docs/wire-format.md). Every offset is
 * in bytes from the start of the structure it names; every multi-byte field is
 * big-endian.
 */
public final class WireFormat {

    private WireFormat() {
    }

    /** Ethernet header length. */
    public static final int ETH_LEN = 14;
    /** EtherType of IPv4. */
    public static final int ETHERTYPE_IPV4 = 0x0800;
    /** EtherType of IPv6. */
    public static final int ETHERTYPE_IPV6 = 0x86DD;

    /** IPv6 fixed header length. */
    public static final int IPV6_LEN = 40;
    /** IPv4 header length without options (the report uses no options). */
    public static final int IPV4_LEN = 20;
    /** UDP header length. */
    public static final int UDP_LEN = 8;

    /** IPv6 Next Header / IPv4 protocol: Routing header. */
    public static final int PROTO_ROUTING = 43;
    /** IPv6 Next Header: inner IPv4 (IP-in-IP). */
    public static final int PROTO_IPV4 = 4;
    /** IPv6 Next Header: inner IPv6. */
    public static final int PROTO_IPV6 = 41;
    /** Protocol number of TCP. */
    public static final int PROTO_TCP = 6;
    /** Protocol number of UDP. */
    public static final int PROTO_UDP = 17;

    /** Routing Type of the Segment Routing Header (RFC 8754). */
    public static final int ROUTING_TYPE_SRH = 4;
    /** Length of the SRH's fixed part, before the segment list. */
    public static final int SRH_FIXED_LEN = 8;
    /** Length of one segment, and of one INT metadata entry. */
    public static final int SEGMENT_LEN = 16;
    /** Length of the SRv6-INT TLV including its Type and Length bytes. */
    public static final int INT_TLV_LEN = 8;
    /** Value of the SRv6-INT TLV's Length byte. */
    public static final int INT_TLV_VALUE_LEN = 6;
    /**
     * Type of the SRv6-INT TLV: 252, from the RFC 8754 experimental range whose
     * high bit says the TLV's data may change en route (Detection Result does).
     */
    public static final int INT_TLV_TYPE = 252;
    /** RFC 8754 Pad1 TLV type (a single byte, no length). */
    public static final int TLV_PAD1 = 0;
    /** RFC 8754 PadN TLV type. */
    public static final int TLV_PADN = 4;
    /** Largest segment list the P4 program handles (LastEntry at most 7). */
    public static final int MAX_SEGMENTS = 8;

    /** SRH Flags bit: INT on for this packet. */
    public static final int FLAG_INT = 0x01;
    /** SRH Flags bit: SFC mode, the chain's vNF latency is measured. */
    public static final int FLAG_SFC = 0x02;
    /** SRH Flags bits defined by SRv6-INT. */
    public static final int FLAGS_DEFINED = FLAG_INT | FLAG_SFC;

    /** MapInfo bit: Device_ID filled. */
    public static final int MAP_DEVICE_ID = 0x01;
    /** MapInfo bit: In_Time filled. */
    public static final int MAP_IN_TIME = 0x02;
    /** MapInfo bit: vNF_Latency filled. */
    public static final int MAP_VNF_LATENCY = 0x04;
    /** MapInfo bit: Q_ID and Q_Length filled. */
    public static final int MAP_QUEUE = 0x08;
    /** MapInfo bit: Port_Counter filled. */
    public static final int MAP_PORT_COUNTER = 0x10;
    /** Every MapInfo bit that names a field. */
    public static final int MAP_ALL = 0x1F;

    /** INT metadata: offset of Device_ID (16 bits). */
    public static final int MD_DEVICE_ID = 0;
    /** INT metadata: offset of Q_ID (8 bits). */
    public static final int MD_Q_ID = 2;
    /** INT metadata: offset of Q_Length (24 bits). */
    public static final int MD_Q_LENGTH = 3;
    /** INT metadata: offset of In_Time (32 bits, ns). */
    public static final int MD_IN_TIME = 6;
    /** INT metadata: offset of vNF_Latency (32 bits, ns). */
    public static final int MD_VNF_LATENCY = 10;
    /** INT metadata: offset of Port_Counter (16 bits). */
    public static final int MD_PORT_COUNTER = 14;

    /** Default UDP destination port of INT reports. */
    public static final int REPORT_UDP_PORT = 32766;
    /** Report header length. */
    public static final int REPORT_HDR_LEN = 16;
    /** Report header version. */
    public static final int REPORT_VERSION = 1;
    /** Report header Flags bit: the mirrored frame was truncated. */
    public static final int REPORT_FLAG_TRUNCATED = 0x01;
    /** Default largest mirrored frame carried in a report. */
    public static final int REPORT_DEFAULT_MIRROR_LEN = 256;
    /** Hop Limit the ingress puts in the outer IPv6 header. */
    public static final int DEFAULT_HOP_LIMIT = 64;

    /**
     * Length of an SRH with the SRv6-INT TLV for a segment list of n entries.
     *
     * @param segments number of segments (LastEntry + 1)
     * @return SRH length in bytes
     */
    public static int srhLength(int segments) {
        return SRH_FIXED_LEN + SEGMENT_LEN * segments + INT_TLV_LEN;
    }
}
