// v1model bindings of the few architecture-specific constructs the shared
// controls in include/ name through macros (a TNA port defines the same macros
// with DirectCounter / ActionSelector).
#ifndef SRV6INT_V1MODEL_ARCH_P4
#define SRV6INT_V1MODEL_ARCH_P4

#include <core.p4>
#include <v1model.p4>
#include "../include/define.p4"

#define DIRECT_COUNTER(name) direct_counter(CounterType.packets_and_bytes) name
// BMv2 picks member (hash % members): the low bits of the hash decide. Not
// crc16: it is linear with a sparse polynomial, and flows that differ only in
// the low 11 bits of the L4 source port (one client's connections) all get the
// same bit 1, so of 4 members only 2 were ever used (a 3:1 weighted group sent
// every such flow to one segment list). crc32's low bits vary with each port bit.
#define ENCAP_SELECTOR(name) action_selector(HashAlgorithm.crc32, 32w1024, 32w32) name

const port_num_t CPU_PORT = 255;
const bit<32> CPU_CLONE_SESSION_ID = 99;
const bit<32> REPORT_CLONE_SESSION_ID = 100;

// standard_metadata.instance_type values of simple_switch.
const bit<32> INSTANCE_INGRESS_CLONE = 1;
const bit<32> INSTANCE_RECIRC = 4;

#endif
