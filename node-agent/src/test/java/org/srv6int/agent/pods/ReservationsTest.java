// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** What the scheduler promised to the node's pods the agent does not manage (issue 22). */
public class ReservationsTest {

    private static Container container(String name, String request, String limit) {
        ContainerBuilder b = new ContainerBuilder().withName(name).withImage("img");
        b.withNewResources()
                .withRequests(request == null ? Map.of() : Map.of("cpu", new Quantity(request)))
                .withLimits(limit == null ? Map.of() : Map.of("cpu", new Quantity(limit)))
                .endResources();
        return b.build();
    }

    private static Pod pod(String uid, String node, String phase, Container... containers) {
        return new PodBuilder().withNewMetadata().withName("p-" + uid).withNamespace("ns").withUid(uid).endMetadata()
                .withNewSpec().withNodeName(node).withContainers(containers).endSpec()
                .withNewStatus().withPhase(phase).endStatus().build();
    }

    @Test
    public void aPodScheduledButNotReadyHoldsItsRequestAndAManagedOneDoesNot() {
        Pod starting = pod("a", "worker1", "Pending", container("vnf", "1500m", "2"));
        Pod managed = pod("b", "worker1", "Running", container("vnf", "1", "1"));
        Pod other = pod("c", "worker1", "Running", container("app", "250m", null), container("side", "0.1", null));
        Reservations r = Reservations.of(List.of(starting, managed, other), Set.of("b"), -1);
        assertEquals(1500 + 250 + 100, r.cpuMillis());
        assertEquals(2, r.pods());
        assertTrue(r.unreadable().isEmpty());
        // adopted when Ready: now managed, its request is the pool's
        assertEquals(350, Reservations.of(List.of(starting, managed, other), Set.of("a", "b"), -1).cpuMillis());
    }

    @Test
    public void terminatedDeletedAndUnboundPodsHoldNothing() {
        Pod done = pod("a", "worker1", "Succeeded", container("job", "2", null));
        Pod failed = pod("b", "worker1", "Failed", container("job", "2", null));
        Pod unbound = pod("c", null, "Pending", container("vnf", "2", null));
        Reservations r = Reservations.of(List.of(done, failed, unbound), Set.of(), -1);
        assertEquals(0, r.cpuMillis());
        assertEquals(0, r.pods());
        assertEquals("a deleted pod is no longer listed: nothing held", 0,
                Reservations.of(List.of(), Set.of(), -1).cpuMillis());
    }

    @Test
    public void requestsAreCountedAsTheSchedulerCountsThem() throws Exception {
        assertEquals("no request: 0, still a pod of the node", 0,
                Reservations.cpuRequestMillis(pod("a", "w", "Pending", container("c", null, null))));
        assertEquals("a limit without a request: the API server's default request is the limit", 750,
                Reservations.cpuRequestMillis(pod("a", "w", "Pending", container("c", null, "750m"))));
        assertEquals("a fraction of a millicore rounds up", 1,
                Reservations.cpuRequestMillis(pod("a", "w", "Pending", container("c", "0.0001", null))));
        Pod p = pod("a", "w", "Pending", container("app", "1", null));
        Container init = container("init", "3", null);
        Container sidecar = container("proxy", "200m", null);
        sidecar.setRestartPolicy("Always");
        p.getSpec().setInitContainers(List.of(sidecar, init));
        p.getSpec().setOverhead(Map.of("cpu", new Quantity("50m")));
        // max(app 1000 + sidecar 200, init 3000 + sidecar 200 started before it) + overhead 50
        assertEquals(3250, Reservations.cpuRequestMillis(p));
        p.getSpec().setInitContainers(List.of(container("init", "500m", null), sidecar));
        assertEquals("a small init container: the containers and sidecars decide", 1250,
                Reservations.cpuRequestMillis(p));
    }

