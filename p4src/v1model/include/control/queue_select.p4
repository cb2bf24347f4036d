// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_V1MODEL_QUEUE_SELECT_P4
#define SRV6INT_V1MODEL_QUEUE_SELECT_P4
// Egress queue by traffic class (v1model/simple_switch: queue number =
// standard_metadata.priority). Only for a switch started with
// --priority-queues N > qid: simple_switch drops a packet whose priority has no
// queue. Empty (every packet in queue 0) unless written.
#include "../arch.p4"
#include "../../../shared/header.p4"
#include "../../../shared/size.p4"

control QueueSelect(inout local_md_t md, inout standard_metadata_t sm) {
    // P4Runtime names are the ingress's (they predate this control; the app writes them).
    @name(".Srv6IntIngress.queue_select_counter")
    DIRECT_COUNTER(queue_select_counter);

    @name(".Srv6IntIngress.set_queue")
    action set_queue(bit<3> qid) {
        sm.priority = qid;
    }

    @name(".Srv6IntIngress.queue_select")
    table queue_select {
        key = {
            md.traffic_class : ternary @name("traffic_class");
        }
        actions = {
            set_queue;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = QUEUE_SELECT_TABLE_SIZE;
        counters = queue_select_counter;
    }

    apply {
        queue_select.apply();
    }
}

#endif
