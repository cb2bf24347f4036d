// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import org.srv6int.codec.Bytes;

import static org.srv6int.codec.WireFormat.*;

/**
 * The P4 parser of the emulated switch (v1model/parser.p4): the offsets of a frame's headers,
 * -1 for a header the frame does not have. One instance per switch, reused for every frame.
 */
final class Headers {
    int ipv4;
    int ipv6;
    int srh;
    int segs;
    int tlv;
    int innerIpv6;
    int tcp;
    int udp;
    int icmp;
    int ndp;

    /**
     * Parses a frame: sets the header offsets.
     *
     * @return false on a parser error
     */
    boolean parse(byte[] f, int len) {
        ipv4 = -1;
        ipv6 = -1;
        srh = -1;
        segs = -1;
        tlv = -1;
        innerIpv6 = -1;
        tcp = -1;
        udp = -1;
        icmp = -1;
        ndp = -1;
        if (len < ETH_LEN) {
            return false;
        }
        int type = Bytes.get16(f, 12);
        int p = ETH_LEN;
        if (type == ETHERTYPE_IPV4) {
            return parseIpv4(f, len, p);
        }
        if (type != ETHERTYPE_IPV6) {
            return true;
        }
        if (len - p < IPV6_LEN) {
            return false;
        }
        ipv6 = p;
        int nh = Bytes.get8(f, p + 6);
        p += IPV6_LEN;
        if (nh == PROTO_ROUTING) {
            if (len - p < SRH_FIXED_LEN) {
                return false;
            }
            srh = p;
            p += SRH_FIXED_LEN;
            if (Bytes.get8(f, srh + 2) != ROUTING_TYPE_SRH) {
                return true;
            }
            int n = Bytes.get8(f, srh + 4) + 1;
            // hdr.segs has MAX_SEGMENTS slots: a longer list overruns the stack.
            if (n > MAX_SEGMENTS || len - p < SEGMENT_LEN * n + INT_TLV_LEN) {
                return false;
            }
            segs = p;
            tlv = p + SEGMENT_LEN * n;
            p = tlv + INT_TLV_LEN;
            int next = Bytes.get8(f, srh);
            if (next == PROTO_IPV4) {
                return parseIpv4(f, len, p);
            }
            if (next == PROTO_IPV6) {
                if (len - p < IPV6_LEN) {
                    return false;
                }
                innerIpv6 = p;
                return parseL4(f, len, p + IPV6_LEN, Bytes.get8(f, p + 6));
            }
            return true;
        }
        if (nh == 58) {
            if (len - p < 4) {
                return false;
            }
            icmp = p;
            int t = Bytes.get8(f, p);
            if (t == 135 || t == 136) {
                if (len - p - 4 < 28) {
                    return false;
                }
                ndp = p + 4;
            }
            return true;
        }
        return parseL4(f, len, p, nh);
    }

    private boolean parseIpv4(byte[] f, int len, int p) {
        // The P4 header has no options: L4 follows 20 bytes in.
        if (len - p < IPV4_LEN) {
            return false;
        }
        ipv4 = p;
        return parseL4(f, len, p + IPV4_LEN, Bytes.get8(f, p + 9));
    }

    private boolean parseL4(byte[] f, int len, int p, int proto) {
        if (proto == PROTO_TCP) {
            if (len - p < 20) {
                return false;
            }
            tcp = p;
        } else if (proto == PROTO_UDP) {
            if (len - p < UDP_LEN) {
                return false;
            }
            udp = p;
        }
        return true;
    }
}
