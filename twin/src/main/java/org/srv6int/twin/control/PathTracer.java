// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.onlab.packet.Ip6Address;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.twin.dataplane.InnerFrames;
import org.srv6int.twin.dataplane.Dataplane;

/**
 * Reads a chain's weighted paths off the switches: {@link Dataplane#traceFlows()} probe flows of the chain
 * (5-tuples that match its classifier, varied in source address and port) are injected at the
 * ingress port; a frame that leaves at a vNF server port is handed to the replica whose SID it
 * is addressed to and re-injected from that port (the twin plays the vNF), until it leaves at
 * the chain's egress port. The share of flows that took a replica sequence is that path's
 * weight; flows the switches drop or send elsewhere count towards no path.
 *
 * <p>Every probe frame carries a tag of its own in its UDP payload (which the switches carry
 * unchanged through encapsulation and decapsulation, and which no flow hash reads), and only
 * frames that end with the probe's payload are followed. A real switch has no "done" signal:
 * a frame of an earlier probe that left after its own wait ended can come out during a later
 * injection, and must not be taken for the later probe's (it would put the probe at the egress,
 * or at another replica, one pass early). A pass that gets no frame of its own is sent again
 * with a fresh tag ({@link #RESENDS} times) before the flow counts as dropped, so a frame that
 * came too late for the dataplane's wait does not shrink its path's weight.
 */
public final class PathTracer {
    /** Most passes through vNFs one probe may take (a loop in the rules ends the probe). */
    static final int MAX_PASSES = 2 * Sfc.MAX_VNFS + 2;
    /** Times a pass that got no frame of its own is sent again (fresh tag) before the flow counts as dropped. */
    static final int RESENDS = 2;
    private static final int ETH = 14;
    /** UDP payload of a probe: the tag (8 bytes), then zeros. */
    private static final int PAYLOAD = 32;
    /** Probe tags, unique in this JVM so no two probes (of any trace) share one. */
    private static final AtomicLong TAGS = new AtomicLong();

    private PathTracer() {
    }

    /**
     * Traces one chain.
     *
     * @param dp        the programmed switches
     * @param sfc       the chain
     * @param inventory replicas (their switch port and SID)
     * @param devices   the switches' netcfg (MACs)
     * @param nowNanos  switch clock
     * @return replica sequence to share of the probe flows, in first-seen order
     */
    public static Map<List<VnfReplicaId>, Double> trace(Dataplane dp, Sfc sfc, VnfInventoryService inventory,
                                                        Srv6Devices devices, long nowNanos) {
        Map<List<VnfReplicaId>, Integer> count = new LinkedHashMap<>();
        int flows = dp.traceFlows();
        // Read once per trace: every read of the inventory decodes the whole replica store.
        List<VnfReplica> replicas = new ArrayList<>(inventory.getReplicas(sfc.id()));
        for (int f = 0; f < flows; f++) {
            List<VnfReplicaId> path = follow(dp, sfc, replicas, probe(sfc, devices, f), nowNanos);
            if (path != null) {
                count.merge(path, 1, Integer::sum);
            }
        }
        Map<List<VnfReplicaId>, Double> out = new LinkedHashMap<>();
        count.forEach((p, n) -> out.put(p, n / (double) flows));
        return out;
    }

    private static List<VnfReplicaId> follow(Dataplane dp, Sfc sfc, List<VnfReplica> replicas, byte[] frame,
                                             long nowNanos) {
        List<VnfReplicaId> path = new ArrayList<>();
        ConnectPoint at = sfc.ingress();
        for (int pass = 0; pass <= MAX_PASSES; pass++) {
            ConnectPoint next = null;
            byte[] bytes = null;
            List<Long> sent = new ArrayList<>(); // tags of this pass: any send's frame, even a late one, is its result
            for (int send = 0; send <= RESENDS && next == null; send++) {
                long tag = TAGS.incrementAndGet();
                tag(frame, tag);
                sent.add(tag);
                for (Dataplane.Frame out : dp.inject(at.deviceId(), at.port(), frame, nowNanos)) {
                    byte[] b = out.bytes();
                    if (!sent.contains(tagOf(b, frame))) {
                        continue; // an earlier probe's (or pass's) frame that left late
                    }
                    ConnectPoint cp = new ConnectPoint(out.device(), out.port());
                    if (cp.equals(sfc.egress())) {
                        return path;
                    }
                    VnfReplica r = replicaAt(replicas, out.device(), out.port(), b);
                    if (r != null && next == null) {
                        next = cp;
                        bytes = b;
                        path.add(r.id());
                    }
                    // Anything else (the INT report clone to the collector port) is not the chain's path.
                }
            }
            if (next == null) {
                return null;
            }
            at = next;
            frame = bytes;
        }
        return null;
    }

    /** Writes a probe's tag into the first bytes of its UDP payload, which ends the frame. */
    private static void tag(byte[] frame, long tag) {
        int off = frame.length - PAYLOAD;
        for (int i = 0; i < 8; i++) {
            frame[off + i] = (byte) (tag >>> (56 - 8 * i));
        }
    }

    /**
     * The tag of a frame that ends with a probe's payload (the probe's bytes after the tag), or
     * 0 (no probe's tag) for any other frame.
     */
    private static long tagOf(byte[] frame, byte[] probe) {
        int off = frame.length - PAYLOAD;
        if (off < 0 || !Arrays.equals(frame, off + 8, frame.length, probe, probe.length - PAYLOAD + 8, probe.length)) {
            return 0;
        }
        long t = 0;
        for (int i = 0; i < 8; i++) {
            t = (t << 8) | (frame[off + i] & 0xFF);
        }
        return t;
    }

    /** The replica of the chain at a server port that the frame's IPv6 destination (its SID) names. */
    private static VnfReplica replicaAt(List<VnfReplica> replicas, DeviceId d, PortNumber p, byte[] frame) {
        if (frame.length < ETH + 40 || (frame[12] & 0xFF) != 0x86 || (frame[13] & 0xFF) != 0xDD) {
            return null;
        }
        Ip6Address dst = Ip6Address.valueOf(Arrays.copyOfRange(frame, ETH + 24, ETH + 40));
        for (VnfReplica r : replicas) {
            if (r.deviceId().equals(d) && r.port().equals(p) && r.sid().equals(dst)) {
                return r;
            }
        }
        return null;
    }

    /**
     * Flow {@code f} of the chain: Ethernet/IPv4/UDP from a host behind the ingress port, with a
     * {@value #PAYLOAD}-byte payload (zero until {@link #tag} writes the probe's tag into it).
     * Also the flows of tests that send a chain's traffic through the switches themselves.
     *
     * @param sfc     the chain (an IPv4 classifier)
     * @param devices the switches' netcfg (the ingress switch's MAC)
     * @param f       flow number; flows differ in source address and port (when the classifier leaves it open)
     * @return Ethernet frame
     */
    public static byte[] probe(Sfc sfc, Srv6Devices devices, int f) {
        FlowClassifier c = sfc.classifier();
        if (!c.isIp4()) {
            throw new IllegalArgumentException("probe flows are IPv4; chain " + sfc.id() + " classifies IPv6");
        }
        Srv6DeviceConfig in = devices.get(sfc.ingress().deviceId()).orElseThrow(
                () -> new IllegalArgumentException("ingress " + sfc.ingress() + " has no srv6int netcfg"));
        return InnerFrames.ipv4Udp(c, in.myMac().toBytes(), f, ETH + 20 + 8 + PAYLOAD, f, f * 7,
                                   10_000 + f, 20_000 + f);
    }
}
