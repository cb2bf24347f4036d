// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

import java.util.SplittableRandom;

/**
 * One replica of a vNF (a pod) on a host: its allocation, its receive queue and the fluid
 * state of the current 1 ms tick (docs/twin.md section 3).
 */
public final class VnfInstance {
    /** Receive ring of the vNF's interface, packets (a full ring drops). */
    public static final double RING_PACKETS = 1200;
    /** Batch size of the NIC/OVS path: packets arrive in bursts of this many. */
    static final double BURST = 4;

    private final String id;
    private final String vnf;
    private final VnfType type;
    private final Host host;
    private final Allocation allocation;
    private final Allocation request;
    private final double readyAtS;
    private double downUntilS = -1;
    private double queue;
    private double lambdaPps;
    private double muPps;
    private double servedPps;
    private double dropFraction;
    private double busyCores;
    private double serviceUs;
    private double samplesCarry;
    private int sizeBytes = 1024;
    private final CfsPeriods cfs = new CfsPeriods();

    VnfInstance(String id, String vnf, VnfType type, Host host, Allocation allocation, Allocation request,
                double readyAtS) {
        this.id = id;
        this.vnf = vnf;
        this.type = type;
        this.host = host;
        this.allocation = allocation;
        this.request = request.copy();
        this.readyAtS = readyAtS;
    }

    /** Replica id, e.g. {@code vnf3@worker2}. */
    public String id() {
        return id;
    }

    /** Logical vNF this replica belongs to, e.g. {@code vnf3}. */
    public String vnf() {
        return vnf;
    }

    /** vNF type. */
    public VnfType type() {
        return type;
    }

    /** Host the pod runs on. */
    public Host host() {
        return host;
    }

    /** Current allocation (the host owns writes). */
    public Allocation allocation() {
        return allocation;
    }

    /**
     * What the pod's spec asked for when it was created (its requests), whatever the node gave it
     * then and the node agent gave it since; a copy.
     */
    public Allocation request() {
        return request.copy();
    }

    /** True once the pod has started and can take traffic. */
    public boolean ready(double nowS) {
        return nowS >= readyAtS;
    }

    /** Restarts the pod (VPA eviction): no service until {@code untilS}, queue lost. */
    public void restart(double untilS) {
        downUntilS = untilS;
        queue = 0;
        cfs.reset();
    }

    /** True while the pod is restarting. */
    public boolean down(double nowS) {
        return nowS < downUntilS;
    }

    void setLoad(double pps, int sizeBytes) {
        lambdaPps = pps;
        if (sizeBytes > 0) {
            this.sizeBytes = sizeBytes;
        }
    }

    /** Offered packet rate this tick. */
    public double lambdaPps() {
        return lambdaPps;
    }

    /** Fraction of this tick's arrivals dropped at a full ring. */
    public double dropFraction() {
        return dropFraction;
    }

    /** Packets served per second this tick. */
    public double servedPps() {
        return servedPps;
    }

    /** Cores actually busy this tick (what cgroup cpu.stat would show). */
    public double busyCores() {
        return busyCores;
    }

    /** Service capacity this tick, packets per second (hidden from the controllers). */
    public double muPps() {
        return muPps;
    }

    /** The CFS bandwidth accounting of the pod's cgroup (what its {@code cpu.stat} shows). */
    public CfsPeriods cfs() {
        return cfs;
    }

    /** Queue depth, packets. */
    public double queue() {
        return queue;
    }

    /** Computes the alone service time and the busy cores this tick (before contention). */
    void prepare(double nowS) {
        serviceUs = VnfModels.selected().serviceTimeUs(type, allocation, sizeBytes);
        double need = lambdaPps * serviceUs / 1e6;
        busyCores = down(nowS) ? 0 : Math.min(allocation.get(Resource.CPU_QUOTA), need);
    }

    /** Applies contention and advances the fluid queue by {@code dtS}. */
    void advance(double pressure, double dtS, double nowS) {
        if (down(nowS)) {
            muPps = 0;
            queue = 0;
            servedPps = 0;
            dropFraction = lambdaPps > 0 ? 1 : 0;
            return;
        }
        double perCore = 1e6 / serviceUs * type.contentionFactor(pressure, allocation);
        muPps = allocation.get(Resource.CPU_QUOTA) * perCore;
        double in = lambdaPps * dtS;
        double q = queue + in - muPps * dtS;
        double drops = 0;
        if (q > RING_PACKETS) {
            drops = q - RING_PACKETS;
            q = RING_PACKETS;
        }
        if (q < 0) {
            q = 0;
        }
        double served = queue + in - drops - q;
        double backlog = queue;
        queue = q;
        servedPps = served / dtS;
        dropFraction = in > 0 ? drops / in : 0;
        if (busyCores > 0 && in > 0) {
            busyCores = Math.min(allocation.get(Resource.CPU_QUOTA), served / dtS / perCore);
        }
        cfs.tick(backlog, in, muPps * dtS, busyCores, dtS);
    }

    /** Number of latency samples (packets back from the vNF) this tick, with carry. */
    public int packetsThisTick(double dtS) {
        samplesCarry += servedPps * dtS;
        int n = (int) samplesCarry;
        samplesCarry -= n;
        return n;
    }

    /**
     * One packet's processing latency through this vNF as its switch measures it (leave for the
     * vNF, come back), microseconds: fixed path + service + fluid backlog + burst queueing.
     */
    public double sampleLatencyUs(SplittableRandom rnd, double nowS) {
        double backlogUs = 0;
        if (down(nowS)) {
            backlogUs = (downUntilS - nowS) * 1e6;
        }
        if (muPps <= 0) {
            return type.baseUs() + backlogUs + serviceUs;
        }
        double rho = Math.min(0.98, lambdaPps / muPps);
        double perPacketUs = 1e6 / muPps;
        double svc = serviceUs * 0.5 * (exp(rnd) + exp(rnd));
        double burstMean = BURST * perPacketUs * rho / (1 - rho);
        return type.baseUs() + svc + queue * perPacketUs + burstMean * exp(rnd) + backlogUs;
    }

    private static double exp(SplittableRandom rnd) {
        return -Math.log(1.0 - rnd.nextDouble());
    }
}
