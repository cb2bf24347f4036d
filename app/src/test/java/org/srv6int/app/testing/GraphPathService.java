package org.srv6int.app.testing;

import org.onlab.graph.ScalarWeight;
import org.onosproject.net.DeviceId;
import org.onosproject.net.ElementId;
import org.onosproject.net.Link;
import org.onosproject.net.Path;
import org.onosproject.net.DefaultPath;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.net.topology.PathServiceAdapter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * PathService over a fixed set of directed links, computing hop-count paths
 * like ONOS's default: getPaths gives all shortest paths, getKShortestPaths all
 * loop-free paths shortest first.
 */
public class GraphPathService extends PathServiceAdapter {

    private static final ProviderId PID = new ProviderId("test", "srv6int");

    private final List<Link> links;

    /**
     * Creates the service.
     *
     * @param links directed links
     */
    public GraphPathService(List<Link> links) {
        this.links = new ArrayList<>(links);
    }

    /**
     * Removes the links between two switches (both directions), like a link-down.
     *
     * @param a switch
     * @param b switch
     */
    public void cut(DeviceId a, DeviceId b) {
        links.removeIf(l -> (l.src().deviceId().equals(a) && l.dst().deviceId().equals(b))
                || (l.src().deviceId().equals(b) && l.dst().deviceId().equals(a)));
    }

    /**
     * Adds a cable between two switch ports (both directions), like a link coming up.
     *
     * @param a one end
     * @param b other end
     */
    public void connect(org.onosproject.net.ConnectPoint a, org.onosproject.net.ConnectPoint b) {
        links.add(org.onosproject.net.DefaultLink.builder().providerId(PID).src(a).dst(b).type(Link.Type.DIRECT)
                          .state(Link.State.ACTIVE).build());
        links.add(org.onosproject.net.DefaultLink.builder().providerId(PID).src(b).dst(a).type(Link.Type.DIRECT)
                          .state(Link.State.ACTIVE).build());
    }

    private List<List<Link>> allSimplePaths(DeviceId src, DeviceId dst) {
        List<List<Link>> out = new ArrayList<>();
        walk(src, dst, new ArrayList<>(), new HashSet<>(Set.of(src)), out);
        out.sort(Comparator.<List<Link>>comparingInt(List::size).thenComparing(Object::toString));
        return out;
    }

    private void walk(DeviceId at, DeviceId dst, List<Link> path, Set<DeviceId> seen, List<List<Link>> out) {
        if (at.equals(dst)) {
            out.add(new ArrayList<>(path));
            return;
        }
        for (Link l : links) {
            DeviceId next = l.dst().deviceId();
            if (l.src().deviceId().equals(at) && !seen.contains(next)) {
                seen.add(next);
                path.add(l);
                walk(next, dst, path, seen, out);
                path.remove(path.size() - 1);
                seen.remove(next);
            }
        }
    }

    private static Path path(List<Link> links) {
        return new DefaultPath(PID, links, new ScalarWeight(links.size()));
    }

    @Override
    public Set<Path> getPaths(ElementId src, ElementId dst) {
        List<List<Link>> all = allSimplePaths((DeviceId) src, (DeviceId) dst);
        if (all.isEmpty() || all.get(0).isEmpty()) {
            return Set.of();
        }
        int shortest = all.get(0).size();
        return all.stream().filter(p -> p.size() == shortest).map(GraphPathService::path)
                .collect(Collectors.toSet());
    }

    @Override
    public Stream<Path> getKShortestPaths(ElementId src, ElementId dst) {
        return allSimplePaths((DeviceId) src, (DeviceId) dst).stream().filter(p -> !p.isEmpty())
                .map(GraphPathService::path);
    }
}
