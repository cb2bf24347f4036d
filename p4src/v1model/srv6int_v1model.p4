// SPDX-License-Identifier: Apache-2.0
// SRv6-INT switch program for BMv2 simple_switch_grpc (v1model): the thin
// top file. Target-independent controls and definitions are in ../shared/
// (sizes: shared/size.p4); the v1model ones (registers, hashes) are in
// include/control/. This file orders them and does what only v1model can:
// timestamps, clones, recirculation, truncation, ports.
// Tables, names and widths: docs/p4-tables.md. Wire format: docs/wire-format.md.
#include "include/arch.p4"
#include "../shared/define.p4"
#include "../shared/header.p4"
#include "../shared/size.p4"
#include "../shared/control/segments.p4"
#include "../shared/control/acl.p4"
#include "../shared/control/ndp.p4"
#include "../shared/control/classifier.p4"
#include "../shared/control/encap.p4"
#include "../shared/control/endpoint.p4"
#include "../shared/control/routing.p4"
#include "../shared/control/int_md.p4"
#include "../shared/control/report.p4"
#include "include/control/switch_info.p4"
#include "include/control/lookup_md_init.p4"
#include "include/control/flow_counter.p4"
#include "include/control/int_sampler.p4"
#include "include/control/vnf_latency.p4"
#include "include/control/local_sid_pass.p4"
#include "include/control/queue_select.p4"
#include "include/parser.p4"

control Srv6IntIngress(inout headers_t hdr, inout local_md_t md,
                       inout standard_metadata_t sm) {
    // Declaration order = order of entities in the P4Info and BMv2 JSON (kept
    // as it was before the program was split into controls).
    VnfLatency() vnf_latency;
    IntSampler() int_sampler;
    counter(DROP_REASON_CELLS, CounterType.packets) drop_reasons;
    LocalSidPass() local_sid_pass;
    Acl() acl;
    Ndp() ndp;
    SfcClassifier() classifier;
    Srv6Encap() encap;
    MySid() endpoint;
    CheckSrh() check_srh;
    Srv6Endpoint() srv6_endpoint;
    Routing() routing;
    SwitchInfo() switch_info;
    QueueSelect() queue_select;
    FlowCounter() flow_counter;
    LookupMdInit() lookup_md_init;

    apply {
        if (hdr.packet_out.isValid()) {
            sm.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
            exit;
        }
        if (sm.parser_error != error.NoError) {
            drop_reasons.count((bit<32>) DROP_PARSER_ERROR);
            mark_to_drop(sm);
            exit;
        }
        switch_info.apply(md);
        md.now_ns = (bit<32>) (sm.ingress_global_timestamp * 1000);
        md.int_in_time = md.now_ns;

        // The (inner) flow's 5-tuple and hash: multipath, Flow Label, Port_Counter.
        lookup_md_init.apply(hdr, md);

        // A recirculated pass (next local SID) was through the ACL on arrival.
        if (md.local_passes == 0) {
            acl.apply(hdr, md);
        }
        if (md.punt == 0 && md.drop == 0) {
            ndp.apply(hdr, md);
        }
        if (md.punt == 0 && md.drop == 0 && md.ndp_replied == 0) {
            bool count_flow = false;
            bit<16> flow_increment = 0;
            if (hdr.srh.isValid()) {
                endpoint.apply(hdr, md);
                md.processed_sid = hdr.ipv6.dst_addr;
                // Back from the vNF: the first pass of a frame the vNF sent.
                bool from_vnf = md.ig_port == md.vnf_port && md.local_passes == 0;
                if (md.sid_action != SID_NONE) {
                    bool srh_ok;
                    check_srh.apply(hdr, srh_ok);
                    if (!srh_ok) {
                        md.drop = 1;
                        md.drop_reason = DROP_MALFORMED_SRH;
                    } else if ((md.sid_action == SID_END_T_SFC && from_vnf) || md.local_passes != 0) {
                        // Counted once per arrival at this switch: read only.
                        count_flow = true;
                    } else {
                        count_flow = true;
                        flow_increment = 1;
                    }
                }
                if (md.drop == 0 && md.sid_action == SID_END_T_SFC) {
                    vnf_latency.apply(hdr, md, from_vnf);
                }
                if (md.drop == 0 && md.sid_action != SID_NONE) {
                    srv6_endpoint.apply(hdr, md);
                }
            } else if (hdr.ipv4.isValid() || hdr.ipv6.isValid()) {
                classifier.apply(hdr, md);
                if (md.chain_hit == 1) {
                    int_sampler.apply(md);
                    encap.apply(hdr, md);
                    if (md.encap == 1) {
                        count_flow = true;
                        flow_increment = 1;
                    }
                }
            }
            // Port_Counter (read only in the egress): one place, so the
            // counter's control is inlined once.
            if (count_flow) {
                flow_counter.apply(md, flow_increment);
            }
            if (md.drop == 0 && md.fwd == 0) {
                routing.apply(hdr, md);
            }
            // A next segment that is again a SID of this switch: another pass.
            local_sid_pass.apply(hdr, md);
        }

        if (md.drop == 1) {
            drop_reasons.count((bit<32>) md.drop_reason);
            mark_to_drop(sm);
        } else if (md.recirculate == 1) {
            // Any port: the egress writes this pass's INT metadata and recirculates.
            sm.egress_spec = sm.ingress_port;
        } else if (md.punt == 1) {
            sm.egress_spec = CPU_PORT;
        } else if (md.fwd == 1) {
            sm.egress_spec = md.out_port;
            // The class of the packet as it leaves (an encapsulated packet's
            // outer Traffic Class is the inner packet's).
            if (hdr.ipv6.isValid()) {
                md.traffic_class = hdr.ipv6.traffic_class;
            } else if (hdr.ipv4.isValid()) {
                md.traffic_class = hdr.ipv4.dscp ++ hdr.ipv4.ecn;
            }
            queue_select.apply(md, sm);
        } else {
            drop_reasons.count((bit<32>) DROP_NO_DECISION);
            mark_to_drop(sm);
        }
        if (md.is_report == 1 && md.drop == 0) {
            clone_preserving_field_list(CloneType.I2E, REPORT_CLONE_SESSION_ID, FL_CLONE);
        } else if (md.cpu_clone == 1) {
            clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, FL_CLONE);
        }
    }
}

