// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;

import org.onosproject.net.DeviceId;
import org.srv6int.codec.BehaviourStatus;
import org.srv6int.codec.Bytes;
import org.srv6int.codec.EndpointBehaviours;
import org.srv6int.codec.FlowHash;
import org.srv6int.pipeconf.Srv6IntPipelineConstants;
import org.srv6int.codec.Srv6IntEncap;

import static org.srv6int.codec.WireFormat.*;

/**
 * One emulated switch: the P4 program's ingress and egress
 * (p4src/v1model/srv6int_v1model.p4) over the entries of a {@link SwitchProgram}, with its registers (vNF latency, INT
 * sampling
 * countdown, per-flow packet counter, report sequence) and drop counter. The header
 * rewrites of the SRv6-INT behaviours are the codec's reference ones
 * ({@link EndpointBehaviours}, {@link Srv6IntEncap}, the report encoder); this class
 * locates headers the way the P4 parser does, makes the table lookups and the
 * program's decisions, and counts drops.
 *
 * <p>Not thread-safe: {@link EmulatedDataplane} serialises calls.
 */
final class EmulatedSwitch {

    /** Where a processed frame goes. */
    interface Sink {
        /**
         * Receives a frame leaving the switch.
         *
         * @param port egress port (255 = CPU)
         * @param frame bytes (owned by the receiver from now on)
         * @param len  frame length
         */
        void emit(int port, byte[] frame, int len);
    }

    private static final int SID_NONE = 0;
    private static final int SID_END_T = 1;
    private static final int SID_END_T_SFC = 2;
    private static final int SID_END_DT = 3;

    private static final int MAX_VNFS = org.srv6int.pipeconf.Srv6IntPipelineConstants.MAX_VNFS;
    private static final int LOCAL_PASS_LIMIT = org.srv6int.pipeconf.Srv6IntPipelineConstants.LOCAL_PASS_LIMIT;
    private static final int FLOW_COUNTER_CELLS = 4096;
    private static final int MAX_CHAINS = 65536;

    final DeviceId device;
    private SwitchProgram program;

    // registers and counters (p4src/v1model/include/control/)
    private final int[] vnfLatency = new int[MAX_VNFS];
    private final char[] intCountdown = new char[65536];
    private final char[] flowPackets = new char[FLOW_COUNTER_CELLS];
    private final long[] drops = new long[16];
    // local_sid_recirculations (local_sid_pass.p4), per SRH Tag; allocated on the first one.
    private long[] localRecirculations;
    private int reportSeq;

    private final EndpointBehaviours behaviours = new EndpointBehaviours();

    // parsed header offsets (-1 = invalid), reused for every frame
    private final Headers h = new Headers();

    // lookup keys, reused
    private final long[] kHi = new long[8];
    private final long[] kLo = new long[8];

    // per-packet metadata
    private boolean drop;
    private DropReason dropReason;
    private boolean fwd;
    private int outPort;
    private boolean punt;
    private boolean cpuClone;
    private boolean report;
    // Consecutive local SIDs (local_sid_pass.p4): this pass matched processedSid* in my_sid and
    // moved to the next segment; ipv6_routing missed; the frame takes another pass.
    private long processedSidHi;
    private long processedSidLo;
    private boolean sidAdvanced;
    private boolean ipv6RouteMiss;
    private boolean recirculate;
    private int localPassesOfFrame;
    // length of the frame in this pass (what the direct counters count in bytes)
    private int passLen;
    // the (inner) flow's protocol, L4 ports and hash (lookup_md_init.p4)
    private int proto;
    private int sport;
    private int dport;
    private int flowHash;
    // what leaves: the frame (the arriving one, or a new one after encap or decap) and its length
    private byte[] out;
    private int outLen;
    // the flow's packet counter at this arrival (the INT Port_Counter)
    private int portCounter;
    // false while the twin traces paths with probe flows: they are no traffic of the network
    boolean counting = true;

    EmulatedSwitch(DeviceId device) {
        this.device = device;
        this.program = SwitchProgram.empty(device);
    }

