// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_DEFINE_P4
#define SRV6INT_DEFINE_P4
// SRv6-INT: constants and types shared by every target (no architecture externs).
// A segment list has at most MAX_SEGMENTS entries (LastEntry <= 7), see docs/wire-format.md 1.3.
#define MAX_SEGMENTS 8

typedef bit<48>  mac_addr_t;
typedef bit<32>  ipv4_addr_t;
typedef bit<128> ipv6_addr_t;
typedef bit<9>   port_num_t;

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_IPV6 = 0x86DD;

const bit<8> PROTO_IPV4    = 4;
const bit<8> PROTO_TCP     = 6;
const bit<8> PROTO_UDP     = 17;
const bit<8> PROTO_IPV6    = 41;
const bit<8> PROTO_ROUTING = 43;
const bit<8> PROTO_ICMPV6  = 58;

const bit<8> SRH_ROUTING_TYPE = 4;
// RFC 8754 8.2 experimental range; high bit: data changes en route.
const bit<8> SRV6_INT_TLV_TYPE = 252;
const bit<8> SRV6_INT_TLV_LENGTH = 6;

// SRH Flags bits (docs/wire-format.md 1.3).
const bit<8> SRH_FLAG_INT = 0x01;
const bit<8> SRH_FLAG_SFC = 0x02;

// MapInfo bits (docs/wire-format.md 1.4).
const bit<16> MAP_DEVICE_ID    = 0x0001;
const bit<16> MAP_IN_TIME      = 0x0002;
const bit<16> MAP_VNF_LATENCY  = 0x0004;
const bit<16> MAP_QUEUE        = 0x0008;
const bit<16> MAP_PORT_COUNTER = 0x0010;

const bit<8> ICMP6_TYPE_NS = 135;
const bit<8> ICMP6_TYPE_NA = 136;
const bit<8> NDP_OPT_TARGET_LL_ADDR = 2;
// Router + Solicited + Override.
const bit<32> NDP_FLAGS_RSO = 0xE0000000;

const bit<8> DEFAULT_HOP_LIMIT = 64;

// INT report (docs/wire-format.md 3).
const bit<4> REPORT_VERSION = 1;
const bit<4> REPORT_HDR_WORDS = 4;
const bit<8> REPORT_FLAG_TRUNCATED = 0x01;
// Ethernet 14 + IPv4 20 + UDP 8 + report header 16.
const bit<32> REPORT_ENCAP_BYTES = 58;

// What a my_sid hit asks for.
const bit<2> SID_NONE  = 0;
const bit<2> SID_END_T = 1;
const bit<2> SID_END_T_SFC = 2;
const bit<2> SID_END_DT = 3;

// What the egress writes into Segment List[int_slot].
const bit<2> INT_WRITE_NONE    = 0;
const bit<2> INT_WRITE_FULL    = 1;  // own INT metadata, fields per MapInfo
const bit<2> INT_WRITE_PARKED  = 2;  // on the way to a vNF: Device_ID, In_Time, departure time
const bit<2> INT_WRITE_REDUCED = 3;  // back from a vNF with I clear: Device_ID + vNF_Latency

// Drop reasons (index of the drop_reasons counter, docs/p4-tables.md).
const bit<8> DROP_PARSER_ERROR   = 1;
const bit<8> DROP_MALFORMED_SRH  = 2;
const bit<8> DROP_DT_SL_NOT_ZERO = 3;
const bit<8> DROP_HOP_LIMIT      = 4;
const bit<8> DROP_NO_ROUTE       = 5;
const bit<8> DROP_END_SL_ZERO    = 6;
const bit<8> DROP_ACL            = 7;
const bit<8> DROP_BAD_ENCAP      = 8;
const bit<8> DROP_NO_DECISION    = 9;
// The next segment is the SID just processed on this switch (a list that would
// come back to the same local SID on every pass).
const bit<8> DROP_LOCAL_SID_LOOP = 10;
// More consecutive local SIDs without leaving the switch than LOCAL_PASS_LIMIT.
const bit<8> DROP_LOCAL_CHAIN_LIMIT = 11;

// Recirculations per arrival: a vNF's return followed by the next local vNF's
// departure or by End.DT.INT needs one; a packet that leaves for a vNF comes
// back as a new arrival, so chains of any length behind one switch need one per
// vNF. Two leaves room for a plain End.T.INT SID in between.
#define LOCAL_PASS_LIMIT 2

#endif
