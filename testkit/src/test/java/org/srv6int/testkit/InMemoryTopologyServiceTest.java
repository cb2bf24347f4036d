// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.junit.Test;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.Path;
import org.onosproject.net.provider.ProviderId;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Paths are every shortest path by hop count over the link service's links.
 */
public class InMemoryTopologyServiceTest {

    private static final ProviderId PID = new ProviderId("test", "test");

    private static Link link(int a, int b) {
        return DefaultLink.builder().providerId(PID).type(Link.Type.DIRECT)
                .src(ConnectPoint.deviceConnectPoint("of:000000000000000" + a + "/" + b))
                .dst(ConnectPoint.deviceConnectPoint("of:000000000000000" + b + "/" + a)).build();
    }

    @Test
    public void everyShortestPath() {
        InMemoryLinkService links = new InMemoryLinkService();
        InMemoryTopologyService topo = new InMemoryTopologyService().withLinkService(links);
        // 1 -> 2 -> 4, 1 -> 3 -> 4, and a longer 1 -> 5 -> 6 -> 4
        for (int[] l : new int[][]{{1, 2}, {2, 4}, {1, 3}, {3, 4}, {1, 5}, {5, 6}, {6, 4}}) {
            links.addLink(link(l[0], l[1]));
        }
        Set<Path> paths = topo.getPaths(DeviceId.deviceId("of:0000000000000001"),
                                        DeviceId.deviceId("of:0000000000000004"));
        assertEquals(2, paths.size());
        for (Path p : paths) {
            assertEquals(2, p.links().size());
            assertEquals(2.0, p.cost(), 0);
        }
        assertTrue(topo.getPaths(DeviceId.deviceId("of:0000000000000004"),
                                 DeviceId.deviceId("of:0000000000000001")).isEmpty());
    }

    @Test
    public void kShortestIsEveryLoopFreePathShortestFirst() {
        InMemoryLinkService links = new InMemoryLinkService();
        InMemoryTopologyService topo = new InMemoryTopologyService().withLinkService(links);
        // the longer path is added first: the order must not follow the links' order
        for (int[] l : new int[][]{{1, 5}, {5, 6}, {6, 4}, {1, 3}, {3, 4}, {1, 2}, {2, 4}, {2, 3}, {3, 2}}) {
            links.addLink(link(l[0], l[1]));
        }
        List<String> paths = topo.getKShortestPaths(DeviceId.deviceId("of:0000000000000001"),
                                                    DeviceId.deviceId("of:0000000000000004"))
                .map(p -> p.links().stream().map(l -> l.dst().deviceId().toString().substring(18))
                        .collect(Collectors.joining("")))
                .collect(Collectors.toList());
        assertEquals(List.of("24", "34", "234", "324", "564"), paths);
        assertEquals(0, topo.getKShortestPaths(DeviceId.deviceId("of:0000000000000004"),
                                               DeviceId.deviceId("of:0000000000000001")).count());
    }
}