    /**
     * Installs a new program. An entry that stays (same rule identity: table, match, priority,
     * even with a new action, as a P4Runtime MODIFY) keeps its direct counter; a new entry
     * starts at zero.
     */
    void program(SwitchProgram p) {
        for (SwitchProgram.Entry e : p.byRule.values()) {
            SwitchProgram.Entry old = program.byRule.get(e.rule);
            if (old != null) {
                e.packets = old.packets;
                e.bytes = old.bytes;
            }
        }
        program = p;
    }

    /** The program it runs (the next compile takes over its unchanged entries). */
    SwitchProgram program() {
        return program;
    }

    /**
     * Returns the direct counter of the entry a rule installed.
     *
     * @param rule a rule (equal to the installed one: table, match, priority)
     * @return {packets, bytes}, or null if no such entry is installed
     */
    long[] counter(org.onosproject.net.flow.FlowRule rule) {
        SwitchProgram.Entry e = program.byRule.get(rule);
        return e == null ? null : new long[] {e.packets, e.bytes};
    }

    long drops(DropReason r) {
        return drops[r.index()];
    }

    long vnfLatency(int vnfId) {
        return vnfId < 0 || vnfId >= MAX_VNFS ? 0 : vnfLatency[vnfId] & 0xFFFFFFFFL;
    }

    long reportsSent() {
        return reportSeq & 0xFFFFFFFFL;
    }

    long localRecirculations(int chainTag) {
        return localRecirculations == null || chainTag < 0 || chainTag >= MAX_CHAINS ? 0
                : localRecirculations[chainTag];
    }

    // ---- ingress + egress ----

    /**
     * Processes one frame.
     *
     * @param igPort ingress port (255 = CPU, the frame then starts with the packet_out header)
     * @param f      frame (may be modified)
     * @param len    frame length
     * @param now    switch clock, ns
     * @param sink   receives what leaves
     */
    void process(int igPort, byte[] f, int len, long now, Sink sink) {
        if (igPort == P4Tables.CPU_PORT) {
            // packet_out: the controller names the egress port, the frame goes out as is.
            if (len < 2) {
                drops[DropReason.PARSER_ERROR.index()]++;
                return;
            }
            int port = Bytes.get16(f, 0) >>> 7;
            sink.emit(port, Arrays.copyOfRange(f, 2, len), len - 2);
            return;
        }
        // The next segment may be another SID of this switch: one more pass each,
        // at most LOCAL_PASS_LIMIT (the recirculation of local_sid_pass.p4).
        int localPasses = 0;
        while (pass(igPort, f, len, now, sink, localPasses)) {
            localPasses++;
        }
    }

    /**
     * One pass of a frame through the pipeline.
     *
     * @return true if the frame takes another pass (its next segment is a SID of this switch)
     */
    private boolean pass(int igPort, byte[] f, int len, long now, Sink sink, int localPasses) {
        if (!h.parse(f, len)) {
            drops[DropReason.PARSER_ERROR.index()]++;
            return false;
        }
        SwitchProgram pg = program;
        drop = false;
        dropReason = null;
        fwd = false;
        punt = false;
        cpuClone = false;
        report = false;
        sidAdvanced = false;
        ipv6RouteMiss = false;
        recirculate = false;
        localPassesOfFrame = localPasses;
        passLen = len;
        long nowNs = now & 0xFFFFFFFFL;
        lookupMetadata(f, len);
        // A further pass (next local SID) went through the ACL on arrival.
        byte[] original = localPasses == 0 ? acl(f, len, igPort, pg) : null;
        boolean ndpReplied = !punt && !drop && ndp(f, len, igPort, pg);

        out = f;
        outLen = len;
        portCounter = 0;
        if (!punt && !drop && !ndpReplied) {
            if (h.srh >= 0) {
                endpoint(f, len, igPort, localPasses, nowNs, pg);
            } else if (h.ipv4 >= 0 || h.ipv6 >= 0) {
                classify(f, len, igPort, nowNs, pg);
            }
        }

        if (drop) {
            drops[dropReason.index()]++;
        } else if (recirculate) {
            // Leaves through the recirculation, not a port: the next pass decides.
        } else if (punt) {
            sink.emit(P4Tables.CPU_PORT, out, outLen);
        } else if (fwd) {
            sink.emit(outPort, out, outLen);
        } else {
            drops[DropReason.NO_DECISION.index()]++;
        }
        if (report && !drop) {
            sendReports(f, len, pg.deviceId, nowNs, portCounter, pg, sink);
        } else if (cpuClone) {
            int[] ports = pg.cloneSessions.get(P4Tables.CPU_CLONE_SESSION);
            if (ports != null) {
                for (int p : ports) {
                    sink.emit(p, original.clone(), original.length);
                }
            }
        }
        out = null;
        return recirculate;
    }

