// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.VnfClass;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.placement.InterferenceMatrix;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Learns the {@link InterferenceMatrix} online from the telemetry the loop already has: when a
 * replica of class B starts carrying traffic on a node, every replica of another vNF of class A
 * already there is compared before and after (after a few windows to settle), and its capacity
 * ratio is one observation of m[A][B].
 *
 * <p>A replica's capacity is estimated from its window as for an M/M/1 queue, whose p95 sojourn
 * time is ln(20) / (mu - lambda): mu = lambda + ln(20) / L_i, with lambda its share of R_i by
 * its packet count. L_i is the vNF's tail over all its replicas, so vNFs with one replica per
 * node give the cleanest samples. A node that gets a second arrival while one is settling
 * drops the pending comparison (the two would be confounded). A capacity change the node agent
 * makes at the same time reads as interference; the running mean damps such samples.
 */
public final class InterferenceLearner {

    /** Windows after an arrival before the "after" capacity is read. */
    public static final int SETTLE_WINDOWS = 2;

    private static final double LN20 = Math.log(20);

    private static final class Pending {
        final String node;
        final String resident;
        final VnfClass target;
        final VnfClass competitor;
        final double before;
        int windowsLeft = SETTLE_WINDOWS;

        Pending(String node, String resident, VnfClass target, VnfClass competitor, double before) {
            this.node = node;
            this.resident = resident;
            this.target = target;
            this.competitor = competitor;
            this.before = before;
        }
    }

    private final InterferenceMatrix matrix;
    private Map<String, Map<String, VnfClass>> lastNodes;
    private Map<String, Double> lastCapacity = new HashMap<>();
    private final List<Pending> pending = new ArrayList<>();
    private long learned;

    /**
     * Creates the learner.
     *
     * @param matrix the matrix it moves
     */
    public InterferenceLearner(InterferenceMatrix matrix) {
        this.matrix = Objects.requireNonNull(matrix, "matrix is null");
    }

    /**
     * Takes one telemetry window.
     *
     * @param observations the loop's observations of the window
     * @param where        where each vNF's replicas run
     * @param classes      the class of each vNF
     */
    public synchronized void observe(List<VnfObservation> observations, Colocation where, NodeResidents classes) {
        Map<String, Double> capacity = new HashMap<>();
        Map<String, Map<String, VnfClass>> nodes = new HashMap<>();
        List<VnfKey> observed = new ArrayList<>();
        for (VnfObservation o : observations) {
            observed.add(o.vnf());
        }
        Map<VnfKey, Map<String, String>> placed = where.replicaNodes(observed);
        for (VnfObservation o : observations) {
            Optional<VnfClass> cls = classes.classOf(o.vnf());
            Map<String, String> at = placed.getOrDefault(o.vnf(), Map.of());
            if (cls.isEmpty() || at.isEmpty()) {
                continue;
            }
            long total = 0;
            for (String r : at.keySet()) {
                total += Math.max(0, o.replicaPackets().getOrDefault(r, 0L));
            }
            for (Map.Entry<String, String> e : at.entrySet()) {
                String key = key(o.vnf(), e.getKey());
                nodes.computeIfAbsent(e.getValue(), n -> new HashMap<>()).put(key, cls.get());
                if (o.samples() > 0 && o.latencyNanos() > 0 && o.ratePps() > 0) {
                    double share = total > 0 ? (double) Math.max(0, o.replicaPackets().getOrDefault(e.getKey(), 0L))
                            / total : 1.0 / at.size();
                    capacity.put(key, o.ratePps() * share + LN20 / (o.latencyNanos() / 1e9));
                }
            }
        }
        // Settled comparisons become observations.
        for (Iterator<Pending> it = pending.iterator(); it.hasNext();) {
            Pending p = it.next();
            if (--p.windowsLeft > 0) {
                continue;
            }
            it.remove();
            Double after = capacity.get(p.resident);
            if (after != null && p.before > 0) {
                matrix.observe(p.target, p.competitor, after / p.before);
                learned++;
            }
        }
        if (lastNodes != null) {
            for (Map.Entry<String, Map<String, VnfClass>> n : nodes.entrySet()) {
                Map<String, VnfClass> was = lastNodes.getOrDefault(n.getKey(), Map.of());
                List<String> arrived = new ArrayList<>();
                for (String k : n.getValue().keySet()) {
                    if (!was.containsKey(k)) {
                        arrived.add(k);
                    }
                }
                if (arrived.isEmpty()) {
                    continue;
                }
                pending.removeIf(p -> p.node.equals(n.getKey()));
                if (arrived.size() != 1) {
                    continue;
                }
                String a = arrived.get(0);
                for (Map.Entry<String, VnfClass> r : was.entrySet()) {
                    Double before = lastCapacity.get(r.getKey());
                    if (before != null && n.getValue().containsKey(r.getKey()) && !sameVnf(a, r.getKey())) {
                        pending.add(new Pending(n.getKey(), r.getKey(), r.getValue(), n.getValue().get(a), before));
                    }
                }
            }
        }
        lastNodes = nodes;
        lastCapacity = capacity;
    }

    /**
     * Returns how many observations moved the matrix.
     *
     * @return observations since start
     */
    public synchronized long learned() {
        return learned;
    }

    private static String key(VnfKey vnf, String replica) {
        return vnf + "#" + replica;
    }

    private static boolean sameVnf(String a, String b) {
        return a.substring(0, a.indexOf('#')).equals(b.substring(0, b.indexOf('#')));
    }
}
