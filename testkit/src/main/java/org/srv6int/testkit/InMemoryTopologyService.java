// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onlab.graph.ScalarWeight;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.DisjointPath;
import org.onosproject.net.ElementId;
import org.onosproject.net.Link;
import org.onosproject.net.Path;
import org.onosproject.net.DefaultPath;
import org.onosproject.net.link.LinkListener;
import org.onosproject.net.link.LinkService;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.net.topology.ClusterId;
import org.onosproject.net.topology.LinkWeigher;
import org.onosproject.net.topology.PathService;
import org.onosproject.net.topology.Topology;
import org.onosproject.net.topology.TopologyCluster;
import org.onosproject.net.topology.TopologyEvent;
import org.onosproject.net.topology.TopologyGraph;
import org.onosproject.net.topology.TopologyListener;
import org.onosproject.net.topology.TopologyService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Topology and path service over the links of a {@link LinkService}: every shortest path
 * between two devices by hop count (ONOS's default weight), each link cost 1, as
 * {@link DefaultPath}s; k-shortest paths are every loop-free path, shortest first. Custom
 * link weighers, disjoint paths, topology clusters and the graph are not modelled and fail with {@link
 * UnsupportedOperationException} naming themselves.
 */
@Component(immediate = true, service = {TopologyService.class, PathService.class})
public class InMemoryTopologyService implements TopologyService, PathService {

    private static final ProviderId PID = new ProviderId("testkit", "org.srv6int.testkit");

    /** The links paths run over. */
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LinkService linkService;

    private final Listeners<TopologyEvent, TopologyListener> listeners =
            new Listeners<>();

    /**
     * Wires the link service outside OSGi.
     *
     * @param links the link service
     * @return this
     */
    public InMemoryTopologyService withLinkService(LinkService links) {
        this.linkService = links;
        activate();
        return this;
    }

    /** A link change is a topology change, as ONOS's topology manager announces it. */
    @Activate
    public void activate() {
        linkService.addListener(linkListener);
    }

    /** Stops following the links. */
    @Deactivate
    public void deactivate() {
        linkService.removeListener(linkListener);
    }

    private final LinkListener linkListener = e -> listeners.post(
            new TopologyEvent(TopologyEvent.Type.TOPOLOGY_CHANGED, currentTopology(), List.of(e)));

    private static UnsupportedOperationException unsupported(String what) {
        return new UnsupportedOperationException(what + " is not modelled by srv6int-testkit");
    }

    /**
     * Every shortest path from one device to another by hop count.
     *
     * @param src source device
     * @param dst destination device
     * @return paths, empty if none or src equals dst
     */
    private Set<Path> shortest(DeviceId src, DeviceId dst) {
        Set<Path> out = new LinkedHashSet<>();
        if (src.equals(dst)) {
            return out;
        }
        Map<DeviceId, List<Link>> egress = new HashMap<>();
        for (Link l : linkService.getActiveLinks()) {
            egress.computeIfAbsent(l.src().deviceId(), d -> new ArrayList<>()).add(l);
        }
        // BFS layers; parents keeps every link reaching a device at its shortest distance
        Map<DeviceId, Integer> dist = new HashMap<>();
        Map<DeviceId, List<Link>> parents = new HashMap<>();
        Deque<DeviceId> queue = new ArrayDeque<>();
        dist.put(src, 0);
        queue.add(src);
        while (!queue.isEmpty()) {
            DeviceId d = queue.poll();
            for (Link l : egress.getOrDefault(d, List.of())) {
                DeviceId n = l.dst().deviceId();
                Integer nd = dist.get(n);
                if (nd == null) {
                    dist.put(n, dist.get(d) + 1);
                    parents.computeIfAbsent(n, x -> new ArrayList<>()).add(l);
                    queue.add(n);
                } else if (nd == dist.get(d) + 1) {
                    parents.get(n).add(l);
                }
            }
        }
        if (!dist.containsKey(dst)) {
            return out;
        }
        collect(src, dst, parents, new ArrayDeque<>(), out);
        return out;
    }

    private static void collect(DeviceId src, DeviceId at, Map<DeviceId, List<Link>> parents, Deque<Link> suffix,
                                Set<Path> out) {
        if (at.equals(src)) {
            List<Link> links = new ArrayList<>(suffix);
            out.add(new DefaultPath(PID, links, ScalarWeight.toWeight(links.size())));
            return;
        }
        for (Link l : parents.getOrDefault(at, List.of())) {
            suffix.addFirst(l);
            collect(src, l.src().deviceId(), parents, suffix, out);
            suffix.removeFirst();
        }
    }

    @Override
    public Set<Path> getPaths(ElementId src, ElementId dst) {
        if (!(src instanceof DeviceId) || !(dst instanceof DeviceId)) {
            throw unsupported("Paths from or to hosts");
        }
        return shortest((DeviceId) src, (DeviceId) dst);
    }

    /**
     * Every loop-free path from one device to another, shortest first (ties in the order of
     * their links' text, so that the order is the same on every run).
     *
     * @param src source device
     * @param dst destination device
     * @return paths; none if src equals dst
     */
    @Override
    public Stream<Path> getKShortestPaths(ElementId src, ElementId dst) {
        if (!(src instanceof DeviceId) || !(dst instanceof DeviceId)) {
            throw unsupported("Paths from or to hosts");
        }
        List<Link> links = new ArrayList<>();
        linkService.getActiveLinks().forEach(links::add);
        List<List<Link>> out = new ArrayList<>();
        DeviceId from = (DeviceId) src;
        walk(links, from, (DeviceId) dst, new ArrayList<>(), new HashSet<>(Set.of(from)), out);
        out.sort(Comparator.<List<Link>>comparingInt(List::size).thenComparing(Object::toString));
        return out.stream().filter(p -> !p.isEmpty())
                .map(p -> new DefaultPath(PID, p, ScalarWeight.toWeight(p.size())));
    }

    private static void walk(List<Link> links, DeviceId at, DeviceId dst, List<Link> path, Set<DeviceId> seen,
                             List<List<Link>> out) {
        if (at.equals(dst)) {
            out.add(new ArrayList<>(path));
            return;
        }
        for (Link l : links) {
            DeviceId next = l.dst().deviceId();
            if (l.src().deviceId().equals(at) && !seen.contains(next)) {
                seen.add(next);
                path.add(l);
                walk(links, next, dst, path, seen, out);
                path.remove(path.size() - 1);
                seen.remove(next);
            }
        }
    }

    @Override
    public Set<Path> getPaths(ElementId src, ElementId dst, LinkWeigher weigher) {
        throw unsupported("A custom LinkWeigher");
    }

    @Override
    public Set<DisjointPath> getDisjointPaths(ElementId src, ElementId dst) {
        throw unsupported("Disjoint paths");
    }

    @Override
    public Set<DisjointPath> getDisjointPaths(ElementId src, ElementId dst, LinkWeigher weigher) {
        throw unsupported("Disjoint paths");
    }

    @Override
    public Set<DisjointPath> getDisjointPaths(ElementId src, ElementId dst, Map<Link, Object> riskProfile) {
        throw unsupported("Disjoint paths");
    }

    @Override
    public Set<DisjointPath> getDisjointPaths(ElementId src, ElementId dst, LinkWeigher weigher,
                                              Map<Link, Object> riskProfile) {
        throw unsupported("Disjoint paths");
    }

    @Override
    public Topology currentTopology() {
        long now = System.nanoTime();
        int links = linkService.getLinkCount();
        Set<DeviceId> devices = new LinkedHashSet<>();
        for (Link l : linkService.getLinks()) {
            devices.add(l.src().deviceId());
            devices.add(l.dst().deviceId());
        }
        int deviceCount = devices.size();
        return new Topology() {
            @Override
            public long time() {
                return now;
            }

            @Override
            public long creationTime() {
                return now;
            }

            @Override
            public long computeCost() {
                return 0;
            }

            @Override
            public int clusterCount() {
                throw unsupported("Topology clusters");
            }

            @Override
            public int deviceCount() {
                return deviceCount;
            }

            @Override
            public int linkCount() {
                return links;
            }

            @Override
            public ProviderId providerId() {
                return PID;
            }
        };
    }

    @Override
    public boolean isLatest(Topology topology) {
        return true;
    }

    @Override
    public TopologyGraph getGraph(Topology topology) {
        throw unsupported("The topology graph");
    }

    @Override
    public Set<TopologyCluster> getClusters(Topology topology) {
        throw unsupported("Topology clusters");
    }

    @Override
    public TopologyCluster getCluster(Topology topology, ClusterId clusterId) {
        throw unsupported("Topology clusters");
    }

    @Override
    public Set<DeviceId> getClusterDevices(Topology topology, TopologyCluster cluster) {
        throw unsupported("Topology clusters");
    }

    @Override
    public Set<Link> getClusterLinks(Topology topology, TopologyCluster cluster) {
        throw unsupported("Topology clusters");
    }

    @Override
    public Set<Path> getPaths(Topology topology, DeviceId src, DeviceId dst) {
        return shortest(src, dst);
    }

    @Override
    public Set<Path> getPaths(Topology topology, DeviceId src, DeviceId dst, LinkWeigher weigher) {
        throw unsupported("A custom LinkWeigher");
    }

    @Override
    public Set<DisjointPath> getDisjointPaths(Topology topology, DeviceId src, DeviceId dst) {
        throw unsupported("Disjoint paths");
    }

    @Override
    public Set<DisjointPath> getDisjointPaths(Topology topology, DeviceId src, DeviceId dst,
                                              LinkWeigher weigher) {
        throw unsupported("Disjoint paths");
    }

    @Override
    public Set<DisjointPath> getDisjointPaths(Topology topology, DeviceId src, DeviceId dst,
                                              Map<Link, Object> riskProfile) {
        throw unsupported("Disjoint paths");
    }

    @Override
    public Set<DisjointPath> getDisjointPaths(Topology topology, DeviceId src, DeviceId dst,
                                              LinkWeigher weigher, Map<Link, Object> riskProfile) {
        throw unsupported("Disjoint paths");
    }

    @Override
    public boolean isInfrastructure(Topology topology, ConnectPoint connectPoint) {
        return !linkService.getLinks(connectPoint).isEmpty();
    }

    @Override
    public boolean isBroadcastPoint(Topology topology, ConnectPoint connectPoint) {
        return !isInfrastructure(topology, connectPoint);
    }

    @Override
    public void addListener(TopologyListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(TopologyListener listener) {
        listeners.remove(listener);
    }
}