    /** The (inner) flow's 5-tuple and hash (lookup_md_init.p4). */
    private void lookupMetadata(byte[] f, int len) {
        int flowIp = h.innerIpv6 >= 0 ? h.innerIpv6 : h.ipv4 >= 0 ? h.ipv4 : h.ipv6;
        proto = h.innerIpv6 >= 0 ? Bytes.get8(f, h.innerIpv6 + 6) : h.ipv4 >= 0 ? Bytes.get8(f, h.ipv4 + 9)
                : h.ipv6 >= 0 ? Bytes.get8(f, h.ipv6 + 6) : 0;
        boolean firstFragment = h.ipv4 < 0 || (Bytes.get16(f, h.ipv4 + 6) & 0x1FFF) == 0;
        sport = 0;
        dport = 0;
        int l4 = h.tcp >= 0 ? h.tcp : h.udp;
        if (l4 >= 0 && firstFragment) {
            sport = Bytes.get16(f, l4);
            dport = Bytes.get16(f, l4 + 2);
        }
        flowHash = flowIp >= 0 ? FlowHash.hash(f, flowIp, len - flowIp) : 0;
    }

    /**
     * The acl table (acl.p4).
     *
     * @return a copy of the frame as it arrived if the ACL clones it to the CPU, else null
     */
    private byte[] acl(byte[] f, int len, int igPort, SwitchProgram pg) {
        kLo[0] = igPort;
        kLo[1] = Bytes.get48(f, 0);
        kLo[2] = Bytes.get48(f, 6);
        kLo[3] = Bytes.get16(f, 12);
        kLo[4] = proto;
        kLo[5] = h.icmp >= 0 ? Bytes.get8(f, h.icmp) : 0;
        kLo[6] = sport;
        kLo[7] = dport;
        Arrays.fill(kHi, 0);
        SwitchProgram.Entry e = pg.acl.lookup(kHi, kLo);
        if (e == null) {
            return null;
        }
        hit(e, len);
        P4Tables.ActionSpec a = e.action.spec;
        if (a == P4Tables.ACL_PUNT) {
            punt = true;
        } else if (a == P4Tables.ACL_CLONE) {
            cpuClone = true;
            return Arrays.copyOf(f, len);
        } else if (a == P4Tables.ACL_DROP) {
            drop(DropReason.ACL);
        }
        return null;
    }

    /**
     * The ndp_reply table (ndp.p4): a Neighbor Solicitation for a target it has becomes the
     * Advertisement, back out of the ingress port.
     *
     * @return true if it replied
     */
    private boolean ndp(byte[] f, int len, int igPort, SwitchProgram pg) {
        if (h.ndp < 0 || Bytes.get8(f, h.icmp) != 135) {
            return false;
        }
        kHi[0] = Bytes.get64(f, h.ndp + 4);
        kLo[0] = Bytes.get64(f, h.ndp + 12);
        SwitchProgram.Entry e = pg.ndp.lookup(kHi, kLo);
        if (e == null) {
            return false;
        }
        hit(e, len);
        ndpReply(f, igPort, e.action.p(0));
        return true;
    }

