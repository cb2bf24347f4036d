// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.Lists;
import com.google.common.math.IntMath;
import org.onlab.packet.Ip6Address;
import org.onosproject.net.DeviceId;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Builds a chain's multipath group: one segment list per combination of
 * replicas (one replica per vNF) that carry traffic. The weight of a
 * combination is the product of its replicas' weights, which splits each
 * vNF's traffic over its replicas in proportion to their weights,
 * independently of the other vNFs (evenly when all weights are equal, as in
 * Algorithm 4).
 */
public final class SegmentListComputer {

    /** Most segment lists in one chain's group (the selector's size). */
    public static final int MAX_LISTS = 64;

    private SegmentListComputer() {
    }

    /**
     * Computes the paths of a chain.
     *
     * @param sfc      chain
     * @param replicas replicas of the chain (any state)
     * @param devices  SRv6 device configs
     * @param routing  hop-by-hop routing
     * @return paths; no segment list if a vNF has no replica carrying traffic,
     *         a switch lacks SRv6 config or a segment is unreachable
     */
    public static SfcPaths compute(Sfc sfc, Collection<VnfReplica> replicas, Srv6Devices devices,
                                   SidRouting routing) {
        Optional<Srv6DeviceConfig> in = devices.get(sfc.ingress().deviceId());
        Optional<Srv6DeviceConfig> out = devices.get(sfc.egress().deviceId());
        if (in.isEmpty() || out.isEmpty()) {
            return new SfcPaths(sfc.id(), ImmutableList.of());
        }
        List<List<VnfReplica>> perVnf = new ArrayList<>();
        for (int i = 0; i < sfc.vnfs().size(); i++) {
            final int idx = i;
            List<VnfReplica> usable = replicas.stream()
                    .filter(r -> r.vnf().index() == idx && r.vnf().sfcId().equals(sfc.id()))
                    .filter(VnfReplica::carriesTraffic)
                    .sorted(Comparator.comparing(VnfReplica::id))
                    .collect(Collectors.toList());
            if (usable.isEmpty()) {
                return new SfcPaths(sfc.id(), ImmutableList.of());
            }
            perVnf.add(usable);
        }
        List<SegmentList> lists = new ArrayList<>();
        List<Integer> weights = new ArrayList<>();
        List<List<VnfReplica>> combos = Lists.cartesianProduct(perVnf);
        for (List<VnfReplica> combo : combos) {
            if (lists.size() == MAX_LISTS) {
                break;
            }
            List<Ip6Address> segments = new ArrayList<>();
            List<DeviceId> switches = new ArrayList<>();
            segments.add(in.get().mySid());
            switches.add(sfc.ingress().deviceId());
            boolean reachable = true;
            int weight = 1;
            for (VnfReplica r : combo) {
                reachable &= extend(switches, r.deviceId(), routing);
                segments.add(r.sid());
                weight *= r.weight();
            }
            reachable &= extend(switches, sfc.egress().deviceId(), routing);
            segments.add(out.get().dtSid());
            if (!reachable) {
                continue;
            }
            List<VnfReplicaId> ids = combo.stream().map(VnfReplica::id).collect(Collectors.toList());
            // weight 1 as a placeholder; the scaled weights are set below
            lists.add(new SegmentList(segments, switches, ids, 1));
            weights.add(weight);
        }
        List<Integer> scaled = scale(weights);
        List<SegmentList> result = new ArrayList<>();
        for (int i = 0; i < lists.size(); i++) {
            SegmentList l = lists.get(i);
            result.add(new SegmentList(l.segments(), l.switchPath(), l.replicas(), scaled.get(i)));
        }
        return new SfcPaths(sfc.id(), result);
    }

    private static boolean extend(List<DeviceId> switches, DeviceId to, SidRouting routing) {
        DeviceId at = switches.get(switches.size() - 1);
        if (at.equals(to)) {
            return true;
        }
        Optional<List<DeviceId>> walk = routing.walk(at, to);
        walk.ifPresent(w -> switches.addAll(w.subList(1, w.size())));
        return walk.isPresent();
    }

    /**
     * Reduces weights by their common divisor and, if the largest is still
     * above 255, scales them proportionally into 1..255.
     *
     * @param weights positive weights
     * @return scaled weights
     */
    static List<Integer> scale(List<Integer> weights) {
        if (weights.isEmpty()) {
            return weights;
        }
        int g = weights.stream().reduce(0, IntMath::gcd);
        int max = weights.stream().mapToInt(w -> w / g).max().orElse(1);
        return weights.stream()
                .map(w -> w / g)
                .map(w -> max <= 255 ? w : (int) Math.max(1, Math.round(w * 255.0 / max)))
                .collect(Collectors.toList());
    }
}
