// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.Path;
import org.onosproject.net.topology.PathService;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.config.AttachedServer;
import org.srv6int.app.config.Srv6Devices;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Chooses the server for a new replica of a chain's vNF with the
 * longest-common-subsequence method of Fang et al. (IEEE Comm. Letters 2016),
 * as read in docs/placement.md: over the K shortest switch paths from the
 * chain's ingress to its egress, the servers along each path form a sequence
 * of sites; the chain's vNF sequence is aligned with it, a site matching vNF k
 * when it already runs a replica of vNF k (reuse) or, for the vNF being scaled,
 * when it is the candidate server. The candidate whose best path gives the
 * longest alignment wins (it keeps the chain in path order with no detour; a
 * server appears once per vNF so consecutive vNFs may share it),
 * then the shorter path, then the most free resources. A candidate on none of
 * the K paths is a detour; if every candidate is, the one with the most free
 * resources is taken (Algorithm 4, line 10).
 */
public final class LcsPlacement {

    /** Number of shortest paths compared. */
    public static final int K_PATHS = 4;

    private LcsPlacement() {
    }

    /** A server on a path: its node name and the vNF indices of this chain it runs. */
    private static final class Site {
        final String node;
        final List<Integer> vnfs;

        Site(String node, List<Integer> vnfs) {
            this.node = node;
            this.vnfs = vnfs;
        }
    }

    /** Score of a candidate: longer LCS, shorter path, more free resources. */
    private static final class Score {
        final String node;
        final int lcs;
        final int hops;
        final double free;

        Score(String node, int lcs, int hops, double free) {
            this.node = node;
            this.lcs = lcs;
            this.hops = hops;
            this.free = free;
        }
    }

    /**
     * Chooses the Kubernetes node for a new replica of vNF {@code vnfIndex}.
     *
     * @param sfc           chain
     * @param vnfIndex      index of the vNF to scale
     * @param replicas      the chain's current replicas
     * @param freeResources candidate nodes with their free resources (any
     *                      unit, larger is better); nodes with 0 or less are skipped
     * @param devices       SRv6 device configs (where each node is attached)
     * @param pathService   path service
     * @return the chosen node, empty if no candidate is attached to a switch
     */
    public static Optional<String> chooseNode(Sfc sfc, int vnfIndex, Collection<VnfReplica> replicas,
                                              Map<String, Double> freeResources, Srv6Devices devices,
                                              PathService pathService) {
        List<String> candidates = freeResources.entrySet().stream()
                .filter(e -> e.getValue() > 0 && devices.locate(e.getKey()).isPresent())
                .map(Map.Entry::getKey)
                .sorted()
                .collect(Collectors.toList());
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        List<List<DeviceId>> paths = kShortest(sfc.ingress().deviceId(), sfc.egress().deviceId(), pathService);
        List<Integer> chain = new ArrayList<>();
        for (int i = 0; i < sfc.vnfs().size(); i++) {
            chain.add(i);
        }
        List<Score> scores = new ArrayList<>();
        for (String candidate : candidates) {
            Score best = null;
            for (List<DeviceId> path : paths) {
                List<Site> sites = sites(path, sfc, replicas, devices);
                if (sites.stream().noneMatch(s -> s.node.equals(candidate))) {
                    continue;
                }
                int lcs = Lcs.length(chain, sites, (k, site) -> k == vnfIndex
                        ? site.node.equals(candidate) : site.vnfs.contains(k));
                boolean usesCandidate = Lcs.align(chain, sites, (k, site) -> k == vnfIndex
                        ? site.node.equals(candidate) : site.vnfs.contains(k)).stream()
                        .anyMatch(p -> p[0] == vnfIndex);
                if (!usesCandidate) {
                    continue;
                }
                Score s = new Score(candidate, lcs, path.size(), freeResources.get(candidate));
                if (best == null || s.lcs > best.lcs || (s.lcs == best.lcs && s.hops < best.hops)) {
                    best = s;
                }
            }
            scores.add(best != null ? best : new Score(candidate, 0, Integer.MAX_VALUE,
                                                       freeResources.get(candidate)));
        }
        return scores.stream()
                .min(Comparator.<Score>comparingInt(s -> -s.lcs)
                             .thenComparingInt(s -> s.hops)
                             .thenComparing(s -> -s.free)
                             .thenComparing(s -> s.node))
                .map(s -> s.node);
    }

    /**
     * Sites along a path; each server appears once per vNF of the chain, so
     * that consecutive vNFs may share a server (one server hosts several vNFs).
     */
    private static List<Site> sites(List<DeviceId> path, Sfc sfc, Collection<VnfReplica> replicas,
                                    Srv6Devices devices) {
        List<Site> sites = new ArrayList<>();
        for (DeviceId d : path) {
            List<AttachedServer> servers = devices.get(d).map(c -> c.servers()).orElse(List.of());
            servers.stream().sorted(Comparator.comparing(AttachedServer::node)).forEach(s -> {
                Site site = new Site(s.node(), replicas.stream()
                        .filter(r -> r.vnf().sfcId().equals(sfc.id()) && r.node().equals(s.node()))
                        .map(r -> r.vnf().index())
                        .distinct().sorted()
                        .collect(Collectors.toList()));
                for (int i = 0; i < Math.max(1, sfc.vnfs().size()); i++) {
                    sites.add(site);
                }
            });
        }
        return sites;
    }

    /**
     * Returns up to {@link #K_PATHS} shortest loop-free switch paths, shortest
     * first, ties in a fixed order.
     *
     * @param src         source switch
     * @param dst         destination switch
     * @param pathService path service
     * @return paths as switch lists
     */
    static List<List<DeviceId>> kShortest(DeviceId src, DeviceId dst, PathService pathService) {
        if (src.equals(dst)) {
            return List.of(List.of(src));
        }
        return pathService.getKShortestPaths(src, dst)
                .limit(K_PATHS)
                .map(Path::links)
                .filter(Objects::nonNull)
                .map(links -> {
                    List<DeviceId> sw = new ArrayList<>();
                    sw.add(links.get(0).src().deviceId());
                    for (Link l : links) {
                        sw.add(l.dst().deviceId());
                    }
                    return sw;
                })
                .collect(Collectors.toList());
    }
}