    /** A frame with an SRH: my_sid and the SRv6-INT endpoint behaviours (endpoint.p4), then routing. */
    private void endpoint(byte[] f, int len, int igPort, int localPasses, long nowNs, SwitchProgram pg) {
        int deviceId = pg.deviceId;
        boolean routed = false;
        kHi[0] = Bytes.get64(f, h.ipv6 + 24);
        kLo[0] = Bytes.get64(f, h.ipv6 + 32);
        processedSidHi = kHi[0];
        processedSidLo = kLo[0];
        SwitchProgram.Entry e = pg.mySid.lookup(kHi, kLo);
        if (e != null) {
            hit(e, len);
        }
        int sid = SID_NONE;
        SwitchProgram.Action sa = e == null ? null : e.action;
        if (sa != null) {
            sid = sa.spec == P4Tables.END_T ? SID_END_T
                    : sa.spec == P4Tables.END_T_SFC ? SID_END_T_SFC : SID_END_DT;
        }
        if (sid == SID_END_T_SFC && (Bytes.get8(f, h.srh + 5) & FLAG_SFC) == 0) {
            sid = SID_END_T;
        }
        // Back from the vNF: the first pass of a frame the vNF sent.
        boolean fromVnf = sa != null && sa.spec == P4Tables.END_T_SFC && igPort == sa.p(1) && localPasses == 0;
        if (sid != SID_NONE) {
            if (!srhOk(f)) {
                drop(DropReason.MALFORMED_SRH);
            } else {
                // Counted once per arrival at this switch.
                boolean counted = (sid == SID_END_T_SFC && fromVnf) || localPasses != 0;
                portCounter = countFlowPacket(flowHash, counted ? 0 : 1);
            }
        }
        if (!drop && sid == SID_END_T_SFC) {
            int vnf = (int) sa.p(0);
            if (fromVnf) {
                // Back from the vNF: latency = now - parked departure time.
                BehaviourStatus st = behaviours.sfcReturn(f, 0, len, deviceId, 0, 0, nowNs, portCounter);
                if (st == BehaviourStatus.OK && vnf < MAX_VNFS) {
                    vnfLatency[vnf] = (int) behaviours.lastVnfLatency();
                }
                routed = advanced(f, len, st, pg);
            } else {
                long last = vnf < MAX_VNFS ? vnfLatency[vnf] & 0xFFFFFFFFL : 0;
                BehaviourStatus st = behaviours.sfcDepart(f, 0, len, deviceId, nowNs, nowNs, last);
                if (st == BehaviourStatus.OK) {
                    EndpointBehaviours.rewriteEthernet(f, 0, sa.p(2), pg.routerMac);
                    forward((int) sa.p(1));
                } else {
                    drop(st == BehaviourStatus.NO_SEGMENTS_LEFT ? DropReason.END_SL_ZERO
                            : DropReason.MALFORMED_SRH);
                }
            }
        } else if (!drop && sid == SID_END_T) {
            BehaviourStatus st = behaviours.endT(f, 0, len, deviceId, 0, 0, nowNs, portCounter);
            routed = advanced(f, len, st, pg);
        } else if (!drop && sid == SID_END_DT) {
            routed = endDt(f, len, pg);
        }
        if (!drop && !fwd && !routed) {
            route(f, h.ipv6, h.ipv4, true, pg);
        }
        if (drop && ipv6RouteMiss && sidAdvanced) {
            nextLocalSid(f);
        }
    }

    /**
     * End.DT.INT: decapsulates into {@link #out} and routes the inner packet.
     *
     * @return true if the routing step ran
     */
    private boolean endDt(byte[] f, int len, SwitchProgram pg) {
        if (Bytes.get8(f, h.srh + 3) != 0) {
            drop(DropReason.DT_SL_NOT_ZERO);
            return false;
        }
        report = (Bytes.get8(f, h.srh + 5) & FLAG_INT) != 0;
        out = new byte[len];
        if (behaviours.decapsulate(f, 0, len, Bytes.get48(f, 0), Bytes.get48(f, 6), out, 0)
                != BehaviourStatus.OK) {
            drop(DropReason.MALFORMED_SRH);
            return false;
        }
        outLen = behaviours.outputLength();
        int next = Bytes.get8(f, h.srh);
        // A decapsulated inner packet leaves unmodified (no TTL change).
        route(out, next == PROTO_IPV6 ? ETH_LEN : -1, next == PROTO_IPV4 ? ETH_LEN : -1, false, pg);
        return true;
    }