    @Test
    public void aRequestThatCannotBeReadHoldsNothingAndSaysWhich() {
        Pod huge = pod("a", "worker1", "Pending", container("vnf", "1e30", null));
        Pod negative = pod("b", "worker1", "Pending", container("vnf", "-1", null));
        Pod garbage = pod("c", "worker1", "Pending", container("vnf", "lots", null));
        Pod fine = pod("d", "worker1", "Pending", container("vnf", "1", null));
        Reservations r = Reservations.of(List.of(huge, negative, garbage, fine), Set.of(), -1);
        assertEquals(1000, r.cpuMillis());
        assertEquals(1, r.pods());
        assertEquals(Set.of("a", "b", "c"), r.unreadable().keySet());
        assertTrue(r.unreadable().get("a"),
                r.unreadable().get("a").contains("ns/p-a: container vnf requests.cpu '1e30'"));
        assertTrue(r.unreadable().get("b"), r.unreadable().get("b").contains("'-1' is negative"));
        assertTrue(r.unreadable().get("c"), r.unreadable().get("c").contains("container vnf requests.cpu 'lots'"));
    }

    private static Pod profiled(String uid, Map<String, String> annotations) {
        Pod p = pod(uid, "worker1", "Pending", container("vnf", "1", "1"));
        p.getMetadata().setAnnotations(annotations);
        return p;
    }

    @Test
    public void aReplicasProfileHoldsItsLlcWaysAndMemoryBandwidthOnTheAgentsNumaNode() {
        Pod here = profiled("a", Map.of("srv6int.org/llc-ways", "3", "srv6int.org/memory-bandwidth-percent", "20"));
        Pod pinnedHere = profiled("b", Map.of("srv6int.org/llc-ways", "2", "srv6int.org/numa-node", "0"));
        Pod elsewhere = profiled("c", Map.of("srv6int.org/llc-ways", "4", "srv6int.org/numa-node", "1",
                "srv6int.org/memory-bandwidth-percent", "30"));
        Pod managed = profiled("d", Map.of("srv6int.org/llc-ways", "5"));
        Reservations r = Reservations.of(List.of(here, pinnedHere, elsewhere, managed), Set.of("d"), 0);
        assertEquals("node 1's L3 and memory controller are not the pools'", 3 + 2, r.llcWays());
        assertEquals(20, r.memoryBandwidthPercent());
        assertEquals("every CPU request is the node's", 3000, r.cpuMillis());
        Reservations unknown = Reservations.of(List.of(here, pinnedHere, elsewhere, managed), Set.of("d"), -1);
        assertEquals("NUMA node unknown: every profile is held", 3 + 2 + 4, unknown.llcWays());
        assertEquals(50, unknown.memoryBandwidthPercent());
        // adopted: the pool has it now
        assertEquals(0, Reservations.of(List.of(here), Set.of("a"), 0).llcWays());
    }

    @Test
    public void aProfileThatCannotBeReadHoldsNothingButTheCpuRequestStays() {
        Pod ways = profiled("a", Map.of("srv6int.org/llc-ways", "65"));
        Pod bw = profiled("b", Map.of("srv6int.org/llc-ways", "2", "srv6int.org/memory-bandwidth-percent", "lots"));
        Pod numa = profiled("c", Map.of("srv6int.org/llc-ways", "2", "srv6int.org/numa-node", "-1"));
        Reservations r = Reservations.of(List.of(ways, bw, numa), Set.of(), 0);
        assertEquals(0, r.llcWays());
        assertEquals(0, r.memoryBandwidthPercent());
        assertEquals(3000, r.cpuMillis());
        assertEquals(3, r.pods());
        assertTrue(r.unreadable().get("a"), r.unreadable().get("a").contains("srv6int.org/llc-ways must be a number in "
                + "0..64, got '65' (its profile holds nothing)"));
        assertTrue(r.unreadable().get("b"), r.unreadable().get("b").contains("srv6int.org/memory-bandwidth-percent"));
        assertTrue(r.unreadable().get("c"), r.unreadable().get("c").contains("srv6int.org/numa-node"));
    }

    @Test
    public void requestsAddingUpBeyondALongAreRefusedNotWrapped() {
        Pod a = pod("a", "worker1", "Pending", container("x", "9000000000000000", null));
        Pod b = pod("b", "worker1", "Pending", container("x", "9000000000000000", null));
        Reservations r = Reservations.of(List.of(a, b), Set.of(), -1);
        assertTrue("never negative", r.cpuMillis() >= 0);
        assertEquals(1, r.unreadable().size());
    }
}
