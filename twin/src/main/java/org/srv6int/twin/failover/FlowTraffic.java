// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.failover;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import org.onlab.packet.Ip6Address;
import org.onosproject.net.ConnectPoint;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.codec.FlowHash;
import org.srv6int.twin.dataplane.InnerFrames;
import org.srv6int.twin.dataplane.Dataplane;

/**
 * A population of UDP flows of one single-vNF chain, each a 5-tuple its classifier matches,
 * whose packets go through the switches one by one: injected at the chain's ingress port, handed
 * to the replica whose SID and server port a frame leaves at (the twin plays the vNF: a live
 * replica sends the frame back as it came, a dead one drops it) and followed to the egress.
 * So the ingress's bucket entries, classifier and SID entries count every packet as the
 * switch's direct counters do, and which replica serves a flow is what the switches decide.
 *
 * <p>Flows arrive as a Poisson process of a time-varying rate, last an exponential time
 * (a mix of short and long flows) and send one packet every {@link #PACKET_INTERVAL_S}. A flow
 * keeps per-flow state in its replica (as Snort does): every time one of its packets reaches
 * another replica than its last one, the flow has <em>moved</em> and its state is lost.
 */
final class FlowTraffic {
    /** Seconds between two packets of a flow. */
    static final double PACKET_INTERVAL_S = 0.5;
    private static final int ETH = 14;
    private static final int FRAME_LEN = ETH + 20 + 8 + 32;

    /** One flow. */
    static final class Flow {
        final int id;
        final byte[] frame;
        final int hash;
        final double start;
        final double end;
        double nextPacket;
        String replica;
        int moves;
        int packets;
        int lost;

        Flow(int id, byte[] frame, double start, double end, double phase) {
            this.id = id;
            this.frame = frame;
            this.hash = FlowHash.hash(frame, ETH, frame.length - ETH);
            this.start = start;
            this.end = end;
            this.nextPacket = start + phase;
        }

        /** The bucket the switch hashes the flow to. */
        int bucket(int buckets) {
            return FlowHash.bucket(hash, buckets);
        }
    }

    /** What one step's packets did. */
    static final class Step {
        /** Packets sent. */
        long sent;
        /** Packets that reached the egress. */
        long delivered;
        /** Packets lost at a dead replica. */
        long lostAtDeadReplica;
        /** Packets the switches dropped or sent elsewhere. */
        long lostInSwitches;
        /** Flows that moved to another replica in this step, with the replica they left. */
        final List<String[]> moves = new ArrayList<>();
        /** Packets each replica passed (name, count). */
        final Map<String, Long> passed = new HashMap<>();
    }

    private final Dataplane dp;
    private final Sfc sfc;
    private final VnfInventoryService inventory;
    private final SplittableRandom rnd;
    private final DoubleUnaryOperator arrivalsPerS;
    private final double shortMeanS;
    private final double longMeanS;
    private final double longShare;
    private final List<Flow> active = new ArrayList<>();
    private int nextId;
    private long finished;

    /**
     * Creates the population and its flows at time 0 (the steady state of the rate at 0).
     *
     * @param dp           the programmed switches
     * @param sfc          the chain (one vNF, IPv4 classifier)
     * @param inventory    replicas (their switch port and SID)
     * @param seed         random seed
     * @param arrivalsPerS arrival rate of new flows at time t, 1/s
     * @param shortMeanS   mean duration of a short flow, s
     * @param longMeanS    mean duration of a long flow, s
     * @param longShare    share of long flows
     */
    FlowTraffic(Dataplane dp, Sfc sfc, VnfInventoryService inventory, long seed, DoubleUnaryOperator arrivalsPerS,
                double shortMeanS, double longMeanS, double longShare) {
        if (!sfc.classifier().isIp4()) {
            throw new IllegalArgumentException("flows are IPv4; chain " + sfc.id() + " classifies IPv6");
        }
        this.dp = dp;
        this.sfc = sfc;
        this.inventory = inventory;
        this.rnd = new SplittableRandom(seed);
        this.arrivalsPerS = arrivalsPerS;
        this.shortMeanS = shortMeanS;
        this.longMeanS = longMeanS;
        this.longShare = longShare;
        // Little's law: rate x mean duration flows are running at 0, each with its remaining time.
        double mean = (1 - longShare) * shortMeanS + longShare * longMeanS;
        int initial = (int) Math.round(arrivalsPerS.applyAsDouble(0) * mean);
        for (int i = 0; i < initial; i++) {
            add(0);
        }
    }

    private void add(double t) {
        double mean = rnd.nextDouble() < longShare ? longMeanS : shortMeanS;
        double life = -mean * Math.log(1 - rnd.nextDouble());
        active.add(new Flow(nextId, frame(nextId), t, t + life, rnd.nextDouble() * PACKET_INTERVAL_S));
        nextId++;
    }

    /** Flows running now. */
    List<Flow> active() {
        return active;
    }