    /** A frame without an SRH: the classifier and the bucket table (classifier.p4, encap.p4), then routing. */
    private void classify(byte[] f, int len, int igPort, long nowNs, SwitchProgram pg) {
        boolean encapsulated = false;
        kLo[0] = igPort;
        kLo[1] = proto;
        kHi[2] = 0;
        kLo[2] = h.ipv4 >= 0 ? Bytes.get32(f, h.ipv4 + 12) : 0;
        kHi[3] = 0;
        kLo[3] = h.ipv4 >= 0 ? Bytes.get32(f, h.ipv4 + 16) : 0;
        kHi[4] = h.ipv6 >= 0 ? Bytes.get64(f, h.ipv6 + 8) : 0;
        kLo[4] = h.ipv6 >= 0 ? Bytes.get64(f, h.ipv6 + 16) : 0;
        kHi[5] = h.ipv6 >= 0 ? Bytes.get64(f, h.ipv6 + 24) : 0;
        kLo[5] = h.ipv6 >= 0 ? Bytes.get64(f, h.ipv6 + 32) : 0;
        kLo[6] = sport;
        kLo[7] = dport;
        kHi[0] = 0;
        kHi[1] = 0;
        kHi[6] = 0;
        kHi[7] = 0;
        SwitchProgram.Entry e = pg.classifier.lookup(kHi, kLo);
        if (e != null) {
            hit(e, len);
            int chain = (int) e.action.p(0);
            int sfcMode = (int) e.action.p(1);
            int mapInfo = (int) e.action.p(2);
            int period = (int) e.action.p(3);
            int left = intCountdown[chain];
            boolean intOn;
            if (period == 0) {
                intOn = false;
            } else if (left == 0) {
                intOn = true;
                left = period - 1;
            } else {
                intOn = false;
                left = left - 1;
            }
            intCountdown[chain] = (char) left;
            kHi[0] = 0;
            kLo[0] = chain;
            kHi[1] = 0;
            kLo[1] = FlowHash.bucket(flowHash, Srv6IntPipelineConstants.ENCAP_BUCKETS);
            SwitchProgram.Entry enc = pg.encap.lookup(kHi, kLo);
            if (enc != null) {
                // the bucket's counter: what the app reads to see a bucket's flows end
                hit(enc, len);
                SwitchProgram.Member m = enc.members[0];
                int le = (int) m.action.p(0);
                portCounter = countFlowPacket(flowHash, 1);
                if (le == 0 || le >= MAX_SEGMENTS) {
                    drop(DropReason.BAD_ENCAP);
                } else {
                    Srv6IntEncap x = encapsulator(m, pg, chain, sfcMode, mapInfo);
                    out = new byte[x.headerLength() + len - ETH_LEN];
                    outLen = x.encapsulate(f, ETH_LEN, len - ETH_LEN, Bytes.get48(f, 0), Bytes.get48(f, 6), intOn,
                            pg.deviceId, 0, 0, nowNs, portCounter, out, 0);
                    if (outLen < 0) {
                        drop(DropReason.BAD_ENCAP);
                    } else {
                        encapsulated = true;
                        // Just encapsulated: leaves with Hop Limit 64.
                        route(out, ETH_LEN, -1, false, pg);
                    }
                }
            }
        }
        if (!drop && !encapsulated) {
            route(f, h.ipv6, h.ipv4, true, pg);
        }
    }

    /**
     * The next segment missed ipv6_routing after the endpoint moved to it: a SID of
     * this switch has no route here, so the frame takes another pass to meet it in
     * my_sid, unless it names the SID just processed or the passes are used up.
     * The codec's behaviour already decremented the Hop Limit (local_sid_pass.p4 does it here).
     */
    private void nextLocalSid(byte[] f) {
        if (Bytes.get64(f, h.ipv6 + 24) == processedSidHi && Bytes.get64(f, h.ipv6 + 32) == processedSidLo) {
            dropReason = DropReason.LOCAL_SID_LOOP;
        } else if (localPassesOfFrame >= LOCAL_PASS_LIMIT) {
            dropReason = DropReason.LOCAL_CHAIN_LIMIT;
        } else {
            drop = false;
            dropReason = null;
            recirculate = true;
            if (localRecirculations == null) {
                localRecirculations = new long[MAX_CHAINS];
            }
            localRecirculations[Bytes.get16(f, h.srh + 6)]++;
        }
    }

    /** Counts a hit in an entry's direct counter, unless the twin is tracing with probes. */
    private void hit(SwitchProgram.Entry e, int len) {
        if (counting) {
            e.count(len);
        }
    }

    private void drop(DropReason r) {
        drop = true;
        dropReason = r;
    }

    private void forward(int port) {
        fwd = true;
        outPort = port;
    }