control Srv6IntEgress(inout headers_t hdr, inout local_md_t md,
                      inout standard_metadata_t sm) {
    // Sequence number of this switch's INT reports.
    register<bit<32>>(1) report_seq;

    IntMetadataWriter() int_writer;
    IntReport() report;

    apply {
        bit<32> now_ns = (bit<32>) (sm.egress_global_timestamp * 1000);
        // simple_switch queues a packet in queue number standard_metadata.priority
        // of its egress port (set by queue_select; only queue 0 exists unless the
        // switch runs with --priority-queues), so that is the Q_ID. v1model has no
        // queue-id field (BMv2 writes queueing_metadata.qid only into a field of
        // that name, which p4c does not give user metadata). Clones start at 0.
        bit<8> q_id = (bit<8>) sm.priority;
        bit<24> q_length = (bit<24>) sm.enq_qdepth;

        if (sm.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = md.ig_port;
            hdr.packet_in._pad = 0;
            exit;
        }
        if (sm.instance_type == INSTANCE_INGRESS_CLONE) {
            if (md.is_report == 0) {
                exit;
            }
            // The report copy is the frame as it arrived; the egress's own INT
            // metadata goes into Segment List[0].
            md.int_write = INT_WRITE_FULL;
            md.int_slot = 0;
            md.int_vnf_latency = 0;
            int_writer.apply(hdr, md, q_id, q_length, now_ns);
            bit<32> seq;
            report_seq.read(seq, 0);
            report_seq.write(0, seq + 1);
            bit<32> trunc_len;
            report.apply(hdr, md, seq, now_ns, sm.packet_length, trunc_len);
            truncate(trunc_len);
            exit;
        }
        int_writer.apply(hdr, md, q_id, q_length, now_ns);
        if (md.recirculate == 1) {
            recirculate_preserving_field_list(FL_RECIRC);
        }
    }
}

V1Switch(Srv6IntParser(), Srv6IntVerifyChecksum(), Srv6IntIngress(),
         Srv6IntEgress(), Srv6IntComputeChecksum(), Srv6IntDeparser()) main;
