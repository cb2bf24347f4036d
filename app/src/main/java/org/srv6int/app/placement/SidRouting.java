// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import com.google.common.collect.ImmutableList;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.Path;
import org.onosproject.net.topology.PathService;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hop-by-hop routing between switches as the routing tables install it: the
 * next hop from A towards B is the first link of the shortest path PathService
 * gives, ties broken by the links' text so every ONOS instance picks the same
 * one. A chain's switch path is walked through these same next hops, so it is
 * always the path the installed routes really take.
 */
public final class SidRouting {

    private static final Comparator<Path> ORDER = Comparator
            .<Path>comparingInt(p -> p.links().size())
            .thenComparing(p -> p.links().toString());

    private final PathService pathService;
    private final Map<List<DeviceId>, Optional<Link>> cache = new HashMap<>();

    /**
     * Creates the routing over a path service; results are cached, so make a
     * new instance when the topology changes.
     *
     * @param pathService path service
     */
    public SidRouting(PathService pathService) {
        this.pathService = pathService;
    }

    /**
     * Returns the link a switch sends a packet on towards another switch.
     *
     * @param from switch
     * @param to   destination switch, not equal to from
     * @return link, empty if unreachable
     */
    public Optional<Link> nextHop(DeviceId from, DeviceId to) {
        return cache.computeIfAbsent(List.of(from, to), k -> pathService.getPaths(from, to).stream()
                .filter(p -> !p.links().isEmpty())
                .min(ORDER)
                .map(p -> p.links().get(0)));
    }

    /**
     * Returns the switches a packet crosses from one switch to another,
     * both ends included.
     *
     * @param from source switch
     * @param to   destination switch
     * @return switches, empty if unreachable or looping
     */
    public Optional<List<DeviceId>> walk(DeviceId from, DeviceId to) {
        List<DeviceId> path = new ArrayList<>();
        path.add(from);
        DeviceId at = from;
        while (!at.equals(to)) {
            Optional<Link> hop = nextHop(at, to);
            if (hop.isEmpty() || path.size() > 64 || path.contains(hop.get().dst().deviceId())) {
                return Optional.empty();
            }
            at = hop.get().dst().deviceId();
            path.add(at);
        }
        return Optional.of(ImmutableList.copyOf(path));
    }
}