    private int countFlowPacket(int flowHash, int increment) {
        int cell = flowHash & (FLOW_COUNTER_CELLS - 1);
        char n = (char) (flowPackets[cell] + increment);
        flowPackets[cell] = n;
        return n;
    }

    /** CheckSrh (endpoint.p4): RFC 8754 type 4 with the SRv6-INT TLV as its last 8 bytes. */
    private boolean srhOk(byte[] f) {
        if (h.tlv < 0) {
            return false;
        }
        int le = Bytes.get8(f, h.srh + 4);
        return Bytes.get8(f, h.srh + 3) <= le
                && Bytes.get8(f, h.srh + 1) == ((((le + 1) << 1) + 1) & 0xFF)
                && Bytes.get8(f, h.tlv) == INT_TLV_TYPE
                && Bytes.get8(f, h.tlv + 1) == INT_TLV_VALUE_LEN;
    }

    /**
     * After End.T.INT (plain or back from the vNF), which already moved to the next
     * segment and decremented the Hop Limit: routes, or drops for the behaviour's reason.
     *
     * @return true if the routing step ran
     */
    private boolean advanced(byte[] f, int len, BehaviourStatus st, SwitchProgram pg) {
        if (st == BehaviourStatus.OK) {
            sidAdvanced = true;
            route(f, h.ipv6, -1, false, pg);
            return true;
        }
        if (st == BehaviourStatus.NO_SEGMENTS_LEFT) {
            drop(DropReason.END_SL_ZERO);
        } else if (st == BehaviourStatus.HOP_LIMIT_EXCEEDED) {
            // The P4 program checks the Hop Limit only when the next segment has a route.
            int next = h.segs + SEGMENT_LEN * (Bytes.get8(f, h.srh + 3) - 1);
            kHi[0] = Bytes.get64(f, next);
            kLo[0] = Bytes.get64(f, next + 8);
            SwitchProgram.Entry e = pg.ipv6Routing.lookup(kHi, kLo);
            if (e != null) {
                hit(e, passLen);
            }
            if (e == null && pg.ipv6Routing.defaultAction.spec == P4Tables.ROUTING_DROP) {
                // A local next SID: local_sid_pass.p4 checks loop and limit before the Hop Limit.
                boolean loop = kHi[0] == processedSidHi && kLo[0] == processedSidLo;
                drop(loop ? DropReason.LOCAL_SID_LOOP
                        : localPassesOfFrame >= LOCAL_PASS_LIMIT ? DropReason.LOCAL_CHAIN_LIMIT
                        : DropReason.HOP_LIMIT);
            } else {
                drop(e != null && e.action.spec == P4Tables.SET_NEXT_HOP ? DropReason.HOP_LIMIT
                        : DropReason.NO_ROUTE);
            }
        } else {
            // The view refused what CheckSrh let through (MapInfo bits above 4, Payload Length short).
            drop(DropReason.MALFORMED_SRH);
        }
        return false;
    }

    /**
     * Routing (routing.p4).
     *
     * @param f         frame
     * @param v6        offset of the IPv6 header to route on, or -1
     * @param v4        offset of the IPv4 header, or -1 (used when v6 is -1)
     * @param decrement whether a hit decrements Hop Limit / TTL (not after encap, decap or End.T)
     */
    private void route(byte[] f, int v6, int v4, boolean decrement, SwitchProgram pg) {
        SwitchProgram.Entry e;
        SwitchProgram.Action a;
        if (v6 >= 0) {
            kHi[0] = Bytes.get64(f, v6 + 24);
            kLo[0] = Bytes.get64(f, v6 + 32);
            e = pg.ipv6Routing.lookup(kHi, kLo);
            a = e != null ? e.action : pg.ipv6Routing.defaultAction;
            ipv6RouteMiss = e == null;
        } else if (v4 >= 0) {
            kHi[0] = 0;
            kLo[0] = Bytes.get32(f, v4 + 16);
            e = pg.ipv4Routing.lookup(kHi, kLo);
            a = e != null ? e.action : pg.ipv4Routing.defaultAction;
        } else {
            drop(DropReason.NO_ROUTE);
            return;
        }
        if (e != null) {
            hit(e, passLen);
        }
        if (a.spec == P4Tables.ROUTING_DROP) {
            drop(DropReason.NO_ROUTE);
            return;
        }
        forward((int) a.p(0));
        EndpointBehaviours.rewriteEthernet(f, 0, a.p(1), pg.routerMac);
        if (e == null || !decrement) {
            return;
        }
        if (v6 >= 0) {
            int hl = Bytes.get8(f, v6 + 7);
            if (hl <= 1) {
                drop(DropReason.HOP_LIMIT);
            } else {
                f[v6 + 7] = (byte) (hl - 1);
            }
        } else {
            int ttl = Bytes.get8(f, v4 + 8);
            if (ttl <= 1) {
                drop(DropReason.HOP_LIMIT);
            } else {
                f[v4 + 8] = (byte) (ttl - 1);
                // update_checksum over the 20-byte header (parser.p4).
                Bytes.put16(f, v4 + 10, 0);
                int c = Bytes.fold(Bytes.sum16(f, v4, IPV4_LEN));
                Bytes.put16(f, v4 + 10, c);
            }
        }
    }

