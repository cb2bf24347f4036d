// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.ToIntFunction;

/**
 * The whole simulated testbed: switches SW1-SW4 in a row, the workers and the chains. Every
 * 1 ms tick it spreads each chain's rate over its paths, advances every pod's queue, and emits
 * packet-level samples: a Detection Result per packet back from a vNF (to the host's local loop)
 * and one INT sample per {@link #INT_SAMPLING} packets of a chain (to the collector).
 */
public final class Fabric {
    /** One packet in this many is INT-sampled and mirrored to the collector. */
    public static final int INT_SAMPLING = 16;
    /** At most this many Detection Results per vNF per tick reach the agent (uniform subsample). */
    public static final int MAX_DETECTIONS_PER_TICK = 400;
    /** Switches between ingress and egress, inclusive. */
    static final int SWITCHES = 4;

    /** Receives each Detection Result (vNF latency of one packet) a host's switch stamps. */
    public interface DetectionSink {
        /**
         * One Detection Result.
         *
         * @param instance the replica
         * @param latencyNs latency of the previous packet through it
         */
        void onDetection(VnfInstance instance, long latencyNs);
    }

    /** Receives each INT-sampled packet at the egress. */
    public interface IntSink {
        /**
         * One INT sample.
         *
         * @param sample the packet's telemetry
         */
        void onIntSample(IntSample sample);
    }

    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final Map<String, Chain> chains = new LinkedHashMap<>();
    private final Map<String, double[]> intCarry = new LinkedHashMap<>();
    private final Map<String, List<Double>> e2eBucket = new LinkedHashMap<>();
    private final Map<String, double[]> deliveredBucket = new LinkedHashMap<>();
    private int intSampling = INT_SAMPLING;
    private int maxDetectionsPerTick = MAX_DETECTIONS_PER_TICK;
    private ToIntFunction<Chain> coreLinks = c -> SWITCHES - 1;
    private double coreLoadShare = 1;

