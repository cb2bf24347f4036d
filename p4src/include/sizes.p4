// SRv6-INT: sizes of the replica-selection path (issue 18 item 1). Java reads
// ENCAP_BUCKETS as Srv6IntPipelineConstants.ENCAP_BUCKETS (checked against the
// compiled JSON by the pipeconf tests).
#ifndef SRV6INT_SIZES_P4
#define SRV6INT_SIZES_P4

// A flow's bucket is the low ENCAP_BUCKET_BITS bits of its flow hash.
#define ENCAP_BUCKET_BITS 8
// 1 << ENCAP_BUCKET_BITS buckets per chain.
#define ENCAP_BUCKETS 256
// Entries of srv6_encap: ENCAP_BUCKETS per chain, 64 chains.
#define ENCAP_TABLE_SIZE 16384

#endif