    /** Flows started so far. */
    int started() {
        return nextId;
    }

    /**
     * Advances one step: new flows arrive, ended flows leave, every packet due goes through the
     * switches.
     *
     * @param t     start of the step, s
     * @param dt    step, s
     * @param dead  replicas that drop every packet (a crashed or hung vNF)
     * @return what the packets did
     */
    Step step(double t, double dt, Set<String> dead) {
        Step s = new Step();
        double expected = arrivalsPerS.applyAsDouble(t) * dt;
        int arrivals = poisson(expected);
        for (int i = 0; i < arrivals; i++) {
            add(t + rnd.nextDouble() * dt);
        }
        List<VnfReplica> replicas = new ArrayList<>(inventory.getReplicas(sfc.id()));
        long nowNs = Math.round(t * 1e9);
        for (Iterator<Flow> it = active.iterator(); it.hasNext();) {
            Flow f = it.next();
            if (f.end <= t) {
                it.remove();
                finished++;
                continue;
            }
            while (f.nextPacket < t + dt && f.nextPacket < f.end) {
                f.nextPacket += PACKET_INTERVAL_S;
                send(f, replicas, dead, nowNs, s);
            }
        }
        return s;
    }

    private void send(Flow f, List<VnfReplica> replicas, Set<String> dead, long nowNs, Step s) {
        s.sent++;
        f.packets++;
        VnfReplica at = null;
        byte[] back = null;
        for (Dataplane.Frame out : dp.inject(sfc.ingress().deviceId(), sfc.ingress().port(), f.frame, nowNs)) {
            byte[] b = out.bytes();
            VnfReplica r = replicaAt(replicas, out, b);
            if (r != null) {
                at = r;
                back = b;
                break;
            }
        }
        if (at == null) {
            s.lostInSwitches++;
            f.lost++;
            return;
        }
        String name = at.id().name();
        if (f.replica != null && !f.replica.equals(name)) {
            f.moves++;
            s.moves.add(new String[] {f.replica, name, Integer.toString(f.id)});
        }
        f.replica = name;
        if (dead.contains(name)) {
            s.lostAtDeadReplica++;
            f.lost++;
            return;
        }
        s.passed.merge(name, 1L, Long::sum);
        // The vNF sends the frame back through its port; the switches take it to the egress.
        for (Dataplane.Frame out : dp.inject(at.deviceId(), at.port(), back, nowNs)) {
            if (new ConnectPoint(out.device(), out.port()).equals(sfc.egress())) {
                s.delivered++;
                return;
            }
        }
        s.lostInSwitches++;
        f.lost++;
    }

    private static VnfReplica replicaAt(List<VnfReplica> replicas, Dataplane.Frame out, byte[] b) {
        if (b.length < ETH + 40 || (b[12] & 0xFF) != 0x86 || (b[13] & 0xFF) != 0xDD) {
            return null;
        }
        Ip6Address dst = Ip6Address.valueOf(Arrays.copyOfRange(b, ETH + 24, ETH + 40));
        for (VnfReplica r : replicas) {
            if (r.deviceId().equals(out.device()) && r.port().equals(out.port()) && r.sid().equals(dst)) {
                return r;
            }
        }
        return null;
    }

    /** Replicas that serve at least one running flow (by its last packet). */
    Set<String> servingReplicas() {
        Set<String> out = new HashSet<>();
        for (Flow f : active) {
            if (f.replica != null) {
                out.add(f.replica);
            }
        }
        return out;
    }

    private int poisson(double mean) {
        // Knuth's method: the means here are a few flows per step.
        double l = Math.exp(-mean);
        int k = 0;
        double p = rnd.nextDouble();
        while (p > l) {
            k++;
            p *= rnd.nextDouble();
        }
        return k;
    }

    /**
     * Flow {@code id}'s first frame: Ethernet/IPv4/UDP from a host behind the ingress port to the
     * chain's classifier, source address and both ports varied per flow.
     */
    private byte[] frame(int id) {
        FlowClassifier c = sfc.classifier();
        // drawn in this order: source host, destination host, source port, destination port
        int srcPick = rnd.nextInt(1 << 20);
        int dstPick = rnd.nextInt(1 << 20);
        int srcPort = c.l4SrcPort() != FlowClassifier.ANY ? c.l4SrcPort() : 1024 + rnd.nextInt(60_000);
        int dstPort = c.l4DstPort() != FlowClassifier.ANY ? c.l4DstPort() : 1024 + rnd.nextInt(60_000);
        byte[] b = InnerFrames.ipv4Udp(c, new byte[]{0x02, 0, 0, 0, 0, 0}, 1, FRAME_LEN, srcPick, dstPick,
                                       srcPort, dstPort);
        int udp = ETH + 20;
        b[udp + 8] = (byte) (id >>> 24);
        b[udp + 9] = (byte) (id >>> 16);
        b[udp + 10] = (byte) (id >>> 8);
        b[udp + 11] = (byte) id;
        return b;
    }
}