    /**
     * Sets the INT sampling of every chain (one packet in n; the app's {@code intSamplingRate}).
     *
     * @param n one packet in n is INT-sampled
     * @return this
     */
    public Fabric withIntSampling(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("INT sampling must be >= 1, got " + n);
        }
        intSampling = n;
        return this;
    }

    /** One packet in this many is INT-sampled (default {@link #INT_SAMPLING}). */
    public int intSampling() {
        return intSampling;
    }

    /**
     * Sets how many Detection Results per vNF and tick reach the node agent (a uniform subsample).
     *
     * @param n at most this many per vNF per 1 ms tick
     * @return this
     */
    public Fabric withMaxDetectionsPerTick(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("Detection Results per tick must be >= 1, got " + n);
        }
        maxDetectionsPerTick = n;
        return this;
    }

    /** Detection Results per vNF per tick at most (default {@link #MAX_DETECTIONS_PER_TICK}). */
    public int maxDetectionsPerTick() {
        return maxDetectionsPerTick;
    }

    /**
     * Sets the network shape a chain's packets see: inter-switch links crossed (a switch pass
     * each, plus the ingress's) and the share of all chains' traffic one such link carries.
     * Default: the paper's row, SW1 to SW4 (3 links carrying everything).
     *
     * @param links     inter-switch links a chain's packet crosses
     * @param loadShare fraction of the fabric's total traffic on one inter-switch link
     * @return this
     */
    public Fabric withCore(ToIntFunction<Chain> links, double loadShare) {
        coreLinks = links;
        coreLoadShare = loadShare;
        return this;
    }

    /** Adds a worker. */
    public Host addHost(Host h) {
        hosts.put(h.name(), h);
        return h;
    }

    /** Adds a chain. */
    public Chain addChain(Chain c) {
        chains.put(c.id(), c);
        intCarry.put(c.id(), new double[1]);
        e2eBucket.put(c.id(), new ArrayList<>());
        deliveredBucket.put(c.id(), new double[2]);
        return c;
    }

    /** Workers in order. */
    public List<Host> hosts() {
        return List.copyOf(hosts.values());
    }

    /** A worker by name. */
    public Host host(String name) {
        return hosts.get(name);
    }

    /** Chains in order. */
    public List<Chain> chains() {
        return List.copyOf(chains.values());
    }

    /** Every replica on every host. */
    public List<VnfInstance> instances() {
        List<VnfInstance> all = new ArrayList<>();
        for (Host h : hosts.values()) {
            all.addAll(h.instances());
        }
        return all;
    }

    /**
     * What makes this testbed impossible to run, one sentence each naming the chain and vNF; empty
     * when it is consistent: every chain has a vNF, every vNF of a chain has a pod on some
     * worker, and no vNF is in two chains (the app keys a vNF by its chain and position).
     *
     * @return problems, in chain order
     */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        Map<String, String> chainOfVnf = new LinkedHashMap<>();
        for (Chain c : chains.values()) {
            if (c.vnfs().isEmpty()) {
                out.add("chain " + c.id() + " has no vNF");
            }
            for (String v : c.vnfs()) {
                String other = chainOfVnf.putIfAbsent(v, c.id());
                if (other != null) {
                    out.add("vNF " + v + " is in chains " + other + " and " + c.id());
                }
                boolean hosted = false;
                for (Host h : hosts.values()) {
                    for (VnfInstance i : h.instances()) {
                        hosted |= i.vnf().equals(v);
                    }
                }
                if (!hosted) {
                    out.add("chain " + c.id() + " goes through vNF " + v + ", which no worker hosts");
                }
            }
        }
        return out;
    }

    /**
     * Advances the testbed by one tick.
     *
     * @param nowS simulated time at the start of the tick
     * @param dtS tick length
     * @param rnd the run's random source
     * @param detections local-loop sink per host name (absent: nobody listens)
     * @param ints collector sink (null: nobody listens)
     */
    public void tick(double nowS, double dtS, SplittableRandom rnd, Map<String, DetectionSink> detections,
                     IntSink ints) {
        for (VnfInstance i : instances()) {
            i.setLoad(0, 0);
        }
        Map<String, Double> serverLoadBps = new LinkedHashMap<>();
        double coreLoadBps = 0;
        for (Chain c : chains.values()) {
            double pps = c.pps(nowS);
            coreLoadBps += pps * c.sizeBytes() * 8;
            for (Chain.Path p : c.paths()) {
                for (VnfInstance h : p.hops()) {
                    h.setLoad(h.lambdaPps() + pps * p.weight(), c.sizeBytes());
                    serverLoadBps.merge(h.host().name(), pps * p.weight() * c.sizeBytes() * 8, Double::sum);
                }
            }
        }
        for (Host h : hosts.values()) {
            h.tick(dtS, nowS);
        }
        for (Host h : hosts.values()) {
            DetectionSink sink = detections.get(h.name());
            for (VnfInstance i : h.instances()) {
                int n = Math.min(i.packetsThisTick(dtS), maxDetectionsPerTick);
                if (sink == null) {
                    continue;
                }
                for (int k = 0; k < n; k++) {
                    sink.onDetection(i, Math.round(i.sampleLatencyUs(rnd, nowS) * 1000));
                }
            }
        }
        for (Chain c : chains.values()) {
            sampleChain(c, nowS, dtS, rnd, coreLoadBps, serverLoadBps, ints);
        }
    }

    private void sampleChain(Chain c, double nowS, double dtS, SplittableRandom rnd, double coreLoadBps,
                             Map<String, Double> serverLoadBps, IntSink ints) {
        double pps = c.pps(nowS);
        double delivered = 0;
        for (Chain.Path p : c.paths()) {
            double keep = 1;
            for (VnfInstance h : p.hops()) {
                keep *= 1 - h.dropFraction();
            }
            delivered += pps * p.weight() * keep;
        }
        double[] d = deliveredBucket.get(c.id());
        d[0] += delivered * c.sizeBytes() * 8 * dtS;
        d[1] += dtS;
        if (c.paths().isEmpty()) {
            return;
        }
        double[] carry = intCarry.get(c.id());
        carry[0] += delivered * dtS / intSampling;
        int n = (int) carry[0];
        carry[0] -= n;
        int links = coreLinks.applyAsInt(c);
        double coreUs = links * Network.linkUs(c.sizeBytes(), Network.CORE_BPS, coreLoadBps * coreLoadShare)
                + (links + 1) * Network.PIPELINE_US;
        List<Double> bucket = e2eBucket.get(c.id());
        for (int k = 0; k < n; k++) {
            Chain.Path p = pick(c.paths(), rnd);
            VnfInstance[] hops = p.hops().toArray(new VnfInstance[0]);
            long[] lat = new long[hops.length];
            double e2eUs = coreUs;
            for (int j = 0; j < hops.length; j++) {
                double load = serverLoadBps.getOrDefault(hops[j].host().name(), 0.0);
                double vnfUs = hops[j].sampleLatencyUs(rnd, nowS);
                lat[j] = Math.round(vnfUs * 1000);
                e2eUs += vnfUs + 2 * Network.linkUs(c.sizeBytes(), Network.SERVER_BPS, load)
                        + Network.PIPELINE_US;
            }
            bucket.add(e2eUs);
            if (ints != null) {
                long t0 = Math.round((nowS + rnd.nextDouble() * dtS) * 1e9);
                ints.onIntSample(new IntSample(c.id(), t0, hops, lat, Math.round(e2eUs * 1000)));
            }
        }
    }

    private static Chain.Path pick(List<Chain.Path> paths, SplittableRandom rnd) {
        double u = rnd.nextDouble();
        double acc = 0;
        for (Chain.Path p : paths) {
            acc += p.weight();
            if (u < acc) {
                return p;
            }
        }
        return paths.get(paths.size() - 1);
    }

    /** Takes (and clears) a chain's E2E samples since the last call, microseconds. */
    public List<Double> drainE2e(String chain) {
        List<Double> b = e2eBucket.get(chain);
        List<Double> out = new ArrayList<>(b);
        b.clear();
        return Collections.unmodifiableList(out);
    }

    /** Takes (and clears) a chain's delivered throughput since the last call, Gbit/s. */
    public double drainThroughputGbps(String chain) {
        double[] d = deliveredBucket.get(chain);
        double g = d[1] > 0 ? d[0] / d[1] / 1e9 : 0;
        d[0] = 0;
        d[1] = 0;
        return g;
    }
}
