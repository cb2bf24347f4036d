// SRv6-INT switch program for BMv2 simple_switch_grpc (v1model).
// Target-independent controls live in include/; this file wires them to
// v1model: timestamps, registers, hashes, clones, truncation, ports.
// Tables, names and widths: docs/p4-tables.md. Wire format: docs/wire-format.md.

#include "v1model/arch.p4"
#include "include/define.p4"
#include "include/header.p4"
#include "include/segments.p4"
#include "include/acl.p4"
#include "include/ndp.p4"
#include "include/classifier.p4"
#include "include/encap.p4"
#include "include/endpoint.p4"
#include "include/routing.p4"
#include "include/int_md.p4"
#include "include/report.p4"
#include "v1model/parser.p4"

#define MAX_VNFS 1024
#define MAX_CHAINS 65536
#define FLOW_COUNTER_CELLS 4096

control Srv6IntIngress(inout headers_t hdr, inout local_md_t md,
                       inout standard_metadata_t sm) {
    // Last measured processing latency (ns) of each local vNF.
    register<bit<32>>(MAX_VNFS) vnf_latency;
    // 1-in-k INT sampling countdown per chain.
    register<bit<16>>(MAX_CHAINS) int_sample_countdown;
    // Packets per flow at this switch (Port_Counter).
    register<bit<16>>(FLOW_COUNTER_CELLS) flow_packets;
    counter(16, CounterType.packets) drop_reasons;
    // Passes for a next segment that is again a SID of this switch, per chain (SRH Tag).
    counter(MAX_CHAINS, CounterType.packets) local_sid_recirculations;
    DIRECT_COUNTER(queue_select_counter);

    Acl() acl;
    Ndp() ndp;
    SfcClassifier() classifier;
    Srv6Encap() encap;
    MySid() endpoint;
    CheckSrh() check_srh;
    Srv6Endpoint() srv6_endpoint;
    ReadSegment() read_segment;
    Routing() routing;

    action set_switch_info(bit<16> device_id, ipv6_addr_t my_sid, mac_addr_t router_mac) {
        md.device_id = device_id;
        md.my_sid = my_sid;
        md.router_mac = router_mac;
    }

    table switch_info {
        key = {}
        actions = {
            set_switch_info;
        }
        default_action = set_switch_info(0, 0, 0);
        size = 1;
    }

    // Egress queue by traffic class (v1model/simple_switch: queue number =
    // standard_metadata.priority). Only for a switch started with
    // --priority-queues N > qid: simple_switch drops a packet whose priority
    // has no queue. Empty (every packet in queue 0) unless written.
    action set_queue(bit<3> qid) {
        sm.priority = qid;
    }

    table queue_select {
        key = {
            md.traffic_class : ternary @name("traffic_class");
        }
        actions = {
            set_queue;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 64;
        counters = queue_select_counter;
    }

    // A packet back from its vNF was counted on the way out: read only.
    action count_flow_packet(bit<16> increment) {
        bit<32> cell = (bit<32>) md.flow_hash[11:0];
        bit<16> n;
        flow_packets.read(n, cell);
        n = n + increment;
        flow_packets.write(cell, n);
        md.port_counter = n;
    }

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
        switch_info.apply();
        md.now_ns = (bit<32>) (sm.ingress_global_timestamp * 1000);
        md.int_in_time = md.now_ns;

        // The (inner) flow's 5-tuple: hash for multipath, Flow Label, Port_Counter.
        if (hdr.inner_ipv6.isValid()) {
            md.flow_src = hdr.inner_ipv6.src_addr;
            md.flow_dst = hdr.inner_ipv6.dst_addr;
            md.flow_proto = hdr.inner_ipv6.next_hdr;
        } else if (hdr.ipv4.isValid()) {
            md.flow_src = (bit<128>) hdr.ipv4.src_addr;
            md.flow_dst = (bit<128>) hdr.ipv4.dst_addr;
            md.flow_proto = hdr.ipv4.protocol;
        } else if (hdr.ipv6.isValid()) {
            md.flow_src = hdr.ipv6.src_addr;
            md.flow_dst = hdr.ipv6.dst_addr;
            md.flow_proto = hdr.ipv6.next_hdr;
        }
        // Ports only from a first fragment (docs/wire-format.md 1.6).
        bool first_fragment = !hdr.ipv4.isValid() || hdr.ipv4.frag_offset == 0;
        if (hdr.tcp.isValid() && first_fragment) {
            md.l4_sport = hdr.tcp.sport;
            md.l4_dport = hdr.tcp.dport;
        } else if (hdr.udp.isValid() && first_fragment) {
            md.l4_sport = hdr.udp.sport;
            md.l4_dport = hdr.udp.dport;
        }
        if (hdr.icmpv6.isValid()) {
            md.icmp_type = hdr.icmpv6.type;
        }
        // CRC-32 over the addresses at their own width (docs/wire-format.md 1.6).
        if (!hdr.inner_ipv6.isValid() && hdr.ipv4.isValid()) {
            hash(md.flow_hash, HashAlgorithm.crc32, 32w0,
                 { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, md.flow_proto, md.l4_sport, md.l4_dport },
                 33w0x100000000);
        } else {
            hash(md.flow_hash, HashAlgorithm.crc32, 32w0,
                 { md.flow_src, md.flow_dst, md.flow_proto, md.l4_sport, md.l4_dport },
                 33w0x100000000);
        }

        // A recirculated pass (next local SID) was through the ACL on arrival.
        if (md.local_passes == 0) {
            acl.apply(hdr, md);
        }
        if (md.punt == 0 && md.drop == 0) {
            ndp.apply(hdr, md);
        }
        if (md.punt == 0 && md.drop == 0 && md.ndp_replied == 0) {
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
                        // Counted once per arrival at this switch.
                        count_flow_packet(0);
                    } else {
                        count_flow_packet(1);
                    }
                }
                if (md.drop == 0 && md.sid_action == SID_END_T_SFC) {
                    bit<32> vnf = (bit<32>) md.vnf_id;
                    read_segment.apply(hdr, hdr.srh.segments_left, md.active_seg);
                    if (from_vnf) {
                        // Back from the vNF: latency = now - parked departure time.
                        md.vnf_return = 1;
                        bit<32> latency = md.now_ns - md.active_seg[47:16];
                        vnf_latency.write(vnf, latency);
                        md.int_vnf_latency = latency;
                        md.int_in_time = md.active_seg[79:48];
                    } else {
                        vnf_latency.read(md.vnf_last_latency, vnf);
                    }
                }
                if (md.drop == 0 && md.sid_action != SID_NONE) {
                    srv6_endpoint.apply(hdr, md);
                }
            } else if (hdr.ipv4.isValid() || hdr.ipv6.isValid()) {
                classifier.apply(hdr, md);
                if (md.chain_hit == 1) {
                    bit<32> chain = (bit<32>) md.chain_id;
                    bit<16> left;
                    int_sample_countdown.read(left, chain);
                    if (md.int_period == 0) {
                        md.int_on = 0;
                    } else if (left == 0) {
                        md.int_on = 1;
                        left = md.int_period - 1;
                    } else {
                        md.int_on = 0;
                        left = left - 1;
                    }
                    int_sample_countdown.write(chain, left);
                    encap.apply(hdr, md);
                    if (md.encap == 1) {
                        count_flow_packet(1);
                    }
                }
            }
            if (md.drop == 0 && md.fwd == 0) {
                routing.apply(hdr, md);
            }
            // The next segment has no route: SIDs of this switch have none here
            // (RoutingProgrammer routes other switches' SIDs), so look it up in
            // my_sid on another pass through the pipeline (docs/p4-tables.md).
            if (md.drop == 1 && md.ipv6_route_miss == 1 && md.sid_advanced == 1) {
                if (hdr.ipv6.dst_addr == md.processed_sid) {
                    md.drop_reason = DROP_LOCAL_SID_LOOP;
                } else if (md.local_passes >= LOCAL_PASS_LIMIT) {
                    md.drop_reason = DROP_LOCAL_CHAIN_LIMIT;
                } else if (hdr.ipv6.hop_limit <= 1) {
                    md.drop_reason = DROP_HOP_LIMIT;
                } else {
                    // End.T.INT's Hop Limit decrement, as routing would have done.
                    hdr.ipv6.hop_limit = hdr.ipv6.hop_limit - 1;
                    md.drop = 0;
                    md.recirculate = 1;
                    md.local_passes = md.local_passes + 1;
                    local_sid_recirculations.count((bit<32>) hdr.srh.tag);
                }
            }
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
            queue_select.apply();
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
