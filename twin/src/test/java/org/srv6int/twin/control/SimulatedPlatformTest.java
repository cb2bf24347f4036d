// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.Test;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfType;

/** The simulated Kubernetes: free CPU, start-up delay in simulated time, unschedulable pods. */
public class SimulatedPlatformTest {
    private static final VnfKey SNORT = VnfKey.of(SfcId.of(2), 0);

    private final Host w1 = new Host("worker1", "sw2");
    private final Host w2 = new Host("worker2", "sw3");
    private final List<String> events = new ArrayList<>();
    private final SimulatedPlatform k8s = new SimulatedPlatform(List.of(w1, w2), k -> 3000, events);

    private long freeMillis(String node) {
        for (NodeResources n : k8s.nodeFreeResources()) {
            if (n.node().equals(node)) {
                return n.freeCpuMillis();
            }
        }
        throw new AssertionError(node);
    }

    @Test
    public void podIsReadyThreeSimulatedSecondsLaterAndItsRequestCountsMeanwhile() {
        w2.addInstance("vnf2", VnfType.NDPI, new Allocation(2.5, 4, 30, 2000), 0);
        k8s.advanceTo(30.0);
        CompletableFuture<ReplicaInfo> f = k8s.createReplica(SNORT, "worker2", "t5-0").toCompletableFuture();
        assertEquals(10_000 - 2_500 - 3_000, freeMillis("worker2"));
        k8s.advanceTo(32.999);
        assertFalse(f.isDone());
        k8s.advanceTo(33.0);
        assertEquals("sfc-2-vnf0-r1", f.join().id());
        assertEquals("worker2", f.join().node());
        // Ready: the request is the platform's no longer; the model pod the routing starts holds it.
        assertEquals(10_000 - 2_500, freeMillis("worker2"));
    }

    @Test
    public void podThatDoesNotFitStaysPendingUntilRoomAppearsOrTheTimeout() {
        w1.addInstance("vnf3", VnfType.SNORT, new Allocation(8.0, 4, 30, 2000), 0);
        CompletableFuture<ReplicaInfo> f = k8s.createReplica(SNORT, "worker1", "t6-0").toCompletableFuture();
        k8s.advanceTo(10.0);
        assertFalse(f.isDone());
        // the local loop took two cores back (in the twin through cpu.max; here on the model directly)
        w1.instance("vnf3@worker1").allocation().set(Resource.CPU_QUOTA, 6.0);
        k8s.advanceTo(10.001);
        k8s.advanceTo(13.0);
        assertFalse(f.isDone());
        k8s.advanceTo(13.001);
        assertTrue(f.isDone());
        // The routing starts the model pod of the Ready replica: 3.5 of the 4 free cores.
        w1.addInstance("vnf3", VnfType.SNORT, new Allocation(3.5, 4, 30, 2000), 13.001);
        CompletableFuture<ReplicaInfo> never = k8s.createReplica(SNORT, "worker1", "t7-0").toCompletableFuture();
        k8s.advanceTo(13.001 + SimulatedPlatform.READY_TIMEOUT_S);
        assertTrue(never.isCompletedExceptionally());
    }
}
