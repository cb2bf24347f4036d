// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_V1MODEL_ARCH_P4
#define SRV6INT_V1MODEL_ARCH_P4
// v1model bindings of the few architecture-specific constructs the shared
// controls in shared/control/ name through macros (a TNA port defines the same macros
// with DirectCounter / ActionSelector).
#include <core.p4>
#include <v1model.p4>
#include "../../shared/define.p4"

#define DIRECT_COUNTER(name) direct_counter(CounterType.packets_and_bytes) name

const port_num_t CPU_PORT = 255;
const bit<32> CPU_CLONE_SESSION_ID = 99;
const bit<32> REPORT_CLONE_SESSION_ID = 100;

// standard_metadata.instance_type values of simple_switch.
const bit<32> INSTANCE_INGRESS_CLONE = 1;
const bit<32> INSTANCE_RECIRC = 4;

#endif