    /** ndp_ns_to_na (ndp.p4) and the ICMPv6 checksum of the fields it writes (parser.p4). */
    private void ndpReply(byte[] f, int igPort, long targetMac) {
        System.arraycopy(f, 6, f, 0, 6);
        EndpointBehaviours.rewriteEthernet(f, 0, Bytes.get48(f, 0), targetMac);
        System.arraycopy(f, h.ipv6 + 8, f, h.ipv6 + 24, 16);
        System.arraycopy(f, h.ndp + 4, f, h.ipv6 + 8, 16);
        f[h.ipv6 + 7] = (byte) 255;
        f[h.icmp] = (byte) 136;
        Bytes.put32(f, h.ndp, 0xE0000000L); // Router, Solicited, Override
        f[h.ndp + 20] = 2;                 // Target Link-Layer Address option, 8 bytes
        f[h.ndp + 21] = 1;
        Bytes.put48(f, h.ndp + 22, targetMac);
        // Pseudo-header (addresses, length, next header), type and code, the NDP body.
        long sum = Bytes.sum16(f, h.ipv6 + 8, 32) + Bytes.get16(f, h.ipv6 + 4) + Bytes.get8(f, h.ipv6 + 6)
                + Bytes.get16(f, h.icmp) + Bytes.sum16(f, h.ndp, 28);
        Bytes.put16(f, h.icmp + 2, Bytes.fold(sum));
        forward(igPort);
    }

    private Srv6IntEncap encapsulator(SwitchProgram.Member m, SwitchProgram pg, int chain, int sfcMode,
                                      int mapInfo) {
        int k = sfcMode << 5 | mapInfo;
        Srv6IntEncap x = m.encaps[k];
        if (x == null) {
            int le = (int) m.action.p(0);
            List<byte[]> path = new ArrayList<>();
            // Travel order after the ingress: Segment List[le-1] .. [0] = s(le-1) .. s0.
            for (int i = le - 1; i >= 0; i--) {
                path.add(SwitchProgram.toBytes(m.action.hi[1 + i], m.action.lo[1 + i]));
            }
            x = Srv6IntEncap.builder().ingressSid(pg.mySidBytes).path(path).tag(chain)
                    .sfcMode(sfcMode == 1).mapInfo(mapInfo).build();
            m.encaps[k] = x;
        }
        return x;
    }

    /**
     * The egress's report copies (I2E clone of the frame as it arrived): End.DT.INT's
     * INT metadata in Segment List[0], then the report encapsulation, cut to trunc_len.
     */
    private void sendReports(byte[] f, int len, int deviceId, long nowNs, int portCounter, SwitchProgram pg,
                             Sink sink) {
        int[] ports = pg.cloneSessions.get(P4Tables.REPORT_CLONE_SESSION);
        if (ports == null) {
            return;
        }
        if (behaviours.endDt(f, 0, len, deviceId, 0, 0, nowNs, portCounter) != BehaviourStatus.OK) {
            return;
        }
        for (int p : ports) {
            byte[] r = new byte[pg.reportEncoder.maxFrameLength()];
            int n = pg.reportEncoder.encodeFrame(reportSeq & 0xFFFFFFFFL, nowNs, f, 0, len, r, 0);
            reportSeq++;
            if (n > 0) {
                sink.emit(p, r, n);
            }
        }
    }
}
