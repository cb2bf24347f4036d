// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_SIZE_P4
#define SRV6INT_SIZE_P4
// SRv6-INT: every table, register and counter size of the program, for every
// target (docs/p4-tables.md lists them per table). Java reads ENCAP_BUCKETS as
// Srv6IntPipelineConstants.ENCAP_BUCKETS (checked against the compiled JSON by
// the pipeconf tests).
// ---- tables ----
#define ACL_TABLE_SIZE 256
#define NDP_REPLY_TABLE_SIZE 1024
#define SFC_CLASSIFIER_TABLE_SIZE 1024
// Entries of srv6_encap: ENCAP_BUCKETS per chain, 64 chains.
#define ENCAP_TABLE_SIZE 16384
#define MY_SID_TABLE_SIZE 1024
#define IPV6_ROUTING_TABLE_SIZE 4096
#define IPV4_ROUTING_TABLE_SIZE 4096
#define QUEUE_SELECT_TABLE_SIZE 64

// ---- replica selection (issue 18 item 1) ----
// A flow's bucket is the low ENCAP_BUCKET_BITS bits of its flow hash.
#define ENCAP_BUCKET_BITS 8
// 1 << ENCAP_BUCKET_BITS buckets per chain.
#define ENCAP_BUCKETS 256

// ---- registers and indexed counters ----
// vnf_latency: one cell per vNF id.
#define MAX_VNFS 1024
// int_sample_countdown, local_sid_recirculations: one cell per chain id / SRH Tag.
#define MAX_CHAINS 65536
// flow_packets (Port_Counter): indexed by the low 12 bits of the flow hash.
#define FLOW_COUNTER_CELLS 4096
// drop_reasons: one cell per DROP_* of define.p4.
#define DROP_REASON_CELLS 16

#endif
